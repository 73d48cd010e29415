#!/bin/sh
# tests/cli_rehearse.sh — `rtpack rehearse` refusing what it must refuse
# before it touches the machine (docs/spec.md "rtpack rehearse": exit 2 for a
# bad plan, bad options, or a plan emit would refuse), so it runs anywhere,
# as any user, beside other tests. Every case here is refused by the re-check
# or the reader, which come before anything is created; the live rehearsal
# is cli_rehearse_real.sh.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_rehearse

# refused WHAT PATTERN ARGS... -- exit 2, PATTERN on stderr, nothing on stdout
refused() {
    what=$1 pattern=$2
    shift 2
    "$B" rehearse "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ "$rc" -ne 2 ] || ! grep -F -q -- "$pattern" "$TMP/err" || [ -s "$TMP/out" ]; then
        echo "FAIL: $what: exit $rc (want 2 and '$pattern'): $(cat "$TMP/err") $(cat "$TMP/out")" >&2
        fails=$((fails + 1))
    fi
}

cat >"$TMP/set.json" <<'JSON'
{ "platform": { "cpus": 2 },
  "tasks": [
    { "name": "a", "wcet": "2ms", "period": "10ms" },
    { "name": "b", "wcet": "3ms", "period": "20ms", "deadline": "15ms" },
    { "name": "c", "wcet": "4ms", "period": "20ms" } ] }
JSON
"$B" partition "$TMP/set.json" --policy edf --json >"$TMP/edf.plan" || { echo "FAIL: partition" >&2; exit 1; }
"$B" partition "$TMP/set.json" --policy fp --json >"$TMP/fp.plan" || { echo "FAIL: partition fp" >&2; exit 1; }

refused "a missing file" "nothere.json" "$TMP/nothere.json"
printf '{ "feasible": true,' >"$TMP/broken.plan"
refused "malformed JSON" "broken.plan" "$TMP/broken.plan"
refused "a task set given as the plan" "set.json" "$TMP/set.json"
refused "an undeployable plan (budget)" "not deployable" "$TMP/edf.plan" --budget 0.1
refused "an FP plan over the budget" "not deployable" "$TMP/fp.plan" --budget 0.2
# a margin the EDF re-check cannot take: runtimes 1.9x C' (cut at the deadlines)
refused "a margin that does not fit" "--runtime-margin" "$TMP/edf.plan" --runtime-margin 10
refused "--load 0" "--load" "$TMP/edf.plan" --load 0
refused "--load above 1" "--load" "$TMP/edf.plan" --load 1.5
refused "--seconds 0" "--seconds" "$TMP/edf.plan" --seconds 0
refused "no plan" "PLAN"
# a deadline past the period cannot be SCHED_DEADLINE (emit says the same)
sed 's/"deadline":[[:space:]]*15000000/"deadline": 25000000/' "$TMP/edf.plan" >"$TMP/late.plan"
if grep -q 25000000 "$TMP/late.plan"; then
    refused "EDF deadline past the period" "deadline 25000000 ns > period" "$TMP/late.plan"
else
    echo "FAIL: the test plan lost task b's deadline" >&2
    fails=$((fails + 1))
fi
# a plan edited after partitioning (a: 9 ms of 10, beside b) fails the re-check
sed 's/"wcet":[[:space:]]*2000000/"wcet": 9000000/' "$TMP/edf.plan" >"$TMP/edited.plan"
refused "an edited plan that fails the exact test" "fails the exact EDF test" "$TMP/edited.plan"

cli_end
