#!/bin/sh
# docs/img/make.sh RTPACK OUTDIR — draws the pictures of docs/tutorial.md
# from the bundled examples with `rtpack simulate --svg` (OUTDIR defaults to
# this folder when left out). tests/cli_simulate.sh runs it into a temporary folder and
# requires the same bytes as the committed files: after a change to the
# chart, run `sh docs/img/make.sh build/rtpack` and commit the result.
set -eu
B=$1
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${2:-$HERE}
EX=$HERE/../../examples
sim() { # sim OUT.svg ARGS... (exit 1 = a miss, which the pictures show on purpose)
    out=$1
    shift
    "$B" simulate "$@" --svg "$OUT/$out" >/dev/null || [ $? -eq 1 ]
}
sim textbook_edf.svg "$EX/textbook.json" --policy edf
sim textbook_rm.svg "$EX/textbook.json" --policy fp --priority rm
sim domino_edf.svg "$EX/domino.json" --policy edf --overrun T2:7ms
sim domino_rm.svg "$EX/domino.json" --policy fp --priority rm --overrun T2:7ms
sim dhall_gedf_start.svg "$EX/dhall.json" --policy gedf --until 3ms
sim dhall_gedf_miss.svg "$EX/dhall.json" --policy gedf --from 998ms --until 1002ms
sim dhall_soft_gedf.svg "$EX/dhall-soft.json" --policy gedf --until 100ms
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
sim rr_tied_rr.svg "$EX/rr-vs-fifo.json" --policy fp --priority given --until 50ms
sed 's/, "policy": "rr"//' "$EX/rr-vs-fifo.json" >"$TMPD/as-fifo.json"
sim rr_tied_fifo.svg "$TMPD/as-fifo.json" --policy fp --priority given --until 50ms
"$B" partition "$EX/dhall.json" --policy edf --json >"$TMPD/dhall-plan.json"
sim dhall_partitioned.svg "$TMPD/dhall-plan.json" --from 998ms --until 1002ms
"$B" partition "$EX/video.json" --cpus 2 --json >"$TMPD/video-plan.json"
sim video_plan.svg "$TMPD/video-plan.json" --until 50ms
