#!/usr/bin/env bash
# Instructions per operation of the benchmarks that run on one thread at a time (B1, B2,
# B3, B5, B6, B9 with a range, B10), for FutureBridge and the peers, counted by valgrind's
# callgrind: unlike timings on a shared virtual machine, the counts do not move from run
# to run.
#
#   Benchmarks/count-instructions.sh            # every case
#   Benchmarks/count-instructions.sh B1 B6      # some benchmarks
#
# Each case runs twice, with n and 2n operations; (count(2n) - count(n)) / n is one
# operation, with start-up and warm-up cancelled out. valgrind cannot read the debug
# information this toolchain writes, so it runs a copy of the binary without it.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 1; }

swift build -c release > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objcopy --strip-debug .build/release/FutureBridgeBenchmarks "$work/benchmarks"

count() {  # benchmark library n -> instructions of the whole run
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/benchmarks" --count "$1" "$2" "$3" 2>&1 |
        awk '/Collected/ { print $4 }'
}

printf '%-9s %-13s %14s\n' benchmark library "instructions/op"
"$work/benchmarks" --count --list | while read -r benchmark library; do
    if [ $# -gt 0 ] && [[ " $* " != *" $benchmark "* ]]; then continue; fi
    case $benchmark in B2) n=2000 ;; *) n=20000 ;; esac
    once=$(count "$benchmark" "$library" "$n")
    twice=$(count "$benchmark" "$library" $((2 * n)))
    printf '%-9s %-13s %14d\n' "$benchmark" "$library" $(((twice - once) / n))
done
