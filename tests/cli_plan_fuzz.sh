#!/bin/sh
# tests/cli_plan_fuzz.sh — seeded random end-to-end check of `rtpack gen`,
# `partition` and `emit` against docs/spec.md, re-verified independently by
# tests/support/plan_check.py (exact FP busy-period RTA and EDF processor
# demand in Python integers): every task exactly once with its own timing and
# cmd, every CPU listed, FP-only fields only under fp, affinity and
# --capacity respected, `feasible` true only when every CPU passes, exit code
# matching `feasible`, `chosen` under best, same bytes for 1 and 2 OpenMP
# threads. Then `emit` re-checks hand-edited plans (tests/support/
# plan_mutate.py): infeasible edits exit 1, malformed ones exit 2 with one
# line. Deterministic: a fixed LCG seeds every choice. Skipped (with a note)
# without python3.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_plan_fuzz
ROUNDS=${RTP_PLAN_FUZZ_ROUNDS:-25}
command -v python3 > /dev/null || { echo "note: python3 not installed, not run"; exit 0; }
CHECK="$S/tests/support/plan_check.py"
MUTATE="$S/tests/support/plan_mutate.py"

STATE=20261203
# rnd N: a number in 0..N-1 in $R (31-bit LCG, same on every sh)
rnd() { STATE=$(( (STATE * 1103515245 + 12345) % 2147483648 )); R=$(( (STATE / 65536) % $1 )); }
# pick WORD...: one of the words in $P
pick() { rnd $#; shift "$R"; P=$1; }

# Augments a generated set: platform as a CPU list, affinities, commands.
augment() {
    python3 - "$1" "$2" "$3" "$4" <<'EOP'
import json, random, sys
ts = json.load(open(sys.argv[1])); r = random.Random(int(sys.argv[2])); m = int(sys.argv[3])
ids = sorted(r.sample(range(16), m)) if r.random() < 0.5 else list(range(m))
ts["platform"] = {"cpus": ids}
for t in ts["tasks"]:
    if r.random() < 0.3:
        t["affinity"] = sorted(r.sample(ids, r.randint(1, m)))
    if r.random() < 0.3:
        t["cmd"] = ["sleep", str(r.randint(1, 9))]
json.dump(ts, open(sys.argv[4], "w"))
EOP
}

round=0
while [ "$round" -lt "$ROUNDS" ]; do
    round=$((round + 1))
    rnd 8; n=$((R + 1)); rnd 4; m=$((R + 1))
    pick 0.3 0.7 1.0 1.5 2.0 2.5; u=$P
    pick implicit constrained arbitrary; dl=$P
    pick 1 0.8 0.5; cap_task=$P
    "$B" gen --tasks "$n" --utilization "$u" --seed "$round" --deadlines "$dl" \
        --periods 1ms:8ms --granularity 100us --max-task-util "$cap_task" > "$TMP/gen.json" 2> "$TMP/err"
    rc=$?
    if [ "$rc" -ne 0 ]; then
        if [ "$rc" -ne 2 ] || [ "$(wc -l < "$TMP/err")" -ne 1 ]; then
            fail "gen round $round exit $rc: $(cat "$TMP/err")"
        fi
        continue
    fi
    "$B" gen --tasks "$n" --utilization "$u" --seed "$round" --deadlines "$dl" \
        --periods 1ms:8ms --granularity 100us --max-task-util "$cap_task" | cmp -s - "$TMP/gen.json" ||
        fail "gen round $round: not the same bytes twice"
    augment "$TMP/gen.json" "$round" "$m" "$TMP/ts.json"
    pick fp edf; pol=$P
    pick best ffd bfd wfd nfd ilp; meth=$P
    set -- --policy "$pol" --method "$meth"
    case $meth in
        ilp) set -- "$@" --time-limit 10 ;;
        best) ;;
        *) pick util density deadline period input; set -- "$@" --order "$P" ;;
    esac
    [ "$pol" = fp ] && { pick rm dm opa; set -- "$@" --priority "$P"; }
    capargs=""
    rnd 3; [ "$R" -eq 0 ] && { pick 0.9 0.75 0.5; capargs="--capacity $P"; }
    rnd 3; [ "$R" -eq 0 ] && set -- "$@" --explain
    # shellcheck disable=SC2086 # capargs is two words or none
    OMP_NUM_THREADS=1 "$B" partition "$TMP/ts.json" "$@" $capargs --json > "$TMP/plan.json" 2> "$TMP/err"
    rc=$?
    what="round $round: partition $* $capargs"
    # shellcheck disable=SC2086
    OMP_NUM_THREADS=2 "$B" partition "$TMP/ts.json" "$@" $capargs --json > "$TMP/plan2.json" 2> /dev/null
    cmp -s "$TMP/plan.json" "$TMP/plan2.json" || fail "$what: different bytes for 1 and 2 threads"
    if [ "$rc" -gt 1 ]; then
        fail "$what exited $rc: $(cat "$TMP/err")"
        continue
    fi
    # shellcheck disable=SC2086
    python3 "$CHECK" "$TMP/ts.json" "$TMP/plan.json" "$rc" $capargs > "$TMP/chk" ||
        fail "$what: $(cat "$TMP/chk")"
    [ "$rc" -eq 0 ] || continue
    "$B" emit "$TMP/plan.json" --format json --budget 1 > "$TMP/emitted.json" 2> "$TMP/err"
    erc=$?
    [ "$erc" -le 1 ] || fail "$what: emit of its own plan exited $erc: $(cat "$TMP/err")"
    [ "$pol" = fp ] && [ "$erc" -ne 0 ] && fail "$what: emit refused a feasible fp plan: $(cat "$TMP/err")"
    for k in 1 2 3; do
        res=$(python3 "$MUTATE" "$TMP/plan.json" "$((round * 10 + k))" "$TMP/edit.json")
        [ "$res" = skip ] && continue
        "$B" emit "$TMP/edit.json" --format json --budget 1 > /dev/null 2> "$TMP/err"
        erc=$?
        case ${res#* } in
            ok) want=0 ;; infeasible) want=1 ;; malformed) want=2 ;; *) want=$erc ;;
        esac
        # SCHED_DEADLINE refuses tiny runtimes and D > T: exit 1 is right there
        if [ "$want" -eq 0 ] && [ "$erc" -eq 1 ] && [ "$pol" = edf ] &&
            grep -q "SCHED_DEADLINE" "$TMP/err"; then
            want=1
        fi
        [ "$erc" -eq "$want" ] || fail "$what; edit '$res': emit exited $erc, wanted $want: $(cat "$TMP/err")"
        [ "$erc" -eq 0 ] || [ "$(wc -l < "$TMP/err")" -eq 1 ] ||
            fail "$what; edit '$res': emit error is not one line: $(cat "$TMP/err")"
    done
done

cli_end "$ROUNDS rounds clean"
