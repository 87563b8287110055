#!/usr/bin/env bash
# The drivers that bench/tune/tune.py left pending (CUDA candidates built
# where there is no GPU): every folder under the given ones that has a
# `command` and no `rc`.
#
#   run_pending.sh DIR...                 run them (on the GPU machine)
#   run_pending.sh pack TARBALL DIR...    here: only what running them needs
#                                         (driver, command, shapes), xz'd:
#                                         the stages' libraries and statements
#                                         stay, so a sweep's drivers fit the
#                                         device's 64 MiB carry
#   run_pending.sh run TARBALL RESULTS    there: unpack, run, and tar their
#                                         timings and statuses into RESULTS
#   run_pending.sh unpack RESULTS         here: the timings back in place;
#                                         then run the same tune.py command again
set -u

pending() {
    find "$@" -name command | sort | while read -r command; do
        [[ -e $(dirname "$command")/rc ]] || dirname "$command"
    done
}

case ${1:-} in
pack)
    tarball=$2
    shift 2
    pending "$@" | while read -r where; do
        echo "$where/driver"
        echo "$where/command"
        echo "$(dirname "$where")/shapes.txt"
    done | sort -u | tar -cJf "$tarball" -T -
    echo "$tarball: $(pending "$@" | wc -l) drivers, $(du -h "$tarball" | cut -f1)"
    ;;
run)
    tar -xJf "$2"
    roots=$(tar -tJf "$2" | cut -d/ -f1 | sort -u)
    # shellcheck disable=SC2086
    "$0" $roots
    # shellcheck disable=SC2086
    find $roots \( -name timings.jsonl -o -name rc \) | tar -cJf "$3" -T -
    ;;
unpack)
    tar -xJf "$2"
    ;;
*)
    for where in $(pending "$@"); do
        (cd "$where" && $(cat command) >timings.jsonl; echo $? >rc)
        echo "$where: status $(cat "$where/rc")"
    done
    ;;
esac
