#!/bin/sh
# tests/cmake_consumer.sh — `cmake --install` gives a CMake package: the
# out-of-tree project tests/consumer finds it with find_package(rtpack
# CONFIG), links rtpack::rtpack (nothing else) and its program runs the
# library's exact test, heuristics, ILP and generator correctly. The
# installed headers are the curated API: the internal ones are absent, each
# public one includes only installed rtpack headers and standard C/POSIX
# headers, and compiles alone (tests/consumer/CMakeLists.txt). librtpack.so
# is sealed: every symbol it exports is an rtp_ name an installed header
# declares (models/api.h), and rtpack::rtpack links it, not librtpack.a.
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
inc="$TMP/prefix/include"
for internal in models/json_util.h models/arith.h ilp/ilp_internal.h ilp/glpk_model.h \
                solver/global_work.h heuristics/pack.h deploy/script_body.h \
                explore/explore_internal.h; do
    [ ! -e "$inc/rtpack/$internal" ] || { echo "FAIL: internal $internal installed"; exit 1; }
done
std=" assert.h errno.h inttypes.h limits.h signal.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h time.h sys/types.h "
n=0
for h in $(cd "$inc" && find rtpack -name '*.h' | sort); do
    n=$((n + 1))
    for name in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\([^>"]*\)[>"].*/\1/p' "$inc/$h"); do
        case "$std" in *" $name "*) continue ;; esac
        [ -e "$inc/rtpack/$name" ] || [ -e "$inc/$name" ] ||
            { echo "FAIL: installed $h includes $name, which is not installed"; exit 1; }
    done
done
[ "$n" -ge 10 ] || { echo "FAIL: only $n headers installed"; exit 1; }
lib="$TMP/prefix/lib/librtpack.so"
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u >"$TMP/exported"
find "$inc/rtpack" -name '*.h' -exec cat {} + >"$TMP/headers"
exported=$(wc -l <"$TMP/exported")
[ "$exported" -ge 100 ] || { echo "FAIL: librtpack.so exports only $exported symbols"; exit 1; }
while read -r sym; do
    case "$sym" in rtp_*) ;; *) echo "FAIL: librtpack.so exports $sym (not rtp_)"; exit 1 ;; esac
    grep -Eq "(^|[^A-Za-z0-9_])$sym[[:space:]]*[(;[]" "$TMP/headers" ||
        { echo "FAIL: librtpack.so exports $sym, which no installed header declares"; exit 1; }
done <"$TMP/exported"
cmake -S "$SRC/tests/consumer" -B "$TMP/build" -DCMAKE_PREFIX_PATH="$TMP/prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$TMP/configure.log" 2>&1 ||
    { cat "$TMP/configure.log"; echo "FAIL: find_package(rtpack CONFIG)"; exit 1; }
cmake --build "$TMP/build" >"$TMP/build.log" 2>&1 ||
    { cat "$TMP/build.log"; echo "FAIL: consumer does not build"; exit 1; }
readelf -d "$TMP/build/consumer" | grep -q 'NEEDED.*librtpack\.so' ||
    { echo "FAIL: rtpack::rtpack did not link librtpack.so"; exit 1; }
rc=0
out=$("$TMP/build/consumer") && "$TMP/build/consumer_static" >/dev/null || rc=$?
expected="version $(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
edf one cpu: not schedulable
best: feasible=1
ilp: optimal feasible=1
gen: 5 tasks"
[ "$rc" -eq 0 ] && [ "$out" = "$expected" ] ||
    { printf 'FAIL: consumer exited %s, printed\n%s\n' "$rc" "$out"; exit 1; }
echo "cmake_consumer: all passed ($exported symbols exported, each declared)"
