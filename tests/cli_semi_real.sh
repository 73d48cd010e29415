#!/bin/sh
# tests/cli_semi_real.sh — a semi-partitioned SCHED_FIFO plan (partition
# --method semi, docs/spec.md "rtpack partition") rehearsed on this machine's
# 2 CPUs with its probed terms, as root (under the machine lock: flock
# /work/locks/live.lock ctest -R _real):
# - `rtpack probe` (20 s, five times the rehearsal: see below), its platform
#   member pasted into the set; the
#   arbitrary-affinity analysis models the probed release latency as jitter
#   (J'), so partition accepts the plan; a probe that caught one of the
#   virtual CPU's rare stalls can make the set unprovable, so the probe is
#   repeated at most twice more, as cli_plan_holds_real and cli_rr_soft_real
#   do, and a set still refused fails (never a skip); the set is proved
#   (partition's semi method) from no noise up to 300 us/ms of noise with
#   up to 8 ms of release latency: a run at load 0.36 probed 6.6, 9.1 and
#   3.5 ms with 237 us/ms of noise and could not prove the set with the
#   periods halved, and the eighth session's runs probed 229-236 us/ms at
#   load < 1, which the earlier set (0.35, 0.35, 0.30 at --capacity 0.6)
#   could not take past 190 us/ms (its C' summed over both CPUs then passed
#   2 x 0.6);
# - the set: a (6 of 20 ms), b and c (12 of 40 ms each), equal utilization
#   0.30, c last in input order: first fit decreasing pins a on CPU 0 and b
#   on CPU 1, and c, with --capacity 0.59, fits neither alone (0.6 > 0.59)
#   and migrates over both (its mask 0,1; "test": "apa"); the three C' stay
#   within 2 x 0.59 up to ~310 us/ms of noise (0.9 x (1 + noise) plus the
#   context switches). Equal utilizations are what lets one set span the
#   whole range: c must be the last task first fit decreasing places (so at
#   most a's utilization), must not fit beside a at no noise, and the three
#   together must fit the two CPUs' capacity at the most noise;
#   c's bound has several ms of room, but a pinned task alone on its
#   CPU is bounded by J' + C' exactly, so a wake-up later than any the probe
#   saw (a stall of the virtual CPU) lifts its response past the bound: a CI
#   run at load 3.4 (periods halved) saw a at 6.01 ms against 5.80 ms (probe 2.09 ms, the
#   rehearsal's wake-up ~2.3 ms), 0 misses. So, as cli_plan_holds_real does
#   for its tight fp bounds, a pinned task's overrun is printed, not failed;
#   the migrating task, the one the arbitrary-affinity analysis bounds, is
#   held to its bound;
# - `rehearse` for 8 s (every job its whole wcet; 800 jobs): each workload's
#   Cpus_allowed_list is read while it runs and must be its plan mask (the
#   launch script's taskset -c, after the cgroup join), 0 misses (asserted),
#   c within its [GCB13] bound (asserted), the machine restored; a rehearsal
#   with a miss or c over its bound is repeated at most twice (live_retry in
#   tests/support/live.sh says why; stop 34's CI saw c at 21.5 ms against
#   16.7 ms once, periods halved), and one that fails every time fails the test.
# Prints jobs, misses, responses beside bounds, and the load average.
# Skips (exit 0, message) when not root or without the cgroup v1 cpuset
# controller or fewer than 2 CPUs.
set -u
. "${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}/tests/support/live.sh"
live_begin cli_semi_real

[ "$(id -u)" -eq 0 ] || skip "needs root (cpusets, SCHED_FIFO)"
[ -d /sys/fs/cgroup/cpuset ] || skip "needs the cgroup v1 cpuset controller"
command -v python3 > /dev/null || skip "needs python3 to read the JSON"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

semi_plan() {
    "$B" probe --seconds 20 --json > "$TMP/probe.json" || return 1
    python3 - "$TMP/probe.json" "$TMP/semi.json" <<'PY' || return 1
import json, sys
ov = json.load(open(sys.argv[1]))["platform"].get("overheads", {})
if "release_latency" not in ov:
    sys.exit("the probe measured no release_latency")
print("probe:", ov)
tasks = [("a", "6ms", "20ms"), ("b", "12ms", "40ms"), ("c", "12ms", "40ms")]
json.dump({"platform": {"cpus": 2, "overheads": ov},
           "tasks": [{"name": n, "wcet": c, "period": p, "cmd": "unused"} for n, c, p in tasks]},
          open(sys.argv[2], "w"))
PY
    "$B" partition "$TMP/semi.json" --policy fp --method semi --capacity 0.59 --json \
        > "$TMP/semi.plan" 2> /dev/null
}
if ! live_prove semi_plan "semi set"; then
    fail "semi plan after 3 probes: $("$B" partition "$TMP/semi.json" --policy fp --method semi --capacity 0.59 --explain 2>&1 | tail -4)"
    cli_end
fi
# The plan: one apa cluster of both CPUs, c migrating over both, a and b
# pinned; the mask of each task in plan order into masks.txt.
python3 - "$TMP/semi.plan" "$TMP/masks.txt" <<'PY' || fail "the plan is not semi-partitioned"
import json, sys
plan = json.load(open(sys.argv[1]))
assert plan["method"] == "semi" and len(plan["clusters"]) == 1, plan
cl = plan["clusters"][0]
assert cl["test"] == "apa" and cl["cpus"] == [0, 1], cl
masks = [t.get("affinity", cl["cpus"]) for t in cl["tasks"]]
by = {t["name"]: m for t, m in zip(cl["tasks"], masks)}
assert by["c"] == [0, 1] and len(by["a"]) == 1 and len(by["b"]) == 1, by
for t, m in zip(cl["tasks"], masks):
    print("plan: %s mask %s priority %d bound %.3f ms" %
          (t["name"], m, t["priority"], t["response_time"] / 1e6))
open(sys.argv[2], "w").write("\n".join(",".join(map(str, m)) for m in masks) + "\n")
PY
"$B" emit "$TMP/semi.plan" --format script --out "$TMP/semi.sh" || fail "emit"
grep -q "'c' 'c' taskset -c 0,1 chrt -f" "$TMP/semi.sh" || fail "c not started on its mask"

# One rehearsal and its judgement (live_retry): 2 when the masks, the exit
# or the machine are wrong, 1 when only timing failed (a miss, c over its
# bound), 0 when the plan held.
semi_try() {
    load=$(cut -d' ' -f1 /proc/loadavg)
    "$B" rehearse "$TMP/semi.plan" --seconds 8 --json > "$TMP/reh.json" 2> "$TMP/reh.err" &
    reh=$!
    # While it runs: each workload (argv "--out DIR/results/K.txt", K its
    # place in the plan) must be allowed exactly its plan mask.
    sleep 2
    python3 - "$TMP/masks.txt" > "$TMP/allowed.txt" <<'PY'
import glob, os, re, sys
masks = open(sys.argv[1]).read().split()
def expand(s):
    out = []
    for part in s.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out
seen = {}
for d in glob.glob("/proc/[0-9]*"):
    try:
        argv = open(d + "/cmdline", "rb").read().split(b"\0")
        status = open(d + "/status").read()
    except OSError:
        continue
    if not argv[0].endswith(b"rtpack-workload") or b"--out" not in argv:
        continue
    k = int(re.search(rb"/results/(\d+)\.txt$", argv[argv.index(b"--out") + 1]).group(1))
    allowed = re.search(r"^Cpus_allowed_list:\s*(\S+)", status, re.M).group(1)
    seen[k] = expand(allowed)
for k, m in enumerate(masks):
    got = seen.get(k)
    print("task %d: plan mask %s, allowed %s" % (k, m, got))
    if got != [int(c) for c in m.split(",")]:
        print("MISMATCH")
PY
    wait "$reh"
    rc=$?
    cat "$TMP/allowed.txt"
    grep -q MISMATCH "$TMP/allowed.txt" && { echo "FAIL: a workload's CPUs are not its mask"; return 2; }
    [ "$(grep -c '^task' "$TMP/allowed.txt")" -eq 3 ] || { echo "FAIL: not every workload was seen"; return 2; }
    # exit 1 is a miss or a response over its bound: the checks below say which
    [ "$rc" -le 1 ] || { echo "FAIL: rehearse exit $rc: $(cat "$TMP/reh.err")"; return 2; }
    echo "semi: load average $load before the rehearsal"
    live_show semi "$TMP/reh.json" || return $?
    python3 - "$TMP/reh.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
jobs = sum(t["jobs"] for t in d["tasks"])
misses = sum(t["misses"] for t in d["tasks"])
print("semi: %d jobs, %d misses" % (jobs, misses))
if jobs < 600:
    print("FAIL: only %d jobs" % jobs); sys.exit(2)
c = [t for t in d["tasks"] if t["name"] == "c"][0]
if c["bound"] is None:
    print("FAIL: the migrating task c has no bound"); sys.exit(2)
if misses or c["response_max"] > c["bound"]:
    print("FAIL: %d misses, c's worst response %d ns against its bound %d ns" %
          (misses, c["response_max"], c["bound"]))
    sys.exit(1)
PY
}
live_retry semi_try "the semi rehearsal"
r=$?
[ "$r" -eq 0 ] || [ "$r" -eq 77 ] || fail "the semi plan: see the tries above"
[ "$r" -ne 77 ] || cli_end "INCONCLUSIVE: the hypervisor took the CPUs during every try"
cli_end "semi plan: masks applied, 0 misses, the migrating task within its bound"
