#!/usr/bin/env bash
# Issue 40 in one shot on a lent many-core machine (at most 8 minutes: a call of the run tool, with
# the machine's start, must fit the 15 minutes a session is lent): the thread table
# of scaling.py, pinned, for the heap cases; the board search at 1, 8 and 16 threads; and the sparse
# engine's work counters at every core. One, 8 and 16 threads are what the targets name (16 at
# least 10x one, never slower than 8); 2 threads are measured on the 2-core machine, and THREADS
# adds more where time allows (the 28 Nov run: one thread of Grundy's game to 2^26 took 115 s there,
# and 1 2 4 8 16 did not fit).
#
# The machine reaches no package registry and has no Rust, so everything is built here first and
# carried in the ignored folder device/ (see /work/.library/device/README.md):
#
#   maturin build --release --out device/                        # the abi3 wheel
#   cp "$(python benchmarks/rust_bench.py sparse_bench)" device/sparse_bench
#   cp "$(python benchmarks/rust_bench.py board_parallel_bench)" device/board_parallel_bench
#   # then, on the lent machine (the run tool: carry ["device"], timeout_s 600):
#   bash benchmarks/device_scaling.sh device "$OUT"
#
# It writes into OUT (at most 8 files, what the run tool brings back): machine.txt (cores,
# processor, load); scaling_big.json and scaling.json (every run; `python benchmarks/scaling.py
# --show OUT/scaling.json` prints the table again) with scaling.txt (both tables); boards.txt (the
# board search's table: time, CPU, nodes by thread count); stats_T.txt (`SPARSE_STATS=1
# sparse_bench`: per-stage times and counters of Grundy's game to 2^24 at every core). Each part
# has its own time limit and the most important go first, so a cut-short run keeps what it did.
set -uo pipefail
DEV="${1:?folder with the wheel and the benches}"
OUT="${2:?folder for the results}"
BIG="${BIG:-grundy-2^26}"
CASES="${CASES:-0.354-proven 0.1777-proven 0.6-2^24-engine 0.354-2^24-engine}"
BOARDS="${BOARDS:-5x8 4x11}"
mkdir -p "$OUT"
SITE="$(mktemp -d)"
python3 -m pip install --quiet --no-deps --target "$SITE" "$DEV"/grundy-*-abi3-*.whl || exit 1
export PYTHONPATH="$SITE" PYTHONUNBUFFERED=1 BOARD_PARALLEL_BENCH="$DEV/board_parallel_bench"
CORES="$(nproc)"
read -r -a THREADS <<< "${THREADS:-1 8 16}"  # THREADS="1 2": a dry run on a small machine
{ echo "cores: $CORES"; lscpu | grep -E 'Model name|Socket|Core|Thread|L3|NUMA node\(s\)' || true
  uptime; free -g | head -2; } > "$OUT/machine.txt"
cat "$OUT/machine.txt"
part() {  # part SECONDS NAME COMMAND...: one part under its own limit; a failure is said, not fatal
    local limit="$1" name="$2"; shift 2
    echo "== $name (limit ${limit} s) $(date +%T)"
    timeout -k 5 "$limit" "$@"; local rc=$?
    [ "$rc" = 0 ] || echo "== $name: exit $rc"
    # A search cut short must not run on beside the next part's timings.
    pkill -f board_parallel_bench; pkill -f sparse_bench; sleep 1
    return 0
}
# The 16-core target (Grundy's game to 2^26: 16 threads at least 10x one), then the board search.
part 200 "$BIG" python3 benchmarks/scaling.py $BIG --pin --threads "${THREADS[@]}" --no-stages \
    --no-default --json "$OUT/scaling_big.json" > "$OUT/scaling.txt"
part 40 boards python3 benchmarks/board_threads.py $BOARDS --threads "${THREADS[@]}" --runs 1 \
    | tee "$OUT/boards.txt"
part 60 "5x9" python3 benchmarks/board_threads.py 5x9 --threads "${THREADS[@]}" --runs 1 | tee -a "$OUT/boards.txt"
# Pinned (T threads on cores 0..T-1), one run per thread count.
part 150 heap python3 benchmarks/scaling.py $CASES --pin --threads "${THREADS[@]}" --no-stages \
    --no-default --json "$OUT/scaling.json" >> "$OUT/scaling.txt"
cat "$OUT/scaling.txt"
for T in "$CORES"; do  # one thread: the 2-core machine has it (device.md)
    SPARSE_STATS=1 part 30 "stats $T" taskset -c "0-$((T - 1))" "$DEV/sparse_bench" '4!.0' 16777216 "$T" \
        > "$OUT/stats_$T.txt" 2>&1
done
tail -n 30 "$OUT"/stats_*.txt
