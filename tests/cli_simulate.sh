#!/bin/sh
# tests/cli_simulate.sh — `rtpack simulate` end to end (docs/spec.md
# "rtpack simulate"): the JSON document and exit codes on the seed
# article's examples (textbook set under EDF and every FP order, the domino
# effect, Dhall's effect global vs partitioned), plans, usage errors and the
# 2^62 ns / 10^7-job limits; every SVG renders to a PNG of the size it
# declares (rsvg-convert, .ci/setup installs librsvg2-bin); docs/img/*.svg
# are what docs/img/make.sh draws today, byte for byte.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_simulate

# expect CODE DESCRIPTION COMMAND... (output in $TMP/out, $TMP/err)
. "$S/tests/support/cli_expect.sh"

# check DESCRIPTION PYTHON-EXPRESSION -- over d = the JSON in $TMP/out
check() {
    python3 - "$TMP/out" "$2" <<'PY' || fail "$1"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["name"]: x for x in d["tasks"]}
ok = eval(sys.argv[2])
if not ok:
    print(json.dumps(d), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

MS=1000000
EX=$S/examples

# ---- the textbook set (1,4) (2,6) (3,8): EDF meets all, every FP order misses ----
expect 0 "textbook edf" "$B" simulate "$EX/textbook.json" --json
check "textbook edf" "d['schedulable_in_simulation'] and d['until'] == 32*$MS and \
all(x['misses'] == 0 and x['first_miss'] is None for x in d['tasks']) and \
[x['jobs'] for x in d['tasks']] == [8, 6, 4] and t['T3']['response_max'] == 7*$MS"
for order in "3 2 1" "3 1 2" "2 3 1" "1 3 2" "2 1 3" "1 2 3"; do
    set -- $order
    cat >"$TMP/order.json" <<JSON
{ "time_unit": "ms", "tasks": [
  { "name": "T1", "wcet": 1, "period": 4, "priority": $1 },
  { "name": "T2", "wcet": 2, "period": 6, "priority": $2 },
  { "name": "T3", "wcet": 3, "period": 8, "priority": $3 } ] }
JSON
    expect 1 "textbook fp order $order" "$B" simulate "$TMP/order.json" --policy fp \
        --priority given --json
    check "textbook fp order $order misses" "not d['schedulable_in_simulation'] and \
sum(x['misses'] for x in d['tasks']) > 0 and [x['priority'] for x in d['tasks']] == [$1, $2, $3]"
done
expect 1 "textbook rm" "$B" simulate "$EX/textbook.json" --policy fp --priority rm --json
check "textbook rm: T3 misses at 8 ms" "t['T3']['first_miss'] == 8*$MS and \
t['T1']['misses'] == 0 and t['T2']['misses'] == 0"
# The analysis agrees: schedulable under EDF, not under FP with OPA.
expect 0 "textbook analyze edf" "$B" analyze "$EX/textbook.json"
expect 1 "textbook analyze fp" "$B" analyze "$EX/textbook.json" --policy fp

# ---- the domino effect: T2's first job runs 7 ms instead of 2 ----
expect 0 "domino edf, no overrun" "$B" simulate "$EX/domino.json" --json
expect 0 "domino rm, no overrun" "$B" simulate "$EX/domino.json" --policy fp --priority rm
expect 1 "domino edf" "$B" simulate "$EX/domino.json" --overrun T2:7ms --json
check "domino edf: the others miss, T1 too" "t['T1']['misses'] > 0 and t['T3']['misses'] > 0"
expect 1 "domino rm" "$B" simulate "$EX/domino.json" --policy fp --priority rm \
    --overrun T2:7ms --json
check "domino rm: only lower priorities miss" "t['T1']['misses'] == 0 and \
t['T3']['misses'] > 0 and t['T2']['first_miss'] == 6*$MS"

# ---- Dhall's effect: global EDF on 4 CPUs misses at 1000 ms, partitioned does not ----
expect 1 "dhall gedf" "$B" simulate "$EX/dhall.json" --policy gedf --until 2s --json
check "dhall gedf: the heavy task misses, finishing at 1001 ms" "t['heavy']['first_miss'] == \
1000*$MS and t['heavy']['response_max'] == 1001*$MS and t['heavy']['cpus'] == [0, 1, 2, 3] and \
all(t['light%d' % k]['misses'] == 0 for k in range(1, 5))"
"$B" partition "$EX/dhall.json" --json >"$TMP/plan.json" || fail "dhall partition"
expect 0 "dhall partitioned" "$B" simulate "$TMP/plan.json" --until 2s --json
check "dhall partitioned: no miss, heavy alone" "d['schedulable_in_simulation'] and \
len({x['cpu'] for x in d['tasks']}) == 2 and \
[x['name'] for x in d['tasks'] if x['cpu'] == t['heavy']['cpu']] == ['heavy']"
expect 0 "plan from stdin" sh -c "'$B' simulate - --until 2s < '$TMP/plan.json'"
"$B" partition "$EX/textbook.json" --cpus 2 --policy fp --json >"$TMP/fp-plan.json"
expect 0 "fp plan" "$B" simulate "$TMP/fp-plan.json" --json
check "fp plan: priorities from the plan" "all(x['policy'] == 'fp' and x['priority'] >= 1 \
for x in d['tasks'])"

# ---- SCHED_RR on one CPU, arbitrary affinities in a gfp cluster (tests/test_sim_rr_apa.c
# holds both to the analyses' references) ----
expect 0 "rr ties" "$B" simulate "$EX/rr-tied.json" --policy fp --priority given --json
check "rr ties: simulated, logger at its bound" "'not_simulated' not in d and \
t['logger']['response_max'] == 38*$MS and t['control']['response_max'] == 5*$MS"
expect 0 "rr ties under gfp" "$B" simulate "$EX/rr-tied.json" --policy gfp --cpus 2 --json
check "rr ties under gfp: first-in first-out, said so" "d['not_simulated'] == ['sched_rr']"
# Equal SCHED_FIFO priorities run on Linux's run lists: b misses, so its
# backlogged thread stays at the head and runs its next job before c
# (first-in first-out by release would give c 14 ns, not 21).
cat >"$TMP/ties.json" <<'JSON'
{ "platform": { "cpus": 1 }, "tasks": [
  { "name": "a", "wcet": 1, "period": 4, "priority": 3 },
  { "name": "d", "wcet": 3, "period": 15, "priority": 2 },
  { "name": "b", "wcet": 2, "deadline": 6, "period": 9, "priority": 1 },
  { "name": "c", "wcet": 3, "period": 35, "priority": 1 },
  { "name": "e", "wcet": 3, "deadline": 20, "period": 19, "priority": 1 } ] }
JSON
expect 1 "fifo ties" "$B" simulate "$TMP/ties.json" --policy fp --priority given --json
check "fifo ties: Linux's run lists" "t['c']['response_max'] == 21 and t['b']['misses'] > 0"
cat >"$TMP/apa.json" <<'JSON'
{ "time_unit": "ms", "platform": { "cpus": 2 }, "tasks": [
  { "name": "a", "wcet": 6, "period": 10, "priority": 3, "affinity": [0] },
  { "name": "b", "wcet": 5, "period": 10, "priority": 2, "affinity": [1] },
  { "name": "c", "wcet": 9, "period": 20, "priority": 1 },
  { "name": "d", "wcet": 1, "period": 40, "priority": 4, "affinity": [7] } ] }
JSON
expect 0 "apa" "$B" simulate "$TMP/apa.json" --policy gfp --priority given --json
check "apa: d (affinity outside the cluster: any CPU, said so) takes CPU 0 first, a waits \
1 ms; c runs in b's gaps" "t['c']['response_max'] == 19*$MS and \
t['a']['response_max'] == 7*$MS and d['not_simulated'] == ['affinity']"

# ---- shared resources: the protocols run (tests/test_sim_locks.c holds them to the bounds) ----
"$B" partition "$EX/shared_resources.json" --policy fp --json >"$TMP/locks-plan.json" ||
    fail "shared resources: partition"
expect 0 "shared resources, fp plan" "$B" simulate "$TMP/locks-plan.json" --until 200ms --json
python3 - "$TMP/out" "$TMP/locks-plan.json" <<'PY' || fail "shared resources: within the plan's bounds"
import json, sys
sim = {t["name"]: t for t in json.load(open(sys.argv[1]))["tasks"]}
plan = json.load(open(sys.argv[2]))
bound = {t["name"]: t["response_time"] for c in plan["cpus"] for t in c["tasks"]}
assert all(sim[n]["response_max"] <= bound[n] for n in bound), (sim, bound)
assert sim["imu"]["spin_max"] > 0 and all("blocking_max" in t for t in sim.values())
PY
"$B" gen --tasks 5 --utilization 0.85 --resources 2 --access 0.6 --seed 7 >"$TMP/locks-set.json"
"$B" analyze "$TMP/locks-set.json" --policy fp --json >"$TMP/locks-analysis.json"
expect 0 "shared resources, one fp CPU" "$B" simulate "$TMP/locks-set.json" --policy fp \
    --until 1s --json
python3 - "$TMP/out" "$TMP/locks-analysis.json" <<'PY' || fail "shared resources: analyze's priorities and bounds"
import json, sys
sim, ana = (json.load(open(f))["tasks"] for f in sys.argv[1:3])
assert [t["priority"] for t in sim] == [t["priority"] for t in ana]
assert all(s["response_max"] <= a["response_time"] for s, a in zip(sim, ana))
PY
expect 1 "shared resources, one fp CPU (unschedulable)" "$B" simulate "$EX/shared_resources.json" \
    --policy fp --until 100ms
grep -q "max blocking *max spin" "$TMP/out" || fail "shared resources: the table's columns"
# blocking_max counts completed jobs, as response_max: hi's second job (released
# at 3) waits for lo's section until 6; with --until 5 it is still waiting, and
# the only job of hi that completed waited 0 (52cc03b said 2, the pending wait).
cat >"$TMP/pending.json" <<'JSON'
{"resources":[{"name":"R"}],"tasks":[
 {"name":"hi","wcet":1,"period":3,"requests":[{"resource":"R","count":1,"length":1}]},
 {"name":"lo","wcet":6,"period":100,"requests":[{"resource":"R","count":1,"length":5}]}]}
JSON
expect 0 "blocking of a pending job" "$B" simulate "$TMP/pending.json" --policy fp \
    --priority rm --until 5 --json
has '"name":"hi","cpu":0,"policy":"fp","priority":2,"jobs":2,"misses":0,"first_miss":null,"response_max":1,"blocking_max":0,"spin_max":0' \
    "$TMP/out" "pending job: hi's blocking_max 0"
expect 1 "blocking of a completed job" "$B" simulate "$TMP/pending.json" --policy fp \
    --priority rm --until 7 --json
has '"response_max":4,"blocking_max":3' "$TMP/out" "completed job: hi waited 3"
expect 2 "shared resources in a cluster" "$B" simulate "$EX/shared_resources.json" \
    --policy gfp --cpus 2
grep -q "not in a cluster of 2" "$TMP/err" || fail "shared resources in a cluster: said so"
expect 0 "shared resources: chart" "$B" simulate "$TMP/locks-plan.json" --until 21ms \
    --svg "$TMP/locks.svg"
grep -q 'url(#spin)' "$TMP/locks.svg" && grep -q '>map</text>' "$TMP/locks.svg" ||
    fail "shared resources: the chart draws spins and named sections"

# ---- usage, bad input, limits ----
expect 2 "overrun of an unknown task" "$B" simulate "$EX/textbook.json" --overrun T9:1ms
grep -q "no task named 'T9'" "$TMP/err" || fail "unknown task named"
expect 2 "overrun without a time" "$B" simulate "$EX/textbook.json" --overrun T1
expect 2 "--from without --svg" "$B" simulate "$EX/textbook.json" --from 1ms
expect 0 "--from 0, the default" "$B" simulate "$EX/textbook.json" --svg "$TMP/from0.svg" --from 0
expect 2 "--from past the end" "$B" simulate "$EX/textbook.json" --svg "$TMP/x.svg" \
    --from 40ms
expect 2 "a plan with --policy" "$B" simulate "$TMP/plan.json" --policy fp
expect 2 "--cpus 4 under edf" "$B" simulate "$EX/textbook.json" --cpus 4
expect 2 "gedf without CPUs" "$B" simulate "$EX/textbook.json" --policy gedf
expect 2 "bad task set" sh -c "echo '{\"tasks\": [{\"name\": \"a\", \"wcet\": 1}]}' | \
'$B' simulate -"
grep -q "tasks\[0\].period" "$TMP/err" || fail "bad task set: JSON path"
# A task set without "tasks" is read as a task set, not as a plan (whose
# reader used to answer "time_unit: unknown key"); a plan's own member makes
# it a plan.
expect 2 "a task set without tasks" sh -c "echo '{\"time_unit\": \"ms\"}' | '$B' simulate -"
grep -q "tasks: missing" "$TMP/err" || fail "a task set without tasks: $(cat "$TMP/err")"
expect 2 "a plan without bins" sh -c "echo '{\"method\": \"ffd\"}' | '$B' simulate -"
grep -q "feasible: missing" "$TMP/err" || fail "a plan without bins: $(cat "$TMP/err")"
cat >"$TMP/big.json" <<'JSON'
{ "tasks": [ { "name": "a", "wcet": 1, "period": "1000000007ns" },
             { "name": "b", "wcet": 1, "period": "4611686018ms" } ] }
JSON
expect 3 "hyperperiod past 2^62" "$B" simulate "$TMP/big.json"
grep -q "2^62" "$TMP/err" || fail "2^62 named"
echo '{ "tasks": [ { "name": "a", "wcet": "1us", "period": "1ms" } ] }' >"$TMP/one.json"
expect 3 "10^7 jobs and one" "$B" simulate "$TMP/one.json" --until 10000000000001ns
grep -q "10^7 jobs" "$TMP/err" || fail "10^7 jobs named"
expect 0 "10^7 jobs exactly" "$B" simulate "$TMP/one.json" --until 10000s --json
check "10^7 jobs exactly" "t['a']['jobs'] == 10**7 and t['a']['response_max'] == 1000"

# ---- pictures: each renders to a PNG of the size it declares ----
if ! command -v rsvg-convert >/dev/null 2>&1; then
    fail "rsvg-convert is missing (librsvg2-bin, installed by .ci/setup)"
else
    mkdir -p "$TMP/img"
    sh "$S/docs/img/make.sh" "$B" "$TMP/img" || fail "docs/img/make.sh"
    expect 0 "a long horizon gets a capped chart" "$B" simulate "$EX/quickstart.json" \
        --policy gedf --cpus 2 --svg "$TMP/img/capped.svg" --until 2s
    grep -q "more than 1500 execution boxes" "$TMP/img/capped.svg" || fail "cap noted"
    for f in "$TMP"/img/*.svg; do
        name=$(basename "$f")
        rsvg-convert "$f" -o "$TMP/p.png" || { fail "$name does not render"; continue; }
        python3 - "$f" "$TMP/p.png" <<'PY' || fail "$name: PNG size"
import re, struct, sys
svg = open(sys.argv[1]).read()
w, h = (int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())
png = open(sys.argv[2], "rb").read()
pw, ph = struct.unpack(">II", png[16:24])
sys.exit(0 if png[:8] == b"\x89PNG\r\n\x1a\n" and (pw, ph) == (w, h) and w >= 1000 and h >= 200 else 1)
PY
        case "$name" in capped.svg) continue ;; esac
        cmp -s "$f" "$S/docs/img/$name" ||
            fail "docs/img/$name differs from what docs/img/make.sh draws (run it and commit)"
    done
    grep -q '>miss<' "$TMP/img/dhall_gedf_miss.svg" || fail "dhall miss drawn"
    grep -q '>miss<' "$TMP/img/dhall_partitioned.svg" && fail "partitioned dhall: no miss drawn"
    grep -q 'time (ms)' "$TMP/img/textbook_edf.svg" || fail "time axis in ms"
fi

cli_end
