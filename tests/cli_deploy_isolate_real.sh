#!/bin/sh
# tests/cli_deploy_isolate_real.sh — `emit --isolate` on this machine: a
# one-CPU plan on CPU 1 (EDF, then FP) started with isolation moves the
# root cpuset's processes (this test's shell included) and the IRQ
# affinities to the housekeeping CPU 0, and stop moves every one back: the
# IRQ affinities, /proc/irq/default_smp_affinity, sched_load_balance and
# each process's cpuset equal what they were before. Touches only cpusets
# named rtpack-rtpiso-*, processes it started, the root cpuset's processes
# and sched_load_balance, and IRQ affinities (all restored in a trap).
# Skips (exit 0, message) when not root or without a cgroup v1 cpuset
# controller with CPUs 0 and 1.
set -u
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
CG=/sys/fs/cgroup/cpuset
NAME=rtpiso
FAILS=0

skip() { echo "SKIP cli_deploy_isolate_real: $*"; exit 0; }
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root (cpusets, IRQ affinities)"
[ -f "$CG/cpuset.cpu_exclusive" ] || skip "no cgroup v1 cpuset controller at $CG"
[ "$(cat "$CG/cpuset.cpus")" = 0-1 ] || skip "want exactly CPUs 0-1 in $CG/cpuset.cpus"
for tool in chrt taskset setsid; do
    command -v "$tool" > /dev/null || skip "$tool missing"
done

T=$(mktemp -d /tmp/rtp_isolate_real.XXXXXX)
export RTPACK_STATE_DIR="$T/state" RTPACK_LOG_DIR="$T/log"
MARK=86394

# machine: what isolation changes, one line per item, to compare.
machine() {
    for f in /proc/irq/*/smp_affinity_list; do
        [ -f "$f" ] && echo "$f $(cat "$f")"
    done
    echo "default $(cat /proc/irq/default_smp_affinity)"
    echo "lb $(cat "$CG/cpuset.sched_load_balance")"
}
machine > "$T/before"
root_pids=$(cat "$CG/cgroup.procs")

# restore: puts back what "$T/before" says and empties our cpusets.
cleanup() {
    for p in /proc/[0-9]*; do
        case $(tr '\0' ' ' < "$p/cmdline" 2>/dev/null) in
        *"sleep $MARK"*) kill -KILL "${p#/proc/}" 2>/dev/null ;;
        esac
    done
    for d in "$CG"/rtpack-"$NAME"-*; do
        [ -d "$d" ] || continue
        for p in $(cat "$d/cgroup.procs"); do echo "$p" > "$CG/cgroup.procs" 2>/dev/null; done
        i=0
        while ! rmdir "$d" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    done
    while read -r f v; do
        case $f in
        default) echo "$v" > /proc/irq/default_smp_affinity ;;
        lb) echo "$v" > "$CG/cpuset.sched_load_balance" ;;
        *) [ "$(cat "$f")" = "$v" ] || echo "$v" > "$f" 2>/dev/null ;;
        esac
    done < "$T/before"
    rm -rf "$T"
}
if ls -d "$CG"/rtpack-"$NAME"-* > /dev/null 2>&1; then
    echo "cleaning stale rtpack-$NAME cpusets (a root left unbalanced goes back to 1)"
    echo 1 > "$CG/cpuset.sched_load_balance"
fi
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

for policy in edf fp; do
    prio=''
    [ "$policy" = fp ] && prio='"priority": 1,'
    cat > "$T/$policy.json" <<EOP
{ "feasible": true, "method": "ffd", "policy": "$policy", "platform": { "cpus": [0, 1] },
  "cpus": [ { "cpu": 0, "tasks": [] },
    { "cpu": 1, "tasks": [ { "name": "x", "wcet": 1000000, "period": 10000000, $prio
                             "cmd": ["sleep", "$MARK"] } ] } ],
  "unassigned": [] }
EOP
    "$BIN" emit "$T/$policy.json" --format script --isolate --name "$NAME" --out "$T/$policy.sh" 2> /dev/null ||
        { fail "emit --isolate $policy"; continue; }
    dash "$T/$policy.sh" check > "$T/check.out" 2>&1 || fail "$policy check: $(cat "$T/check.out")"
    grep -q "^isolate: the .* processes of the root cpuset move to the housekeeping CPUs 0" "$T/check.out" ||
        fail "$policy check does not describe isolation: $(cat "$T/check.out")"
    if ! dash "$T/$policy.sh" start > "$T/start.out" 2>&1; then
        fail "$policy start --isolate: $(cat "$T/start.out")"
        continue
    fi
    grep -q "isolated: [1-9][0-9]* processes moved" "$T/start.out" || fail "$policy: $(cat "$T/start.out")"
    hk=$CG/rtpack-$NAME-housekeeping
    n=$(wc -l < "$hk/cgroup.procs")
    [ "$n" -gt 0 ] || fail "$policy: the housekeeping cpuset is empty"
    [ "$(cat "/proc/$$/cpuset")" = "/rtpack-$NAME-housekeeping" ] || fail "$policy: this shell was not moved: $(cat "/proc/$$/cpuset")"
    [ "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$$/status")" = 0 ] || fail "$policy: this shell may still run on CPU 1"
    steered=0
    for f in /proc/irq/*/smp_affinity_list; do
        [ "$(cat "$f")" = 0 ] && steered=$((steered + 1))
    done
    [ "$steered" -gt 0 ] || fail "$policy: no IRQ affinity moved to CPU 0"
    dash "$T/$policy.sh" status > "$T/status.out" 2>&1 || fail "$policy status: $(cat "$T/status.out")"
    dash "$T/$policy.sh" stop > "$T/stop.out" 2>&1 || fail "$policy stop: $(cat "$T/stop.out")"
    machine > "$T/after"
    diff "$T/before" "$T/after" > "$T/diff" || fail "$policy: not restored: $(cat "$T/diff")"
    [ "$(cat "/proc/$$/cpuset")" = / ] || fail "$policy: this shell is in $(cat "/proc/$$/cpuset") after stop"
    [ "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$$/status")" = 0-1 ] || fail "$policy: this shell's CPUs not restored"
    for p in $root_pids; do
        [ -r "/proc/$p/cpuset" ] || continue
        c=$(cat "/proc/$p/cpuset" 2>/dev/null) || continue
        [ "$c" = / ] || fail "$policy: pid $p was in the root cpuset, is in $c after stop"
    done
    ls -d "$CG"/rtpack-"$NAME"-* > /dev/null 2>&1 && fail "$policy: cpusets left"
    ok "$policy --isolate moved $n processes and $steered IRQs to CPU 0 and back"
done

[ "$FAILS" -eq 0 ] || { echo "$FAILS failure(s)"; exit 1; }
echo "isolation checks passed"
