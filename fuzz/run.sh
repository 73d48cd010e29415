#!/bin/sh
# fuzz/run.sh — builds the libFuzzer targets (fuzz/CMakeLists.txt, clang,
# ASan + UBSan) in their own build directory and runs each for a bounded
# time on a seed corpus made at run time: for the JSON readers from
# examples/*.json plus a few built-in documents, for fuzz_analysis (binary
# input) a few byte strings. Exit 0 when no target found a crash, leak or
# timeout. Env: FUZZ_SECONDS (per target, default 60), FUZZ_BUILD_DIR
# (default build-fuzz/ in the source root), FUZZ_TARGETS (default
# "taskset plan analysis json").
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
TARGETS=${FUZZ_TARGETS:-"taskset plan analysis json"}

command -v clang >/dev/null || { echo "fuzz/run.sh: clang not found (run .ci/setup)" >&2; exit 3; }
cmake -S "$ROOT/fuzz" -B "$BUILD" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j2 >/dev/null

seed() { printf '%s\n' "$2" >"$1"; }

status=0
for target in $TARGETS; do
    corpus="$BUILD/corpus-$target"
    artifacts="$BUILD/artifacts-$target"
    mkdir -p "$corpus" "$artifacts"
    if [ "$target" = analysis ]; then
        # mode, n, then per task: period index, shape, wcet, deadline, priority
        printf '\000\003\001\002\003\001\001\004\006\005\002\002\011\024\004\003\000' \
            >"$corpus/seed-small"
        printf '\300\003\117\002\020\030\001\011\002\003\001\002\025\005\006\024\000' \
            >"$corpus/seed-periods"
        printf '\017\004\000\001\002\003\004\005\006\007\010\011\012\013\014\015' \
            >"$corpus/seed-huge"
        # mode 0x08: release jitter and blocking drawn after the tasks
        printf '\010\003\001\002\003\001\001\004\006\005\002\002\011\024\004\003\000\007\002\001\005\003\003\004\002\001' \
            >"$corpus/seed-delays"
        # an interference sum past 2^127 in the 128-bit search (UBSan, CI 2026-12-06)
        printf '\017\006\000\001\033\000\017\006\000\001\033\000\001\006\007\011\361\361\361\361\361\007\377\377\377\016\361\361\010\014\175\175\175\175\175\175\175\175\175\175\175\175\175\175\175\361\361\361\361\007\377\377\377\016\361\361\010\014\015' \
            >"$corpus/seed-top-overflow"
        dict=""
    else
        dict="-dict=$ROOT/fuzz/json.dict"
    fi
    for f in "$ROOT"/examples/*.json; do
        [ -f "$f" ] && [ "$target" != analysis ] && cp "$f" "$corpus/example-$(basename "$f")"
    done
    seed "$corpus/seed-spec.json" '{"time_unit": "ns", "platform": {"cpus": 4}, "tasks": [
 {"name": "video", "wcet": "5ms", "deadline": "10ms", "period": "16666666ns",
  "cmd": ["video_processing_tool", "--fast"]}, {"name": "T1", "wcet": 1, "period": 4}]}'
    seed "$corpus/seed-full.json" '{"time_unit": "us", "platform": {"cpus": [2, 3, 6, 7],
 "clusters": [[2, 3], [6]]}, "tasks": [{"name": "a", "wcet": 1.5, "period": "1.5us",
 "deadline": "9007199254740993ns", "cmd": "run a", "affinity": [2, 6], "priority": 3},
 {"name": "b", "wcet": 9007199254740993, "period": "4611686018.427387904s"}]}'
    seed "$corpus/seed-plan-fp.json" '{"feasible": true, "method": "best", "policy": "fp",
 "chosen": {"placement": "bf", "order": "density"}, "platform": {"cpus": [0, 1]},
 "cpus": [{"cpu": 0, "utilization": 0.75, "tasks": [{"name": "T1", "wcet": 1, "deadline": 4,
 "period": 4, "priority": 2, "response_time": 1}, {"name": "T2", "wcet": 2, "deadline": 4,
 "period": 8, "priority": 1, "response_time": null, "cmd": ["x", "-y"]}]},
 {"cpu": 1, "utilization": 0.0, "tasks": []}],
 "unassigned": [{"name": "U", "wcet": 9, "period": 5}]}'
    seed "$corpus/seed-plan-clusters.json" '{"feasible": false, "method": "ilp",
 "status": "time_limit", "policy": "gedf", "platform": {"cpus": [0, 1, 2]},
 "clusters": [{"cpus": [0, 1], "test": "gfb", "utilization": 0.5, "tasks": [{"name": "a",
 "wcet": "1ms", "deadline": "2ms", "period": "2ms", "affinity": [0]}]},
 {"cpus": [2], "test": null, "tasks": []}], "unassigned": []}'
    # a task without a name: no name block (UBSan, CI of 441e357, 2026-12-06)
    seed "$corpus/seed-nameless.json" '{"platform": {"cpus": 2}, "tasks": [{"wcet": "9ms",
 "period": "10ms"}]}'
    # one past the reader's nesting limit: a resource limit, not bad input
    awk 'BEGIN { for (i = 0; i < 1001; i++) printf "["; for (i = 0; i < 1001; i++) printf "]" }' \
        >"$corpus/seed-deep.json"
    echo "fuzz_$target: ${SECONDS_EACH}s on $(find "$corpus" -type f | wc -l) inputs"
    if ! "$BUILD/fuzz_$target" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=10 \
        -rss_limit_mb=2048 $dict -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" >"$BUILD/fuzz_$target.log" 2>&1; then
        echo "fuzz_$target: FAILED (input saved in $artifacts/):" >&2
        grep -E "ERROR|broken rule|SUMMARY|Test unit written" "$BUILD/fuzz_$target.log" >&2 || true
        status=1
    fi
    grep -E "^Done [0-9]+ runs|stat::number_of_executed_units|stat::new_units_added" \
        "$BUILD/fuzz_$target.log" || true
done
exit "$status"
