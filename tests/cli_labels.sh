#!/bin/sh
# tests/cli_labels.sh — the suite's tiers (tests/CMakeLists.txt, README
# "Testing") hold every test exactly once: each test carries one of the
# labels unit, cli, failalloc, slow, real, and no other; the live tests
# (*_real) are labelled real and nothing else is. Reads the test list of
# the build folder that holds RTP_BINARY.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_labels
BUILD=$(dirname "$B")

count() { # ctest arguments -> number of tests selected
    ctest --test-dir "$BUILD" -N "$@" 2>/dev/null | sed -n 's/^Total Tests: //p'
}
names() {
    ctest --test-dir "$BUILD" -N "$@" 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p' | sort
}

all=$(count)
[ "${all:-0}" -gt 0 ] || die "no tests found in $BUILD"
sum=0
for label in unit cli failalloc slow real; do
    n=$(count -L "^$label\$")
    [ "${n:-0}" -gt 0 ] || fail "no test carries the label $label"
    sum=$((sum + ${n:-0}))
done
[ "$sum" -eq "$all" ] || fail "$all tests, but the five labels hold $sum (a test with none or two)"
ctest --test-dir "$BUILD" --print-labels 2>/dev/null | sed -n 's/^  //p' | while read -r l; do
    case $l in
    unit | cli | failalloc | slow | real) ;;
    *) printf 'cli_labels: unknown label %s\n' "$l" >&2; exit 1 ;;
    esac
done || fail "unknown labels (above)"
[ "$(names -R _real)" = "$(names -L '^real$')" ] || fail "the *_real tests and the label real differ"
cli_end "$all tests, one label each"
