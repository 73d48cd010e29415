# deploy/launch.sh — the fixed part of the launch script that
# `rtpack emit --format script` writes (deploy/script.h). Not a script on its
# own: deploy/script.c writes a generated header (the shebang, NAME, POLICY,
# CG_MODE, CG_ROOT, STATE_DIR(_DEFAULT), LOG_DIR, ISOLATE, BINS, DL_PERIOD_MIN_NS,
# DL_PERIOD_MAX_NS and the function for_each_task) and appends everything
# below the end-of-preamble line, byte for byte; cmake/embed.cmake compiles
# it into the library. POSIX sh: runs under dash, busybox sh and bash, and
# stays clean under `shellcheck -s sh` (CTest lints this file directly).
#
# The state file (deploy/state.h reads it too) is written as start goes, one
# record per line, so that stop can undo a start that was killed half way:
#   version 1 | starter PID | script PATH | mode v1|v2 | root DIR |
#   policy edf|fp | logdir DIR | planned BIN WANT NAME |
#   cgroup bin|housekeeping DIR (before mkdir) | subtree DIR (before +cpuset) |
#   set OLD FILE (before writing FILE; OLD is - when unreadable) |
#   isolate DIR (before moving the root's processes into DIR) |
#   task PID STARTTIME BIN LOGBASE NAME (right after the fork) | started
# stop replays it backwards, whatever the script file says now.
# shellcheck shell=sh
# ---- end of preamble: the emitted script holds the lines below ----
PREFIX="rtpack-$NAME"
# The proc file system every /proc path below is under: RTPACK_PROC_ROOT, a
# test seam (docs/deploy.md), points `check` at a recorded tree.
PROC=${RTPACK_PROC_ROOT:-/proc}
DEP="$STATE_DIR/$NAME"
STATE="$DEP/state"
DEP_LOG="$LOG_DIR/$NAME"
PROCS=cgroup.procs
VAL=''
LIST=''
REST=''
WORD=''
HK=''
USED=''
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

# pop: the first space-separated word of REST into WORD, the rest in REST.
pop() {
    WORD=${REST%% *}
    case $REST in
    *' '*) REST=${REST#* } ;;
    *) REST='' ;;
    esac
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

# meets CPULIST: true when CPULIST shares a CPU with the plan's (USED).
meets() {
    expand "$1"
    for m_cpu in $LIST; do
        case $USED in
        *" $m_cpu "*) return 0 ;;
        esac
    done
    return 1
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
    get "$PROC/sys/kernel/sched_rt_runtime_us"
    k_runtime=${VAL:-950000}
    get "$PROC/sys/kernel/sched_rt_period_us"
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

# owner_of NAME DIR CPUS: OWNER says who holds cpuset DIR of rtpack
# deployment NAME and the exact command that stops it (from its state
# file under STATE_DIR, which records the script that started it).
owner_of() {
    o_state="$STATE_DIR/$1/state"
    o_env=''
    [ "$STATE_DIR" = "$STATE_DIR_DEFAULT" ] || o_env="RTPACK_STATE_DIR=$STATE_DIR "
    o_kind="rtpack deployment '$1'"
    case $1 in
    rehearse_*) o_kind="the rehearsal '$1' (rtpack rehearse, pid ${1#rehearse_}; when that rtpack is gone, the next rtpack rehearse stops it)" ;;
    esac
    if [ ! -f "$o_state" ]; then
        OWNER="$o_kind holds CPUs $3 (cpuset $2) but $STATE_DIR has no state for it (left by a killed run, or started with another RTPACK_STATE_DIR): run its script's stop with that state folder, or end the processes in $2/$PROCS and rmdir $2"
        return 0
    fi
    o_script=$(sed -n 's/^script //p' "$o_state" | head -n 1)
    if [ -n "$o_script" ] && [ -f "$o_script" ]; then
        OWNER="$o_kind holds CPUs $3 (cpuset $2, state $o_state): stop it with: ${o_env}sh $o_script stop"
    else
        OWNER="$o_kind holds CPUs $3 (cpuset $2, state $o_state); the script that started it ($o_script) is gone: emit its plan again with --name $1 and run ${o_env}sh THAT_SCRIPT stop (stop follows the state file)"
    fi
}

# clashes: the cpusets beside this deployment's that share the plan's CPUs
# (USED) and would make the kernel refuse ours (an exclusive cpuset or a
# partition root on either side: this plan's EDF bins are exclusive), or
# that are another rtpack deployment's bins (two plans on one CPU void both
# analyses). Each is named with the command that stops it; start and check
# refuse before changing anything.
clashes() {
    c_found=''
    for c_dir in "$ROOT"/*; do
        [ -d "$c_dir" ] || continue
        c_base=${c_dir##*/}
        case $c_base in
        "$PREFIX"-*) continue ;; # this deployment's own (stop handles them)
        esac
        get "$c_dir/cpuset.cpus"
        c_cpus=$VAL
        [ -n "$c_cpus" ] || continue
        meets "$c_cpus" || continue
        c_excl=0
        if [ "$MODE" = v1 ]; then
            get "$c_dir/cpuset.cpu_exclusive"
            [ "$VAL" != 1 ] || c_excl=1
        else
            get "$c_dir/cpuset.cpus.partition"
            case $VAL in
            root* | isolated*) c_excl=1 ;;
            esac
        fi
        # rtpack-NAME-BIN or rtpack-NAME-housekeeping, NAME of [A-Za-z0-9_]
        c_other=''
        case $c_base in
        rtpack-*-*)
            c_other=${c_base#rtpack-}
            c_other=${c_other%-*}
            case $c_other in
            *[!A-Za-z0-9_]*) c_other='' ;;
            esac
            ;;
        esac
        c_bin=0
        case ${c_base##*-} in
        '' | *[!0-9]*) ;;
        *) [ -z "$c_other" ] || c_bin=1 ;;
        esac
        [ "$POLICY" = edf ] || [ "$c_excl" = 1 ] || [ "$c_bin" = 1 ] || continue
        if [ -n "$c_other" ]; then
            owner_of "$c_other" "$c_dir" "$c_cpus"
        else
            c_what=cpuset
            [ "$c_excl" = 0 ] || c_what='exclusive cpuset'
            OWNER="$c_what $c_dir holds CPUs $c_cpus and is not an rtpack deployment's: stop whatever made it, or partition onto other CPUs"
        fi
        c_found="$c_found${c_found:+; }$OWNER"
    done
    [ -z "$c_found" ] || die "the plan's CPUs are taken: $c_found"
}

# preflight: every check start makes before it changes anything.
preflight() {
    expand "$ROOT_CPUS"
    p_online=" $LIST "
    USED=' '
    for p_bin in $BINS; do
        bin_fields "$p_bin"
        expand "$B_CPUS"
        for p_cpu in $LIST; do
            case $p_online in
            *" $p_cpu "*) ;;
            *) die "CPU $p_cpu of the plan is not available in $ROOT (cpus: $ROOT_CPUS)" ;;
            esac
            USED="$USED$p_cpu "
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
    case $ISOLATE in
    0 | 1) ;;
    *) die "RTPACK_ISOLATE must be 0 or 1 (got '$ISOLATE')" ;;
    esac
    if [ "$ISOLATE" = 1 ] && [ -z "$HK" ]; then
        die "--isolate needs a housekeeping CPU for everything else, but the plan takes every CPU of $ROOT ($ROOT_CPUS); partition onto fewer CPUs"
    fi
    if [ "$POLICY" = edf ] && [ "$MODE" = v2 ] && [ -z "$HK" ]; then
        die "cgroup v2 needs a housekeeping CPU left to the root cgroup (it always holds kernel threads), but the plan takes every CPU of $ROOT ($ROOT_CPUS); partition onto fewer CPUs"
    fi
    if [ "$POLICY" = edf ]; then
        get "$PROC/sys/kernel/sched_deadline_period_min_us"
        if [ -n "$VAL" ] && [ "$DL_PERIOD_MIN_NS" -lt $((VAL * 1000)) ]; then
            die "a period of $DL_PERIOD_MIN_NS ns is below sched_deadline_period_min_us=$VAL"
        fi
        get "$PROC/sys/kernel/sched_deadline_period_max_us"
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
    clashes
}

bin_dir() { BIN_DIR="$ROOT/$PREFIX-$1"; }
HK_DIR_NAME=housekeeping

# record WORDS...: one line appended to the state file, before the change
# it describes is made (a killed start leaves a state file stop can undo).
record() {
    printf '%s\n' "$*" >> "$STATE" || die "cannot write the state file $STATE"
}

# proc_start PID: the process's start time (/proc/PID/stat field 22) into
# VAL; fails when there is no such process. PID and start time name one
# process: a PID the kernel hands out again has another start time.
proc_start() {
    VAL=''
    { read -r p_stat < "$PROC/$1/stat"; } 2>/dev/null || return 1
    p_stat=${p_stat##*) }
    # shellcheck disable=SC2086 # the fields after the command name split at blanks
    set -- $p_stat
    VAL=${20}
}

# alive PID START: that process runs and is not a zombie (and, unless
# START is empty or -, started at START).
alive() {
    a_state=$(grep '^State:' "$PROC/$1/status" 2>/dev/null) || return 1
    case $a_state in
    *Z*) return 1 ;;
    esac
    [ -n "${2:-}" ] && [ "$2" != - ] || return 0
    proc_start "$1" && [ "$VAL" = "$2" ]
}

# set_value VALUE FILE: records FILE's old value, then writes VALUE.
set_value() {
    get "$2"
    record set "${VAL:--}" "$2"
    put "$1" "$2"
}

# new_cgroup KIND DIR CPUS: records, creates and sizes one cpuset.
new_cgroup() {
    record cgroup "$1" "$2"
    mkdir "$2"
    put "$3" "$2/cpuset.cpus"
    put "$MEMS" "$2/cpuset.mems"
}

make_cgroups() {
    if [ "$MODE" = v2 ]; then
        get "$ROOT/cgroup.subtree_control"
        case " $VAL " in
        *" cpuset "*) ;;
        *)
            record subtree "$ROOT"
            put +cpuset "$ROOT/cgroup.subtree_control"
            ;;
        esac
    fi
    for m_bin in $BINS; do
        bin_fields "$m_bin"
        bin_dir "$B_INDEX"
        new_cgroup bin "$BIN_DIR" "$B_CPUS"
        [ "$POLICY" = edf ] || [ "$ISOLATE" = 1 ] || continue
        if [ "$MODE" = v1 ]; then
            [ "$POLICY" = edf ] || continue
            put 1 "$BIN_DIR/cpuset.cpu_exclusive" ||
                die "cannot make $BIN_DIR exclusive: another cpuset under $ROOT shares CPUs $B_CPUS"
        else
            put root "$BIN_DIR/cpuset.cpus.partition"
            get "$BIN_DIR/cpuset.cpus.partition"
            [ "$VAL" = root ] || die "the kernel made $BIN_DIR '$VAL', not a partition root"
        fi
    done
    [ "$MODE" = v1 ] && [ -n "$BINS" ] || return 0
    if [ -n "$HK" ] && { [ "$POLICY" = edf ] || [ "$ISOLATE" = 1 ]; }; then
        new_cgroup housekeeping "$ROOT/$PREFIX-$HK_DIR_NAME" "$HK"
    fi
    if [ "$POLICY" = edf ]; then
        set_value 0 "$ROOT/cpuset.sched_load_balance"
    fi
}

# cpu_mask CPULIST: the hex mask of /proc/irq/default_smp_affinity into
# VAL, '' when a CPU is past 62 (sh arithmetic is 64-bit).
cpu_mask() {
    expand "$1"
    c_mask=0
    for c_cpu in $LIST; do
        [ "$c_cpu" -le 62 ] || { VAL=''; return 0; }
        c_mask=$((c_mask | (1 << c_cpu)))
    done
    VAL=$(printf '%x' "$c_mask")
}

# isolate: (--isolate) under cgroup v1 every process of the root cpuset
# moves to the housekeeping cpuset (per-CPU kernel threads refuse and
# stay), and, where the kernel allows it, every IRQ's affinity moves to the
# housekeeping CPUs; everything is recorded, and stop moves it back.
isolate() {
    i_moved=0
    if [ "$MODE" = v1 ]; then
        i_hk="$ROOT/$PREFIX-$HK_DIR_NAME"
        record isolate "$i_hk"
        for i_round in 1 2; do
            i_pids=$(cat "$ROOT/$PROCS" 2>/dev/null) || i_pids=''
            for i_pid in $i_pids; do
                if { printf '%s\n' "$i_pid" > "$i_hk/$PROCS"; } 2>/dev/null; then
                    i_moved=$((i_moved + 1))
                fi
            done
            : "$i_round" # a second pass takes processes forked during the first
        done
    fi
    i_irqs=0
    for i_file in "$PROC"/irq/*/smp_affinity_list; do
        [ -f "$i_file" ] || continue
        get "$i_file"
        if [ -z "$VAL" ] || [ "$VAL" = "$HK" ]; then
            continue
        fi
        record set "$VAL" "$i_file"
        if { printf '%s\n' "$HK" > "$i_file"; } 2>/dev/null; then
            i_irqs=$((i_irqs + 1))
        fi
    done
    cpu_mask "$HK"
    i_mask=$VAL
    get "$PROC/irq/default_smp_affinity"
    if [ -n "$i_mask" ] && [ -n "$VAL" ] && [ -w "$PROC/irq/default_smp_affinity" ]; then
        record set "$VAL" "$PROC/irq/default_smp_affinity"
        { printf '%s\n' "$i_mask" > "$PROC/irq/default_smp_affinity"; } 2>/dev/null || true
    fi
    msg "isolated: $i_moved processes moved to the housekeeping CPUs $HK, $i_irqs IRQs steered there"
}

# launch BIN WANT NAME LOGBASE COMMAND...: a launcher shell joins the bin's
# cgroup, sends its output to the task's log, starts a new session and
# execs COMMAND (chrt/taskset set the policy, then exec the task). Its PID,
# the task's, is recorded at once. WANT is the policy to wait for (- for a
# command that sets its own threads' policies, such as rt-app).
launch() {
    l_bin=$1
    l_want=$2
    l_name=$3
    l_log="$DEP_LOG/$4.log"
    l_base=$4
    shift 4
    bin_dir "$l_bin"
    # shellcheck disable=SC2016 # $$ and $@ belong to the launcher shell
    sh -c 'printf "%s\n" "$$" > "$1" || exit 126; exec >> "$2" 2>&1; shift 2; exec setsid "$@"' \
        rtpack-launch "$BIN_DIR/$PROCS" "$l_log" "$@" < /dev/null &
    l_pid=$!
    proc_start "$l_pid" || VAL=-
    record task "$l_pid" "$VAL" "$l_bin" "$l_base" "$l_name"
    l_try=0
    while [ "$l_try" -lt 100 ]; do
        if ! alive "$l_pid"; then
            die "task '$l_name' failed to start: $(tail -n 3 "$l_log" 2>/dev/null | tr '\n' ' ')(log $l_log)"
        fi
        [ "$l_want" != - ] || return 0
        case $(chrt -p "$l_pid" 2>/dev/null) in
        *"$l_want"*) return 0 ;;
        esac
        sleep 0.05
        l_try=$((l_try + 1))
    done
    die "task '$l_name' did not reach $l_want (log $l_log)"
}

planned() {
    record planned "$1" "$2" "$3"
}

show() {
    s_bin=$1
    s_want=$2
    s_name=$3
    shift 4
    printf '  bin %s: %s: %s\n' "$s_bin" "$s_name" "$*"
    : "$s_want"
}

# signal_round SIGNAL TASKS DIRS: sends SIGNAL to every recorded task still
# alive ("PID:START" words) and every process in the cgroups DIRS; LIVE
# holds their PIDs.
signal_round() {
    LIVE=''
    for s_task in $2; do
        alive "${s_task%%:*}" "${s_task#*:}" && LIVE="$LIVE ${s_task%%:*}"
    done
    for s_dir in $3; do
        s_pids=$(cat "$s_dir/$PROCS" 2>/dev/null) || s_pids=''
        for s_pid in $s_pids; do
            alive "$s_pid" && LIVE="$LIVE $s_pid"
        done
    done
    for s_pid in $LIVE; do
        kill -s "$1" "$s_pid" 2>/dev/null
        kill -s CONT "$s_pid" 2>/dev/null
    done
}

# stop_tasks TASKS DIRS: TERM, up to 5 s, then KILL; 1 if any survive.
stop_tasks() {
    for k_sig in TERM KILL KILL; do
        signal_round "$k_sig" "$1" "$2"
        [ -n "$LIVE" ] || return 0
        k_wait=0
        while [ "$k_wait" -lt 50 ]; do
            k_any=''
            for k_pid in $LIVE; do
                alive "$k_pid" && k_any=1
            done
            [ -n "$k_any" ] || break
            sleep 0.1
            k_wait=$((k_wait + 1))
        done
    done
    signal_round KILL "$1" "$2"
    [ -z "$LIVE" ] && return 0
    msg "processes left: $LIVE"
    return 1
}

# move_all FROM TO: every process of cgroup FROM into cgroup TO.
move_all() {
    for v_round in 1 2 3; do
        v_pids=$(cat "$1/$PROCS" 2>/dev/null) || v_pids=''
        for v_pid in $v_pids; do
            { printf '%s\n' "$v_pid" > "$2/$PROCS"; } 2>/dev/null || true
        done
        : "$v_round"
    done
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

# restore OLD FILE: writes OLD back unless FILE holds it already.
restore() {
    [ "$1" != - ] || return 0
    get "$2"
    [ "$VAL" != "$1" ] || return 0
    put "$1" "$2"
}

# undo: every record of the state file, newest first (tasks are gone).
undo() {
    u_rc=0
    u_root=$(sed -n 's/^root //p' "$STATE" | head -n 1)
    # sed: reverse the lines (POSIX, no tac)
    sed -n '1!G;h;$p' "$STATE" > "$DEP/undo"
    while IFS= read -r u_line; do
        REST=$u_line
        pop
        case $WORD in
        set)
            pop
            restore "$WORD" "$REST" || u_rc=1
            ;;
        subtree)
            put -cpuset "$REST/cgroup.subtree_control" ||
                msg "warning: left cpuset enabled in $REST/cgroup.subtree_control (in use elsewhere)"
            ;;
        isolate)
            [ -n "$u_root" ] && move_all "$REST" "$u_root"
            ;;
        cgroup)
            pop
            if [ "$WORD" = housekeeping ] && [ -n "$u_root" ]; then
                move_all "$REST" "$u_root"
            fi
            remove_dir "$REST" || u_rc=1
            ;;
        esac
    done < "$DEP/undo"
    rm -f "$DEP/undo"
    return "$u_rc"
}

# leave_state_dir: the default state folder (rtpack's own, under /run) is
# removed when no deployment is left in it, so a stop leaves the machine as
# before the first start; a folder named by RTPACK_STATE_DIR is the user's.
leave_state_dir() {
    [ "$STATE_DIR" != "$STATE_DIR_DEFAULT" ] || rmdir "$STATE_DIR" 2>/dev/null || true
}

# teardown: stops what the state file records and undoes its changes, even
# when this script has been re-emitted since. Goes on past failures; 1 if any.
teardown() {
    set +e
    t_rc=0
    if [ ! -f "$STATE" ]; then
        sweep
        t_rc=$?
    elif [ ! -s "$STATE" ]; then
        sweep
        t_rc=$?
    else
        get "$STATE"
        [ "$VAL" = "version 1" ] || {
            msg "$STATE is not a state file this script knows ('$VAL'); nothing done"
            set -e
            return 1
        }
        t_tasks=''
        t_dirs=''
        while IFS= read -r t_line; do
            REST=$t_line
            pop
            case $WORD in
            task)
                pop
                t_pid=$WORD
                pop
                t_tasks="$t_tasks $t_pid:$WORD"
                ;;
            cgroup)
                pop
                [ "$WORD" = bin ] && [ -d "$REST" ] && t_dirs="$t_dirs $REST"
                ;;
            esac
        done < "$STATE"
        # shellcheck disable=SC2086 # PID:START words
        stop_tasks "$t_tasks" "$t_dirs" || t_rc=1
        undo || t_rc=1
    fi
    if [ "$t_rc" -eq 0 ]; then
        rm -f "$STATE"
        [ ! -d "$DEP" ] || rmdir "$DEP" 2>/dev/null || msg "warning: $DEP is not empty; left in place"
        leave_state_dir
    else
        msg "teardown incomplete: state kept in $STATE; run stop again"
    fi
    set -e
    return "$t_rc"
}

# sweep: no state file (lost, or start killed before it wrote one), yet
# cgroups named after this deployment may exist: empty and remove them.
sweep() {
    w_rc=0
    for w_dir in "$ROOT/$PREFIX"-*; do
        [ -d "$w_dir" ] || continue
        msg "warning: no state file $STATE; removing $w_dir found by its name"
        case $w_dir in
        *"-$HK_DIR_NAME") move_all "$w_dir" "$ROOT" ;;
        *) stop_tasks '' "$w_dir" || w_rc=1 ;;
        esac
        remove_dir "$w_dir" || w_rc=1
        if [ "$MODE" = v1 ]; then
            get "$ROOT/cpuset.sched_load_balance"
            [ "$VAL" != 0 ] ||
                msg "warning: $ROOT/cpuset.sched_load_balance stays 0; write the value it had before start (usually 1)"
        fi
    done
    return "$w_rc"
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

# self: this script's absolute path into VAL (recorded for emit --out).
self() {
    case $0 in
    /*) VAL=$0 ;;
    *) VAL="$(pwd -P)/$0" ;;
    esac
}

# setup WITH_TASKS: cgroups (and tasks when WITH_TASKS=1), all or nothing.
setup() {
    need_root
    detect
    preflight
    if [ ! -d "$DEP" ] && ls -d "$ROOT/$PREFIX"-* > /dev/null 2>&1; then
        die "cpusets $ROOT/$PREFIX-* exist without a state file (left by an earlier run?); run stop first"
    fi
    # The default state folder goes when its last deployment stops
    # (leave_state_dir), so another script's stop may remove it between a
    # mkdir -p and the mkdir of DEP here: create both again, a few times.
    s_try=0
    until mkdir "$DEP" 2>/dev/null; do
        [ -d "$DEP" ] && die "already started (state $STATE); run stop first"
        s_try=$((s_try + 1))
        [ "$s_try" -le 3 ] || die "cannot create $DEP"
        mkdir -p "$STATE_DIR" || die "cannot create $STATE_DIR"
    done
    trap start_exit EXIT
    trap 'exit 1' HUP INT TERM
    record version 1
    record starter $$
    self
    record script "$VAL"
    record mode "$MODE"
    record root "$ROOT"
    record policy "$POLICY"
    record logdir "$DEP_LOG"
    [ "$1" = 0 ] || for_each_task planned
    make_cgroups
    [ "$ISOLATE" = 0 ] || isolate
    if [ "$1" = 1 ]; then
        mkdir -p "$DEP_LOG" || die "cannot create the log folder $DEP_LOG"
        for_each_task launch
        sleep 0.2
        while IFS= read -r s_line; do
            REST=$s_line
            pop
            [ "$WORD" = task ] || continue
            pop
            s_pid=$WORD
            pop
            alive "$s_pid" "$WORD" || die "task '${REST#* * }' (pid $s_pid) exited right after it started"
        done < "$STATE"
    fi
    record started
    DONE=1
    trap - EXIT HUP INT TERM
}

# survey: reads the state file into S_PHASE (none, starting, incomplete,
# started), S_PLANNED, S_ALIVE and S_DEAD (names, one per line).
survey() {
    S_PHASE=none
    S_PLANNED=0
    S_ALIVE=0
    S_DEAD=''
    [ -f "$STATE" ] || return 0
    S_PHASE=incomplete
    v_starter=''
    while IFS= read -r v_line; do
        REST=$v_line
        pop
        case $WORD in
        starter) v_starter=$REST ;;
        started) S_PHASE=started ;;
        planned) S_PLANNED=$((S_PLANNED + 1)) ;;
        esac
    done < "$STATE"
    if [ "$S_PHASE" = incomplete ] && [ -n "$v_starter" ] && alive "$v_starter"; then
        S_PHASE=starting
    fi
    while IFS= read -r v_line; do
        REST=$v_line
        pop
        [ "$WORD" = planned ] || continue
        pop
        pop
        v_want=$WORD
        v_name=$REST
        task_of "$v_name"
        if [ -z "$T_PID" ] || ! alive "$T_PID" "$T_START"; then
            S_DEAD="$S_DEAD$v_name
"
        elif [ "$v_want" != - ] && ! chrt -p "$T_PID" 2>/dev/null | grep -q "$v_want"; then
            S_DEAD="$S_DEAD$v_name (not $v_want)
"
        else
            S_ALIVE=$((S_ALIVE + 1))
        fi
    done < "$STATE"
}

# task_of NAME: the newest task record of NAME into T_PID T_START T_LOG
# ('' when it has none).
task_of() {
    T_PID=''
    T_START=''
    T_LOG=''
    while IFS= read -r o_line; do
        REST=$o_line
        pop
        [ "$WORD" = task ] || continue
        pop
        o_pid=$WORD
        pop
        o_start=$WORD
        pop
        pop
        if [ "$REST" = "$1" ]; then
            T_PID=$o_pid
            T_START=$o_start
            T_LOG="$DEP_LOG/$WORD.log"
        fi
    done < "$STATE"
}

# phase_line: one line on where the deployment stands.
phase_line() {
    case $S_PHASE in
    none) printf 'status: not started\n' ;;
    starting) printf 'status: start in progress (state %s)\n' "$STATE" ;;
    incomplete) printf 'status: start did not finish (killed?): %s of %s tasks alive; run stop (state %s)\n' "$S_ALIVE" "$S_PLANNED" "$STATE" ;;
    started)
        if [ -z "$S_DEAD" ]; then
            printf 'status: started, %s of %s tasks alive (state %s)\n' "$S_ALIVE" "$S_PLANNED" "$STATE"
        else
            printf 'status: started, but only %s of %s tasks alive; dead: %s (state %s)\n' "$S_ALIVE" "$S_PLANNED" "$(printf '%s' "$S_DEAD" | tr '\n' ',' | sed 's/,$//; s/,/, /g')" "$STATE"
        fi
        ;;
    esac
}

# rt_others: the real-time threads (FIFO, RR, DEADLINE) outside this
# deployment whose CPUs meet the plan's; they compete with the plan.
rt_others() {
    o_list=''
    o_count=0
    for o_task in "$PROC"/[0-9]*/task/[0-9]*; do
        { read -r o_stat < "$o_task/stat"; } 2>/dev/null || continue
        o_comm=${o_stat#*(}
        o_comm=${o_comm%)*}
        o_stat=${o_stat##*) }
        # shellcheck disable=SC2086 # the fields after the command name split at blanks
        set -- $o_stat
        case ${39} in
        1) o_pol="SCHED_FIFO ${38}" ;;
        2) o_pol="SCHED_RR ${38}" ;;
        6) o_pol=SCHED_DEADLINE ;;
        *) continue ;;
        esac
        get "$o_task/cpuset"
        case $VAL in
        "/$PREFIX-"*) continue ;; # this deployment's own
        esac
        o_cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$o_task/status" 2>/dev/null)
        meets "$o_cpus" || continue
        o_count=$((o_count + 1))
        o_list="$o_list${o_list:+, }$o_comm (tid ${o_task##*/}, $o_pol, CPUs $o_cpus)"
    done
    if [ "$o_count" -eq 0 ]; then
        printf 'other real-time threads on the planned CPUs: none\n'
    else
        printf 'other real-time threads on the planned CPUs (%s; they take CPU time the analysis does not count): %s\n' "$o_count" "$o_list"
    fi
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
    if [ "$ISOLATE" = 1 ]; then
        if [ "$MODE" = v1 ]; then
            c_n=$(wc -l < "$ROOT/$PROCS" 2>/dev/null) || c_n='?'
            printf 'isolate: the %s processes of the root cpuset move to the housekeeping CPUs %s (per-CPU kernel threads stay), IRQ affinities too where allowed; stop moves them back\n' "$c_n" "$HK"
        else
            printf 'isolate: every bin is a partition root (other cgroups lose its CPUs); IRQ affinities move to %s where allowed; stop restores them\n' "$HK"
        fi
    else
        printf 'isolate: no (ordinary processes and IRQs may run on the planned CPUs; see --isolate)\n'
    fi
    if [ "$MODE" = v1 ]; then
        get "$ROOT/cpuset.sched_load_balance"
        if [ "$VAL" = 0 ]; then
            if [ -f "$STATE" ]; then
                printf 'load balancing: off machine-wide (%s/cpuset.sched_load_balance = 0), set by this deployment\n' "$ROOT"
            else
                printf 'warning: load balancing is off machine-wide (%s/cpuset.sched_load_balance = 0) and not by this deployment: another deployment or a leftover\n' "$ROOT"
            fi
        fi
    fi
    rt_others
    printf 'logs: %s/TASK.log; state: %s\n' "$DEP_LOG" "$STATE"
    printf 'tasks:\n'
    for_each_task show
    survey
    phase_line
}

# status: per task, what the kernel reports; 0 when every planned task runs
# with its planned policy, 1 otherwise (naming the others).
status() {
    survey
    if [ "$S_PHASE" = none ]; then
        printf 'rtpack deployment %s: not started (no state %s)\n' "$NAME" "$STATE"
        return 1
    fi
    printf 'rtpack deployment %s: state %s, started by %s\n' "$NAME" "$STATE" \
        "$(sed -n 's/^script //p' "$STATE" | head -n 1)"
    while IFS= read -r a_line; do
        REST=$a_line
        pop
        [ "$WORD" = planned ] || continue
        pop
        pop
        a_want=$WORD
        a_name=$REST
        task_of "$a_name"
        if [ -z "$T_PID" ]; then
            printf '%s: not started\n' "$a_name"
        elif ! alive "$T_PID" "$T_START"; then
            printf '%s: pid %s dead (log %s)\n' "$a_name" "$T_PID" "$T_LOG"
        else
            a_cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$PROC/$T_PID/status" 2>/dev/null)
            a_chrt=$(chrt -p "$T_PID" 2>/dev/null |
                sed -n "s/^pid [0-9]*'s current \(scheduling \)\{0,1\}\([^:]*\): \(.*\)/\2 \3/p" |
                sed 's/ parameters / /' | tr '\n' ',' | sed 's/,$//; s/,/, /g')
            case $a_want:$a_chrt in
            -:* | *:*"$a_want"*) a_note='' ;;
            *) a_note=" (planned $a_want)" ;;
            esac
            { read -r a_stat < "$PROC/$T_PID/stat"; } 2>/dev/null || a_stat=''
            a_stat=${a_stat##*) }
            # shellcheck disable=SC2086 # the fields after the command name split at blanks
            set -- $a_stat
            printf '%s: pid %s alive, CPUs %s (on CPU %s), %s%s, log %s\n' "$a_name" "$T_PID" \
                "$a_cpus" "${37:-?}" "$a_chrt" "$a_note" "$T_LOG"
        fi
    done < "$STATE"
    phase_line
    [ "$S_PHASE" = started ] && [ -z "$S_DEAD" ]
}

case ${1:-} in
start)
    setup 1
    msg "started"
    ;;
stop)
    need_root
    detect
    if [ ! -f "$STATE" ] && ! ls -d "$ROOT/$PREFIX"-* > /dev/null 2>&1; then
        [ ! -d "$DEP" ] || rmdir "$DEP" 2>/dev/null || true
        leave_state_dir
        msg "not started: nothing to stop"
        exit 0
    fi
    teardown
    msg "stopped"
    ;;
status) status ;;
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
    printf 'usage: %s start|stop|status|check\n' "$0" >&2
    exit 2
    ;;
esac
