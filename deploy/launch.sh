# deploy/launch.sh — the fixed part of the launch script that
# `rtpack emit --format script` writes (deploy/script.h). Not a script on its
# own: deploy/script.c writes a generated header (the shebang, NAME, POLICY,
# WANT, CG_MODE, CG_ROOT, STATE_DIR, BINS, DL_PERIOD_MIN_NS,
# DL_PERIOD_MAX_NS and the function for_each_task) and appends everything
# below the end-of-preamble line, byte for byte; cmake/embed.cmake compiles
# it into the library. POSIX sh: runs under dash, busybox sh and bash, and
# stays clean under `shellcheck -s sh` (CTest lints this file directly).
# shellcheck shell=sh
# ---- end of preamble: the emitted script holds the lines below ----
PREFIX="rtpack-$NAME"
STATE="$STATE_DIR/$PREFIX.state"
PROCS=cgroup.procs
VAL=''
LIST=''
STARTED=''
DONE=0

msg() { printf 'rtpack %s: %s\n' "$NAME" "$*" >&2; }
die() { msg "$*"; exit 1; }

need_root() {
    [ "$(id -u)" -eq 0 ] || die "must run as root (cpusets and real-time policies need it)"
}

# get FILE: its first line into VAL ("" when unreadable).
get() {
    VAL=''
    if [ -r "$1" ]; then
        # One read(2): /proc/sys files answer nothing to a read at an offset.
        VAL=$(head -n 1 "$1" 2>/dev/null) || VAL=''
    fi
}

# put VALUE FILE: one write to a kernel file; fails with a message.
put() {
    if ! printf '%s\n' "$1" 2>/dev/null > "$2"; then
        msg "the kernel refused '$1' in $2"
        return 1
    fi
}

# expand CPULIST: "0-2,5" into LIST=" 0 1 2 5".
expand() {
    LIST=''
    e_ifs=$IFS
    IFS=,
    for e_part in $1; do
        case $e_part in
        *-*)
            e_lo=${e_part%-*}
            e_hi=${e_part#*-}
            while [ "$e_lo" -le "$e_hi" ]; do
                LIST="$LIST $e_lo"
                e_lo=$((e_lo + 1))
            done
            ;;
        ?*) LIST="$LIST $e_part" ;;
        esac
    done
    IFS=$e_ifs
}

has_v2_cpuset() {
    [ -f "$1/cgroup.controllers" ] && grep -qw cpuset "$1/cgroup.controllers"
}

# detect: MODE (v1|v2), ROOT (the cpuset folder), ROOT_CPUS, MEMS.
detect() {
    MODE=$CG_MODE
    ROOT=$CG_ROOT
    case $MODE in
    auto | v1 | v2) ;;
    *) die "RTPACK_CGROUP must be auto, v1 or v2 (got '$MODE')" ;;
    esac
    if [ -z "$ROOT" ]; then
        if [ "$MODE" != v2 ] && [ -f /sys/fs/cgroup/cpuset/cpuset.cpu_exclusive ]; then
            ROOT=/sys/fs/cgroup/cpuset
        elif [ "$MODE" != v1 ]; then
            for d_dir in /sys/fs/cgroup /sys/fs/cgroup/unified; do
                if has_v2_cpuset "$d_dir"; then
                    ROOT=$d_dir
                    break
                fi
            done
        fi
        [ -n "$ROOT" ] || die "no cpuset controller found (cgroup v1 at /sys/fs/cgroup/cpuset, or cgroup v2 listing cpuset in cgroup.controllers); set RTPACK_CGROUP_ROOT"
    fi
    if [ "$MODE" = auto ]; then
        if [ -f "$ROOT/cpuset.cpu_exclusive" ]; then
            MODE=v1
        elif has_v2_cpuset "$ROOT"; then
            MODE=v2
        else
            die "$ROOT is not a cpuset hierarchy (cgroup v1 or v2)"
        fi
    fi
    if [ "$MODE" = v1 ]; then
        [ -f "$ROOT/cpuset.cpu_exclusive" ] || die "$ROOT is not a cgroup v1 cpuset folder"
        get "$ROOT/cpuset.cpus"
        ROOT_CPUS=$VAL
        get "$ROOT/cpuset.mems"
        MEMS=$VAL
    else
        has_v2_cpuset "$ROOT" || die "$ROOT has no cgroup v2 cpuset controller"
        get "$ROOT/cpuset.cpus.effective"
        ROOT_CPUS=$VAL
        get "$ROOT/cpuset.mems.effective"
        MEMS=$VAL
    fi
    [ -n "$MEMS" ] || die "cannot read the memory nodes of $ROOT"
}

# bin_fields ENTRY: B_INDEX B_CPUS B_NCPUS B_NEED from "index:cpus:ncpus:need".
bin_fields() {
    B_INDEX=${1%%:*}
    b_rest=${1#*:}
    B_CPUS=${b_rest%%:*}
    b_rest=${b_rest#*:}
    B_NCPUS=${b_rest%%:*}
    B_NEED=${b_rest#*:}
}

# Kernel SCHED_DEADLINE / RT bandwidth per CPU in 2^20 fixed point: the
# root domain's rt_runtime/rt_period minus the fair server's share (Linux
# >= 6.12; read from debugfs when possible, else its default 50 ms / 1 s).
kernel_bw() {
    get /proc/sys/kernel/sched_rt_runtime_us
    k_runtime=${VAL:-950000}
    get /proc/sys/kernel/sched_rt_period_us
    k_period=${VAL:-1000000}
    if [ "$k_runtime" -lt 0 ]; then
        RT_BW=1048576
    else
        RT_BW=$((k_runtime * 1048576 / k_period))
    fi
    k_release=$(uname -r)
    k_major=${k_release%%.*}
    k_minor=${k_release#*.}
    k_minor=${k_minor%%[!0-9]*}
    FAIR_BW=0
    if [ "$k_major" -gt 6 ] || { [ "$k_major" -eq 6 ] && [ "${k_minor:-0}" -ge 12 ]; }; then
        FAIR_BW=52428
        get /sys/kernel/debug/sched/fair_server/cpu0/runtime
        k_fr=$VAL
        get /sys/kernel/debug/sched/fair_server/cpu0/period
        if [ -n "$k_fr" ] && [ -n "$VAL" ] && [ "$VAL" -gt 0 ]; then
            FAIR_BW=$((k_fr * 1048576 / VAL))
        fi
    fi
}

# preflight: every check start makes before it changes anything.
preflight() {
    expand "$ROOT_CPUS"
    p_online=" $LIST "
    USED=''
    for p_bin in $BINS; do
        bin_fields "$p_bin"
        expand "$B_CPUS"
        for p_cpu in $LIST; do
            case $p_online in
            *" $p_cpu "*) ;;
            *) die "CPU $p_cpu of the plan is not available in $ROOT (cpus: $ROOT_CPUS)" ;;
            esac
            USED="$USED $p_cpu "
        done
    done
    HK=''
    expand "$ROOT_CPUS"
    for p_cpu in $LIST; do
        case $USED in
        *" $p_cpu "*) ;;
        *) HK="${HK:+$HK,}$p_cpu" ;;
        esac
    done
    if [ "$POLICY" = edf ] && [ "$MODE" = v2 ] && [ -z "$HK" ]; then
        die "cgroup v2 needs a housekeeping CPU left to the root cgroup (it always holds kernel threads), but the plan takes every CPU of $ROOT ($ROOT_CPUS); partition onto fewer CPUs"
    fi
    if [ "$POLICY" = edf ]; then
        get /proc/sys/kernel/sched_deadline_period_min_us
        if [ -n "$VAL" ] && [ "$DL_PERIOD_MIN_NS" -lt $((VAL * 1000)) ]; then
            die "a period of $DL_PERIOD_MIN_NS ns is below sched_deadline_period_min_us=$VAL"
        fi
        get /proc/sys/kernel/sched_deadline_period_max_us
        if [ -n "$VAL" ] && [ "$DL_PERIOD_MAX_NS" -gt $((VAL * 1000)) ]; then
            die "a period of $DL_PERIOD_MAX_NS ns is above sched_deadline_period_max_us=$VAL"
        fi
    fi
    kernel_bw
    for p_bin in $BINS; do
        bin_fields "$p_bin"
        p_cap=$((B_NCPUS * (RT_BW - FAIR_BW)))
        if [ "$B_NEED" -gt "$p_cap" ]; then
            if [ "${RTPACK_SKIP_BUDGET_CHECK:-0}" = 1 ]; then
                msg "warning: CPUs $B_CPUS need bandwidth $B_NEED/1048576 > $p_cap/1048576 available; the kernel decides (RTPACK_SKIP_BUDGET_CHECK=1)"
            else
                die "CPUs $B_CPUS need bandwidth $B_NEED/1048576 but the kernel grants $p_cap/1048576 (sched_rt_runtime_us / sched_rt_period_us minus the fair server); lower the load or raise sched_rt_runtime_us"
            fi
        fi
    done
}

bin_dir() { BIN_DIR="$ROOT/$PREFIX-$1"; }

running() {
    [ -e "$STATE" ] && return 0
    [ -d "$ROOT/$PREFIX-housekeeping" ] && return 0
    for r_bin in $BINS; do
        bin_fields "$r_bin"
        bin_dir "$B_INDEX"
        [ -d "$BIN_DIR" ] && return 0
    done
    return 1
}

make_cgroups() {
    if [ "$MODE" = v2 ]; then
        get "$ROOT/cgroup.subtree_control"
        case " $VAL " in
        *" cpuset "*) ;;
        *)
            echo "subtree=1" >> "$STATE"
            put +cpuset "$ROOT/cgroup.subtree_control"
            ;;
        esac
    fi
    for m_bin in $BINS; do
        bin_fields "$m_bin"
        bin_dir "$B_INDEX"
        mkdir "$BIN_DIR"
        put "$B_CPUS" "$BIN_DIR/cpuset.cpus"
        put "$MEMS" "$BIN_DIR/cpuset.mems"
        [ "$POLICY" = edf ] || continue
        if [ "$MODE" = v1 ]; then
            put 1 "$BIN_DIR/cpuset.cpu_exclusive" ||
                die "cannot make $BIN_DIR exclusive: another cpuset under $ROOT shares CPUs $B_CPUS"
        else
            put root "$BIN_DIR/cpuset.cpus.partition"
            get "$BIN_DIR/cpuset.cpus.partition"
            [ "$VAL" = root ] || die "the kernel made $BIN_DIR '$VAL', not a partition root"
        fi
    done
    if [ "$POLICY" = edf ] && [ "$MODE" = v1 ] && [ -n "$BINS" ]; then
        if [ -n "$HK" ]; then
            mkdir "$ROOT/$PREFIX-housekeeping"
            put "$HK" "$ROOT/$PREFIX-housekeeping/cpuset.cpus"
            put "$MEMS" "$ROOT/$PREFIX-housekeeping/cpuset.mems"
        fi
        get "$ROOT/cpuset.sched_load_balance"
        echo "lb=$VAL" >> "$STATE"
        put 0 "$ROOT/cpuset.sched_load_balance"
    fi
}

# alive PID: running and not a zombie.
alive() {
    a_state=$(grep '^State:' "/proc/$1/status" 2>/dev/null) || return 1
    case $a_state in
    *Z*) return 1 ;;
    esac
    return 0
}

# launch BIN NAME COMMAND...: the launcher shell joins the bin's cgroup,
# then execs COMMAND (chrt/taskset set the policy, then exec the task).
launch() {
    l_bin=$1
    l_name=$2
    shift 2
    bin_dir "$l_bin"
    # shellcheck disable=SC2016 # $$ and $@ belong to the launcher shell
    sh -c 'printf "%s\n" "$$" > "$1" || exit 126; shift; exec "$@"' rtpack-launch \
        "$BIN_DIR/$PROCS" "$@" < /dev/null &
    l_pid=$!
    STARTED="$STARTED $l_pid"
    l_try=0
    while [ "$l_try" -lt 100 ]; do
        alive "$l_pid" || die "task '$l_name' failed to start (see the message above)"
        case $(chrt -p "$l_pid" 2>/dev/null) in
        *"$WANT"*) return 0 ;;
        esac
        sleep 0.05
        l_try=$((l_try + 1))
    done
    die "task '$l_name' did not reach $WANT"
}

show() {
    s_bin=$1
    s_name=$2
    shift 2
    printf '  bin %s: %s: %s\n' "$s_bin" "$s_name" "$*"
}

# kill_members DIR: TERM (then KILL) every process in the cgroup.
kill_members() {
    k_round=0
    while [ "$k_round" -lt 3 ]; do
        k_pids=$(cat "$1/$PROCS" 2>/dev/null) || k_pids=''
        k_live=''
        for k_pid in $k_pids; do
            alive "$k_pid" && k_live="$k_live $k_pid"
        done
        [ -n "$k_live" ] || return 0
        k_sig=TERM
        [ "$k_round" -eq 0 ] || k_sig=KILL
        for k_pid in $k_live; do
            kill -s "$k_sig" "$k_pid" 2>/dev/null
            kill -s CONT "$k_pid" 2>/dev/null
        done
        k_wait=0
        while [ "$k_wait" -lt 50 ]; do
            k_any=''
            for k_pid in $k_live; do
                alive "$k_pid" && k_any=1
            done
            [ -n "$k_any" ] || break
            sleep 0.1
            k_wait=$((k_wait + 1))
        done
        k_round=$((k_round + 1))
    done
    msg "processes left in $1: $k_live"
    return 1
}

remove_dir() {
    [ -d "$1" ] || return 0
    r_try=0
    while [ "$r_try" -lt 50 ]; do
        rmdir "$1" 2>/dev/null && return 0
        sleep 0.1
        r_try=$((r_try + 1))
    done
    msg "cannot remove $1"
    return 1
}

# teardown: kill the deployment's tasks, remove its cgroups, restore the
# values the state file saved. Goes on past failures; 1 if any.
teardown() {
    set +e
    t_rc=0
    t_lb=''
    t_subtree=''
    if [ -f "$STATE" ]; then
        while IFS='=' read -r t_key t_value; do
            case $t_key in
            lb) t_lb=$t_value ;;
            subtree) t_subtree=$t_value ;;
            esac
        done < "$STATE"
    elif [ "$POLICY" = edf ] && [ "$MODE" = v1 ]; then
        get "$ROOT/cpuset.sched_load_balance"
        [ "$VAL" != 0 ] ||
            msg "warning: no state file $STATE, so $ROOT/cpuset.sched_load_balance stays 0; write the value it had before start (usually 1)"
    fi
    t_dirs="$ROOT/$PREFIX-housekeeping"
    for t_bin in $BINS; do
        bin_fields "$t_bin"
        bin_dir "$B_INDEX"
        t_dirs="$t_dirs $BIN_DIR"
    done
    for t_dir in $t_dirs; do
        [ -d "$t_dir" ] || continue
        kill_members "$t_dir" || t_rc=1
    done
    for t_pid in $STARTED; do
        wait "$t_pid" 2>/dev/null
    done
    for t_dir in $t_dirs; do
        remove_dir "$t_dir" || t_rc=1
    done
    if [ -n "$t_lb" ]; then
        put "$t_lb" "$ROOT/cpuset.sched_load_balance" || t_rc=1
    fi
    if [ "$t_subtree" = 1 ]; then
        put -cpuset "$ROOT/cgroup.subtree_control" ||
            msg "warning: left cpuset enabled in $ROOT/cgroup.subtree_control (in use elsewhere)"
    fi
    if [ "$t_rc" -eq 0 ]; then
        rm -f "$STATE"
    else
        msg "teardown incomplete: state kept in $STATE; run stop again"
    fi
    set -e
    return "$t_rc"
}

start_exit() {
    s_rc=$?
    trap - EXIT
    if [ "$DONE" -ne 1 ]; then
        msg "start failed: stopping what it started and undoing its changes"
        teardown || true
        [ "$s_rc" -ne 0 ] || s_rc=1
    fi
    exit "$s_rc"
}

# setup WITH_TASKS: cgroups (and tasks when WITH_TASKS=1), all or nothing.
setup() {
    need_root
    detect
    preflight
    running && die "already started (state $STATE or cgroups $ROOT/$PREFIX-*); run stop first"
    mkdir -p "$STATE_DIR"
    trap start_exit EXIT
    trap 'exit 1' HUP INT TERM
    printf 'mode=%s\nroot=%s\n' "$MODE" "$ROOT" > "$STATE"
    make_cgroups
    if [ "$1" = 1 ]; then
        for_each_task launch
        sleep 0.2
        for s_pid in $STARTED; do
            alive "$s_pid" || die "a task (pid $s_pid) exited right after it started"
        done
    fi
    DONE=1
    trap - EXIT HUP INT TERM
}

check() {
    detect
    preflight
    printf 'rtpack deployment %s: %s plan, cgroup %s at %s (mems %s)\n' "$NAME" "$POLICY" "$MODE" "$ROOT" "$MEMS"
    for c_bin in $BINS; do
        bin_fields "$c_bin"
        bin_dir "$B_INDEX"
        printf 'bin %s: cpuset %s, CPUs %s, bandwidth %s/1048576 of %s/1048576\n' "$B_INDEX" \
            "$BIN_DIR" "$B_CPUS" "$B_NEED" $((B_NCPUS * (RT_BW - FAIR_BW)))
    done
    if [ "$POLICY" = edf ] && [ "$MODE" = v1 ]; then
        printf 'root cpuset.sched_load_balance -> 0 (restored by stop); housekeeping CPUs: %s\n' "${HK:-none}"
    fi
    if [ "$POLICY" = edf ] && [ "$MODE" = v2 ]; then
        printf 'partition roots; housekeeping CPUs left to the root: %s\n' "$HK"
    fi
    printf 'tasks:\n'
    for_each_task show
    if running; then
        printf 'status: started (state %s)\n' "$STATE"
    else
        printf 'status: not started\n'
    fi
}

case ${1:-} in
start)
    setup 1
    msg "started"
    ;;
stop)
    need_root
    detect
    if ! running; then
        msg "not started: nothing to stop"
        exit 0
    fi
    teardown
    msg "stopped"
    ;;
check) check ;;
cgroups-up)
    setup 0
    msg "cpusets ready"
    ;;
cgroups-down)
    need_root
    detect
    teardown
    ;;
run)
    [ "$#" -ge 3 ] || die "usage: $0 run BIN COMMAND..."
    need_root
    detect
    bin_dir "$2"
    [ -d "$BIN_DIR" ] || die "no cpuset $BIN_DIR: run '$0 cgroups-up' first"
    printf '%s\n' "$$" > "$BIN_DIR/$PROCS"
    shift 2
    exec "$@"
    ;;
*)
    printf 'usage: %s start|stop|check\n' "$0" >&2
    exit 2
    ;;
esac
