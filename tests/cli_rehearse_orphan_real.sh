#!/bin/sh
# tests/cli_rehearse_orphan_real.sh — a rehearsal never outlives rtpack
# unnoticed (after `kill -9` of rehearse, 8 SCHED_DEADLINE
# workloads, 2 exclusive cpusets and sched_load_balance=0 stayed, and the
# next rehearse failed with "the kernel refused '0'" without naming them).
# As root, under the machine lock (flock /work/locks/live.lock):
# 1. kill -9 of rtpack while its plan runs: its watchdog stops the
#    deployment; the machine is as before (cpusets, load balancing, no
#    real-time thread left). The time it took is printed (measured, not
#    asserted; 60 s is only a hang guard).
# 2. kill -9 of rtpack and of its watchdog: the leftover stays; a launch
#    script's check names it as a rehearsal; the next rehearse stops it,
#    says so (leftovers_stopped), runs, and leaves the machine as before.
# 3. a deployment started from a launch script holds the CPUs: rehearse is
#    exit 3 naming it and the exact command that stops it, changing nothing.
# Skips (exit 0, message) when not root.
set -u
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
CG=/sys/fs/cgroup/cpuset
STATE=/run/rtpack
T=$(mktemp -d /tmp/rtp_rehearse_orphan.XXXXXX)
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }
skip() { echo "SKIP cli_rehearse_orphan_real: $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip "needs root (cpusets, SCHED_DEADLINE)"
[ -d "$CG" ] || skip "needs the cgroup v1 cpuset hierarchy at $CG"
command -v python3 > /dev/null || skip "needs python3 to read the JSON"

# Whatever happens, nothing of this test stays: its user deployment and
# any rehearsal it started (their scripts' stop follows the state files).
cleanup() {
    [ -f "$T/user.sh" ] && sh "$T/user.sh" stop > /dev/null 2>&1
    for s in "$STATE"/rehearse_*/state; do
        [ -f "$s" ] || continue
        script=$(sed -n 's/^script //p' "$s" | head -n 1)
        [ -f "$script" ] && sh "$script" stop > /dev/null 2>&1
    done
    rm -rf "$T"
}
trap cleanup EXIT

. "${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}/tests/support/machine_state.sh"
snapshot() { machine_state "$CG"; }
restored() { snapshot > "$T/now" && cmp -s "$T/before" "$T/now"; }

# started PID: waits (up to 20 s) until rehearse PID's deployment is up.
started() {
    i=0
    while ! grep -q '^started' "$STATE/rehearse_$1/state" 2> /dev/null; do
        i=$((i + 1))
        [ "$i" -lt 400 ] || return 1
        sleep 0.05
    done
}

cat > "$T/set.json" <<'JSON'
{ "platform": { "cpus": 2 },
  "tasks": [
    { "name": "a", "wcet": "2ms", "period": "10ms", "cmd": ["sleep", "600"] },
    { "name": "b", "wcet": "3ms", "period": "20ms", "deadline": "15ms", "cmd": ["sleep", "600"] },
    { "name": "c", "wcet": "4ms", "period": "20ms", "cmd": ["sleep", "600"] },
    { "name": "d", "wcet": "5ms", "period": "50ms", "cmd": ["sleep", "600"] }
  ] }
JSON
"$BIN" partition "$T/set.json" --cpus 2 --policy edf --json > "$T/plan.json" || fail "partition"
snapshot > "$T/before"

# 1. kill -9 of rtpack: the watchdog restores the machine.
"$BIN" rehearse "$T/plan.json" --seconds 120 > "$T/r1.out" 2>&1 &
pid=$!
if started "$pid"; then
    t0=$(date +%s%N)
    kill -9 "$pid"
    i=0
    until restored || [ "$i" -ge 6000 ]; do sleep 0.01; i=$((i + 1)); done
    ms=$((($(date +%s%N) - t0) / 1000000))
    if restored && [ ! -e "$STATE/rehearse_$pid" ]; then
        ok "kill -9 of rehearse: its watchdog restored the machine in $ms ms"
    else
        fail "kill -9 of rehearse: not restored after $ms ms: $(diff "$T/before" "$T/now" | tr '\n' ' ')"
    fi
else
    fail "rehearse 1 did not deploy: $(cat "$T/r1.out")"
fi
wait "$pid" 2> /dev/null

# 2. kill -9 of rtpack and its watchdog: the next rehearse stops the leftover.
"$BIN" rehearse "$T/plan.json" --seconds 120 > "$T/r2.out" 2>&1 &
pid=$!
if started "$pid"; then
    script=$(sed -n 's/^script //p' "$STATE/rehearse_$pid/state")
    wd=$(sed -n 's/^watchdog \([0-9]*\) .*/\1/p' "${script%/*}/owner")
    # the watchdog stopped first: killed together, it could see rehearse's
    # pipe close before its own SIGKILL landed and tear the deployment down
    # (CI1 of stop 41, load 0.3: "the leftover ... is not there to find")
    kill -STOP "$wd"
    kill -9 "$pid"
    kill -9 "$wd"
    sleep 1
    ls -d "$CG/rtpack-rehearse_$pid"-* > /dev/null 2>&1 ||
        fail "the leftover of rehearse_$pid is not there to find"
    # a launch script's check names it as a rehearsal
    "$BIN" emit "$T/plan.json" --format script --name orphantest --out "$T/user.sh" 2> /dev/null
    sh "$T/user.sh" check > /dev/null 2> "$T/check.err"
    rc=$?
    [ "$rc" -eq 1 ] && grep -q "the rehearsal 'rehearse_$pid' (rtpack rehearse, pid $pid" "$T/check.err" &&
        grep -qF "stop it with: sh $script stop" "$T/check.err" &&
        ok "check names the leftover rehearsal: $(cat "$T/check.err")" ||
        fail "check beside the leftover: exit $rc: $(cat "$T/check.err")"
    "$BIN" rehearse "$T/plan.json" --seconds 1 --json > "$T/r3.out" 2> "$T/r3.err"
    rc=$?
    note=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('leftovers_stopped', ''))" "$T/r3.out" 2> /dev/null)
    case "$rc:$note" in
    [01]:*"stopped the leftover of rehearsal rehearse_$pid"*) ok "the next rehearse: $note" ;;
    *) fail "the next rehearse: exit $rc, note '$note': $(cat "$T/r3.err")" ;;
    esac
    i=0
    until restored || [ "$i" -ge 1000 ]; do sleep 0.01; i=$((i + 1)); done
    restored && ok "machine restored after the leftover was stopped" ||
        fail "machine after the next rehearse: $(diff "$T/before" "$T/now" | tr '\n' ' ')"
    [ ! -e "${script%/*}" ] || fail "the leftover's folder ${script%/*} stayed"
else
    fail "rehearse 2 did not deploy: $(cat "$T/r2.out")"
fi

# 3. a launch script's deployment holds the CPUs: named, with its stop command.
if sh "$T/user.sh" start 2> "$T/start.err"; then
    snapshot > "$T/held"
    "$BIN" rehearse "$T/plan.json" --seconds 1 > "$T/r4.out" 2> "$T/r4.err"
    rc=$?
    [ "$rc" -eq 3 ] && grep -q "rtpack deployment 'orphantest' holds CPUs" "$T/r4.err" &&
        grep -qF "stop it with: sh $T/user.sh stop" "$T/r4.err" &&
        ok "rehearse beside a deployment: $(cat "$T/r4.err")" ||
        fail "rehearse beside a deployment: exit $rc: $(cat "$T/r4.err")"
    snapshot > "$T/now"
    cmp -s "$T/held" "$T/now" || fail "the refused rehearse changed the machine"
    sh "$T/user.sh" stop 2> /dev/null || fail "stop of the user deployment"
else
    fail "start of the user deployment: $(cat "$T/start.err")"
fi
# The human report ends with a verdict and the advice.
"$BIN" rehearse "$T/plan.json" --seconds 1 > "$T/r5.out" 2> "$T/r5.err"
rc=$?
[ "$rc" -le 1 ] && tail -n 2 "$T/r5.out" | head -n 1 | grep -q '^verdict: \(PASS\|FAIL\): ' &&
    tail -n 1 "$T/r5.out" | grep -q '^advice: ' &&
    ok "rehearse ends with: $(tail -n 2 "$T/r5.out" | tr '\n' ' ')" ||
    fail "rehearse's last lines: exit $rc: $(tail -n 3 "$T/r5.out") $(cat "$T/r5.err")"
i=0
until restored || [ "$i" -ge 1000 ]; do sleep 0.01; i=$((i + 1)); done
restored && ok "machine as before the test" || fail "machine changed: $(diff "$T/before" "$T/now" | tr '\n' ' ')"

[ "$FAILS" -eq 0 ] || { echo "$FAILS failure(s)"; exit 1; }
echo "cli_rehearse_orphan_real: all passed"
