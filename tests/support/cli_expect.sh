# tests/support/cli_expect.sh — the checks the shell tests of the binary
# share, sourced after they set TMP (a scratch folder) and fails=0:
#   expect CODE DESCRIPTION COMMAND...  runs COMMAND, its output in $TMP/out
#                                       and $TMP/err; counts a failure when it
#                                       does not exit with CODE
#   has PATTERN FILE DESCRIPTION         PATTERN, a fixed string, in FILE with
#                                       blanks removed; counts a failure if not
#   hasnt PATTERN FILE DESCRIPTION       the opposite: a failure if it is there
expect() {
    code=$1 what=$2
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ "$rc" -ne "$code" ]; then
        echo "FAIL: $what: exit $rc, expected $code" >&2
        sed 's/^/  stderr: /' "$TMP/err" >&2
        fails=$((fails + 1))
    fi
}

has() {
    if ! tr -d ' \t\n' <"$2" | grep -F -q -- "$1"; then
        echo "FAIL: $3: '$1' not in output" >&2
        sed 's/^/  got: /' "$2" >&2
        fails=$((fails + 1))
    fi
}

hasnt() {
    if tr -d ' \t\n' <"$2" | grep -F -q -- "$1"; then
        echo "FAIL: $3: '$1' in output" >&2
        fails=$((fails + 1))
    fi
}
