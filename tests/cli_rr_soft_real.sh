#!/bin/sh
# tests/cli_rr_soft_real.sh — the SCHED_RR and soft plans rehearsed on this machine, as
# root (run it under the machine lock: flock /work/locks/live.lock ctest -R
# _real):
# - a SCHED_RR plan with tied priorities (docs/spec.md "SCHED_RR"), the
#   machine's own quantum and tick from `rtpack probe`'s kernel facts: the
#   emitted script starts the tied tasks with chrt -r (its status check
#   expects SCHED_RR), the tied tasks run their jobs, and their observed
#   responses are printed beside the analysed bounds (with the platform's
#   overheads of this VM's order: release latency 3 ms, context switch 50 us);
#   a response over its bound is reported with the reason, not failed: on the
#   shared VM a wake-up has been seen 28 ms late, as cli_plan_holds_real
#   reports its FP responses;
# - a soft global-EDF cluster (partition --soft) with the probed overheads:
#   every observed response within its deadline plus its tardiness bound
#   (asserted), and the machine restored.
# Skips (exit 0, message) when not root or when HZ or the quantum is unknown.
set -u
. "${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}/tests/support/live.sh"
live_begin cli_rr_soft_real

[ "$(id -u)" -eq 0 ] || skip "needs root (cpusets, SCHED_RR, SCHED_DEADLINE)"
command -v python3 > /dev/null || skip "needs python3 to read the JSON"
ms=$(cat /proc/sys/kernel/sched_rr_timeslice_ms 2>/dev/null) || skip "no sched_rr_timeslice_ms"
hz=$(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p')
[ -n "$hz" ] || hz=$(sed -n 's/^CONFIG_HZ=//p' "/boot/config-$(uname -r)" 2>/dev/null)
[ -n "$hz" ] || skip "HZ unknown"
tick=$((1000000000 / hz))
if [ "$ms" -le 0 ]; then k=$((100 * hz / 1000)); else k=$(((ms * hz + 999) / 1000)); fi
quantum=$((k * tick))

# SCHED_RR: control and logger tied at 50, a sensor above them.
cat > "$TMP/rr.json" <<JSON
{ "platform": { "cpus": 1, "rr_quantum": $quantum, "tick": $tick,
                "overheads": { "release_latency": "3ms", "context_switch": "50us" } },
  "tasks": [
    { "name": "sensor", "wcet": "1ms", "period": "10ms", "priority": 90, "cmd": "true" },
    { "name": "control", "wcet": "2ms", "period": "50ms", "priority": 50, "policy": "rr",
      "cmd": "true" },
    { "name": "logger", "wcet": "8ms", "period": "100ms", "priority": 50, "policy": "rr",
      "cmd": "true" } ] }
JSON
# --ties given: with the machine's 100 ms quantum SCHED_FIFO's bounds are
# the smaller (no turn is shorter than a job here, and turns cost switches),
# so partition would choose SCHED_FIFO for the level; this rehearses SCHED_RR.
"$B" partition "$TMP/rr.json" --policy fp --priority given --ties given --json > "$TMP/rr-plan.json" ||
    fail "rr plan"
"$B" emit "$TMP/rr-plan.json" --format script --out "$TMP/rr.sh" 2> /dev/null || fail "rr emit"
grep -q "SCHED_RR 'control' 'control' taskset -c 0 chrt -r" "$TMP/rr.sh" || fail "chrt -r"
grep -q "SCHED_RR 'logger' 'logger' taskset -c 0 chrt -r" "$TMP/rr.sh" || fail "chrt -r logger"
"$B" rehearse "$TMP/rr-plan.json" --seconds 3 --json > "$TMP/rr-reh.json"
rc=$?
[ "$rc" -le 1 ] || fail "rr rehearse exit $rc"
live_show rr "$TMP/rr-reh.json" || fails=$((fails + 1))
[ "$fails" -eq 0 ] && ok "SCHED_RR rehearsal (chrt -r, jobs run, responses printed)"

# A soft global-EDF cluster of both CPUs with the machine's probed terms
# (U = 1.35; the probed release latency is every task's jitter, which no
# hard global test models, so only the soft test can admit it): rehearse
# holds each task to its deadline plus its tardiness bound (docs/spec.md
# "rtpack rehearse"), and every observed response must be within it.
# The soft test needs sum C' / (T - J') <= 2 (solver/tardiness.h): with
# 18 ms of 40 ms a probe of up to ~8 ms of release latency with 10% noise
# and a 1.2 ms deadline charge still proves it. The earlier 10 ms of 20 ms
# (U = 1.5) stopped at ~3.8 ms: a fresh-clone CI run at load 9 probed 2.2,
# 4.5 and 4.8 ms (noise 84-101 us/ms) and could not prove it.
# A probe that caught one of the virtual CPU's rare stalls (seen once in a CI
# run: release latency 9.96 ms at load 0.4) makes the set unprovable and
# partition rightly refuses it: the probe is repeated, at most twice more,
# and a set still refused is a failure, never a skip (cli_plan_holds_real).
soft_plan() {
    "$B" probe --seconds 10 --json > "$TMP/probe.json" || return 1
    python3 - "$TMP/probe.json" "$TMP/soft.json" <<'PY' || return 1
import json, sys
ov = json.load(open(sys.argv[1]))["platform"].get("overheads", {})
print("probe:", ov)
json.dump({"platform": {"cpus": 2, "overheads": ov},
           "tasks": [{"name": n, "wcet": "18ms", "period": "40ms"} for n in "abc"]},
          open(sys.argv[2], "w"))
PY
    "$B" partition "$TMP/soft.json" --clusters 2 --soft --json > "$TMP/soft-plan.json" 2> /dev/null
}
if ! live_prove soft_plan "soft set"; then
    fail "soft plan after 3 probes: $("$B" partition "$TMP/soft.json" --clusters 2 --soft --explain 2>&1 | tail -3)"
    cli_end
fi
grep -q '"soft":[[:space:]]*true' "$TMP/soft-plan.json" || fail "the plan is not labelled soft"
# One rehearsal and its judgement (live_retry repeats it at most twice when
# only timing failed: tests/support/live.sh says why).
soft_try() {
    load=$(cut -d' ' -f1 /proc/loadavg)
    "$B" rehearse "$TMP/soft-plan.json" --seconds 8 --json > "$TMP/soft-reh.json"
    rc=$?
    [ "$rc" -le 1 ] || { echo "FAIL: soft rehearse exit $rc"; return 2; }
    echo "soft: load average $load"
    live_show soft "$TMP/soft-reh.json" strict
}
live_retry soft_try "the soft rehearsal"
r=$?
[ "$r" -eq 0 ] || [ "$r" -eq 77 ] || fail "the soft cluster: see the tries above"
[ "$r" -ne 77 ] || cli_end "INCONCLUSIVE: the hypervisor took the CPUs during every try"
cli_end "soft cluster held its tardiness bounds, machine restored"
