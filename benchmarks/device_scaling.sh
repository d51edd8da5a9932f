#!/usr/bin/env bash
# Issue 33 in one shot on a lent many-core machine (about 8 minutes on 16 cores): the thread table
# of scaling.py, pinned, and the sparse engine's work counters at 1 thread and at every core.
#
# The machine reaches no package registry and has no Rust, so everything is built here first and
# carried in the ignored folder device/ (see /work/.library/device/README.md):
#
#   maturin build --release --out device/                        # the abi3 wheel
#   cp "$(python benchmarks/rust_bench.py sparse_bench)" device/sparse_bench
#   # then, on the lent machine (the run tool: carry ["device"], timeout_s 600):
#   bash benchmarks/device_scaling.sh device "$OUT"
#
# It writes into OUT: machine.txt (cores, processor, load), scaling.txt and scaling.json (the table
# and every run; `python benchmarks/scaling.py --show OUT/scaling.json` prints it again), and
# stats_T.txt (`SPARSE_STATS=1 sparse_bench`: per-stage times and counters of Grundy's game to 2^24
# with T threads, to see where the time goes: the sequential part, waiting, the searches).
set -euo pipefail
DEV="${1:?folder with the wheel and sparse_bench}"
OUT="${2:?folder for the results}"
CASES="${CASES:-grundy-2^22 grundy-2^24 grundy-2^25 0.1777-proven 0.354-proven 0.6-2^24-engine 0.354-2^24-engine}"
mkdir -p "$OUT"
SITE="$(mktemp -d)"
python3 -m pip install --quiet --no-deps --target "$SITE" "$DEV"/grundy-*-abi3-*.whl
export PYTHONPATH="$SITE"
CORES="$(nproc)"
{ echo "cores: $CORES"; lscpu | grep -E 'Model name|Socket|Core|Thread|L3|NUMA node\(s\)' || true
  uptime; free -g | head -2; } > "$OUT/machine.txt"
cat "$OUT/machine.txt"
# Pinned (T threads on cores 0..T-1), one run per thread count: about 5 minutes on 16 cores. The
# one-thread stages (STAGES=1) add a one-thread run per case: left out unless asked for.
STAGE_ARGS=(--no-stages)
[ "${STAGES:-0}" = 1 ] && STAGE_ARGS=(--bench "$DEV/sparse_bench")
timeout 420 python3 benchmarks/scaling.py $CASES --pin "${STAGE_ARGS[@]}" --json "$OUT/scaling.json" | tee "$OUT/scaling.txt"
for T in 1 "$CORES"; do
    SPARSE_STATS=1 timeout 120 taskset -c "0-$((T - 1))" "$DEV/sparse_bench" '4!.0' 16777216 "$T" \
        > "$OUT/stats_$T.txt" 2>&1 || echo "sparse_bench with $T threads: exit $?" >> "$OUT/stats_$T.txt"
done
tail -n 30 "$OUT"/stats_*.txt
