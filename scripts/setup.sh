#!/usr/bin/env bash
# Installs what hres needs on Debian 12 and nothing else: the build packages
# from apt (only those missing; clang-14 and its sanitizer runtimes for the
# fuzzers) and a project-local virtual environment (.venv) with the pinned
# Halide 21.0.0 wheel, CMake and Ninja from PyPI.
# Idempotent: a second run does nothing. HRES_WITH_OPENCV=1 also installs
# OpenCV, used only as a benchmark peer; HRES_WITH_TUNING=1 the tuner's
# extras (scripts/requirements-tuning.txt: Optuna, matplotlib).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ python3 python3-venv libpng-dev zlib1g-dev libgtest-dev clang-14 libclang-rt-14-dev)
if [[ "${HRES_WITH_OPENCV:-0}" == 1 ]]; then packages+=(libopencv-dev); fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

stamp=.venv/.requirements
if ! cmp -s scripts/requirements.txt "$stamp" 2>/dev/null; then
    echo "setup: creating .venv with $(grep -E '^(halide|cmake|ninja)==' scripts/requirements.txt | tr '\n' ' ')"
    python3 -m venv .venv
    .venv/bin/python -m pip install -q --disable-pip-version-check -r scripts/requirements.txt
    cp scripts/requirements.txt "$stamp"
fi

tuning_stamp=.venv/.requirements-tuning
if [[ "${HRES_WITH_TUNING:-0}" == 1 ]] && ! cmp -s scripts/requirements-tuning.txt "$tuning_stamp" 2>/dev/null; then
    echo "setup: installing the tuner's extras into .venv ($(grep -E '^(optuna|matplotlib)==' scripts/requirements-tuning.txt | tr '\n' ' '))"
    .venv/bin/python -m pip install -q --disable-pip-version-check -r scripts/requirements-tuning.txt
    cp scripts/requirements-tuning.txt "$tuning_stamp"
fi
