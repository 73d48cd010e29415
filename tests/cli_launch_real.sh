#!/bin/sh
# tests/cli_launch_real.sh — rtpack-launch on the live kernel, as
# root, under /work/locks/live.lock like every *_real test:
# - the flags really reach the kernel: rtp_show_sched (tests/support/
#   show_sched.c) prints its own sched_getattr after the launcher exec'd it;
# - the command runs in the launcher's place (same PID) with its arguments,
#   found on PATH or by path;
# - every refusal: exec of a missing or non-executable program (127), EPERM
#   as nobody (setpriv or su) and with an affinity narrower than the root
#   domain, EINVAL for a period below sched_deadline_period_min_us, EBUSY
#   when deadline tasks started here hold the root domain's bandwidth (each
#   126, naming the cause);
# - SCHED_FLAG_DL_OVERRUN: the command starts with SIGXCPU ignored; one
#   spinning past its runtime with a handler gets SIGXCPU, none without the
#   flag, and one without a handler runs on;
# - an emitted `--reclaim --overrun-signal` script starts a task in its
#   cpuset through the launcher with flags 0x7, status sees it, stop
#   restores the machine; an admission failure in the middle of start shows
#   the launcher's EBUSY line and leaves nothing behind.
# Touches only processes it starts, cpusets named rtpack-rtptestl*, and the
# root cpuset's sched_load_balance (restored in a trap). Exit 77 (skipped)
# when not root.
# Env: RTP_BINARY, RTP_LAUNCHER (rtpack-launch), RTP_SHOW_SCHED (rtp_show_sched).
set -u
BIN=${RTP_BINARY:?set RTP_BINARY to the built rtpack}
LAUNCH=${RTP_LAUNCHER:?set RTP_LAUNCHER to the built rtpack-launch}
SHOW=${RTP_SHOW_SCHED:?set RTP_SHOW_SCHED to the built rtp_show_sched}
CG=/sys/fs/cgroup/cpuset
NAME=rtptestl
FAILS=0
skip() {
    echo "SKIP cli_launch_real: $*"
    exit 77
}
fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}
ok() { echo "ok: $*"; }
# running PID: alive and not a zombie.
running() {
    r_st=$(grep '^State:' "/proc/$1/status" 2> /dev/null) || return 1
    case $r_st in *Z*) return 1 ;; esac
    return 0
}

[ "$(id -u)" -eq 0 ] || skip "needs root (SCHED_DEADLINE)"
RT_RUNTIME=$(cat /proc/sys/kernel/sched_rt_runtime_us)
[ "$RT_RUNTIME" != 0 ] || skip "sched_rt_runtime_us is 0: no SCHED_DEADLINE bandwidth"
T=$(mktemp -d /tmp/rtp_launch_real.XXXXXX)
chmod 755 "$T"
HOLDERS=''
ORIG_LB=''
[ -f "$CG/cpuset.sched_load_balance" ] && ORIG_LB=$(cat "$CG/cpuset.sched_load_balance")
export RTPACK_STATE_DIR="$T/state" RTPACK_LOG_DIR="$T/log"

cleanup() {
    for h in $HOLDERS; do kill -KILL "$h" 2> /dev/null; done
    wait
    for s in "$T"/*.sh; do
        [ -f "$s" ] && sh "$s" stop > /dev/null 2>&1
    done
    for d in "$CG"/rtpack-"$NAME"-*; do
        [ -d "$d" ] || continue
        while read -r p; do kill -KILL "$p" 2> /dev/null; done < "$d/cgroup.procs"
        i=0
        while ! rmdir "$d" 2> /dev/null && [ "$i" -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
    done
    [ -z "$ORIG_LB" ] || echo "$ORIG_LB" > "$CG/cpuset.sched_load_balance"
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
# shellcheck disable=SC3045 # dash, busybox sh and bash all have ulimit -c
ulimit -c 0 # SIGXCPU's default action dumps core
# LeakSanitizer stops the world from a thread it clones at exit, which the
# kernel refuses a SCHED_DEADLINE process without reset-on-fork: no leak
# check in the processes that end under SCHED_DEADLINE (the launcher
# allocates nothing; cli_launch.sh runs its other paths with the check).
case ${RTP_SANITIZED:-OFF} in
OFF | 0 | FALSE | '') ;;
*) export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" ;;
esac

P='--runtime 1000000 --deadline 5000000 --period 10000000'

# --- the flags reach the kernel ---
for c in '0x0:' '0x1:--reset-on-fork' '0x2:--reclaim' '0x4:--overrun-signal' \
    '0x7:--reclaim --overrun-signal --reset-on-fork' '0x6:--overrun-signal --reclaim'; do
    want=${c%%:*}
    xcpu=default
    case $c in *--overrun-signal*) xcpu=ignored ;; esac
    # shellcheck disable=SC2086 # $P and the flags are several words
    "$LAUNCH" $P ${c#*:} -- "$SHOW" > "$T/out" 2> "$T/err" || fail "flags ${c#*:}: $(cat "$T/err")"
    printf 'policy 6\nflags %s\nruntime 1000000\ndeadline 5000000\nperiod 10000000\nsigxcpu %s\n' \
        "$want" "$xcpu" > "$T/want"
    cmp -s "$T/out" "$T/want" || fail "flags ${c#*:}: the kernel reports $(tr '\n' ' ' < "$T/out")"
    [ ! -s "$T/err" ] || fail "flags ${c#*:}: the launcher printed $(cat "$T/err")"
done
ok "policy, parameters and flags as the kernel reports them; SIGXCPU ignored with --overrun-signal"

# --- the command's own arguments, PATH lookup, and no fork ---
# shellcheck disable=SC2086,SC2016 # $P is several words; $HOME stays literal
"$LAUNCH" $P "$SHOW" "a b" "" --x "it's" '$HOME' > "$T/out" 2>&1 || fail "exec: $(cat "$T/out")"
# shellcheck disable=SC2016 # $HOME stays literal
printf 'arg a b\narg \narg --x\narg it'"'"'s\narg $HOME\n' > "$T/want"
tail -n 5 "$T/out" | cmp -s - "$T/want" || fail "arguments: $(cat "$T/out")"
# shellcheck disable=SC2086
PATH="$(dirname "$SHOW"):$PATH" "$LAUNCH" $P -- "$(basename "$SHOW")" found > "$T/out" 2>&1
grep -q '^arg found$' "$T/out" || fail "PATH lookup: $(cat "$T/out")"
# shellcheck disable=SC2016 # $$ belongs to the shells
sh -c 'echo $$; exec "$0" --runtime 1000000 --deadline 5000000 --period 10000000 -- sh -c "echo \$\$"' \
    "$LAUNCH" > "$T/out" 2>&1
if [ "$(wc -l < "$T/out")" -ne 2 ] || [ "$(sed -n 1p "$T/out")" != "$(sed -n 2p "$T/out")" ]; then
    fail "the command does not run in the launcher's process: $(cat "$T/out")"
fi
ok "exec with arguments, in place"

# expect CODE TEXT CMD...: exit CODE, one line on stderr holding TEXT.
expect() {
    e_code=$1 e_want=$2
    shift 2
    "$@" < /dev/null > "$T/out" 2> "$T/err"
    e_rc=$?
    [ "$e_rc" -eq "$e_code" ] || fail "$*: exit $e_rc, want $e_code ($(cat "$T/err"))"
    [ "$(wc -l < "$T/err")" -eq 1 ] || fail "$*: want one line on stderr: $(cat "$T/err")"
    grep -qF -- "$e_want" "$T/err" || fail "$*: message lacks '$e_want': $(cat "$T/err")"
    [ ! -s "$T/out" ] || fail "$*: printed $(cat "$T/out")"
}

# --- exec failures: 127 ---
: > "$T/not-executable"
# shellcheck disable=SC2086
{
    expect 127 "cannot run '/nonexistent/rtp_cmd': No such file or directory" \
        "$LAUNCH" $P -- /nonexistent/rtp_cmd
    expect 127 "cannot run 'rtp_no_such_command': No such file or directory" \
        "$LAUNCH" $P rtp_no_such_command
    expect 127 "cannot run '$T/not-executable': Permission denied" \
        "$LAUNCH" $P "$T/not-executable"
}
ok "exec failures exit 127"

# --- refusals: 126 with the cause ---
mkdir "$T/bin"
cp "$LAUNCH" "$T/bin/rtpack-launch"
chmod 755 "$T/bin" "$T/bin/rtpack-launch"
NOBODY_WANT="SCHED_DEADLINE needs root (CAP_SYS_NICE), which this process lacks"
# shellcheck disable=SC2086
if command -v setpriv > /dev/null; then
    expect 126 "$NOBODY_WANT" setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$T/bin/rtpack-launch" $P -- true
    ok "EPERM as nobody (setpriv)"
elif command -v su > /dev/null; then
    expect 126 "$NOBODY_WANT" su -s /bin/sh nobody -c "'$T/bin/rtpack-launch' $P -- true"
    ok "EPERM as nobody (su)"
else
    echo "note: neither setpriv nor su: EPERM as non-root not tested"
fi
CPUS=$(getconf _NPROCESSORS_ONLN)
if [ "$CPUS" -ge 2 ] && [ "$ORIG_LB" = 1 ] && command -v taskset > /dev/null; then
    # shellcheck disable=SC2086
    expect 126 "this process may run on CPUs 0, which is not its whole root domain" \
        taskset -c 0 "$LAUNCH" $P -- true
    ok "EPERM with an affinity narrower than the root domain"
else
    echo "note: one CPU, no load-balanced root cpuset or no taskset: affinity EPERM not tested"
fi
MIN_US=$(cat /proc/sys/kernel/sched_deadline_period_min_us)
if [ "$MIN_US" -ge 2 ]; then
    p=$(((MIN_US - 1) * 1000))
    expect 126 "the period is outside sched_deadline_period_min_us.._max_us" \
        "$LAUNCH" --runtime 1024 --deadline "$p" --period "$p" -- true
    ok "EINVAL for a period below sched_deadline_period_min_us"
fi
if [ "$RT_RUNTIME" -lt 0 ]; then
    echo "note: sched_rt_runtime_us = -1 (no admission control): EBUSY not tested"
else
    # Deadline tasks of bandwidth 1 (runtime = period), asleep, until the
    # root domain (at most 0.95 per CPU) refuses one.
    k=0
    busy=''
    while [ "$k" -le "$CPUS" ] && [ -z "$busy" ]; do
        k=$((k + 1))
        "$LAUNCH" --runtime 10000000 --deadline 10000000 --period 10000000 -- \
            sh -c 'echo admitted; exec sleep 120' > "$T/h.out" 2> "$T/h.err" &
        h=$!
        i=0
        while [ "$i" -lt 200 ] && running "$h" && ! grep -q admitted "$T/h.out"; do
            sleep 0.05
            i=$((i + 1))
        done
        if grep -q admitted "$T/h.out"; then
            HOLDERS="$HOLDERS $h"
        else
            wait "$h"
            rc=$?
            busy=$rc
        fi
    done
    [ "$busy" = 126 ] || fail "EBUSY: after $k tasks of bandwidth 1, exit '$busy'"
    grep -q "Device or resource busy: admission refused: the SCHED_DEADLINE bandwidth of the root domain of CPUs" \
        "$T/h.err" || fail "EBUSY message: $(cat "$T/h.err")"
    for h in $HOLDERS; do kill -KILL "$h"; done
    wait
    HOLDERS=''
    ok "EBUSY after $((k - 1)) task(s) of bandwidth 1 on $CPUS CPU(s)"
fi

# --- SCHED_FLAG_DL_OVERRUN: SIGXCPU at overruns (500 ms spinning on a 1 ms / 10 ms budget) ---
SPIN='--runtime 1000000 --deadline 10000000 --period 10000000'
# shellcheck disable=SC2086
"$LAUNCH" $SPIN --overrun-signal -- "$SHOW" --spin 500000000 --catch-xcpu > "$T/out" 2>&1
n=$(sed -n 's/^xcpu //p' "$T/out")
[ "${n:-0}" -ge 1 ] || fail "--overrun-signal: no SIGXCPU in 50 overrun periods: $(cat "$T/out")"
# shellcheck disable=SC2086
"$LAUNCH" $SPIN -- "$SHOW" --spin 500000000 --catch-xcpu > "$T/out" 2>&1
grep -q '^xcpu 0$' "$T/out" || fail "SIGXCPU without --overrun-signal: $(cat "$T/out")"
# shellcheck disable=SC2086
"$LAUNCH" $SPIN --overrun-signal -- "$SHOW" --spin 500000000 > "$T/out" 2>&1 ||
    fail "an overrunning task without a SIGXCPU handler did not run on: $(cat "$T/out")"
ok "SIGXCPU: $n signal(s) with the flag and a handler, none without the flag; no handler: runs on"

# --- an emitted script starts its task through the launcher ---
if [ -f "$CG/cpuset.cpu_exclusive" ] && [ "$ORIG_LB" = 1 ]; then
    cat > "$T/plan.json" <<EOP
{ "feasible": true, "method": "ffd", "policy": "edf", "platform": { "cpus": [0] },
  "cpus": [ { "cpu": 0, "tasks": [ { "name": "shown", "wcet": 1000000, "period": 10000000,
    "cmd": ["$SHOW", "--sleep", "deployed"] } ] } ], "unassigned": [] }
EOP
    "$BIN" emit "$T/plan.json" --format script --name "$NAME" --reclaim --overrun-signal \
        --launcher "$T/bin/rtpack-launch" --out "$T/launch.sh" 2> "$T/err" ||
        fail "emit: $(cat "$T/err")"
    if dash "$T/launch.sh" start > "$T/start.out" 2>&1; then
        i=0
        while [ "$i" -lt 100 ] && ! grep -q '^arg deployed$' "$T/log/$NAME/shown.log" 2> /dev/null; do
            sleep 0.05
            i=$((i + 1))
        done
        printf 'policy 6\nflags 0x7\nruntime 1000000\ndeadline 10000000\nperiod 10000000\nsigxcpu ignored\narg deployed\n' \
            > "$T/want"
        cmp -s "$T/log/$NAME/shown.log" "$T/want" ||
            fail "the deployed task reports: $(cat "$T/log/$NAME/shown.log")"
        dash "$T/launch.sh" status > "$T/status.out" 2>&1 || fail "status: $(cat "$T/status.out")"
        grep -q "shown: pid .* alive, CPUs 0 .*SCHED_DEADLINE" "$T/status.out" ||
            fail "status: $(cat "$T/status.out")"
        pids=$(cat "$CG/rtpack-$NAME-0/cgroup.procs")
        dash "$T/launch.sh" stop > "$T/stop.out" 2>&1 || fail "stop: $(cat "$T/stop.out")"
        for pid in $pids; do
            running "$pid" && fail "pid $pid still runs after stop"
            i=0 # a zombie until init reaps it: leave only when it is gone
            while [ -e "/proc/$pid" ] && [ "$i" -lt 50 ]; do
                sleep 0.1
                i=$((i + 1))
            done
        done
        ok "emit --reclaim --overrun-signal: started in its cpuset with flags 0x7, stopped"
    else
        fail "start: $(cat "$T/start.out")"
    fi
    # EBUSY in the middle of start (its bandwidth check skipped): the
    # launcher's line reaches the user, and start undoes everything.
    cat > "$T/over.json" <<EOP
{ "feasible": true, "method": "ffd", "policy": "edf", "platform": { "cpus": [0] },
  "cpus": [ { "cpu": 0, "tasks": [
    { "name": "a", "wcet": 5000000, "period": 10000000, "cmd": ["sleep", "86399"] },
    { "name": "b", "wcet": 4600000, "period": 10000000, "cmd": ["sleep", "86399"] } ] } ],
  "unassigned": [] }
EOP
    "$BIN" emit "$T/over.json" --format script --name "$NAME" --reclaim --budget 1 \
        --launcher "$T/bin/rtpack-launch" --out "$T/over.sh" 2> "$T/err" ||
        fail "emit over: $(cat "$T/err")"
    if RTPACK_SKIP_BUDGET_CHECK=1 dash "$T/over.sh" start > "$T/start.out" 2>&1; then
        fail "a start past the kernel's admission succeeded"
    else
        grep -q "task 'b' failed to start: rtpack-launch: .*admission refused" "$T/start.out" ||
            fail "start past admission: $(cat "$T/start.out")"
        ok "EBUSY in the middle of start is reported and undone"
    fi
    ls -d "$CG"/rtpack-"$NAME"-* > /dev/null 2>&1 && fail "cpusets left: $(ls -d "$CG"/rtpack-"$NAME"-*)"
    [ "$(cat "$CG/cpuset.sched_load_balance")" = "$ORIG_LB" ] || fail "sched_load_balance not restored"
    [ ! -e "$T/state/$NAME/state" ] || fail "state file left"
else
    echo "note: no load-balanced cgroup v1 cpuset root at $CG: the deployment part not run"
fi

[ "$FAILS" -eq 0 ] || { echo "$FAILS failure(s)"; exit 1; }
echo "cli_launch_real: passed"
