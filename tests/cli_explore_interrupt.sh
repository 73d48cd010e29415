#!/bin/sh
# tests/cli_explore_interrupt.sh — `rtpack explore` as a batch job sees it:
# progress lines on a non-terminal at --progress-every, a final
# summary line, SIGINT and SIGTERM mid-point ending the process by that signal
# after printing the exact --resume command, which (run as printed) finishes
# the sweep with the bytes of an uninterrupted run, taking the finished sets of
# the interrupted point from partial.txt; --set-time-limit time-outs in the
# CSV and the summary.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_explore_interrupt
set -e
cd "$TMP"

cat > sweep.json <<'EOF'
{"seed": 5, "sets_per_point": 400, "tasks": 16, "cpus": 4,
 "utilization": ["0.85", "0.9", "0.95"], "deadlines": "constrained",
 "policies": ["edf", "fp"], "methods": ["ffd", "best"]}
EOF
# The interrupted runs need a sweep that outlasts the first progress line by
# seconds (packing is fast now: 1200 sets take about 1 s on 2 CPUs).
sed 's/"sets_per_point": 400/"sets_per_point": 1500/' sweep.json > big.json
OMP_NUM_THREADS=2 "$B" explore big.json --out whole --progress-every 0.2 2>whole.err \
    || die "uninterrupted run"
grep -q '^explore: [0-9]:[0-9][0-9]:[0-9][0-9] [0-9]*/4500 sets ([0-9]*%), [0-3]/3 points, .* time-outs, ETA ' whole.err \
    || die "no progress line on a non-terminal: $(cat whole.err)"
tail -n 1 whole.err | grep -q '^explore: done: 4500/4500 sets in .*, 3/3 points in whole, 0 time-outs' \
    || die "final summary: $(tail -n 1 whole.err)"

# Interrupt with SIGNAL once the first point is under way; resume as told.
interrupt() { # SIGNAL NAME EXIT_STATUS
    OMP_NUM_THREADS=2 "$B" explore big.json --out "$2" --progress-every 0.1 \
        --threads 2 2>"$2.err" &
    pid=$!
    tries=0
    until grep -q ' [1-9][0-9]*/4500 sets' "$2.err" 2>/dev/null; do
        tries=$((tries + 1))
        [ "$tries" -lt 300 ] || { kill "$pid"; die "$2: no progress within 30 s"; }
        sleep 0.1
    done
    sleep 1.2 # past one flush of partial.txt
    kill -s "$1" "$pid"
    set +e
    wait "$pid"
    status=$?
    set -e
    [ "$status" -eq "$3" ] || die "$2: exit status $status after SIG$1, expected $3"
    grep -q '^explore: interrupted: ' "$2.err" || die "$2: summary: $(cat "$2.err")"
    grep -q "^explore: stopped by SIG$1;" "$2.err" || die "$2: names the signal"
    resume=$(tail -n 1 "$2.err" | sed 's/^  //')
    [ "$resume" = "rtpack explore big.json --out $2 --resume --threads 2" ] \
        || die "$2: resume command: $resume"
    [ -f "$2/acceptance.svg" ] || die "$2: summary files of what is done"
}
interrupt INT int 130
# Mid-point unless the signal fell between two points (then no partial.txt).
if [ -f int/partial.txt ]; then
    [ "$(wc -l < int/partial.txt)" -ge 2 ] || die "no finished set kept in partial.txt"
    head -n 1 int/partial.txt | grep -q '^rtpack-explore-partial 1 point [0-2] 16,4,' \
        || die "partial.txt header"
fi
eval "$(echo "$resume" | sed "s|^rtpack |\"\$B\" |")" 2>int.resume.err || die "resume"
cmp whole/results.csv int/results.csv || die "resumed results differ from one run"
[ ! -f int/partial.txt ] || die "partial.txt left after the sweep finished"
left=$(sed -n 's|^explore: done: [0-9]*/\([0-9]*\) sets.*|\1|p' int.resume.err)
[ -n "$left" ] && [ "$left" -lt 4500 ] || die "resume redid finished sets: $(cat int.resume.err)"

interrupt TERM term 143
eval "$(echo "$resume" | sed "s|^rtpack |\"\$B\" |")" 2>/dev/null || die "resume after TERM"
cmp whole/results.csv term/results.csv || die "results after SIGTERM and resume differ"

# A set time limit far below one analysis: every row undecided, none rejected.
"$B" explore sweep.json --out limited --set-time-limit 0.000000001 2>limited.err \
    || die "--set-time-limit run"
awk -F, 'NR > 1 && !($7 == 0 && $10 == $8) { bad = 1 } END { exit bad }' limited/results.csv \
    || die "time-outs counted as rejections: $(head -n 3 limited/results.csv)"
grep -q ', 4800 time-outs (undecided)$' limited.err || die "summary time-outs: $(cat limited.err)"
# weighted.csv: W counts accepted sets (0 here), the upper W the undecided too (1).
awk -F, 'NR > 1 && !($7 == "0.000000" && $8 == 1200 && $9 == "1.000000") { bad = 1 } END { exit bad }' \
    limited/weighted.csv || die "weighted.csv time-outs: $(cat limited/weighted.csv)"
# The plot draws them as undecided bars (one per point and curve), not as 0.
[ "$(grep -o 'stroke-opacity="0.55"' limited/acceptance.svg | wc -l)" -eq 12 ] \
    || die "undecided bars in acceptance.svg"
! grep -q 'stroke-opacity="0.55"' whole/acceptance.svg || die "bars without time-outs"
set +e
"$B" explore sweep.json --out limited --resume 2>err; [ $? -eq 2 ] || die "resume with another limit"
set -e
grep -q 'set-time-limit' err || die "message names the limit"
cli_end ok
