# tests/support/live.sh — what the live tests (*_real.sh) that rehearse plans
# share, sourced after they set BIN (the built rtpack):
#   live_begin NAME         a scratch folder $T removed on exit, FAILS=0, and
#                           fail/ok/skip (skip exits 0 with NAME's message);
#                           on exit also fails if /run/rtpack was created and
#                           left behind
#   live_judge OUT POLICY RC LOAD MIN_JOBS GRID?
#                           prints the rehearsal document OUT (rehearse --json,
#                           exit RC, the load average LOAD before it) per task
#                           and fails (non-zero) on a miss, an edf response over
#                           its bound, an exit other than 0/1 (1 only with
#                           a miss or a response over a bound), fewer than
#                           MIN_JOBS jobs, a machine not restored, or (GRID
#                           given, e.g. kernel) an edf rehearsal whose
#                           arrivals were not on GRID. An fp
#                           response over its tight bound without a miss is
#                           printed, not failed (cli_plan_holds_real's header).
#   live_prove FUNC WHAT    runs FUNC (probe the machine, then plan WHAT with
#                           the probed terms) up to 3 times until it returns
#                           0: a probe that caught one of the virtual CPU's
#                           rare stalls can make a set unprovable; 1 when
#                           every try failed (the caller fails, never skips)
#   live_show TAG OUT strict?
#                           prints each task's jobs, misses and worst response
#                           and fails when a task ran no job or the machine was
#                           not restored; with strict also when a task has no
#                           bound or a response passed it (else reported only).
# shellcheck shell=sh
live_begin() {
    LIVE_NAME=$1
    T=$(mktemp -d "/tmp/rtp_$1.XXXXXX") || exit 1
    LIVE_STATE_DIR=0
    [ ! -d /run/rtpack ] || LIVE_STATE_DIR=1
    trap live_exit EXIT
    FAILS=0
}

# On exit: $T removed, and a failure when rtpack's default state folder
# exists now but did not at live_begin (a stop that left it behind).
live_exit() {
    l_rc=$?
    rm -rf "$T"
    if [ "$LIVE_STATE_DIR" -eq 0 ] && [ -d /run/rtpack ]; then
        echo "FAIL: /run/rtpack left behind (holding: $(ls -A /run/rtpack | tr '\n' ' '))"
        [ "$l_rc" -ne 0 ] || l_rc=1
    fi
    exit "$l_rc"
}
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }
skip() { echo "SKIP $LIVE_NAME: $*"; exit 0; }

live_judge() {
    python3 - "$@" <<'PY'
import json, sys
out, policy, rc, load, min_jobs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
grid = sys.argv[6] if len(sys.argv) > 6 else None
doc = json.load(open(out))
jobs = sum(t["jobs"] for t in doc["tasks"]); misses = sum(t["misses"] for t in doc["tasks"])
over = [t["name"] for t in doc["tasks"] if t["over_bound"]]
print("%s: %d jobs, %d misses, over the bound: %s, load average %s, arrivals %s" %
      (policy, jobs, misses, over or "none", load, doc["arrival_grid"]))
for t in doc["tasks"]:
    print("  %-10s cpu %d jobs %5d misses %d max %8.3f ms bound %s" %
          (t["name"], t["cpu"], t["jobs"], t["misses"], t["response_max"] / 1e6,
           "none" if t["bound"] is None else "%8.3f ms" % (t["bound"] / 1e6)))
bad = []
if misses: bad.append("%d misses" % misses)
if over and policy == "edf": bad.append("responses over the bound: %s" % over)
if over and policy == "fp":
    print("note: fp responses over the analysed bound without a miss: %s (a stall the probe "
          "did not see)" % over)
if rc not in (0, 1) or (rc == 1 and not over and not misses): bad.append("exit %d" % rc)
if doc["load"] != 1: bad.append("load %r" % doc["load"])
if not doc["machine_restored"]: bad.append("machine not restored: %s" % doc.get("left"))
if grid and policy == "edf" and doc["arrival_grid"] != grid: bad.append("arrivals %r" % doc["arrival_grid"])
if jobs < min_jobs: bad.append("only %d jobs" % jobs)
if bad:
    sys.exit("; ".join(bad))
PY
}

live_prove() {
    p_try=0
    while [ "$p_try" -lt 3 ]; do
        p_try=$((p_try + 1))
        "$1" && return 0
        echo "note: the probed terms cannot prove the $2 (try $p_try of 3)"
    done
    return 1
}

live_show() {
    python3 - "$@" <<'PY'
import json, sys
tag, d = sys.argv[1], json.load(open(sys.argv[2]))
strict = len(sys.argv) > 3 and sys.argv[3] == "strict"
over = []
for t in d["tasks"]:
    print("%s: %s jobs %d misses %d response_max %d bound %s" %
          (tag, t["name"], t["jobs"], t["misses"], t["response_max"], t["bound"]))
    if t["bound"] is not None and t["response_max"] > t["bound"]:
        print("  over its bound by %d ns" % (t["response_max"] - t["bound"]))
        over.append(t["name"])
    elif t["bound"] is None and strict:
        over.append(t["name"] + " (no bound)")
assert d["machine_restored"], "machine not restored: %s" % d.get("left")
assert all(t["jobs"] > 0 for t in d["tasks"]), "a task ran no job"
assert not (strict and over), "over their bounds: %s" % over
PY
}
