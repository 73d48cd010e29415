#!/bin/sh
# tests/failalloc/run.sh CASE — the out-of-memory test (modelled
# on SQLite's malloc test): runs one representative command of rtpack
# (built as rtpack_failalloc, tests/failalloc/failalloc.c) once to count its
# allocations N, then again failing the K-th allocation for K = 1, 2, ...,
# N + 1. Every run must either exit 3 with one line saying "out of memory"
# and leave no output file (nor a temporary one), or, when the failure was
# absorbed, give exactly the reference run's exit code, output and files.
# Never a crash, a sanitizer report (leaks included, under ASan), or a
# silently truncated document. explore keeps a resumable folder by design
# (docs/explore.md): there a failed run may leave whole files, never a
# temporary one, and `explore --resume` must then finish with the reference
# results.csv (timing.csv differs by nature and is not compared).
# When N > RTP_FAIL_ALLOC_MAX (default 150; 40 for explore, which runs twice) K
# runs over the first MAX/4 and then every step-th allocation to N + 1, so the test
# stays within about a minute; the sample is printed.
# Env: RTP_BINARY (rtpack_failalloc), RTP_SOURCE_DIR, RTP_SANITIZED.
set -u
BIN=${RTP_BINARY:?RTP_BINARY must name rtpack_failalloc}
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
CASE=${1:?usage: run.sh CASE}
MAX=150
[ "$CASE" = explore ] && MAX=40
MAX=${RTP_FAIL_ALLOC_MAX:-$MAX}
T=$(mktemp -d /tmp/rtp_failalloc.XXXXXX)
trap 'rm -rf "$T"' EXIT
export ASAN_OPTIONS="exitcode=99:detect_leaks=1"
export UBSAN_OPTIONS="exitcode=98:print_stacktrace=1"
export OMP_NUM_THREADS=1
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

cat > "$T/sweep.json" <<'JSON'
{ "seed": 1, "sets_per_point": 2, "tasks": [4], "cpus": [2],
  "utilization": { "from": "0.5", "to": "0.6", "step": "0.1" },
  "periods": { "min": "1ms", "max": "100ms", "granularity": "1ms" },
  "deadlines": "implicit", "generator": "uunifast-discard",
  "policies": ["edf", "fp"], "methods": ["ffd", "best"] }
JSON
# The command of each case; @W@ is the folder every output file goes to (a
# marker no path holds: $T itself may end in W).
command_of() {
    case $1 in
    analyze) echo "analyze $SRC/examples/textbook.json --policy fp --json" ;;
    analyze_batch) echo "analyze --batch $SRC/examples/analysis_mixed.jsonl --policy edf" ;;
    partition) echo "partition $SRC/examples/app12.json --cpus 3 --json" ;;
    partition_ilp) echo "partition $SRC/examples/quickstart.json --cpus 2 --method ilp --json" ;;
    emit) echo "emit $SRC/examples/plan_fp.json --format script --out @W@/rt.sh" ;;
    emit_systemd) echo "emit $SRC/examples/plan_fp.json --format systemd --out @W@/units" ;;
    emit_rtapp) echo "emit $SRC/examples/plan_edf.json --format rtapp --out @W@/rtapp" ;;
    emit_json) echo "emit $SRC/examples/plan_clustered.json --format json" ;;
    gen) echo "gen --tasks 12 --utilization 2.5 --seed 7 --deadlines constrained" ;;
    simulate) echo "simulate $SRC/examples/plan_fp.json --until 50ms --json --svg @W@/g.svg" ;;
    explore) echo "explore $T/sweep.json --out @W@/sweep --threads 1 --resume" ;;
    report) echo "report $SRC/examples/plan_edf.json --probe $SRC/tests/fixtures/report/app12.probe.json --rehearsal $SRC/tests/fixtures/report/plan_edf.rehearsal.json --out @W@/r.html" ;;
    *) echo "unknown case $1" >&2; exit 2 ;;
    esac
}

# same DIR: the files under DIR (explore: results.csv) equal the reference's.
same() {
    if [ "$CASE" = explore ]; then
        cmp -s "$1/sweep/results.csv" "$T/ref/sweep/results.csv"
    else
        diff -r "$1" "$T/ref" > /dev/null 2>&1
    fi
}

# run K DIR [keep]: one run failing allocation K (0: none) with outputs
# under DIR (emptied first unless keep).
run() {
    [ $# -eq 3 ] || { rm -rf "$2" && mkdir "$2"; }
    # shellcheck disable=SC2046
    RTP_FAIL_ALLOC=$1 RTP_FAIL_ALLOC_COUNT="$T/count" \
        "$BIN" $(command_of "$CASE" | sed "s|@W@/|$2/|g") < /dev/null > "$2.out" 2> "$2.err"
    rc=$?
}

# The reference run writes where every later run does (files may name
# their own folder), then moves aside.
run 0 "$T/w"
ref_rc=$rc
[ "$ref_rc" -le 3 ] && ! grep -q "Sanitizer\|runtime error" "$T/w.err" ||
    { echo "FAIL: the reference run: exit $ref_rc: $(head -c 600 "$T/w.err")"; exit 1; }
mv "$T/w" "$T/ref" && mv "$T/w.out" "$T/ref.out"
n=$(cat "$T/count")
if [ "$n" -le "$MAX" ]; then
    ks=$(seq 1 $((n + 1)))
else
    head=$((MAX / 4)) # the first allocations (startup, reading) one by one
    step=$(((n + 1 - head + MAX - head - 1) / (MAX - head)))
    ks="$(seq 1 $head) $(seq $((head + 1)) "$step" $((n + 1))) $((n + 1))"
fi
runs=0 absorbed=0
for k in $ks; do
    runs=$((runs + 1))
    run "$k" "$T/w"
    err=$(head -c 600 "$T/w.err")
    if [ "$rc" -gt 3 ] || grep -q "Sanitizer\|runtime error" "$T/w.err"; then
        fail "K=$k: exit $rc: $err"
    elif [ "$rc" -eq 3 ] && grep -q "out of memory" "$T/w.err"; then
        [ "$(wc -l < "$T/w.err")" -eq 1 ] || fail "K=$k: more than one line on stderr: $err"
        if [ "$CASE" != explore ]; then
            [ -z "$(ls -A "$T/w")" ] || fail "K=$k: out of memory left files: $(ls -AR "$T/w" | head -c 300)"
        elif [ -n "$(find "$T/w" -name '.*' | head -1)" ]; then
            fail "K=$k: a temporary file left: $(find "$T/w" -name '.*')"
        else
            run 0 "$T/w" keep
            [ "$rc" -eq 0 ] && same "$T/w" ||
                fail "K=$k: explore --resume after out of memory: exit $rc, $(head -c 300 "$T/w.err")"
        fi
    else
        if [ "$rc" -ne "$ref_rc" ] || ! cmp -s "$T/w.out" "$T/ref.out" ||
            ! same "$T/w"; then
            fail "K=$k: exit $rc (reference $ref_rc), not 'out of memory' and not the reference output: $err $(head -c 200 "$T/w.out")"
        else
            absorbed=$((absorbed + 1))
        fi
    fi
done
echo "failalloc $CASE: $n allocations, $runs runs (K = $(echo $ks | cut -d' ' -f1-3) ... $(echo $ks | tr ' ' '\n' | tail -1)), $absorbed absorbed, $FAILS failures"
[ "$FAILS" -eq 0 ]
