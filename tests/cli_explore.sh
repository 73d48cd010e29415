#!/bin/sh
# tests/cli_explore.sh — `rtpack gen`, `rtpack explore` and `rtpack merge`
# from the command line: the same results.csv bytes for OMP_NUM_THREADS=1
# and 2 and for one run vs three shards merged, exit codes for bad
# sweeps and refused merges, and `gen` giving the same bytes twice.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_explore
set -e

SWEEP=$S/examples/sweep.json
OMP_NUM_THREADS=1 "$B" explore "$SWEEP" --out "$TMP/t1" --progress-every 3600 2>"$TMP/err" || die "explore (1 thread)"
# Not a terminal, shorter than --progress-every: only the summary line.
[ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q '^explore: done: 900/900 sets in ' "$TMP/err" \
    || die "one summary line on stderr: $(cat "$TMP/err")"
# Rates are plain numbers (never "1.92e+03 sets/s"), in progress lines too.
grep -q '([0-9][0-9.]* sets/s)' "$TMP/err" || die "summary rate: $(cat "$TMP/err")"
"$B" explore "$SWEEP" --out "$TMP/tp" --progress-every 0.01 2>"$TMP/err" || die "explore (progress)"
grep -q ', [0-9][0-9.]* sets/s, .*ETA [0-9]*:[0-9][0-9]:[0-9][0-9]$' "$TMP/err" &&
    ! grep -q 'e[+-][0-9]' "$TMP/err" || die "progress lines: $(head -c 600 "$TMP/err")"
OMP_NUM_THREADS=2 "$B" explore "$SWEEP" --out "$TMP/t2" || die "explore (2 threads)"
cmp "$TMP/t1/results.csv" "$TMP/t2/results.csv" || die "results differ between 1 and 2 threads"
head -n 1 "$TMP/t1/results.csv" | grep -q '^tasks,cpus,utilization,deadlines,policy,method,accepted,total,ratio' \
    || die "results.csv header"
grep -q '^10,4,0.65,constrained,fp,bfd,' "$TMP/t1/results.csv" || die "row key format"
for f in timing.csv acceptance.svg weighted.csv manifest.txt; do
    [ -s "$TMP/t1/$f" ] || die "missing $f"
done

for k in 1 2 3; do
    "$B" explore "$SWEEP" --out "$TMP/s$k" --shard "$k/3" || die "shard $k/3"
done
"$B" merge "$TMP/s2" "$TMP/s3" "$TMP/s1" --out "$TMP/merged" || die "merge"
cmp "$TMP/t1/results.csv" "$TMP/merged/results.csv" || die "merged shards differ from one run"
cmp "$TMP/t1/acceptance.svg" "$TMP/merged/acceptance.svg" || die "merged plot differs"

# A sweep without "resources" keeps the bytes it had before sweeps took them
# (tests/golden/explore: written by the build of main before that change).
G=$S/tests/golden/explore
"$B" explore "$G/sweep.json" --out "$TMP/golden" 2>/dev/null || die "explore of the golden sweep"
for f in results.csv weighted.csv acceptance.svg; do
    cmp "$G/$f" "$TMP/golden/$f" || die "$f of a sweep without resources changed"
done
# A sweep with resources: its columns, and bad input named by its path.
cat > "$TMP/locks.json" <<'JSON'
{"seed": 3, "sets_per_point": 4, "tasks": 6, "cpus": 2, "utilization": ["0.6"],
 "policies": "fp", "methods": ["ffd-oblivious", "sfd"],
 "resources": {"count": 2, "cs_length": [{"min": "10us", "max": "20us"}, {"min": 1000, "max": "2ms"}]}}
JSON
"$B" explore "$TMP/locks.json" --out "$TMP/locks" 2>/dev/null || die "explore with resources"
head -n 1 "$TMP/locks/results.csv" | grep -q ',ratio,timeouts,resources,access,requests,cs_min_ns,cs_max_ns$' \
    || die "resource columns: $(head -n 1 "$TMP/locks/results.csv")"
grep -q '^6,2,0.6,implicit,fp,sfd,[0-9]*,4,[0-9.]*,0,2,0.5,1,1000,2000000$' "$TMP/locks/results.csv" \
    || die "resource row: $(cat "$TMP/locks/results.csv")"
sed 's/"max": "2ms"/"max": "999ns"/' "$TMP/locks.json" > "$TMP/locks_bad.json"
set +e
"$B" explore "$TMP/locks_bad.json" --out "$TMP/locks_bad" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q 'resources.cs_length\[1\].max' "$TMP/err" || die "bad cs_length: $(cat "$TMP/err")"
set -e

# Refusals: missing shard, a shard of another sweep, an existing DIR.
set +e
"$B" merge "$TMP/s1" "$TMP/s2" --out "$TMP/m2" 2>/dev/null; [ $? -eq 2 ] || die "merge with a shard missing"
sed 's/"seed": 1/"seed": 2/' "$SWEEP" > "$TMP/other.json"
"$B" explore "$TMP/other.json" --out "$TMP/o2" --shard 2/3 || die "other sweep shard"
"$B" merge "$TMP/s1" "$TMP/o2" "$TMP/s3" --out "$TMP/m3" 2>"$TMP/err"; [ $? -eq 2 ] || die "merge of two sweeps"
grep -q "different sweep" "$TMP/err" || die "merge message"
# A tampered row, a row whose ratio disagrees, text after a
# complete shard: refused, naming the file and line, nothing written
tamper() { # NAME SED-SCRIPT-OR-APPEND -> $TMP/NAME, a copy of shard 1 changed
    rm -rf "$TMP/$1"
    cp -r "$TMP/s1" "$TMP/$1"
}
tamper acc999 && sed -i '2s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*\),[0-9]*,/\1,999,/' "$TMP/acc999/results.csv"
tamper ratio && awk -F, -v OFS=, 'NR == 2 { $9 = "0.123456" } { print }' "$TMP/s1/results.csv" > "$TMP/ratio/results.csv"
tamper garbage && echo 'garbage,line' >> "$TMP/garbage/results.csv"
tamper tgarbage && echo 'garbage' >> "$TMP/tgarbage/timing.csv"
for case in "acc999:is not a row rtpack explore writes" "ratio:is not a row rtpack explore writes" \
    "garbage:text after the shard's last point" "tgarbage:timing.csv: text after the shard's last point"; do
    name=${case%%:*} want=${case#*:}
    "$B" merge "$TMP/$name" "$TMP/s2" "$TMP/s3" --out "$TMP/m_$name" 2>"$TMP/err"
    rc=$?
    { [ "$rc" -eq 2 ] && grep -q "$want" "$TMP/err" && [ ! -e "$TMP/m_$name" ]; } ||
        die "merge of a shard with $name: exit $rc: $(cat "$TMP/err")"
done
"$B" explore "$SWEEP" --out "$TMP/t1" 2>/dev/null; [ $? -eq 2 ] || die "explore into a used DIR"
"$B" explore "$SWEEP" --out "$TMP/t1" --resume || die "resume of a finished sweep"
cmp "$TMP/t1/results.csv" "$TMP/t2/results.csv" || die "resume changed results"
echo '{"tasks": 3, "cpus": 2, "utilization": ["0.5"], "methods": ["ffd", "magic"]}' > "$TMP/bad.json"
"$B" explore "$TMP/bad.json" --out "$TMP/bad" 2>"$TMP/err"; [ $? -eq 2 ] || die "bad sweep exit"
grep -q 'methods\[1\]' "$TMP/err" || die "bad sweep names the path"
# An output that cannot be written is exit 3, as emit --out's (not bad input)
"$B" explore "$SWEEP" --out /proc/rtpack-no-such-folder 2>"$TMP/err"; [ $? -eq 3 ] ||
    die "explore into an impossible folder: exit $?"
grep -q "cannot create the folder" "$TMP/err" || die "impossible folder message"
"$B" explore "$SWEEP" --out "$TMP/x" --shard 4/3 2>/dev/null; [ $? -eq 2 ] || die "bad shard"
"$B" gen --tasks 4 --utilization 4.5 2>/dev/null; [ $? -eq 2 ] || die "impossible gen"
# Short periods never hand back a set of another utilization
"$B" gen --tasks 5 --utilization 1 --periods 1ns:1ns > /dev/null 2> "$TMP/err"
[ $? -eq 2 ] && grep -q 'impossible: 5 tasks of at least 1 ns' "$TMP/err" || die "gen U=1 with 1 ns periods: $(cat "$TMP/err")"
"$B" gen --tasks 100 --utilization 0.5 --periods 100ns:200ns > /dev/null 2> "$TMP/err"
[ $? -eq 2 ] && grep -q 'impossible at whole-ns resolution' "$TMP/err" || die "gen U=0.5 with 100-200 ns periods: $(cat "$TMP/err")"
set -e

"$B" gen --tasks 20 --utilization 3.2 --seed 7 --deadlines arbitrary > "$TMP/g1.json"
"$B" gen --tasks 20 --utilization 3.2 --seed 7 --deadlines arbitrary > "$TMP/g2.json"
cmp "$TMP/g1.json" "$TMP/g2.json" || die "gen is not reproducible"
cli_end ok
