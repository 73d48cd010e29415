#!/bin/sh
# tests/cli_terms.sh — the real-system terms end to end (docs/spec.md
# "Real-system terms"): per-task jitter and blocking, platform.overheads,
# read strictly (exit 2 with the JSON path), carried through plans and
# re-checked by emit, C' / J' past 2^62 a resource limit (exit 3), and every
# output byte-identical when the new fields are all absent or all zero.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_terms

. "$S/tests/support/cli_expect.sh"


# ---- absent = zero: byte-identical outputs ----
# Every example task set rewritten with "jitter": 0, "blocking": 0 on every
# task and zero overheads on its platform gives the same bytes and exit codes
# as the file itself, for every command that reads it.
for f in "$S"/examples/*.json; do
    case "$f" in *plan_*|*sweep*) continue ;; esac
    python3 - "$f" "$TMP/zero.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for t in doc.get("tasks", []):
    t["jitter"] = 0
    t["blocking"] = "0ns"
if "platform" in doc:
    doc["platform"]["overheads"] = {"release_latency": 0, "context_switch": "0ms"}
json.dump(doc, open(sys.argv[2], "w"))
PY
    for args in "analyze" "analyze --json" "analyze --policy fp" "analyze --policy fp --json" \
        "analyze --policy gedf --cpus 2" "analyze --policy gfp --cpus 2 --json" \
        "partition --cpus 2" "partition --cpus 2 --json" "partition --cpus 2 --policy fp --json" \
        "partition --cpus 2 --method ilp --json" "partition --cpus 2 --explain"; do
        # shellcheck disable=SC2086
        "$B" $args "$f" >"$TMP/a" 2>&1
        ra=$?
        # shellcheck disable=SC2086
        "$B" $args "$TMP/zero.json" >"$TMP/b" 2>&1
        rb=$?
        sed "s#$TMP/zero.json#$f#g" "$TMP/b" >"$TMP/b2"
        if [ "$ra" -ne "$rb" ] || ! cmp -s "$TMP/a" "$TMP/b2"; then
            echo "FAIL: zero terms change 'rtpack $args $(basename "$f")'" >&2
            diff "$TMP/a" "$TMP/b2" | head -5 >&2
            fails=$((fails + 1))
        fi
    done
done

# ---- bad input: exit 2 with the JSON path ----
bad() { # bad PATH DESCRIPTION JSON
    printf '%s\n' "$3" >"$TMP/bad.json"
    for cmd in "analyze" "partition --cpus 2"; do
        # shellcheck disable=SC2086
        expect 2 "$2 ($cmd)" "$B" $cmd "$TMP/bad.json"
        if ! grep -F -q -- "$1" "$TMP/err"; then
            echo "FAIL: $2 ($cmd): path '$1' not named" >&2
            sed 's/^/  stderr: /' "$TMP/err" >&2
            fails=$((fails + 1))
        fi
    done
}
T='"name": "a", "wcet": 1, "period": 10'
bad "tasks[0].jitter" "negative jitter" "{\"tasks\": [{$T, \"jitter\": -1}]}"
bad "tasks[0].jitter" "non-time jitter" "{\"tasks\": [{$T, \"jitter\": \"soon\"}]}"
bad "tasks[0].jitter" "fractional ns jitter" "{\"tasks\": [{$T, \"jitter\": \"0.5ns\"}]}"
bad "tasks[0].jitter" "jitter past 2^62" "{\"tasks\": [{$T, \"jitter\": \"4611686018427387905ns\"}]}"
bad "tasks[0].jitter" "boolean jitter" "{\"tasks\": [{$T, \"jitter\": true}]}"
bad "tasks[0].blocking" "negative blocking" "{\"tasks\": [{$T, \"blocking\": \"-2us\"}]}"
bad "tasks[0].blocking" "bare float blocking" "{\"tasks\": [{$T, \"blocking\": 1.5}]}"
bad "platform.overheads" "overheads not an object" \
    "{\"platform\": {\"cpus\": 2, \"overheads\": 7}, \"tasks\": [{$T}]}"
bad "platform.overheads.switch" "unknown overhead" \
    "{\"platform\": {\"cpus\": 2, \"overheads\": {\"switch\": 7}}, \"tasks\": [{$T}]}"
bad "platform.overheads.context_switch" "negative context switch" \
    "{\"platform\": {\"cpus\": 2, \"overheads\": {\"context_switch\": -7}}, \"tasks\": [{$T}]}"
bad "platform.overheads.release_latency" "release latency past 2^62" \
    "{\"platform\": {\"cpus\": 2, \"overheads\": {\"release_latency\": \"4611686018427387905ns\"}}, \"tasks\": [{$T}]}"
bad "platform" "overheads on a non-object platform" "{\"platform\": [1], \"tasks\": [{$T}]}"

# ---- C' or J' past 2^62: a resource limit, never an answer ----
cat >"$TMP/big.json" <<'JSON'
{"platform": {"cpus": 1, "overheads": {"context_switch": 1}},
 "tasks": [{"name": "big", "wcet": "4611686018427387903ns", "period": "4611686018427387904ns"}]}
JSON
expect 3 "C' past 2^62 (analyze)" "$B" analyze "$TMP/big.json"
has "2^62" "$TMP/err" "C' limit message"
expect 3 "C' past 2^62 (partition)" "$B" partition "$TMP/big.json" --json
cat >"$TMP/bigj.json" <<'JSON'
{"platform": {"cpus": 1, "overheads": {"release_latency": "4611686018427387904ns"}},
 "tasks": [{"name": "j", "wcet": 1, "period": 10, "jitter": 1}]}
JSON
expect 3 "J' past 2^62 (analyze)" "$B" analyze "$TMP/bigj.json" --json
expect 3 "J' past 2^62 (partition)" "$B" partition "$TMP/bigj.json"

# ---- EDF with the terms ----
# a (2ms every 10ms, deadline 4ms) and b (3ms every 10ms, deadline 9ms,
# blocked up to 4ms): h(9ms) = 5ms + 4ms = 9ms, schedulable; a context switch
# of 1us makes C' 2.002ms and 3.002ms: h(9ms) > 9ms.
cat >"$TMP/edf.json" <<'JSON'
{"time_unit": "ms", "platform": {"cpus": 1},
 "tasks": [{"name": "a", "wcet": 2, "deadline": 4, "period": 10},
           {"name": "b", "wcet": 3, "deadline": 9, "period": 10, "blocking": 4}]}
JSON
expect 0 "edf with blocking" "$B" analyze "$TMP/edf.json" --json
has '"blocking":4000000' "$TMP/out" "blocking echoed"
hasnt 'effective_utilization' "$TMP/out" "no effective utilization without a context switch"
expect 0 "edf with blocking (table)" "$B" analyze "$TMP/edf.json"
has "blocking" "$TMP/out" "blocking column"
sed 's/"cpus": 1}/"cpus": 1, "overheads": {"context_switch": "1us"}}/' "$TMP/edf.json" >"$TMP/edf_cs.json"
expect 1 "edf with blocking and context switches" "$B" analyze "$TMP/edf_cs.json" --json
has '"first_miss":9000000' "$TMP/out" "first miss at 9ms"
has '"effective_utilization":0.5004' "$TMP/out" "effective utilization"
has '"utilization":0.5' "$TMP/out" "utilization stays declared"
expect 1 "edf with context switches (table)" "$B" analyze "$TMP/edf_cs.json"
has "effectiveutilization" "$TMP/out" "effective utilization line"
has "b(9ms)=4ms" "$TMP/out" "blocking term in the explanation"
# jitter: a job may be released up to 6ms late, due 4ms after arrival: J >= D
sed 's/"deadline": 4, "period": 10}/"deadline": 4, "period": 10, "jitter": 4}/' "$TMP/edf.json" >"$TMP/late.json"
expect 1 "jitter >= deadline" "$B" analyze "$TMP/late.json" --json
has '"first_miss":1' "$TMP/out" "J >= D: first_miss 1 ns"
# the release latency counts as jitter: J' = 0 + 4ms = D
sed 's/"cpus": 1}/"cpus": 1, "overheads": {"release_latency": "4ms"}}/' "$TMP/edf.json" >"$TMP/late2.json"
expect 1 "release latency >= deadline" "$B" analyze "$TMP/late2.json" --json
has '"first_miss":1' "$TMP/out" "J' >= D: first_miss 1 ns"

# ---- plans carry the terms; emit re-checks with them ----
cat >"$TMP/two.json" <<'JSON'
{"time_unit": "ms", "platform": {"cpus": 2, "overheads": {"context_switch": "10us", "release_latency": "20us"}},
 "tasks": [{"name": "a", "wcet": 4, "period": 10, "jitter": "50us"},
           {"name": "b", "wcet": 4, "period": 10, "blocking": 1},
           {"name": "c", "wcet": 4, "period": 10}]}
JSON
expect 0 "partition with the terms" "$B" partition "$TMP/two.json" --json
cp "$TMP/out" "$TMP/plan.json"
has '"overheads":{"release_latency":20000,"context_switch":10000}' "$TMP/plan.json" "plan overheads"
has '"jitter":50000' "$TMP/plan.json" "plan jitter"
has '"blocking":1000000' "$TMP/plan.json" "plan blocking"
has '"wcet":4000000' "$TMP/plan.json" "plan keeps the declared wcet"
expect 0 "emit re-checks the plan" "$B" emit "$TMP/plan.json" --format json
# the same plan with a 2.5ms blocking on a CPU already holding 2 x 4.02 ms: emit refuses
python3 - "$TMP/plan.json" "$TMP/plan2.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
for cpu in plan["cpus"]:
    if len(cpu["tasks"]) == 2:
        cpu["tasks"][0]["blocking"] = "2.5ms"
        cpu["tasks"][1]["blocking"] = "2.5ms"
json.dump(plan, open(sys.argv[2], "w"))
PY
expect 1 "emit re-checks with blocking" "$B" emit "$TMP/plan2.json" --format json
python3 - "$TMP/plan.json" "$TMP/plan3.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
plan["platform"]["overheads"]["context_switch"] = "1ms"
json.dump(plan, open(sys.argv[2], "w"))
PY
expect 1 "emit re-checks with the plan's overheads" "$B" emit "$TMP/plan3.json" --format json
sed 's/"context_switch":"1ms"/"context_switch":-1/; s/"context_switch": "1ms"/"context_switch": -1/' \
    "$TMP/plan3.json" >"$TMP/plan4.json"
expect 2 "emit: bad overheads in a plan" "$B" emit "$TMP/plan4.json" --format json
has "platform.overheads.context_switch" "$TMP/err" "emit names the path"

# ---- FP with the terms ----
# Prosa's jitter example (tests/test_fp.c): responses 3, 2, 4 with the jitter.
cat >"$TMP/fp.json" <<'JSON'
{"platform": {"cpus": 1},
 "tasks": [{"name": "t1", "wcet": 1, "deadline": 6, "period": 5, "jitter": 1, "priority": 2},
           {"name": "t2", "wcet": 1, "deadline": 6, "period": 5, "priority": 2},
           {"name": "t3", "wcet": 1, "deadline": 6, "period": 6, "jitter": 1, "priority": 1}]}
JSON
expect 0 "fp with jitter, equal priorities" "$B" analyze "$TMP/fp.json" --policy fp --priority given --json
has '"name":"t1","wcet":1,"deadline":6,"period":5,"jitter":1,"priority":2,"response_time":3' "$TMP/out" "t1 response 3"
has '"name":"t3","wcet":1,"deadline":6,"period":6,"jitter":1,"priority":1,"response_time":4' "$TMP/out" "t3 response 4"
# a release latency of 2 ns more: t3's J' = 3, response 6 (hp jitter 3 each: 2 jobs of t1)
sed 's/"cpus": 1}/"cpus": 1, "overheads": {"release_latency": 2}}/' "$TMP/fp.json" >"$TMP/fp_rl.json"
expect 1 "fp with release latency" "$B" analyze "$TMP/fp_rl.json" --policy fp --priority given --json
has '"name":"t3","wcet":1,"deadline":6,"period":6,"jitter":1,"priority":1,"response_time":null' "$TMP/out" "t3 misses"
expect 1 "fp with release latency (table)" "$B" analyze "$TMP/fp_rl.json" --policy fp --priority given
has "platformoverheads:releaselatency2ns" "$TMP/out" "overheads line"
has "jitterblocking" "$TMP/out" "jitter and blocking columns"
# blocking under FP and OPA: the blocked task goes on top
cat >"$TMP/opa.json" <<'JSON'
{"tasks": [{"name": "b", "wcet": 3, "period": 10},
           {"name": "a", "wcet": 3, "period": 10, "blocking": 5}]}
JSON
expect 0 "opa with blocking" "$B" analyze "$TMP/opa.json" --policy fp --json
has '"name":"a","wcet":3,"deadline":10,"period":10,"blocking":5,"priority":2,"response_time":8' "$TMP/out" "a on top"
expect 1 "rm with blocking (ties to b, input first)" "$B" analyze "$TMP/opa.json" --policy fp --priority rm --json
expect 2 "fp bound admission with jitter" "$B" partition "$TMP/fp.json" --policy fp --admission bound --cpus 1
has "jitter" "$TMP/err" "bound admission names jitter"

# ---- global tests: not applicable with jitter or blocking ----
expect 1 "gedf with jitter" "$B" analyze "$TMP/fp.json" --policy gedf --cpus 2 --json
has '"test":null,"not_applicable":"theglobaltestsdonotmodelreleasejitterorblocking"' "$TMP/out" "gedf n/a"
expect 1 "gfp with jitter (table)" "$B" analyze "$TMP/fp.json" --policy gfp --cpus 2
has "notapplicable" "$TMP/out" "gfp n/a said"
has "n/a" "$TMP/out" "rows n/a"
expect 0 "gedf with jitter on 1 CPU: exact" "$B" analyze "$TMP/fp.json" --policy gedf --cpus 1 --json
expect 1 "clusters with jitter" "$B" partition "$TMP/fp.json" --clusters 2 --cpus 2 --explain
has "donotmodelreleasejitterorblocking" "$TMP/out" "cluster explain"

# ---- the 12-task application (examples/app12.json) ----
expect 0 "app12 partitioned (fp)" "$B" partition "$S/examples/app12.json" --policy fp --json
expect 0 "app12 partitioned (edf)" "$B" partition "$S/examples/app12.json" --json
python3 - "$S/examples/app12.json" "$TMP/app12o.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["platform"]["overheads"] = {"release_latency": "300us", "context_switch": "10us"}
json.dump(doc, open(sys.argv[2], "w"))
PY
expect 0 "app12 with overheads (fp)" "$B" partition "$TMP/app12o.json" --policy fp --json
has '"effective_utilization":' "$TMP/out" "per-CPU effective utilization"
cp "$TMP/out" "$TMP/app12plan.json"
expect 0 "app12 plan re-checked by emit" "$B" emit "$TMP/app12plan.json" --format json
expect 0 "app12 with overheads (table)" "$B" partition "$TMP/app12o.json" --policy fp
has "(effective" "$TMP/out" "effective utilization in the table"

# ---- every partitioning method plans with C' ----
# two 5 ms / 10 ms tasks fill one CPU exactly; a 1 us context switch (C' =
# 5.002 ms) overflows it: one CPU no longer holds them, two do.
cat >"$TMP/fill.json" <<'JSON'
{"time_unit": "ms", "platform": {"cpus": 1},
 "tasks": [{"name": "a", "wcet": 5, "period": 10}, {"name": "b", "wcet": 5, "period": 10}]}
JSON
sed 's/"cpus": 1}/"cpus": 1, "overheads": {"context_switch": "1us"}}/' "$TMP/fill.json" >"$TMP/fill_cs.json"
for method in best ffd bfd wfd nfd ilp; do
    for policy in edf fp; do
        expect 0 "fill ($method, $policy)" "$B" partition "$TMP/fill.json" --method "$method" --policy "$policy" --json
        expect 1 "fill with context switches ($method, $policy)" "$B" partition "$TMP/fill_cs.json" --method "$method" --policy "$policy" --json
        expect 0 "fill with context switches on 2 CPUs ($method, $policy)" "$B" partition "$TMP/fill_cs.json" --method "$method" --policy "$policy" --cpus 2 --json
    done
done
expect 1 "fill with context switches, --clusters" "$B" partition "$TMP/fill_cs.json" --clusters 1 --json
expect 1 "fill with context switches, explain" "$B" partition "$TMP/fill_cs.json" --explain
has "utilization1.0004withit:overthecapacity1" "$TMP/out" "explain sees C'"

# U' = 1 with a hyperperiod of 4 x 10^18 ns (periods 2p, 2q, p and q primes
# near 10^9): decided exactly from the residues (no failure can exist: it
# would need t = -1 mod 2q and t = 0 mod 2p, odd and even), not a limit;
# one more ns of wcet is over U = 1.
p=999999937 q=999999929
printf '{"tasks": [{"name": "a", "wcet": %s, "period": %s},
 {"name": "b", "wcet": %s, "period": %s, "deadline": %s}]}\n' \
    "$p" $((2 * p)) "$q" $((2 * q)) $((2 * q - 1)) >"$TMP/u1big.json"
expect 0 "U = 1 with a huge hyperperiod" "$B" analyze "$TMP/u1big.json" --json --max-iterations 100000
has '"schedulable":true' "$TMP/out" "U = 1 with a huge hyperperiod is schedulable"

# A platform may give only its overheads: one-CPU commands need no CPUs,
# partition then needs --cpus (exit 2 without it, as with no platform).
cat >"$TMP/ov_only.json" <<'JSON'
{"platform": {"overheads": {"context_switch": "1us"}},
 "tasks": [{"name": "a", "wcet": "1ms", "period": "4ms"}]}
JSON
expect 0 "overheads-only platform (analyze)" "$B" analyze "$TMP/ov_only.json" --json
has '"effective_utilization":0.2505' "$TMP/out" "overheads-only platform is read"
expect 0 "overheads-only platform (simulate)" "$B" simulate "$TMP/ov_only.json" --json
expect 2 "overheads-only platform (partition without --cpus)" "$B" partition "$TMP/ov_only.json"
has "giveplatform.cpusinthefileor--cpusM" "$TMP/err" "partition says what is missing"
expect 0 "overheads-only platform (partition --cpus 2)" "$B" partition "$TMP/ov_only.json" --cpus 2 --json

# A plan task without cmd is well formed but not deployable by script/systemd
# (exit 1 naming the task's cmd path); the json and rt-app formats need none.
"$B" partition "$TMP/ov_only.json" --cpus 2 --json >"$TMP/nocmd_plan.json"
expect 1 "emit script: task without cmd" "$B" emit "$TMP/nocmd_plan.json" --format script
has "notdeployable:" "$TMP/err" "missing cmd is 'not deployable'"
has ".tasks[0].cmd:missing" "$TMP/err" "missing cmd names the path"
expect 1 "emit systemd: task without cmd" "$B" emit "$TMP/nocmd_plan.json" --format systemd --out "$TMP/nocmd_units"
[ ! -e "$TMP/nocmd_units" ] || { echo "FAIL: emit systemd left $TMP/nocmd_units" >&2; fails=$((fails + 1)); }
expect 0 "emit json: task without cmd" "$B" emit "$TMP/nocmd_plan.json" --format json

cli_end
