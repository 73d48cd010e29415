#!/bin/sh
# tests/cli_report_browser.sh — the review page of examples/app12.json in a
# real browser (docs/spec.md "rtpack report"): the
# fixed-priority plan (capacity 0.9) with the rehearsal and the probe
# recorded on this project's 2-CPU VM (tests/fixtures/report/README.md),
# every number held to
# the CLI's JSON (tests/support/report_check.py: partition --sensitivity,
# simulate over the page's window, emit's script, the two documents), then
# opened in headless Chromium (tests/support/report_browser.py: no console
# message, no sideways scrolling at 1280 and 390 px, full-page screenshots
# of those widths, an A4 print). The PNGs and the PDF are left in
# RTP_REPORT_OUT when set (docs/img/report_app12_*.png are such shots).
# The fixed-priority sensitivity search of this plan takes ~10 s, so the
# two runs that need it go side by side (the same bytes in every locale:
# tests/cli_report.sh, on faster plans). Exit 77 (skipped) without
# Chromium (.ci/setup installs Debian's chromium).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_report_browser
OUT=${RTP_REPORT_OUT:-$TMP}
F=$S/tests/fixtures/report
PY=python3
/usr/bin/python3 -c 'import html5lib' 2>/dev/null && PY=/usr/bin/python3
if ! command -v chromium >/dev/null 2>&1; then
    echo "cli_report_browser: no chromium on PATH (Debian package chromium; .ci/setup): skipped"
    exit 77
fi
PLAN=$F/app12_fp.plan.json
ARGS="--rehearsal $F/app12_fp.rehearsal.json --probe $F/app12.probe.json"

# The plan fixture is what partition makes of app12 today; the reference
# adds the sensitivity. Two at a time: the reference beside the first page.
"$B" partition "$S/examples/app12.json" --policy fp --capacity 0.9 --sensitivity --json \
    >"$TMP/ref.json" 2>"$TMP/ref.err" &
ref=$!
# shellcheck disable=SC2086
LC_ALL=C "$B" report "$PLAN" $ARGS --out "$TMP/page.html" 2>"$TMP/err" ||
    fail "report: $(cat "$TMP/err")"
wait "$ref" || fail "partition --sensitivity: $(cat "$TMP/ref.err")"
"$B" partition "$S/examples/app12.json" --policy fp --capacity 0.9 --json >"$TMP/plan.json"
cmp -s "$TMP/plan.json" "$PLAN" ||
    fail "partition no longer makes $PLAN of app12: record the fixtures again (README there)"
w=$(sed -n 's/.*<data value="\([0-9]*\)" data-j="sim:until">.*/\1/p' "$TMP/page.html")
"$B" simulate "$PLAN" --until "${w:-0}" --json >"$TMP/sim.json" || fail "simulate over $w ns"
"$B" emit "$PLAN" --format script >"$TMP/script.sh" || fail "emit"
$PY "$S/tests/support/report_check.py" "$TMP/page.html" --plan "$TMP/ref.json" \
    --sim "$TMP/sim.json" --script "$TMP/script.sh" --rehearsal "$F/app12_fp.rehearsal.json" \
    --probe "$F/app12.probe.json" --opt budget=0.9 --opt runtime_margin=0 --opt fifo_lo=51 \
    --opt fifo_hi=98 --opt capacity=1 || fail "the page's numbers"
for want in 'id="rehearsal"' 'id="probe-check"' 'class="gantt"' 'rehearsal:tasks[11].response_p99' \
    'plan:cpus[1].critical_scaling_factor_exact' 'emit:cpus[1].tasks[4].priority'; do
    grep -qF "$want" "$TMP/page.html" || fail "the page lacks $want"
done
$PY "$S/tests/support/report_browser.py" "$TMP/page.html" --desktop "$OUT/report_app12_desktop.png" \
    --phone "$OUT/report_app12_phone_full.png" --phone-screen "$OUT/report_app12_phone.png" \
    --pdf "$OUT/report_app12.pdf" --timeout 60 || fail "in the browser"

cli_end
