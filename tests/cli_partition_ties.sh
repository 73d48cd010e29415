#!/bin/sh
# tests/cli_partition_ties.sh — `rtpack partition --priority given` choosing
# SCHED_FIFO or SCHED_RR for each tied level by itself (docs/spec.md
# "Choosing SCHED_RR", solver/rr_choose.h): examples/rr-tied.json without its
# "policy" members, where SCHED_FIFO lets the 30 ms logger make control miss
# and SCHED_RR holds it to 23 ms (RR wins: the plan says "rr", the table and
# --explain say why, emit starts both with chrt -r); the same set with
# --ties given (the tasks' own SCHED_FIFO: infeasible); two tied tasks that
# ask for SCHED_RR where a 100 us context switch makes every SCHED_RR bound
# larger (FIFO wins); a set without ties, byte-identical either way.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_partition_ties

# expect CODE DESCRIPTION COMMAND... (output in $TMP/out, $TMP/err)
. "$S/tests/support/cli_expect.sh"


P="--cpus 1 --policy fp --priority given"
sed 's/, "policy": "rr"//; s/"priority": 90 }/"priority": 90, "cmd": "true" }/; s/"priority": 50 }/"priority": 50, "cmd": "true" }/' \
    "$S/examples/rr-tied.json" >"$TMP/fifo.json"

# RR wins
expect 0 "auto: rr wins" "$B" partition "$TMP/fifo.json" $P
has 'tiedpriority1(control,logger):SCHED_RR;SCHED_FIFOmissescontrol,SCHED_RRworst38ms' "$TMP/out" "rr-wins line"
has '1control2ms25ms25ms23ms2ms' "$TMP/out" "control's SCHED_RR bound"
expect 0 "auto: rr wins, json" "$B" partition "$TMP/fifo.json" $P --json --explain
cp "$TMP/out" "$TMP/plan.json"
has '"name":"control","wcet":2000000,"deadline":25000000,"period":25000000,"cmd":"true","policy":"rr","priority":1,"response_time":23000000' "$TMP/plan.json" "plan: control rr"
has '"name":"logger","wcet":30000000,"deadline":100000000,"period":100000000,"cmd":"true","policy":"rr","priority":1,"response_time":38000000' "$TMP/plan.json" "plan: logger rr"
has '"name":"sensor","wcet":1000000,"deadline":10000000,"period":10000000,"cmd":"true","priority":2' "$TMP/plan.json" "plan: sensor fifo"
has 'tiedpriority1(control,logger):SCHED_RR;SCHED_FIFOmissescontrol' "$TMP/err" "--explain --json: the line on stderr"
expect 0 "sensitivity of an RR level" "$B" partition "$TMP/fifo.json" $P --sensitivity
has 'criticalscalingfactor:notcomputedforaCPUwithSCHED_RRties' "$TMP/out" "no factor under RR"
hasnt 'wcet_max' "$TMP/out" "no wcet_max under RR"
expect 0 "emit the chosen plan" "$B" emit "$TMP/plan.json" --format script --out "$TMP/rr.sh"
has "taskset-c0chrt-r51'true'" "$TMP/rr.sh" "emit: chrt -r"
has "taskset-c0chrt-f52'true'" "$TMP/rr.sh" "emit: sensor chrt -f"

# --ties given: the tasks' own SCHED_FIFO, control misses
expect 1 "given: fifo misses" "$B" partition "$TMP/fifo.json" $P --ties given --json
hasnt '"policy":"rr"' "$TMP/out" "given: no rr"
expect 1 "given: table" "$B" partition "$TMP/fifo.json" $P --ties given
hasnt 'tiedpriority' "$TMP/out" "given: no tie line"

# FIFO wins over the tasks' own SCHED_RR
printf '%s\n' '{"platform":{"rr_quantum":"4ms","tick":"1ms","overheads":{"context_switch":"100us"}},"tasks":[{"name":"a","wcet":"1ms","period":"5ms","priority":10,"policy":"rr"},{"name":"b","wcet":"2.5ms","period":"40ms","priority":10,"policy":"rr"}]}' >"$TMP/rr.json"
expect 0 "auto: fifo wins" "$B" partition "$TMP/rr.json" $P
has 'tiedpriority1(a,b):SCHED_FIFO;SCHED_FIFOworst3.9ms,SCHED_RRworst4.5ms' "$TMP/out" "fifo-wins line"
expect 0 "auto: fifo wins, json" "$B" partition "$TMP/rr.json" $P --json
hasnt '"policy":"rr"' "$TMP/out" "fifo wins: no rr"
expect 0 "given: the tasks' rr" "$B" partition "$TMP/rr.json" $P --ties given --json
has '"policy":"rr","priority":1,"response_time":4500000' "$TMP/out" "given: rr kept"

# emit's rt-app re-check charges each SCHED_RR turn its switch, as the plan was
# analysed: a's wcet 999.5 us and deadline 4,499,999 ns hold at 4,499,500 ns;
# rounded to whole microseconds (C' 1.2 ms, deadline 4.499 ms) a waits 4.5 ms
# with the switches (3.9 ms without them, which the re-check passed before).
sed 's/"wcet":"1ms","period":"5ms"/"wcet":"999.5us","deadline":4499999,"period":"5ms"/; s/"policy":"rr"}/"policy":"rr","cmd":"true"}/g' \
    "$TMP/rr.json" >"$TMP/rr_round.json"
expect 0 "rounding: the plan holds" "$B" partition "$TMP/rr_round.json" $P --ties given --json
cp "$TMP/out" "$TMP/rr_round_plan.json"
has '"response_time":4499500' "$TMP/rr_round_plan.json" "rounding: a at 4,499,500 ns"
expect 0 "rounding: the script takes it" "$B" emit "$TMP/rr_round_plan.json" --format script
expect 1 "rounding: rt-app refuses it" "$B" emit "$TMP/rr_round_plan.json" --format rtapp
has 'afterroundingtowholemicrosecondsforrt-app' "$TMP/err" "rounding: rt-app says why"
has 'fix:--formatscriptdeploystheplanunrounded' "$TMP/err" "rounding: the fix fits a plan that holds unrounded"
hasnt 'insteadofeditingtheplan' "$TMP/err" "rounding: no advice about editing"

# No ties: byte-identical with and without the choice
sed '/logger/s/"priority": 50/"priority": 40/' "$TMP/fifo.json" >"$TMP/distinct.json"
for f in "" --json; do
    "$B" partition "$TMP/distinct.json" $P $f >"$TMP/a" 2>&1
    "$B" partition "$TMP/distinct.json" $P $f --ties given >"$TMP/b" 2>&1
    cmp -s "$TMP/a" "$TMP/b" || { echo "FAIL: no ties: outputs differ ($f)" >&2; fails=$((fails + 1)); }
done
hasnt 'tied' "$TMP/a" "no ties: no tie line"

# --ties only with --priority given
expect 2 "ties without given" "$B" partition "$TMP/fifo.json" --cpus 1 --policy fp --ties auto
has 'ties' "$TMP/err" "ties usage error"

cli_end
