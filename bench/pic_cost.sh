#!/bin/sh
# bench/pic_cost.sh PIC_RTPACK NOPIC_RTPACK ROUNDS — what -fPIC costs the
# CLI: the same rtpack built from position-independent objects (the normal
# build: librtpack.so and librtpack.a share them) and from the compiler's
# default objects (bench/no_pic_cc.sh says how to build that one), run in
# turn on the same work, ROUNDS (default 5) times each; per workload the
# ratio of the best times (PIC / non-PIC, > 1 = PIC slower) and the load
# average beside it. Workloads: analyze --batch of 500 generated 50-task
# sets at U = 0.95 (EDF, FP; one thread), partition --method best of 100
# 20-task sets on 4 CPUs (EDF), and emit --format script of the example
# plans. Never run by tests.
set -eu
export OMP_NUM_THREADS=1
PIC=$1
NOPIC=$2
ROUNDS=${3:-5}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
SRC=$(cd "$(dirname "$0")/.." && pwd)
i=0
while [ $i -lt 500 ]; do
    "$PIC" gen --tasks 50 --utilization 0.95 --seed $i --deadlines constrained
    i=$((i + 1))
done | python3 -c '
import json, sys
text, at, dec = sys.stdin.read(), 0, json.JSONDecoder()
while text[at:].strip():
    doc, end = dec.raw_decode(text, at + len(text[at:]) - len(text[at:].lstrip()))
    print(json.dumps(doc))
    at = end' > "$W/sets.jsonl"
i=0
while [ $i -lt 100 ]; do
    "$PIC" gen --tasks 20 --utilization 3.2 --seed $i --cpus 4 > "$W/p$i.json"
    i=$((i + 1))
done

now() { date +%s%N; }
# best BIN WORK: the smallest wall time of ROUNDS runs of WORK with BIN, ns
work() {
    case $2 in
    edf) "$1" analyze --batch "$W/sets.jsonl" --policy edf > /dev/null ;;
    fp) "$1" analyze --batch "$W/sets.jsonl" --policy fp > /dev/null ;;
    partition)
        for f in "$W"/p*.json; do "$1" partition "$f" --method best > /dev/null || true; done ;;
    emit)
        for f in "$SRC"/examples/plan_*.json; do
            "$1" emit "$f" --format script > /dev/null 2>&1 || true
        done ;;
    esac
}
for w in edf fp partition emit; do
    best_pic=0
    best_nopic=0
    r=0
    while [ $r -lt "$ROUNDS" ]; do
        for which in pic nopic; do
            bin=$PIC
            [ $which = pic ] || bin=$NOPIC
            t0=$(now)
            work "$bin" $w
            t=$(($(now) - t0))
            if [ $which = pic ]; then
                { [ $best_pic = 0 ] || [ "$t" -lt $best_pic ]; } && best_pic=$t
            else
                { [ $best_nopic = 0 ] || [ "$t" -lt $best_nopic ]; } && best_nopic=$t
            fi
        done
        r=$((r + 1))
    done
    printf '%-10s PIC %8.1f ms  non-PIC %8.1f ms  ratio %.3f  load %s\n' $w \
        "$(echo "$best_pic / 1000000" | bc -l)" "$(echo "$best_nopic / 1000000" | bc -l)" \
        "$(echo "$best_pic / $best_nopic" | bc -l)" "$(cut -d' ' -f1-3 /proc/loadavg)"
done
