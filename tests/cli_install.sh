#!/bin/sh
# tests/cli_install.sh — `cmake --install` gives a working SDK: the binary,
# librtpack.a, the headers and a relocatable rtpack.pc with which a small C
# program compiles, links and runs the exact EDF test.
set -eu
BIN=${RTP_BINARY:?set RTP_BINARY to the built rtpack}
BUILD=$(dirname "$BIN")
if grep -q '^RTP_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
    echo "cli_install: sanitizer build, the consumer would need the sanitizer runtime: skipped"
    exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cmake --install "$BUILD" --prefix "$TMP/prefix" >/dev/null
for f in bin/rtpack lib/librtpack.a lib/pkgconfig/rtpack.pc \
         include/rtpack/models/taskset.h include/rtpack/solver/edf.h \
         include/rtpack/heuristics/partition.h include/rtpack/ilp/ilp.h; do
    [ -e "$TMP/prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
cat >"$TMP/consumer.c" <<'CEOF'
#include <stdio.h>
#include <string.h>
#include <rtpack/models/taskset.h>
#include <rtpack/solver/edf.h>
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
cc -o "$TMP/consumer" "$TMP/consumer.c" $(pkg-config --cflags --libs rtpack)
out=$("$TMP/consumer")
[ "$out" = "schedulable=1" ] || { echo "FAIL: consumer printed '$out'"; exit 1; }
"$TMP/prefix/bin/rtpack" --version >/dev/null
echo "cli_install: all passed"
