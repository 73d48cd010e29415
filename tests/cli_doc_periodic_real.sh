#!/bin/sh
# tests/cli_doc_periodic_real.sh — docs/examples/periodic.c (docs/deploy.md
# "Release patterns") started the way the launch script starts a deadline
# task, `chrt -R -d`, takes the SCHED_DEADLINE pattern (sched_yield); under
# `chrt -f` and the normal scheduler, the sleeping one
# (sched_getscheduler() returns SCHED_DEADLINE | SCHED_RESET_ON_FORK there,
# and the example's == SCHED_DEADLINE failed). Root, under the machine lock
# (one 1 ms / 10 ms SCHED_DEADLINE thread for 3 periods); exit 77 otherwise.
set -u
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
P=$(dirname "$BIN")/tests/doc_periodic
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (chrt -d)"; exit 77; }
[ -x "$P" ] || { echo "FAIL: no $P"; exit 1; }
T=$(mktemp -d /tmp/rtp_doc_periodic.XXXXXX)
trap 'rm -rf "$T"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
run() { # WANT LABEL COMMAND...
    want=$1 label=$2
    shift 2
    timeout 20 "$@" 2> "$T/err"
    rc=$?
    if [ "$rc" -ne 0 ] || ! grep -q "^periodic: $want:" "$T/err"; then
        fail "$label: exit $rc: $(cat "$T/err")"
    else
        echo "ok: $label: $(cat "$T/err")"
    fi
}
run SCHED_DEADLINE "chrt -R -d (as the launch script)" \
    chrt -R -d --sched-runtime 1000000 --sched-deadline 10000000 --sched-period 10000000 0 "$P" 10000 3
run SCHED_DEADLINE "chrt -d" \
    chrt -d --sched-runtime 1000000 --sched-deadline 10000000 --sched-period 10000000 0 "$P" 10000 3
run "not SCHED_DEADLINE" "chrt -f" chrt -f 10 "$P" 1000 3
run "not SCHED_DEADLINE" "the normal scheduler" "$P" 1000 3
[ "$FAILS" -eq 0 ]
