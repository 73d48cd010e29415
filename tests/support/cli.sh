# tests/support/cli.sh — the preamble and the verdict the shell tests of the
# binary share (tests/cli_*.sh; the live *_real.sh that rehearse plans build
# on it with tests/support/live.sh),
# sourced first:
#   . "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
#   cli_begin NAME  set -u; B = the built rtpack (RTP_BINARY, ./rtpack when
#                   unset; exit 1 when it is not executable), S = the source
#                   tree (RTP_SOURCE_DIR, . when unset), TMP = a scratch
#                   folder /tmp/rtp_NAME.XXXXXX removed on exit (after
#                   cli_cleanup, when the test defines one: a failure it
#                   records fails a test that was passing), fails = 0
#   fail MESSAGE    prints "FAIL: MESSAGE" on stderr and counts a failure
#   die MESSAGE     prints "FAIL: MESSAGE" on stderr and exits 1 at once
#                   (for a step the next ones build on)
#   ok MESSAGE      prints "ok: MESSAGE"
#   cli_end TEXT?   exit 1 with "NAME: N failure(s)" on stderr when a check
#                   failed, else prints "NAME: TEXT" (without TEXT "all
#                   checks passed") and exits 0. (A count as the exit status
#                   would wrap: 256 failures would pass.)
# The checks expect, has and hasnt are in tests/support/cli_expect.sh.
# shellcheck shell=sh
cli_begin() {
    set -u
    CLI_NAME=$1
    B=${RTP_BINARY:-./rtpack}
    S=${RTP_SOURCE_DIR:-.}
    [ -x "$B" ] || { echo "$CLI_NAME: no rtpack binary at $B (set RTP_BINARY)" >&2; exit 1; }
    TMP=$(mktemp -d "/tmp/rtp_$CLI_NAME.XXXXXX") || exit 1
    trap cli_exit EXIT
    fails=0
}

cli_exit() {
    c_rc=$?
    c_fails=$fails
    if command -v cli_cleanup >/dev/null 2>&1; then
        cli_cleanup
    fi
    [ "$fails" -eq "$c_fails" ] || [ "$c_rc" -ne 0 ] || c_rc=1
    rm -rf "$TMP"
    exit "$c_rc"
}

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

die() {
    echo "FAIL: $*" >&2
    exit 1
}

ok() {
    echo "ok: $*"
}

cli_end() {
    if [ "$fails" -ne 0 ]; then
        echo "$CLI_NAME: $fails failure(s)" >&2
        exit 1
    fi
    echo "$CLI_NAME: ${1:-all checks passed}"
    exit 0
}
