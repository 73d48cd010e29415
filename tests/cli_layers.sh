#!/bin/sh
# tests/cli_layers.sh — the layering rule (HACKING.md "Architecture"): no
# module includes a header of, or links a symbol from, a module above it;
# <glpk.h> and cJSON stay behind their doors. The rule itself is
# tests/support/layers.py; this runs it on the source tree and on the
# static libraries of the build folder that holds RTP_BINARY.
set -u
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
command -v nm >/dev/null 2>&1 || { echo "cli_layers: nm not found (binutils)"; exit 77; }
exec python3 "$SRC/tests/support/layers.py" "$SRC" "$(dirname "$BIN")"
