#!/bin/sh
# tests/cli_sensitivity.sh — --sensitivity on analyze and partition end to
# end (docs/spec.md "Sensitivity"): the members and their values on
# hand-worked sets, null cases, batch lines, plans (per CPU and the minimum)
# that emit still reads, the human margins, the global tests on 2+ CPUs
# (wcet_max, no factor), the refused cases (exit 3), and no member without
# the flag.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_sensitivity

. "$S/tests/support/cli_expect.sh"


# RM (1, 4), (2, 6): task 2's scheduling points 4 and 6 give 4/3 and 3/2;
# wcet_max: T1 2 (response of T2 then 2 + 2 x 2 = 6), T2 4 (4 + 2 x 1 = 6).
cat >"$TMP/rm.json" <<'J'
{"tasks":[{"name":"T1","wcet":1,"period":4},{"name":"T2","wcet":2,"period":6}]}
J
expect 0 "fp rm" "$B" analyze "$TMP/rm.json" --policy fp --priority rm --sensitivity --json
has '"critical_scaling_factor":"1.5","critical_scaling_factor_exact":"3/2"' "$TMP/out" "rm factor"
has '"name":"T1","wcet":1,"deadline":4,"period":4,"priority":2,"response_time":1,"meets_deadline":true,"wcet_max":2' "$TMP/out" "rm T1"
has '"wcet_max":4}' "$TMP/out" "rm T2"
# EDF: 1 / U = 12/7
expect 0 "edf" "$B" analyze "$TMP/rm.json" --sensitivity --json
has '"critical_scaling_factor":"1.71428571","critical_scaling_factor_exact":"12/7"' "$TMP/out" "edf factor"
has '"wcet_max":2}' "$TMP/out" "edf T1: 2/4 + 2/6 <= 1"
has '"wcet_max":4}' "$TMP/out" "edf T2: 1/4 + 4/6 <= 1"
# without the flag: nothing new
expect 0 "no flag" "$B" analyze "$TMP/rm.json" --json
hasnt 'critical_scaling_factor' "$TMP/out" "no flag"
hasnt 'wcet_max' "$TMP/out" "no flag"
# human output: margins as percentages
expect 0 "human" "$B" analyze "$TMP/rm.json" --policy fp --priority rm --sensitivity
has 'T1wcet1ns,wcet_max2ns:wcetmargin+100%' "$TMP/out" "human wcet margin"
has 'criticalscalingfactor1.5(+50%)' "$TMP/out" "human factor"

# Not schedulable as given: wcet_max null, factor below 1 (U = 5/4: 4/5).
cat >"$TMP/over.json" <<'J'
{"tasks":[{"name":"A","wcet":3,"period":4},{"name":"B","wcet":1,"period":2}]}
J
expect 1 "overloaded" "$B" analyze "$TMP/over.json" --sensitivity --json
has '"critical_scaling_factor":"0.8","critical_scaling_factor_exact":"4/5"' "$TMP/out" "factor < 1"
has '"wcet_max":null' "$TMP/out" "wcet_max null"
expect 1 "overloaded human" "$B" analyze "$TMP/over.json" --sensitivity
has 'criticalscalingfactor0.8(-20%)' "$TMP/out" "negative margin"

# No alpha > 0: a task released at the end of its jitter window cannot finish.
cat >"$TMP/late.json" <<'J'
{"tasks":[{"name":"A","wcet":1,"period":4,"deadline":3,"jitter":3}]}
J
expect 1 "late" "$B" analyze "$TMP/late.json" --policy fp --sensitivity --json
has '"critical_scaling_factor":null,"critical_scaling_factor_exact":null' "$TMP/out" "null factor"

# An empty set: no factor at all.
echo '{"tasks":[]}' >"$TMP/empty.json"
expect 0 "empty" "$B" analyze "$TMP/empty.json" --sensitivity --json
hasnt 'critical_scaling_factor' "$TMP/out" "empty set"

# Overheads: C' = alpha wcet + 2 cs. One task (1, 10) with cs = 1: alpha 8.
cat >"$TMP/cs.json" <<'J'
{"platform":{"cpus":1,"overheads":{"release_latency":0,"context_switch":1}},
 "tasks":[{"name":"A","wcet":1,"period":10}]}
J
expect 0 "overheads" "$B" analyze "$TMP/cs.json" --sensitivity --json
has '"critical_scaling_factor_exact":"8/1"' "$TMP/out" "overheads factor"
has '"wcet_max":8' "$TMP/out" "overheads wcet_max"

# Batch: every line gets the members.
printf '%s\n%s\n' "$(cat "$TMP/rm.json")" "$(cat "$TMP/over.json")" >"$TMP/b.jsonl"
expect 0 "batch" "$B" analyze --batch "$TMP/b.jsonl" --sensitivity
has '"line":1,"policy":"edf","schedulable":true,"utilization":0.5833333333,"critical_scaling_factor":"1.71428571"' "$TMP/out" "batch line 1"
has '"line":2,' "$TMP/out" "batch line 2"
has '"critical_scaling_factor_exact":"4/5"' "$TMP/out" "batch line 2 factor"

# Global tests on 2 CPUs: wcet_max (each task can take its whole deadline:
# the response-time bounds clamp the other task's interference to
# x - C + 1 = 1 < 2 at x = C), no factor (not defined there: left out).
for p in gedf gfp; do
    expect 0 "$p" "$B" analyze "$TMP/rm.json" --policy $p --cpus 2 --sensitivity --json
    has '"period":4,' "$TMP/out" "$p T1"
    # (gedf: the tardiness members follow)
    has '"wcet_max":4' "$TMP/out" "$p T1 wcet_max"
    has '"wcet_max":6' "$TMP/out" "$p T2 wcet_max"
    hasnt 'critical_scaling_factor' "$TMP/out" "$p: no factor"
    expect 0 "$p human" "$B" analyze "$TMP/rm.json" --policy $p --cpus 2 --sensitivity
    has 'T1wcet1ns,wcet_max4ns:wcetmargin+300%' "$TMP/out" "$p human wcet_max"
    has 'criticalscalingfactor:notdefinedunderthesufficientglobaltestson2ormoreCPUs' "$TMP/out" "$p human why"
done
# Batch under gedf on 2 CPUs: wcet_max on every line, no factor.
expect 0 "gedf batch" "$B" analyze --batch "$TMP/b.jsonl" --policy gedf --cpus 2 --sensitivity
has '"line":1,"policy":"gedf","cpus":2,"schedulable":true,"test":"gfb","utilization":0.5833333333,"tasks":[{"name":"T1","wcet":1,"deadline":4,"period":4,"wcet_max":4,"tardiness_bound":0,"tardiness_bound_by":"gfb","tardiness_bound_da":1,"tardiness_bound_cv":0}' "$TMP/out" "gedf batch line 1"
has '"line":2,' "$TMP/out" "gedf batch line 2"
hasnt 'critical_scaling_factor' "$TMP/out" "gedf batch: no factor"
# Not accepted as given: null wcet_max (four tasks of 3/4 on 2 CPUs: U = 3).
cat >"$TMP/g_over.json" <<'J'
{"tasks":[{"name":"A","wcet":3,"period":4},{"name":"B","wcet":3,"period":4},
 {"name":"C","wcet":3,"period":4},{"name":"D","wcet":3,"period":4}]}
J
expect 1 "gedf overloaded" "$B" analyze "$TMP/g_over.json" --policy gedf --cpus 2 --sensitivity --json
has '"wcet_max":null' "$TMP/out" "gedf null"
# Clusters: the 2-CPU cluster has wcet_max and no factor, the 1-CPU one both;
# the plan has no minimum; emit still reads the plan.
cat >"$TMP/cl.json" <<'J'
{"platform":{"cpus":[0,1,2]},"tasks":[{"name":"T1","wcet":1,"period":4},{"name":"T2","wcet":2,"period":6},
 {"name":"T3","wcet":3,"period":7,"deadline":6},{"name":"T4","wcet":2,"period":5}]}
J
expect 0 "clusters" "$B" partition "$TMP/cl.json" --clusters 2,1 --sensitivity --json
has '"cpus":[0,1],"test":"gfb","utilization":1.011904762,"tasks":[{"name":"T1","wcet":1,"deadline":4,"period":4,"wcet_max":2}' "$TMP/out" "cluster wcet_max, no factor"
has '"cpus":[2],"test":"edf","utilization":0.4,"critical_scaling_factor":"2.5","critical_scaling_factor_exact":"5/2"' "$TMP/out" "one-CPU cluster factor"
hasnt '"critical_scaling_factor":"2.5","critical_scaling_factor_exact":"5/2","platform"' "$TMP/out" "no plan minimum"
cp "$TMP/out" "$TMP/cplan.json"
expect 1 "emit reads the clustered plan (1 ns runtimes are not deployable)" "$B" emit "$TMP/cplan.json" --format json
has 'belowLinux' "$TMP/err" "emit got past reading"
expect 0 "clusters human" "$B" partition "$TMP/cl.json" --clusters 2,1 --sensitivity
has 'plan(thesmallestovertheCPUs):criticalscalingfactor:notdefined' "$TMP/out" "plan line"
has 'T3wcet3ns,wcet_max4ns:wcetmargin+33.333%' "$TMP/out" "cluster task line"
has 'T4wcet2ns,wcet_max5ns:wcetmargin+150%' "$TMP/out" "one-CPU task line"

# Equal given priorities (FIFO ties): A's job released with B's waits for it,
# 2 alpha <= 4.
cat >"$TMP/ties.json" <<'J'
{"tasks":[{"name":"A","wcet":1,"period":4,"priority":1},{"name":"B","wcet":1,"period":6,"priority":1}]}
J
expect 0 "given ties" "$B" analyze "$TMP/ties.json" --policy fp --priority given --sensitivity --json
has '"critical_scaling_factor_exact":"2/1"' "$TMP/out" "ties factor"
expect 0 "gedf one cpu" "$B" analyze "$TMP/rm.json" --policy gedf --cpus 1 --sensitivity --json
has '"critical_scaling_factor_exact":"12/7"' "$TMP/out" "gedf on one CPU is EDF"

# EDF at U' = 1 with constrained deadlines, hyperperiod ~ 8.3e14 ns: decided from
# the residues at once (the busy period took past 50M steps); the factor is exactly
# the one filling the CPU.
expect 1 "app12 one cpu" "$B" analyze "$S/examples/app12.json" --policy edf --cpus 1 --sensitivity --json --max-iterations 100000
has '"critical_scaling_factor_exact":"416666650/558333319"' "$TMP/out" "app12 factor"

# Equal given priorities on app12 on one CPU (U = 1.34): the FIFO scan starts at
# the first job's own factor, not at the level utilization's (it walked a busy
# period of ~10^14 ns and hit the 50M-step limit).
sed -e 's/"period": 1000, "cmd"/"period": 1000, "priority": 5, "cmd"/' \
    -e 's/"period": "100ms", "cmd"/"period": "100ms", "priority": 1, "cmd"/' \
    -e 's/"period": 2000, "cmd"/"period": 2000, "priority": 4, "cmd"/' \
    -e 's/"period": "16666.666us", "cmd"/"period": "16666.666us", "priority": 3, "cmd"/' \
    -e 's/"deadline": "33333.332us", "cmd"/"deadline": "33333.332us", "priority": 3, "cmd"/' \
    -e 's/"period": "20ms", "cmd"/"period": "20ms", "priority": 2, "cmd"/' \
    "$S/examples/app12.json" >"$TMP/app12_ties.json"
expect 1 "app12 ties" "$B" analyze "$TMP/app12_ties.json" --policy fp --priority given --cpus 1 --sensitivity --json --max-iterations 100000
has '"critical_scaling_factor_exact":"24999999/33500000"' "$TMP/out" "app12 ties factor"

# Partition: per CPU, the plan's minimum, and emit still reads the plan.
expect 0 "partition" "$B" partition "$S/examples/quickstart.json" --sensitivity --json
cp "$TMP/out" "$TMP/plan.json"
has '"critical_scaling_factor":"1.42857142","critical_scaling_factor_exact":"10/7","platform"' "$TMP/plan.json" "plan minimum"
has '"critical_scaling_factor_exact":"20/13","tasks"' "$TMP/plan.json" "per cpu"
has '"name":"video","wcet":5000000,"deadline":10000000,"period":16666666,"cmd":["video_processing_tool","--fast"],"wcet_max":8000000' "$TMP/plan.json" "plan wcet_max"
expect 0 "emit reads it" "$B" emit "$TMP/plan.json" --format json
expect 0 "partition human" "$B" partition "$S/examples/quickstart.json" --sensitivity
has 'plan(thesmallestovertheCPUs):criticalscalingfactor1.42857142(+42.857%)' "$TMP/out" "plan line"
has 'videowcet5ms,wcet_max8ms:wcetmargin+60%' "$TMP/out" "plan task line"
# SCHED_RR ties (examples/rr-tied.json under its given priorities): the
# sensitivity analysis runs ties as SCHED_FIFO, whose numbers would say the
# set is not schedulable; nothing is computed and the line says why
expect 0 "rr ties" "$B" analyze "$S/examples/rr-tied.json" --policy fp --priority given --sensitivity
has 'criticalscalingfactor:notcomputedforaCPUwithSCHED_RRties' "$TMP/out" "rr: the reason"
hasnt 'wcet_max' "$TMP/out" "rr: no wcet_max"
expect 0 "rr ties json" "$B" analyze "$S/examples/rr-tied.json" --policy fp --priority given --sensitivity --json
hasnt 'wcet_max' "$TMP/out" "rr json: no wcet_max"
hasnt 'critical_scaling_factor' "$TMP/out" "rr json: no factor"
# gfp with arbitrary affinities (review rev13b's set): the verdict is the
# APA analysis's, and so is wcet_max: t3 takes 13 (14 fails), where the
# global test without the affinities said 15; t2 19, not 25. Under OPA
# nothing is computed.
cat >"$TMP/apa.json" <<'JSON'
{"tasks": [{"name": "t0", "wcet": 9, "period": 36, "deadline": 36, "affinity": [1]},
 {"name": "t1", "wcet": 2, "period": 13, "deadline": 8, "affinity": [2]},
 {"name": "t2", "wcet": 6, "period": 27, "deadline": 25, "affinity": [0]},
 {"name": "t3", "wcet": 3, "period": 19, "deadline": 15, "affinity": [0, 1, 2]}]}
JSON
expect 0 "apa" "$B" analyze "$TMP/apa.json" --policy gfp --cpus 3 --priority rm --sensitivity --json
jcheck() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$TMP/out" || fail "$2"; }
jcheck "d['test'] == 'apa' and [t['wcet_max'] for t in d['tasks']] == [30, 8, 19, 13]" "apa: wcet_max by the APA analysis"
sed 's/"wcet": 3, "period": 19/"wcet": 13, "period": 19/' "$TMP/apa.json" >"$TMP/apa13.json"
sed 's/"wcet": 3, "period": 19/"wcet": 14, "period": 19/' "$TMP/apa.json" >"$TMP/apa14.json"
expect 0 "apa at wcet_max" "$B" analyze "$TMP/apa13.json" --policy gfp --cpus 3 --priority rm
expect 1 "apa past wcet_max" "$B" analyze "$TMP/apa14.json" --policy gfp --cpus 3 --priority rm
expect 0 "apa opa" "$B" analyze "$TMP/apa.json" --policy gfp --cpus 3 --priority opa --sensitivity --json
hasnt 'wcet_max' "$TMP/out" "apa opa: no wcet_max"
expect 0 "apa opa human" "$B" analyze "$TMP/apa.json" --policy gfp --cpus 3 --priority opa --sensitivity
has 'notcomputedforarbitraryaffinitiesunderOPA' "$TMP/out" "apa opa: the reason"
expect 0 "partition no flag" "$B" partition "$S/examples/quickstart.json" --json
hasnt 'wcet_max' "$TMP/out" "no flag in plans"
# a bad type in a plan's member is bad input
sed 's/"critical_scaling_factor_exact":\t"10\/7"/"critical_scaling_factor_exact": 3/' "$TMP/plan.json" >"$TMP/bad.json"
expect 2 "bad member" "$B" emit "$TMP/bad.json" --format json
has 'critical_scaling_factor_exact' "$TMP/err" "bad member path"

cli_end
