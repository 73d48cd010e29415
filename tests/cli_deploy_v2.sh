#!/bin/sh
# tests/cli_deploy_v2.sh — the launch script's cgroup v2 path against a fake
# cgroup folder (this machine's cgroup v2 has no cpuset controller). chrt,
# taskset and rmdir are replaced by logging shims on PATH, so no real policy
# or cgroup changes; the launched commands are plain sleeps, killed by stop.
# Checks: detection, subtree_control, cpus/mems/partition files, the exact
# chrt words, the housekeeping-CPU rule, stop restoring the folder. Needs
# root only because the script checks for it (skips otherwise).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_deploy_v2
# running PID: alive and not a zombie (a zombie is gone for our purpose).
running() {
    st=$(grep '^State:' "/proc/$1/status" 2>/dev/null) || return 1
    case $st in *Z*) return 1 ;; esac
    return 0
}
[ "$(id -u)" -eq 0 ] || { echo "SKIP cli_deploy_v2: the script under test insists on root"; exit 0; }

FAKE=$TMP/cgroup
mkdir -p "$FAKE" "$TMP/bin" "$TMP/state"
echo "cpuset cpu io memory pids" > "$FAKE/cgroup.controllers"
echo "cpu memory" > "$FAKE/cgroup.subtree_control"
echo "0-3" > "$FAKE/cpuset.cpus.effective"
echo "0-1" > "$FAKE/cpuset.mems.effective"

cat > "$TMP/bin/chrt" <<'EOS'
#!/bin/sh
# shim: records the call; -p reports the policy recorded for that pid
if [ "$1" = -p ]; then cat "$SHIM_DIR/policy.$2" 2>/dev/null; exit 0; fi
echo "chrt $*" >> "$SHIM_DIR/log"
case " $* " in
*" -d "*) echo "pid $$'s current scheduling policy: SCHED_DEADLINE" > "$SHIM_DIR/policy.$$" ;;
*" -f "*) echo "pid $$'s current scheduling policy: SCHED_FIFO" > "$SHIM_DIR/policy.$$" ;;
esac
while [ $# -gt 0 ]; do
    case $1 in
    -R | -d | -f) shift ;;
    --sched-*) shift 2 ;;
    *) shift; break ;;
    esac
done
exec "$@"
EOS
cat > "$TMP/bin/taskset" <<'EOS'
#!/bin/sh
echo "taskset $1 $2" >> "$SHIM_DIR/log"
shift 2
exec "$@"
EOS
cat > "$TMP/bin/rmdir" <<'EOS'
#!/bin/sh
# shim: a fake cgroup folder holds plain files
case $1 in "$SHIM_FAKE"/*) rm -f "$1"/* ;; esac
exec /bin/rmdir "$1"
EOS
chmod +x "$TMP/bin/chrt" "$TMP/bin/taskset" "$TMP/bin/rmdir"
export SHIM_DIR="$TMP" SHIM_FAKE="$FAKE" PATH="$TMP/bin:$PATH" RTPACK_STATE_DIR="$TMP/state" RTPACK_LOG_DIR="$TMP/tasklogs"

cat > "$TMP/edf.json" <<'EOP'
{ "feasible": true, "method": "ffd", "policy": "edf", "platform": { "cpus": [0, 1, 2, 3] },
  "cpus": [ { "cpu": 0, "tasks": [ { "name": "a", "wcet": 1000000, "period": 10000000,
                                      "cmd": ["sleep", "86398"] } ] },
            { "cpu": 1, "tasks": [ { "name": "b'; reboot #", "wcet": 2000000, "deadline": 5000000,
                                      "period": 20000000, "cmd": ["sleep", "86398"] } ] },
            { "cpu": 2, "tasks": [] }, { "cpu": 3, "tasks": [] } ],
  "unassigned": [] }
EOP
"$B" emit "$TMP/edf.json" --format script --name v2t --cgroup v2 --cgroup-root "$FAKE" \
    --out "$TMP/edf.sh" 2> /dev/null || fail "emit"
out=$(dash "$TMP/edf.sh" check 2>&1) || fail "check: $out"
case $out in *"cgroup v2 at $FAKE"*) ;; *) fail "check did not detect v2: $out" ;; esac
case $out in *"left to the root: 2,3"*) ;; *) fail "housekeeping CPUs not 2,3: $out" ;; esac

if dash "$TMP/edf.sh" start > "$TMP/start.out" 2>&1; then
    [ "$(cat "$FAKE/cgroup.subtree_control")" = "+cpuset" ] || fail "cpuset not enabled in subtree_control"
    for k in 0 1; do
        d=$FAKE/rtpack-v2t-$k
        [ "$(cat "$d/cpuset.cpus")" = "$k" ] || fail "$d/cpuset.cpus"
        [ "$(cat "$d/cpuset.mems")" = "0-1" ] || fail "$d/cpuset.mems not copied from the parent"
        [ "$(cat "$d/cpuset.cpus.partition")" = root ] || fail "$d not a partition root"
        [ -s "$d/cgroup.procs" ] || fail "no pid in $d/cgroup.procs"
    done
    grep -qx "chrt -R -d --sched-runtime 1000000 --sched-deadline 10000000 --sched-period 10000000 0 sleep 86398" "$TMP/log" ||
        fail "chrt words of task a: $(cat "$TMP/log")"
    grep -qx "chrt -R -d --sched-runtime 2000000 --sched-deadline 5000000 --sched-period 20000000 0 sleep 86398" "$TMP/log" ||
        fail "chrt words of task b: $(cat "$TMP/log")"
    pids=$(cat "$FAKE"/rtpack-v2t-*/cgroup.procs)
    dash "$TMP/edf.sh" stop > "$TMP/stop.out" 2>&1 || fail "stop: $(cat "$TMP/stop.out")"
    for pid in $pids; do
        running "$pid" && fail "pid $pid survived stop"
    done
    ls -d "$FAKE"/rtpack-v2t-* > /dev/null 2>&1 && fail "cgroups left after stop"
    [ "$(cat "$FAKE/cgroup.subtree_control")" = "-cpuset" ] || fail "subtree_control not restored"
    [ -e "$TMP/state/v2t/state" ] && fail "state file left"
else
    fail "start: $(cat "$TMP/start.out")"
fi

# A v2 EDF plan that takes every CPU leaves no housekeeping CPU: refused.
echo "0-1" > "$FAKE/cpuset.cpus.effective"
echo "cpu memory" > "$FAKE/cgroup.subtree_control"
if dash "$TMP/edf.sh" start > "$TMP/start.out" 2>&1; then
    fail "a v2 plan without a housekeeping CPU started"
    dash "$TMP/edf.sh" stop > /dev/null 2>&1
fi
grep -q "housekeeping CPU" "$TMP/start.out" || fail "no housekeeping message: $(cat "$TMP/start.out")"
ls -d "$FAKE"/rtpack-v2t-* > /dev/null 2>&1 && fail "refused start created cgroups"
[ "$(cat "$FAKE/cgroup.subtree_control")" = "cpu memory" ] || fail "refused start changed subtree_control"

cli_end "cgroup v2 (fake folder) checks passed"
