#!/bin/sh
# tests/cli_plan_holds_real.sh — the loop docs/deploy.md starts with, on this
# machine, as root (under the machine lock: flock /work/locks/live.lock ctest
# -R _real): `rtpack probe` for 20 s (twice the rehearsal: a measured
# maximum bounds only what the probe saw, and the rare stalls of a virtual
# CPU come every few seconds), its platform member pasted into a task set, `partition` under EDF and under FP with the probed overheads
# (the SCHED_DEADLINE charge and the noise included), and `rehearse` of each
# plan for 10 s with every job running its whole wcet (--load 1, the default)
# and emit's defaults: zero misses under both policies, and under EDF every
# response within its bound (docs/spec.md "The SCHED_DEADLINE charge",
# "rtpack rehearse"). Under FP a response above its analysed bound without
# a miss is printed, not failed: the FP bound is tight (often within 10 % of
# what is observed), and a virtual CPU's rare stall of 2-4 ms that the 20 s
# probe did not see lifts a response past it; measured while this was
# built: 2 of 6 FP runs had one or two tasks over their bound by such a
# stall (the probe had seen 0.3 and 0.5 ms), with 0 misses in every run. The set is modest (periods 20-200 ms, U = 0.5 on 2
# CPUs) so that any probed latency below ~10 ms leaves it schedulable. A
# probe that caught a rare stall of several ms in its charge jobs (seen once
# in a CI run: deadline_charge 5.95 ms from one job, 0.4 ms otherwise) makes
# the set unprovable, and partition rightly refuses it: the probe is then
# repeated, at most twice (live_prove), and a set still refused is a
# failure, never a skip. A
# rehearsal with a miss is repeated at most twice (live_retry,
# tests/support/live.sh), printing every try: a plan that misses every
# time fails.
# Prints jobs, misses and the load average of each run.
# Skips (exit 0, message) when not root or without SCHED_DEADLINE cpusets.
set -u
. "${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}/tests/support/live.sh"
live_begin cli_plan_holds_real

[ "$(id -u)" -eq 0 ] || skip "needs root (cpusets, SCHED_DEADLINE, SCHED_FIFO)"
[ -d /sys/fs/cgroup/cpuset ] || skip "needs the cgroup v1 cpuset controller"
command -v python3 > /dev/null || skip "needs python3 to read the JSON"

probe_and_set() {
"$B" probe --seconds 20 --json > "$TMP/probe.json" || return 1
python3 - "$TMP/probe.json" "$TMP/set.json" <<'PY' || return 1
import json, sys
probe = json.load(open(sys.argv[1]))
ov = probe["platform"].get("overheads", {})
for k in ("release_latency", "context_switch", "deadline_charge"):
    if k not in ov:
        sys.exit("the probe's platform has no %s: %r" % (k, probe["skipped"]))
charge = [c["deadline_charge"] for c in probe["cpus"]]
print("probe:", ov, "charge samples per CPU:",
      [[l["samples"] for l in c["lengths"]] if c else None for c in charge])
ms = lambda x: "%gms" % x
tasks = [("control", 1.5, 20), ("filter", 3, 25), ("estimator", 6, 40), ("telemetry", 4, 50),
         ("planner", 12, 100), ("vision", 10, 66.666666), ("logger", 10, 200), ("ui", 5, 100)]
json.dump({"platform": {"cpus": 2, "overheads": ov},
           "tasks": [{"name": n, "wcet": ms(c), "period": ms(t), "cmd": "unused"}
                     for n, c, t in tasks]}, open(sys.argv[2], "w"))
PY
}

# Both policies must prove the set with the probed terms (the probe
# repeated, see the header); the plans proved() writes are the ones rehearsed.
proved() {
    all=0
    for policy in edf fp; do
        "$B" partition "$TMP/set.json" --policy "$policy" --capacity 0.9 --json \
            > "$TMP/$policy.plan" 2> /dev/null || { rm -f "$TMP/$policy.plan"; all=1; }
    done
    return $all
}
# probe and plan, at most 3 times (live_prove): a probe under load can see
# a stall of ~20 ms (a CI run beside two reviewers: 20.3 and 18.9 ms), which
# rightly proves nothing
prove_both() { probe_and_set && proved; }
live_prove prove_both "set under both policies" || true

# One rehearsal of $policy's plan and its judgement (live_retry repeats it
# at most twice when only timing failed: tests/support/live.sh says why).
hold_try() {
    load=$(cut -d' ' -f1 /proc/loadavg)
    "$B" rehearse "$TMP/$policy.plan" --seconds 10 --json > "$TMP/$policy.out" 2> "$TMP/$policy.err"
    live_judge "$TMP/$policy.out" "$policy" "$?" "$load" 600 kernel
}
for policy in edf fp; do
    if ! [ -s "$TMP/$policy.plan" ]; then
        fail "partition $policy could not prove the set with the probed terms: $("$B" partition "$TMP/set.json" --policy "$policy" --capacity 0.9 --explain 2>&1 | tail -5)"
        continue
    fi
    live_retry hold_try "the $policy rehearsal"
    case $? in
        0) ok "the $policy plan held: 0 misses" ;;
        77) ;; # the hypervisor took the CPUs during every try (live_retry)
        *) fail "rehearse $policy: $(cat "$TMP/$policy.err")" ;;
    esac
done

cli_end
