#!/bin/sh
# tests/cli_install.sh — `cmake --install` gives a working SDK: the binary,
# librtpack.so (versioned, with its SONAME) and librtpack.a, the headers and
# a relocatable rtpack.pc with which a small C program including the umbrella
# <rtpack/rtpack.h> compiles, links the shared library (and, with --static,
# the static one) and runs the exact EDF test.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_install
set -e
BUILD=$(dirname "$B")
if grep -q '^RTP_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
    echo "cli_install: sanitizer build, the consumer would need the sanitizer runtime: skipped"
    exit 0
fi
cmake --install "$BUILD" --prefix "$TMP/prefix" >/dev/null
ver=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
soname=librtpack.so.${ver%.*}
for f in bin/rtpack lib/librtpack.a lib/librtpack.so "lib/$soname" "lib/librtpack.so.$ver" \
         lib/pkgconfig/rtpack.pc include/rtpack/rtpack.h \
         include/rtpack/models/taskset.h include/rtpack/solver/edf.h \
         include/rtpack/heuristics/partition.h include/rtpack/ilp/ilp.h; do
    [ -e "$TMP/prefix/$f" ] || die "$f not installed"
done
cat >"$TMP/consumer.c" <<'CEOF'
#include <stdio.h>
#include <string.h>
#include <rtpack/rtpack.h>
int main(void)
{
    const char *doc = "{\"tasks\":[{\"name\":\"T1\",\"wcet\":1,\"period\":4},"
                      "{\"name\":\"T2\",\"wcet\":2,\"period\":6},"
                      "{\"name\":\"T3\",\"wcet\":3,\"period\":8}]}";
    rtp_taskset ts;
    rtp_diag diag;
    rtp_edf_result result;
    if (rtp_taskset_parse_json(doc, strlen(doc), &ts, &diag) != RTP_OK)
        return 2;
    if (rtp_edf_qpa(ts.tasks, ts.n_tasks, 1, NULL, &result, &diag) != RTP_OK)
        return 3;
    rtp_taskset_free(&ts);
    printf("schedulable=%d\n", result.schedulable);
    return result.schedulable ? 0 : 1;
}
CEOF
PKG_CONFIG_PATH="$TMP/prefix/lib/pkgconfig"
export PKG_CONFIG_PATH
# shellcheck disable=SC2046 # pkg-config prints several words on purpose
cc -o "$TMP/consumer" "$TMP/consumer.c" $(pkg-config --cflags --libs rtpack) \
    -Wl,-rpath,"$TMP/prefix/lib"
readelf -d "$TMP/prefix/lib/librtpack.so" | grep -q "SONAME.*\[$soname\]" ||
    die "librtpack.so's SONAME is not $soname"
readelf -d "$TMP/consumer" | grep -q "NEEDED.*\[$soname\]" ||
    die "the pkg-config consumer does not link $soname"
# shellcheck disable=SC2046
cc -o "$TMP/consumer_static" "$TMP/consumer.c" -Wl,-Bstatic -lrtpack -Wl,-Bdynamic \
    $(pkg-config --cflags --libs --static rtpack | sed 's/-lrtpack//')
! readelf -d "$TMP/consumer_static" | grep -q "NEEDED.*librtpack" ||
    die "the --static consumer needs librtpack.so"
for prog in consumer consumer_static; do
    out=$("$TMP/$prog")
    [ "$out" = "schedulable=1" ] || die "$prog printed '$out'"
done
"$TMP/prefix/bin/rtpack" --version >/dev/null
cli_end
