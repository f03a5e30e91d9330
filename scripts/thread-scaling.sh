#!/usr/bin/env bash
# Time to the bench depth at 1 thread and at 2, 4, 8 and 16 (or the counts
# given), for draughts and Ataxx: one `plateau bench GAME --threads N` per
# count, each comparing N threads with one on the same positions.
#
#   scripts/thread-scaling.sh            # 2 4 8 16
#   scripts/thread-scaling.sh 2 4        # only these counts
#
# Run it on an otherwise idle machine with at least as many cores as the
# largest count. Prints one summary line per game and count; the per-position
# details go to target/thread-scaling.log.
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(2 4 8 16)
cargo build --release --quiet
plateau=target/release/plateau
: > target/thread-scaling.log
# Depths where one thread needs seconds per position (the bench's own depths
# take milliseconds, too little for threads to matter).
for run in draughts:18 ataxx:11; do
    game=${run%%:*}
    depth=${run##*:}
    for n in "${counts[@]}"; do
        line=$("$plateau" bench "$game" --engine master --depth "$depth" --threads "$n" \
            2>>target/thread-scaling.log | grep "^$game")
        echo "threads=$n $line"
    done
done
