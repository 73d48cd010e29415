#!/bin/sh
# tests/cli_launch.sh — the launcher without touching the machine:
# rtpack-launch's usage errors (each exit 2, one line naming the cause,
# nothing run: every case fails before sched_setattr); emit's refusals of
# --reclaim / --overrun-signal / --launcher where they mean nothing (FP
# plans, rt-app, json; exit 2, no file written); and the emitted script's
# launcher check under dash, busybox sh and bash: `check`, `start` and `run`
# stop with one line naming a missing launcher, and `check` runs when it is
# there (a fake cgroup v1 folder, a temporary state folder: nothing on the
# machine changes). The live half is cli_launch_real.sh.
# Env: RTP_BINARY, RTP_SOURCE_DIR, RTP_LAUNCHER (the built rtpack-launch).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_launch
LAUNCH=${RTP_LAUNCHER:?set RTP_LAUNCHER to the built rtpack-launch}
CHECKS=0

# expect CODE TEXT CMD...: CMD exits CODE with one line on stderr holding
# TEXT, and prints nothing on stdout.
expect() {
    e_code=$1 e_want=$2
    shift 2
    CHECKS=$((CHECKS + 1))
    "$@" < /dev/null > "$TMP/out" 2> "$TMP/err"
    e_rc=$?
    e_err=$(cat "$TMP/err")
    [ "$e_rc" -eq "$e_code" ] || fail "$*: exit $e_rc, want $e_code ($e_err)"
    [ "$(wc -l < "$TMP/err")" -eq 1 ] || fail "$*: want one line on stderr, got: $e_err"
    [ ! -s "$TMP/out" ] || fail "$*: printed on stdout: $(cat "$TMP/out")"
    case $e_err in
    *"$e_want"*) ;;
    *) fail "$*: message lacks '$e_want': $e_err" ;;
    esac
}

# --- rtpack-launch: usage errors (exit 2) ---
P='--runtime 1000000 --deadline 2000000 --period 3000000'
# shellcheck disable=SC2086 # $P holds several words on purpose
{
    expect 2 "missing --runtime" "$LAUNCH"
    expect 2 "missing --period" "$LAUNCH" --runtime 1000000 --deadline 2000000 true
    expect 2 "no command to run" "$LAUNCH" $P
    expect 2 "no command to run" "$LAUNCH" $P --
    expect 2 "--runtime wants a value" "$LAUNCH" --runtime
    for bad in x 0 -5 1.5 1e6 ' 1' '1 ' +7 '' 99999999999999999999 4611686018427387905; do
        expect 2 "--deadline wants a whole number of ns from 1 to 2^62, got '$bad'" \
            "$LAUNCH" --runtime 1000000 --deadline "$bad" --period 3000000 true
    done
    expect 2 "--period wants a whole number of ns" "$LAUNCH" --runtime 1024 --deadline 2000 \
        --period=ms true
    expect 2 "below the kernel's minimum of 1024 ns" "$LAUNCH" --runtime 1023 --deadline 2000 \
        --period 3000 true
    expect 2 "the kernel wants runtime <= deadline <= period" "$LAUNCH" --runtime 3000 \
        --deadline 2000 --period 3000 true
    expect 2 "the kernel wants runtime <= deadline <= period" "$LAUNCH" --runtime 1024 \
        --deadline 4000 --period 3000 true
    expect 2 "unknown option '--foo'" "$LAUNCH" $P --foo true
    expect 2 "unknown option '--recl'" "$LAUNCH" $P --recl true # no abbreviations
    expect 2 "unknown option '-r'" "$LAUNCH" $P -r true
    expect 2 "unknown option '-'" "$LAUNCH" $P - true
    expect 2 "--reclaim takes no value" "$LAUNCH" $P --reclaim=1 true
    expect 2 "--overrun-signal given twice" "$LAUNCH" $P --overrun-signal --overrun-signal true
    expect 2 "--period given twice" "$LAUNCH" $P --period 3000000 true
}
if ! "$LAUNCH" --help > "$TMP/out" 2> "$TMP/err" || [ -s "$TMP/err" ] ||
    ! grep -q '^usage: rtpack-launch --runtime NS' "$TMP/out"; then
    fail "--help: $(cat "$TMP/out" "$TMP/err")"
fi

# --- emit: the flags where they mean nothing (exit 2, nothing written) ---
E=$S/examples
expect 2 "--reclaim applies only to SCHED_DEADLINE plans (policy edf or gedf); this plan's policy is fp" \
    "$B" emit "$E/plan_fp.json" --format script --reclaim --out "$TMP/fp.sh"
[ ! -e "$TMP/fp.sh" ] || fail "an FP plan with --reclaim wrote a script"
expect 2 "--overrun-signal applies only to SCHED_DEADLINE plans" \
    "$B" emit "$E/plan_fp.json" --format systemd --overrun-signal --out "$TMP/units"
[ ! -e "$TMP/units" ] || fail "an FP plan with --overrun-signal wrote units"
expect 2 "--reclaim applies only with --format script or systemd: rt-app sets no SCHED_DEADLINE flag" \
    "$B" emit "$E/plan_edf.json" --format rtapp --reclaim --out "$TMP/rtapp"
[ ! -e "$TMP/rtapp" ] || fail "rtapp with --reclaim wrote files"
expect 2 "--overrun-signal applies only with --format script or systemd: rt-app" \
    "$B" emit "$E/plan_fp.json" --format rtapp --overrun-signal
expect 2 "--reclaim applies only with --format script or systemd (here --format is json)" \
    "$B" emit "$E/plan_edf.json" --format json --reclaim
expect 2 "--launcher means nothing for this plan: its tasks do not start through a launcher" \
    "$B" emit "$E/plan_edf.json" --format script --launcher /usr/bin/rtpack-launch
for bad in relative/rtpack-launch -x ''; do
    expect 2 "--launcher wants a command name (looked up on PATH) or an absolute path" \
        "$B" emit "$E/plan_edf.json" --format script --reclaim --launcher "$bad"
done

# --- the emitted script checks its launcher (no root, a fake cpuset folder) ---
mkdir "$TMP/cg" "$TMP/bin"
echo 0-1 > "$TMP/cg/cpuset.cpus"
echo 0 > "$TMP/cg/cpuset.mems"
echo 0 > "$TMP/cg/cpuset.cpu_exclusive"
echo 1 > "$TMP/cg/cpuset.sched_load_balance"
: > "$TMP/cg/cgroup.procs"
cp "$LAUNCH" "$TMP/bin/rtpack-launch"
: > "$TMP/bin/not-executable"
export RTPACK_CGROUP_ROOT="$TMP/cg" RTPACK_STATE_DIR="$TMP/state" RTPACK_LOG_DIR="$TMP/log"
"$B" emit "$E/plan_edf.json" --format script --reclaim --out "$TMP/name.sh" 2> /dev/null ||
    fail "emit --reclaim"
"$B" emit "$E/plan_edf.json" --format script --reclaim --launcher "$TMP/bin/rtpack-launch" \
    --out "$TMP/abs.sh" 2> /dev/null || fail "emit --reclaim --launcher"
"$B" emit "$E/plan_edf.json" --format script --reclaim --launcher "$TMP/bin/not-executable" \
    --out "$TMP/noexec.sh" 2> /dev/null || fail "emit --launcher not-executable"
NOPATH=/usr/sbin:/usr/bin:/sbin:/bin
for sh in dash bash "busybox sh"; do
    command -v "${sh%% *}" > /dev/null || continue
    for verb in check start run; do
        [ "$verb" = run ] && extra='0 true' || extra=''
        # shellcheck disable=SC2086 # $sh and $extra are several words
        expect 1 "cannot find the launcher rtpack-launch (PATH=$NOPATH)" \
            env PATH="$NOPATH" $sh "$TMP/name.sh" $verb $extra
        # shellcheck disable=SC2086
        expect 1 "cannot find the launcher $TMP/bin/not-executable" \
            env PATH="$NOPATH" $sh "$TMP/noexec.sh" $verb $extra
    done
    for script in name abs; do
        # shellcheck disable=SC2086
        env PATH="$TMP/bin:$NOPATH" $sh "$TMP/$script.sh" check > "$TMP/out" 2> "$TMP/err" ||
            fail "$sh $script.sh check with the launcher there: $(cat "$TMP/err")"
        grep -q "video: .*rtpack-launch'* --reset-on-fork --reclaim --runtime 5000000 --deadline 10000000 --period 16666666 -- video_processing_tool --fast" "$TMP/out" ||
            fail "$sh $script.sh check does not list the launcher: $(cat "$TMP/out")"
    done
    # status needs no launcher (it reads the kernel)
    # shellcheck disable=SC2086
    env PATH="$NOPATH" $sh "$TMP/name.sh" status > "$TMP/out" 2>&1
    grep -q "not started" "$TMP/out" || fail "$sh status: $(cat "$TMP/out")"
done
[ ! -e "$TMP/state/plan" ] || fail "a refused start left state behind"

# SCHED_RR tasks: check compares the machine's quantum (the sysctl, rounded
# up to the plan's tick) with the plan's platform.rr_quantum and says so.
# (--ties given: the tasks' own SCHED_RR; partition would choose SCHED_FIFO
# here, whose bounds are as small.)
RR_MS=$(head -n 1 /proc/sys/kernel/sched_rr_timeslice_ms 2> /dev/null) || RR_MS=''
if [ -n "$RR_MS" ] && [ "$RR_MS" -gt 0 ]; then
    for q in "$RR_MS" $((RR_MS + 1)); do
        cat > "$TMP/rr.json" << EOF
{ "platform": { "cpus": 1, "rr_quantum": "${q}ms", "tick": "1ms" }, "tasks": [
  { "name": "a", "wcet": "1ms", "period": "1s", "priority": 5, "policy": "rr", "cmd": "a" },
  { "name": "b", "wcet": "1ms", "period": "1s", "priority": 5, "policy": "rr", "cmd": "b" } ] }
EOF
        "$B" partition "$TMP/rr.json" --policy fp --priority given --ties given --json \
            > "$TMP/rr.plan" ||
            fail "partition rr"
        "$B" emit "$TMP/rr.plan" --format script --out "$TMP/rr.sh" 2> /dev/null || fail "emit rr"
        sh "$TMP/rr.sh" check > "$TMP/out" 2> "$TMP/err" || fail "rr check: $(cat "$TMP/err")"
        if [ "$q" = "$RR_MS" ]; then
            want="SCHED_RR quantum: $((RR_MS * 1000000)) ns here (sched_rr_timeslice_ms $RR_MS), as the plan assumes"
        else
            want="warning: SCHED_RR quantum $((RR_MS * 1000000)) ns here (sched_rr_timeslice_ms $RR_MS) but the plan was analysed with $((q * 1000000)) ns"
        fi
        CHECKS=$((CHECKS + 1))
        grep -q -F "$want" "$TMP/out" || fail "rr check: no '$want' in $(cat "$TMP/out")"
    done
fi
"$B" emit "$E/plan_fp.json" --format script --out "$TMP/fp.sh" 2> /dev/null || fail "emit fp"
CHECKS=$((CHECKS + 1))
! grep -q RR_QUANTUM_NS "$TMP/fp.sh" || fail "a plan without SCHED_RR tasks checks no quantum"

cli_end "$CHECKS checks passed"
