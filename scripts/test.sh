#!/usr/bin/env bash
# Builds (with set-up) and runs the whole test suite. .ci/run calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
export PATH="$PWD/.venv/bin:$PATH"
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
