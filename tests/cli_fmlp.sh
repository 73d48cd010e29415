#!/bin/sh
# tests/cli_fmlp.sh — FMLP+ end to end (docs/spec.md "Shared resources"):
# the protocol word, SchedCAT's numbers on a two-CPU plan through emit's
# re-check, partition and simulate, analyze's "suspension" member, the
# refusals (EDF, mixed protocols, D > T, emit under SCHED_DEADLINE), and the
# overheads of suspensions analysed.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_fmlp

. "$S/tests/support/cli_expect.sh"

# h alone on CPU 0, m and lo on CPU 1, g global (SchedCAT's numbers for this
# placement are in tests/test_fmlp.c): emit re-checks the plan with the FMLP+
# bounds of the whole placement.
cat >"$TMP/plan.json" <<'JSON'
{"feasible":true,"method":"ffd","policy":"fp","platform":{"cpus":[0,1]},
 "resources":[{"name":"g","protocol":"fmlp+"},{"name":"l","protocol":"fmlp+"}],
 "cpus":[{"cpu":0,"tasks":[{"name":"h","wcet":"10ms","period":"50ms","cmd":["true"],"priority":1,
   "requests":[{"resource":"g","count":1,"length":"1ms"}]}]},
  {"cpu":1,"tasks":[{"name":"m","wcet":"10ms","period":"100ms","cmd":["true"],"priority":2,
   "requests":[{"resource":"g","count":1,"length":"2ms"}]},
   {"name":"lo","wcet":"20ms","period":"200ms","cmd":["true"],"priority":1,
   "requests":[{"resource":"g","count":1,"length":"3ms"},{"resource":"l","count":1,"length":"4ms"}]}]}],
 "unassigned":[]}
JSON
expect 0 "emit re-checks an FMLP+ plan" "$B" emit "$TMP/plan.json" --format json
has '"deployable":true' "$TMP/out" "deployable"
expect 0 "emit --format header" "$B" emit "$TMP/plan.json" --format header
has '#defineRTPACK_LOCK_0_PROTOCOLPTHREAD_PRIO_INHERIT' "$TMP/out" "FMLP+ written as a PI mutex"
has 'isanalysedasFMLP+' "$TMP/err" "with the warning that Linux's PI is not FMLP+"
# h at 44 ms: 44 + remote 6 = 50 fits its deadline; 45 does not
sed 's/"name":"h","wcet":"10ms"/"name":"h","wcet":"44ms"/' "$TMP/plan.json" >"$TMP/tight.json"
expect 0 "h at 44 ms: R = 50 ms" "$B" emit "$TMP/tight.json" --format json
sed 's/"name":"h","wcet":"10ms"/"name":"h","wcet":"45ms"/' "$TMP/plan.json" >"$TMP/over.json"
expect 1 "h at 45 ms misses with its remote blocking" "$B" emit "$TMP/over.json" --format json
# simulate runs FMLP+ (suspension, FIFO queues, boosting): lo, suspended
# behind h's and m's sections on g, reaches SchedCAT's 31 ms; h and m stay
# within 16 and 18 ms
expect 0 "simulate the FMLP+ plan" "$B" simulate "$TMP/plan.json" --json
has '"name":"lo","cpu":1,"policy":"fp","priority":1,"jobs":2,"misses":0,"first_miss":null,"response_max":31000000' \
    "$TMP/out" "lo at its bound"
has '"name":"h","cpu":0,"policy":"fp","priority":1,"jobs":8,"misses":0,"first_miss":null,"response_max":10000000' \
    "$TMP/out" "h within its bound"
has '"name":"m","cpu":1,"policy":"fp","priority":2,"jobs":4,"misses":0,"first_miss":null,"response_max":14000000,"blocking_max":4000000' \
    "$TMP/out" "m within its bound, suspended 4 ms at most"
expect 0 "its chart" "$B" simulate "$TMP/plan.json" --until 60ms --svg "$TMP/fmlp.svg"
has 'dashed:suspended(FMLP+)' "$TMP/fmlp.svg" "the legend names suspension"
has 'stroke-dasharray="32"' "$TMP/fmlp.svg" "a suspension drawn"
sed 's/"policy":"fp"/"policy":"edf"/; s/,"priority":[12]//g' "$TMP/plan.json" >"$TMP/edfplan.json"
expect 1 "an EDF plan with fmlp+ is not deployable" "$B" emit "$TMP/edfplan.json" --format json
has 'fmlp+' "$TMP/err" "names the protocol"

# analyze: one CPU, every section local; a suspension member beside spin
cat >"$TMP/set.json" <<'JSON'
{"resources":[{"name":"g","protocol":"fmlp+"},{"name":"l","protocol":"fmlp+"}],"tasks":[
 {"name":"h","wcet":10,"period":50,"requests":[{"resource":"g","count":1,"length":1}]},
 {"name":"m","wcet":10,"period":100,"requests":[{"resource":"g","count":1,"length":2}]},
 {"name":"lo","wcet":20,"period":200,"requests":[{"resource":"g","count":1,"length":3},{"resource":"l","count":1,"length":4}]}]}
JSON
expect 0 "analyze fp (opa)" "$B" analyze "$TMP/set.json" --policy fp --json
has '"computed_blocking":9,"spin":0,"blocking_resource":"g","suspension":0' "$TMP/out" "h: 2 boosted sections of m and lo per arrival"
expect 0 "partition fp" "$B" partition "$TMP/set.json" --policy fp --cpus 2 --json
has '"protocol":"fmlp+"' "$TMP/out" "the plan keeps the protocol"
has '"suspension":' "$TMP/out" "and the suspension member"
expect 0 "partition fp sfd" "$B" partition "$TMP/set.json" --policy fp --cpus 2 --method sfd --json
expect 0 "partition fp best" "$B" partition "$TMP/set.json" --policy fp --cpus 2 --method best --json

# refusals
expect 2 "fmlp+ under edf" "$B" analyze "$TMP/set.json" --policy edf --json
has 'fmlp+' "$TMP/err" "names the protocol"
expect 2 "partition edf" "$B" partition "$TMP/set.json" --policy edf --cpus 2 --json
expect 2 "simulate fmlp+ under edf" "$B" simulate "$TMP/set.json" --policy edf
has 'resources[0].protocol:fmlp+issimulated,asitisanalysed,underfixedprioritiesonly' "$TMP/err" \
    "simulate names the protocol"
sed 's/"name":"l","protocol":"fmlp+"/"name":"l"/' "$TMP/set.json" >"$TMP/mixed.json"
expect 2 "fmlp+ beside auto" "$B" analyze "$TMP/mixed.json" --policy fp --json
has 'resources[1].protocol' "$TMP/err" "the path of the other protocol"
sed 's/"name":"l","protocol":"fmlp+"/"name":"l","protocol":"msrp"/' "$TMP/set.json" >"$TMP/mixed.json"
expect 2 "fmlp+ beside msrp" "$B" analyze "$TMP/mixed.json" --policy fp --json
has 'resources[1].protocol' "$TMP/err" "the path of the other protocol"

# fmlp+ beside a local pcp resource: h (top) can find g held by m (one
# resumption), so lo's p section can block it at its release and after the
# resumption: 2 x 4, plus m's two boosted g sections 2 x 2: B = 12, R = 22;
# m: 2 x 4 on p (its g may wait for h's), R = 10 + 8 + 10 = 28.
cat >"$TMP/pcp.json" <<'JSON'
{"resources":[{"name":"g","protocol":"fmlp+"},{"name":"p","protocol":"pcp"}],"tasks":[
 {"name":"h","wcet":10,"period":50,"requests":[{"resource":"g","count":1,"length":1},{"resource":"p","count":1,"length":2}]},
 {"name":"m","wcet":10,"period":100,"requests":[{"resource":"g","count":2,"length":2}]},
 {"name":"lo","wcet":20,"period":200,"requests":[{"resource":"p","count":1,"length":4}]}]}
JSON
expect 0 "fmlp+ beside pcp" "$B" analyze "$TMP/pcp.json" --policy fp --priority dm --json
has '"priority":3,"response_time":22,"meets_deadline":true,"computed_blocking":12,"spin":0,"blocking_resource":"p","suspension":0' "$TMP/out" "h: two ceiling blockings"
has '"priority":2,"response_time":28,"meets_deadline":true,"computed_blocking":8,"spin":0,"blocking_resource":"p"' "$TMP/out" "m: two ceiling blockings"
# simulated too (a ceiling holder just above its ceiling, below boosted
# holders; tests/test_sim_locks.c holds it to the unit-step reference)
expect 0 "simulate fmlp+ beside pcp" "$B" simulate "$TMP/pcp.json" --policy fp --priority dm --json
has '"name":"h","cpu":0,"policy":"fp","priority":3,"jobs":8,"misses":0,"first_miss":null,"response_max":10' "$TMP/out" "h within its bound 22"
has '"name":"lo","cpu":0,"policy":"fp","priority":1,"jobs":2,"misses":0,"first_miss":null,"response_max":40' "$TMP/out" "lo within its bound 40"
expect 0 "partition onto one CPU" "$B" partition "$TMP/pcp.json" --policy fp --cpus 1 --json
cp "$TMP/out" "$TMP/pcp.plan"
expect 0 "emit header" "$B" emit "$TMP/pcp.plan" --format header
has '#defineRTPACK_LOCK_0_PROTOCOLPTHREAD_PRIO_INHERIT' "$TMP/out" "g a PI mutex"
has '#defineRTPACK_LOCK_1_PROTOCOLPTHREAD_PRIO_PROTECT' "$TMP/out" "p a ceiling mutex"
sed 's/"name":"h","wcet":10,"period":50/"name":"h","wcet":10,"period":50,"deadline":60/' "$TMP/set.json" >"$TMP/dt.json"
expect 3 "D > T is not analysed" "$B" analyze "$TMP/dt.json" --policy fp --json

# overheads (docs/spec.md "Lock overheads"): context switch 1, release
# latency 2. C' = wcet + 2 + 3 per request; a section is held length + 2 + 2
# (wake-up, switch in, switch after); each possible resumption adds the
# wake-up to the suspension. h (DM, top): B^l = m's g twice (2 jobs pending
# in 46 + 64) 2 x 6 + lo's l and g 8 + 7 = 27, suspension 2, R = 15 + 29 +
# J' 2 = 46; m: J*_h = 46 - 15 = 31, w = 15 + 17 + 2 x 15 = 62, R = 64.
sed 's/{"resources"/{"platform":{"overheads":{"context_switch":1,"release_latency":2}},"resources"/' "$TMP/set.json" >"$TMP/ov.json"
expect 0 "fmlp+ with a context switch and a release latency" "$B" analyze "$TMP/ov.json" --policy fp --priority dm --json
has '"name":"h","wcet":10,"deadline":50,"period":50,"priority":3,"response_time":46,"meets_deadline":true,"computed_blocking":29,"spin":0,"blocking_resource":"g","suspension":2' "$TMP/out" "h: 15 + 29 + 2"
has '"name":"m","wcet":10,"deadline":100,"period":100,"priority":2,"response_time":64,"meets_deadline":true,"computed_blocking":17,"spin":0,"blocking_resource":"l","suspension":2' "$TMP/out" "m: 62 + 2"
cli_end
