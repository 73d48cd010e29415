#!/bin/sh
# tests/cli_outputs_real.sh — tests/cli_outputs.sh as root with device
# nodes: a private character device first, then /dev/null and /dev/full
# themselves, each unchanged (stat before and after). Under the machine
# lock (it points rtpack at the machine's own /dev/null). Exit 77 when not
# root.
set -u
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
[ "$(id -u)" -eq 0 ] || { echo "SKIP cli_outputs_real: needs root"; exit 77; }
RTP_OUTPUTS_DEVICES=1 exec sh "$SRC/tests/cli_outputs.sh"
