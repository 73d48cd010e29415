#!/bin/sh
# tests/cli_conventions.sh — the CLI conventions (docs/spec.md
# "Options" and the command sections): every option either works or is a
# usage error for that command; explore and merge refuse an existing result
# unless --force and print a summary with --json; merge names a missing
# shard; the messages that used to mislead say what is wrong. Each case
# asserts the exit code and the message.
# Env: RTP_BINARY (built rtpack), RTP_SOURCE_DIR (the source tree).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_conventions
checks=0

# expect CODE TEXT ARGS...: exit CODE and TEXT in the one line on stderr.
expect() {
    code=$1 want=$2
    shift 2
    checks=$((checks + 1))
    "$B" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
    rc=$?
    err=$(cat "$TMP/err")
    [ "$rc" -eq "$code" ] || fail "rtpack $*: exit $rc, want $code ($err)"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "rtpack $*: want one line on stderr, got: $err"
    case $err in
    *"$want"*) ;;
    *) fail "rtpack $*: message lacks '$want': $err" ;;
    esac
}

# stdin_expect CODE TEXT DOC ARGS...: as expect, with DOC on standard input.
stdin_expect() {
    code=$1 want=$2 doc=$3
    shift 3
    printf '%s\n' "$doc" >"$TMP/doc.json"
    expect "$code" "$want" "$@" "$TMP/doc.json"
}

E=$S/examples
Q=$E/quickstart.json

# --- every option works or is a usage error ---
expect 2 "--write-lp applies only with --method ilp (here --method is best, the default)" \
    partition "$Q" --write-lp "$TMP/m.lp"
[ -e "$TMP/m.lp" ] && fail "--write-lp with a heuristic wrote a file"
expect 2 "--write-lp applies only with --method ilp (here --method is ffd)" \
    partition "$Q" --method ffd --write-lp "$TMP/m.lp"
expect 2 "--time-limit applies only with --method ilp" partition "$Q" --time-limit 5
expect 2 "--objective applies only with --method ilp" partition "$Q" --method wfd --objective balanced
expect 2 "--order applies only with --method ffd, bfd, wfd, nfd or sfd (here --method is best" \
    partition "$Q" --order density
expect 2 "--fit applies only with --method bfd, wfd or best (here --method is ffd)" \
    partition "$Q" --method ffd --fit density
expect 2 "--admission applies only with --method ffd, bfd, wfd, nfd or best (here --method is ilp)" \
    partition "$Q" --method ilp --admission bound
expect 2 "--admission applies to partitioned CPUs; clusters are admitted by their global test" \
    partition "$Q" --cpus 4 --clusters 2x2 --admission bound
expect 2 "--priority applies only with --policy fp (here --policy is edf, the default)" \
    partition "$Q" --priority rm
expect 2 "--capacity wants a decimal number in (0, 1], got '1.5'" partition "$Q" --capacity 1.5
expect 2 "--capacity wants a decimal number in (0, 1], got '0'" partition "$Q" --capacity 0
expect 2 "--priority applies only with --policy fp, gfp or gedf (here --policy is edf)" \
    analyze "$Q" --policy edf --priority rm
# the global synopsis of docs/spec.md lists --priority under gedf: accepted, no effect
checks=$((checks + 1))
"$B" analyze "$Q" --policy gedf --cpus 2 --priority rm --json >"$TMP/out" 2>"$TMP/err"
rc=$?
{ [ "$rc" -le 1 ] && grep -q '"gedf"' "$TMP/out" && [ ! -s "$TMP/err" ]; } ||
    fail "analyze --policy gedf --priority rm: exit $rc, $(cat "$TMP/err")"
expect 2 "--cpus 2 under --policy edf would still analyse one CPU: use --policy gedf or gfp for one cluster of 2 CPUs, or rtpack partition" \
    analyze "$Q" --cpus 2
expect 2 "--cpus 4 under --policy fp would still analyse one CPU" analyze "$Q" --policy fp --cpus 4
expect 2 "--cpus 2 under --policy edf" analyze --batch "$E/analysis_batch.jsonl" --cpus 2
printf '{"tasks": [{"name": "a", "wcet": 1}]}\n' >"$TMP/bad.json"
expect 2 "tasks[0].period: missing" analyze "$TMP/bad.json" --cpus 2 # the file first
expect 2 "--cpus is not an option of emit" emit "$E/plan_edf.json" --format script --cpus 2
expect 2 "--cpus is not an option of explore" explore "$E/sweep.json" --out "$TMP/x" --cpus 2
expect 2 "--cpus is not an option of merge" merge "$TMP/x" --out "$TMP/y" --cpus 2
expect 2 "--duration applies only with --format rtapp (here --format is script)" \
    emit "$E/plan_edf.json" --format script --duration 5
expect 2 "--name applies only with --format script, systemd or rtapp (here --format is json)" \
    emit "$E/plan_edf.json" --format json --name demo
expect 2 "--cgroup applies only with --format script, systemd or rtapp (here --format is json)" \
    emit "$E/plan_edf.json" --format json --cgroup v1
expect 2 "--arbitrary-factor applies only with --deadlines arbitrary (here --deadlines is implicit, the default)" \
    gen --tasks 2 --utilization 1 --arbitrary-factor 3
expect 2 "--max-attempts applies only with --generator uunifast-discard (here --generator is randfixedsum)" \
    gen --tasks 2 --utilization 1 --generator randfixedsum --max-attempts 5
for args in "partition $Q --method ilp --write-lp $TMP/m.lp --time-limit 30 --objective balanced" \
    "partition $Q --method bfd --order density --fit density --admission bound" \
    "partition $Q --policy fp --priority dm --capacity 0.95" \
    "analyze $Q --policy gfp --cpus 2 --priority rm" "analyze $Q --cpus 1" \
    "gen --tasks 3 --utilization 1 --deadlines arbitrary --arbitrary-factor 3"; do
    checks=$((checks + 1))
    # shellcheck disable=SC2086 # the words of one command line
    "$B" $args >/dev/null 2>"$TMP/err"
    case $? in 0 | 1) ;; *) fail "rtpack $args: $(cat "$TMP/err")" ;; esac
done
[ -s "$TMP/m.lp" ] || fail "--method ilp --write-lp wrote no model"

# --- explore and merge: --force, refusals, --json summary, missing shards ---
SW=$E/sweep.json
"$B" explore "$SW" --out "$TMP/one" --json >"$TMP/one.json" 2>"$TMP/err" || fail "explore --json: $(cat "$TMP/err")"
python3 - "$TMP/one.json" "$TMP/one/results.csv" <<'EOF' || fail "explore --json summary"
import csv, json, sys
d = json.load(open(sys.argv[1]))
assert d["shard"] == "1/1" and d["complete"] is True, d
assert d["points"]["done"] == d["points"]["shard"] == d["points"]["sweep"] > 0, d
assert d["sets"] == d["points"]["done"] * d["sets_per_point"], d
rows = list(csv.DictReader(open(sys.argv[2])))
for t in d["acceptance"]:
    mine = [r for r in rows if r["policy"] == t["policy"] and r["method"] == t["method"]]
    assert t["accepted"] == sum(int(r["accepted"]) for r in mine), t
    assert t["total"] == sum(int(r["total"]) for r in mine) == d["sets"], t
assert len(d["acceptance"]) == len({(r["policy"], r["method"]) for r in rows}), d
assert {"results.csv", "timing.csv", "weighted.csv", "acceptance.svg"} <= set(d["files"]), d
EOF
expect 2 "already holds results: add --resume to continue that sweep, --force to replace them" \
    explore "$SW" --out "$TMP/one"
cp "$TMP/one/results.csv" "$TMP/first.csv"
"$B" explore "$SW" --out "$TMP/one" --force 2>"$TMP/err" || fail "explore --force: $(cat "$TMP/err")"
cmp -s "$TMP/first.csv" "$TMP/one/results.csv" || fail "explore --force: other results"
expect 2 "--force replaces what --resume would continue: give one" \
    explore "$SW" --out "$TMP/one" --force --resume
for k in 1 2 3; do
    "$B" explore "$SW" --out "$TMP/s$k" --shard "$k/3" 2>"$TMP/err" || fail "shard $k/3: $(cat "$TMP/err")"
done
"$B" explore "$SW" --out "$TMP/s2" --shard 2/3 --json --resume >"$TMP/s2.json" || fail "shard --json"
grep -q '"shard":[[:space:]]*"2/3"' "$TMP/s2.json" || fail "shard summary: $(cat "$TMP/s2.json")"
expect 2 "shard 2/3 missing (given: 1/3 from $TMP/s1, 3/3 from $TMP/s3)" \
    merge "$TMP/s3" "$TMP/s1" --out "$TMP/m"
expect 2 "shards 2/3, 3/3 missing (given: 1/3 from $TMP/s1)" merge "$TMP/s1" --out "$TMP/m"
expect 2 "$TMP/s1: shard 1/3 is given twice (also $TMP/s1)" merge "$TMP/s1" "$TMP/s1" "$TMP/s2" --out "$TMP/m"
expect 2 "holds shard 1/3 but $TMP/one holds shard 1/1: shards of two different splits" \
    merge "$TMP/s1" "$TMP/one" --out "$TMP/m"
"$B" merge "$TMP/s2" "$TMP/s3" "$TMP/s1" --out "$TMP/m" --json >"$TMP/m.json" 2>"$TMP/err" ||
    fail "merge --json: $(cat "$TMP/err")"
cmp -s "$TMP/one/results.csv" "$TMP/m/results.csv" || fail "merge: not the single run's results"
sed 's|"out":.*||' "$TMP/one.json" >"$TMP/a"
sed 's|"out":.*||' "$TMP/m.json" >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || fail "merge --json summary differs from the single run's"
cp "$TMP/m/results.csv" "$TMP/merged.csv"
expect 2 "$TMP/m already holds results: choose another --out, or add --force to replace them" \
    merge "$TMP/s2" "$TMP/s3" "$TMP/s1" --out "$TMP/m"
cmp -s "$TMP/merged.csv" "$TMP/m/results.csv" || fail "a refused merge changed the results"
"$B" merge "$TMP/s2" "$TMP/s3" "$TMP/s1" --out "$TMP/m" --force 2>"$TMP/err" ||
    fail "merge --force: $(cat "$TMP/err")"

# --- messages that said the wrong thing ---
expect 2 "quickstart.json: this is a task set, not a plan: give the plan that 'rtpack partition FILE --json' prints" \
    emit "$Q" --format json
stdin_expect 2 "tasks[0].wcet: 1e300 is past the limit of 2^62 ns" \
    '{"tasks": [{"name": "a", "wcet": 1e300, "period": 4}]}' analyze
stdin_expect 2 "tasks[0].wcet: 1e3 is written with an exponent" \
    '{"tasks": [{"name": "a", "wcet": 1e3, "period": 4000}]}' analyze
stdin_expect 2 "tasks[0].period: 4.5 has a fraction" \
    '{"tasks": [{"name": "a", "wcet": 1, "period": 4.5}]}' partition --cpus 1
stdin_expect 2 "tasks[0].wcet: -1.5 is negative" \
    '{"tasks": [{"name": "a", "wcet": -1.5, "period": 4}]}' analyze
printf '{"tasks": [{"name": "a", "wcet": "1µs", "period": "4μs"}]}\n' >"$TMP/mu1.json"
"$B" analyze "$TMP/mu1.json" --json >"$TMP/out" 2>"$TMP/err" || fail "µs and μs: $(cat "$TMP/err")"
grep -q '"period":[[:space:]]*4000' "$TMP/out" || fail "4 μs is not 4000 ns: $(cat "$TMP/out")"
printf '{"time_unit": "µs", "tasks": [{"name": "a", "wcet": 1, "period": 4}]}\n' >"$TMP/mu.json"
"$B" analyze "$TMP/mu.json" --json >"$TMP/out" 2>"$TMP/err" || fail "time_unit µs: $(cat "$TMP/err")"
grep -q '"wcet":[[:space:]]*1000,' "$TMP/out" || fail "1 µs is not 1000 ns: $(cat "$TMP/out")"
python3 -c "print('[' * 5000 + ']' * 5000)" >"$TMP/deep.json"
expect 3 "arrays and objects nested more than 1000 deep" analyze "$TMP/deep.json"
cat >"$TMP/tight.json" <<'EOF'
{"feasible": true, "method": "ffd", "policy": "fp",
 "cpus": [{"cpu": 0, "tasks": [{"name": "a", "wcet": 99000001, "deadline": 100000000, "period": 100000000, "priority": 1, "response_time": 99000001}]}]}
EOF
expect 1 "utilization 0.99000001 exceeds Linux's real-time budget of 0.99 per CPU" \
    emit "$TMP/tight.json" --format json --budget 0.99
# SCHED_DEADLINE admission is the kernel's, in its 2^20 fixed point:
# 0.990001 x 2^20 rounds down to 1038091 > floor(0.99 x 2^20)
cat >"$TMP/tight.json" <<'EOF'
{"feasible": true, "method": "ffd", "policy": "edf",
 "cpus": [{"cpu": 0, "tasks": [{"name": "a", "wcet": 99000100, "deadline": 100000000, "period": 100000000}]}]}
EOF
expect 1 "SCHED_DEADLINE bandwidth 1038091/1048576 exceeds Linux's admission limit of 1038090/1048576 (--budget 0.99 per CPU" \
    emit "$TMP/tight.json" --format json --budget 0.99
printf '{"platform": {"cpus": 1}, "tasks": [{"name": "a", "wcet": 99000001, "period": 100000000}]}\n' >"$TMP/cap.json"
"$B" partition "$TMP/cap.json" --capacity 0.99 --explain >"$TMP/out" 2>&1
grep -q "its own utilization 0.99000001 passes --capacity 0.99" "$TMP/out" ||
    fail "explain: capacity not shown exactly: $(cat "$TMP/out")"

cli_end "$checks runs"
