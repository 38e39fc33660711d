#!/bin/sh
# Runs libFuzzer harnesses, each for a while, on a scratch copy of its
# seed corpus.  SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: fuzz/run.sh SECONDS BUILD NAME...   (make fuzz calls it)
#
# For each NAME: copies fuzz/corpus/NAME into BUILD/corpus/NAME (new
# inputs land there, never in fuzz/corpus), runs BUILD/fuzzer/NAME for
# SECONDS, logs to BUILD/logs/NAME.log, keeps a crashing input in
# BUILD/artifacts/NAME/, and prints the executions and new units.  Exits
# 1 if any harness crashed (every harness runs first).
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 SECONDS BUILD NAME..." >&2
    exit 2
fi
seconds=$1
build=$2
shift 2
# A smaller quarantine than the default 256 MB: the record allocates 64 KB
# chunks, and ASan then spends half its time faulting fresh pages in.
: "${ASAN_OPTIONS:=quarantine_size_mb=16}"
export ASAN_OPTIONS
crashed=""
for name in "$@"; do
    fuzzer=$build/fuzzer/$name
    corpus=$build/corpus/$name
    artifacts=$build/artifacts/$name
    log=$build/logs/$name.log
    if [ ! -x "$fuzzer" ] || [ ! -d "fuzz/corpus/$name" ]; then
        echo "error: $fuzzer or fuzz/corpus/$name is missing" >&2
        exit 2
    fi
    mkdir -p "$corpus" "$artifacts" "$build/logs"
    cp fuzz/corpus/"$name"/* "$corpus"/ || exit 2
    echo "== $name: $seconds s"
    "$fuzzer" -max_total_time="$seconds" -timeout=25 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1
    status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    units=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -n 1)
    cov=$(grep -E '^#[0-9]+.*(DONE|INITED).*cov: ' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*ft: \([0-9]*\).*/cov \1, ft \2/p')
    echo "   executions: ${execs:-?}  new units: ${units:-?}  ${cov:+($cov)}  corpus: $(ls "$corpus" | wc -l) files"
    if [ "$status" -ne 0 ]; then
        crashed="$crashed $name"
        echo "   CRASHED (exit $status); the log's first lines on it ($log):"
        grep -E -m 12 'property broken|ERROR: |runtime error|SUMMARY|deadly signal|Test unit written|^  [^ ]' "$log" |
            sed 's/^/     /'
    fi
done
if [ -n "$crashed" ]; then
    echo "fuzz: crashes in:$crashed (inputs in $build/artifacts/)" >&2
    exit 1
fi
[ $# -eq 1 ] && what=harness || what=harnesses
echo "fuzz: no crashes in $# $what ($seconds s each)"
