#!/bin/sh
# tests/cmake_consumer.sh — `cmake --install` gives a CMake package: the
# out-of-tree project tests/consumer finds it with find_package(rtpack
# CONFIG), links rtpack::rtpack (nothing else) and its program runs the
# library's exact test, heuristics, ILP and generator correctly.
set -eu
BIN=${RTP_BINARY:?set RTP_BINARY to the built rtpack}
SRC=${RTP_SOURCE_DIR:?set RTP_SOURCE_DIR to the source tree}
BUILD=$(dirname "$BIN")
flags=""
if grep -q '^RTP_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
    flags="-fsanitize=address,undefined" # the installed library needs their runtime
fi
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cmake --install "$BUILD" --prefix "$TMP/prefix" >/dev/null
cmake -S "$SRC/tests/consumer" -B "$TMP/build" -DCMAKE_PREFIX_PATH="$TMP/prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$TMP/configure.log" 2>&1 ||
    { cat "$TMP/configure.log"; echo "FAIL: find_package(rtpack CONFIG)"; exit 1; }
cmake --build "$TMP/build" >"$TMP/build.log" 2>&1 ||
    { cat "$TMP/build.log"; echo "FAIL: consumer does not build"; exit 1; }
rc=0
out=$("$TMP/build/consumer") || rc=$?
expected="version $(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
edf one cpu: not schedulable
best: feasible=1
ilp: optimal feasible=1
gen: 5 tasks"
[ "$rc" -eq 0 ] && [ "$out" = "$expected" ] ||
    { printf 'FAIL: consumer exited %s, printed\n%s\n' "$rc" "$out"; exit 1; }
echo "cmake_consumer: all passed"
