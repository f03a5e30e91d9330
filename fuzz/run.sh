#!/usr/bin/env bash
# Runs fuzz targets one after another with libFuzzer (all of them, or those
# named): RUNS inputs each (default 10 million), or fewer if MAX_TIME seconds
# (per target; 0 = no limit) run out first. Seeds come from
# `plateau-fuzz`'s write_seeds example; logs go to fuzz/logs, crashing
# inputs to fuzz/artifacts/TARGET. See docs/fuzzing.md.
set -uo pipefail
cd "$(dirname "$0")"
RUNS=${RUNS:-10000000}
MAX_TIME=${MAX_TIME:-0}
if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo run --quiet --manifest-path ../Cargo.toml -p plateau-fuzz --example write_seeds -- corpus
mkdir -p logs
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    start=$(date +%s)
    cargo +nightly fuzz run "$t" -O -a -s none -- \
        -runs="$RUNS" -max_total_time="$MAX_TIME" -max_len=4096 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 >"logs/$t.log" 2>&1
    rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$')
    echo "$t: exit $rc, ${runs:-?} inputs, $(( $(date +%s) - start )) s"
done
