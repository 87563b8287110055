#!/usr/bin/env bash
# Runs the drivers that bench/tune/tune.py left pending (CUDA candidates
# built where there is no GPU): every folder under the given ones that has a
# `command` and no `rc`. Run it on the GPU machine, bring the folders back,
# and run the same tune.py command again: it takes the timings and goes on.
#
#   run_pending.sh DIR...
set -u
for root in "$@"; do
    find "$root" -name command | sort | while read -r command; do
        where=$(dirname "$command")
        [[ -e $where/rc ]] && continue
        (cd "$where" && $(cat command) >timings.jsonl; echo $? >rc)
        echo "$where: status $(cat "$where/rc")"
    done
done
