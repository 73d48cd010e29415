# tests/support/machine_state.sh — sourced by the live tests (*_real.sh):
# machine_state CG prints the machine's scheduling state one fact per line,
# so two snapshots compare with cmp/diff: every cpuset folder under CG with
# its cpus, exclusivity and load balancing (cgroup v1), and every live
# (not zombie) thread with a real-time policy (field 41 of /proc/.../stat,
# $40 once the command name is cut: 1 FIFO, 2 RR, 6 DEADLINE), and what
# rtpack's default state folder /run/rtpack holds (an empty folder is not
# reported: the last stop removes it; live.sh checks that).
# shellcheck shell=sh
machine_state() {
    s_left=$(ls -A /run/rtpack 2> /dev/null | tr '\n' ' ')
    [ -z "$s_left" ] || echo "state folder /run/rtpack: $s_left"
    if [ -d "$1" ]; then
        find "$1" -type d | sort | while read -r d; do
            echo "cpuset $d cpus=$(cat "$d/cpuset.cpus") excl=$(cat "$d/cpuset.cpu_exclusive")" \
                "lb=$(cat "$d/cpuset.sched_load_balance")"
        done
    fi
    for s in /proc/[0-9]*/task/[0-9]*/stat; do
        sed 's/^\([0-9]*\) (.*) /\1 /' "$s" 2> /dev/null
    done | awk '$2 != "Z" && ($40 == 1 || $40 == 2 || $40 == 6) { print "rt thread", $1, "policy", $40, "prio", $39 }' | sort
}
