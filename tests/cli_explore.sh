#!/bin/sh
# tests/cli_explore.sh — `rtpack gen`, `rtpack explore` and `rtpack merge`
# from the command line: the same results.csv bytes for OMP_NUM_THREADS=1
# and 2 and for one run vs three shards merged, exit codes for bad
# sweeps and refused merges, and `gen` giving the same bytes twice.
set -eu
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
WORK=$(mktemp -d /tmp/rtp_cli_explore.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

SWEEP=$SRC/examples/sweep.json
OMP_NUM_THREADS=1 "$BIN" explore "$SWEEP" --out "$WORK/t1" --progress-every 3600 2>"$WORK/err" || fail "explore (1 thread)"
# Not a terminal, shorter than --progress-every: only the summary line.
[ "$(wc -l < "$WORK/err")" -eq 1 ] && grep -q '^explore: done: 900/900 sets in ' "$WORK/err" \
    || fail "one summary line on stderr: $(cat "$WORK/err")"
# Rates are plain numbers (never "1.92e+03 sets/s"), in progress lines too.
grep -q '([0-9][0-9.]* sets/s)' "$WORK/err" || fail "summary rate: $(cat "$WORK/err")"
"$BIN" explore "$SWEEP" --out "$WORK/tp" --progress-every 0.01 2>"$WORK/err" || fail "explore (progress)"
grep -q ', [0-9][0-9.]* sets/s, .*ETA [0-9]*:[0-9][0-9]:[0-9][0-9]$' "$WORK/err" &&
    ! grep -q 'e[+-][0-9]' "$WORK/err" || fail "progress lines: $(head -c 600 "$WORK/err")"
OMP_NUM_THREADS=2 "$BIN" explore "$SWEEP" --out "$WORK/t2" || fail "explore (2 threads)"
cmp "$WORK/t1/results.csv" "$WORK/t2/results.csv" || fail "results differ between 1 and 2 threads"
head -n 1 "$WORK/t1/results.csv" | grep -q '^tasks,cpus,utilization,deadlines,policy,method,accepted,total,ratio' \
    || fail "results.csv header"
grep -q '^10,4,0.65,constrained,fp,bfd,' "$WORK/t1/results.csv" || fail "row key format"
for f in timing.csv acceptance.svg weighted.csv manifest.txt; do
    [ -s "$WORK/t1/$f" ] || fail "missing $f"
done

for k in 1 2 3; do
    "$BIN" explore "$SWEEP" --out "$WORK/s$k" --shard "$k/3" || fail "shard $k/3"
done
"$BIN" merge "$WORK/s2" "$WORK/s3" "$WORK/s1" --out "$WORK/merged" || fail "merge"
cmp "$WORK/t1/results.csv" "$WORK/merged/results.csv" || fail "merged shards differ from one run"
cmp "$WORK/t1/acceptance.svg" "$WORK/merged/acceptance.svg" || fail "merged plot differs"

# A sweep without "resources" keeps the bytes it had before sweeps took them
# (tests/golden/explore: written by the build of main before that change).
G=$SRC/tests/golden/explore
"$BIN" explore "$G/sweep.json" --out "$WORK/golden" 2>/dev/null || fail "explore of the golden sweep"
for f in results.csv weighted.csv acceptance.svg; do
    cmp "$G/$f" "$WORK/golden/$f" || fail "$f of a sweep without resources changed"
done
# A sweep with resources: its columns, and bad input named by its path.
cat > "$WORK/locks.json" <<'JSON'
{"seed": 3, "sets_per_point": 4, "tasks": 6, "cpus": 2, "utilization": ["0.6"],
 "policies": "fp", "methods": ["ffd-oblivious", "sfd"],
 "resources": {"count": 2, "cs_length": [{"min": "10us", "max": "20us"}, {"min": 1000, "max": "2ms"}]}}
JSON
"$BIN" explore "$WORK/locks.json" --out "$WORK/locks" 2>/dev/null || fail "explore with resources"
head -n 1 "$WORK/locks/results.csv" | grep -q ',ratio,timeouts,resources,access,requests,cs_min_ns,cs_max_ns$' \
    || fail "resource columns: $(head -n 1 "$WORK/locks/results.csv")"
grep -q '^6,2,0.6,implicit,fp,sfd,[0-9]*,4,[0-9.]*,0,2,0.5,1,1000,2000000$' "$WORK/locks/results.csv" \
    || fail "resource row: $(cat "$WORK/locks/results.csv")"
sed 's/"max": "2ms"/"max": "999ns"/' "$WORK/locks.json" > "$WORK/locks_bad.json"
set +e
"$BIN" explore "$WORK/locks_bad.json" --out "$WORK/locks_bad" 2>"$WORK/err"
[ $? -eq 2 ] && grep -q 'resources.cs_length\[1\].max' "$WORK/err" || fail "bad cs_length: $(cat "$WORK/err")"
set -e

# Refusals: missing shard, a shard of another sweep, an existing DIR.
set +e
"$BIN" merge "$WORK/s1" "$WORK/s2" --out "$WORK/m2" 2>/dev/null; [ $? -eq 2 ] || fail "merge with a shard missing"
sed 's/"seed": 1/"seed": 2/' "$SWEEP" > "$WORK/other.json"
"$BIN" explore "$WORK/other.json" --out "$WORK/o2" --shard 2/3 || fail "other sweep shard"
"$BIN" merge "$WORK/s1" "$WORK/o2" "$WORK/s3" --out "$WORK/m3" 2>"$WORK/err"; [ $? -eq 2 ] || fail "merge of two sweeps"
grep -q "different sweep" "$WORK/err" || fail "merge message"
# A tampered row, a row whose ratio disagrees, text after a
# complete shard: refused, naming the file and line, nothing written
tamper() { # NAME SED-SCRIPT-OR-APPEND -> $WORK/NAME, a copy of shard 1 changed
    rm -rf "$WORK/$1"
    cp -r "$WORK/s1" "$WORK/$1"
}
tamper acc999 && sed -i '2s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*\),[0-9]*,/\1,999,/' "$WORK/acc999/results.csv"
tamper ratio && awk -F, -v OFS=, 'NR == 2 { $9 = "0.123456" } { print }' "$WORK/s1/results.csv" > "$WORK/ratio/results.csv"
tamper garbage && echo 'garbage,line' >> "$WORK/garbage/results.csv"
tamper tgarbage && echo 'garbage' >> "$WORK/tgarbage/timing.csv"
for case in "acc999:is not a row rtpack explore writes" "ratio:is not a row rtpack explore writes" \
    "garbage:text after the shard's last point" "tgarbage:timing.csv: text after the shard's last point"; do
    name=${case%%:*} want=${case#*:}
    "$BIN" merge "$WORK/$name" "$WORK/s2" "$WORK/s3" --out "$WORK/m_$name" 2>"$WORK/err"
    rc=$?
    { [ "$rc" -eq 2 ] && grep -q "$want" "$WORK/err" && [ ! -e "$WORK/m_$name" ]; } ||
        fail "merge of a shard with $name: exit $rc: $(cat "$WORK/err")"
done
"$BIN" explore "$SWEEP" --out "$WORK/t1" 2>/dev/null; [ $? -eq 2 ] || fail "explore into a used DIR"
"$BIN" explore "$SWEEP" --out "$WORK/t1" --resume || fail "resume of a finished sweep"
cmp "$WORK/t1/results.csv" "$WORK/t2/results.csv" || fail "resume changed results"
echo '{"tasks": 3, "cpus": 2, "utilization": ["0.5"], "methods": ["ffd", "magic"]}' > "$WORK/bad.json"
"$BIN" explore "$WORK/bad.json" --out "$WORK/bad" 2>"$WORK/err"; [ $? -eq 2 ] || fail "bad sweep exit"
grep -q 'methods\[1\]' "$WORK/err" || fail "bad sweep names the path"
"$BIN" explore "$SWEEP" --out "$WORK/x" --shard 4/3 2>/dev/null; [ $? -eq 2 ] || fail "bad shard"
"$BIN" gen --tasks 4 --utilization 4.5 2>/dev/null; [ $? -eq 2 ] || fail "impossible gen"
# Short periods never hand back a set of another utilization
"$BIN" gen --tasks 5 --utilization 1 --periods 1ns:1ns > /dev/null 2> "$WORK/err"
[ $? -eq 2 ] && grep -q 'impossible: 5 tasks of at least 1 ns' "$WORK/err" || fail "gen U=1 with 1 ns periods: $(cat "$WORK/err")"
"$BIN" gen --tasks 100 --utilization 0.5 --periods 100ns:200ns > /dev/null 2> "$WORK/err"
[ $? -eq 2 ] && grep -q 'impossible at whole-ns resolution' "$WORK/err" || fail "gen U=0.5 with 100-200 ns periods: $(cat "$WORK/err")"
set -e

"$BIN" gen --tasks 20 --utilization 3.2 --seed 7 --deadlines arbitrary > "$WORK/g1.json"
"$BIN" gen --tasks 20 --utilization 3.2 --seed 7 --deadlines arbitrary > "$WORK/g2.json"
cmp "$WORK/g1.json" "$WORK/g2.json" || fail "gen is not reproducible"
echo "cli_explore: ok"
