#!/bin/sh
# bench/rehearse_matrix.sh — the evidence behind docs/deploy.md "What holds
# on a machine like this": the loop probe -> paste -> partition -> rehearse
# over a matrix of task sets x {edf, fp} x {idle, a CPU hog on every CPU},
# every job running its whole wcet (--load 1) with emit's defaults, and a
# table of jobs, misses, tasks over their bound and the load average beside
# each run. Not a test (it takes about 2 x SECONDS x sets x 2 + PROBE
# seconds, root, and the whole machine): run it under the machine lock,
#   flock /work/locks/live.lock sh bench/rehearse_matrix.sh build/rtpack SECONDS PROBE EXTRA...
# EXTRA: more arguments for every rehearse (e.g. --runtime-margin 0.1).
# Sets: examples/plant10.json, examples/app12.json, and three from
# `rtpack gen` at 0.5, 0.6 and 0.7 per CPU (2 CPUs, periods 10 ms .. 200 ms).
# With RTPACK_MATRIX_OLD=1 the probed deadline_charge and noise_per_ms are
# left out of the pasted platform: the plans as rtpack made them before it
# measured the SCHED_DEADLINE charge (the "before" column).
set -u
BIN=${1:?usage: rehearse_matrix.sh RTPACK SECONDS PROBE_SECONDS EXTRA_REHEARSE_ARGS...}
SECONDS_EACH=${2:-60}
PROBE=${3:-60}
shift 3 2> /dev/null || shift $#
EXTRA="$*"
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/rtp_matrix.XXXXXX)
trap 'rm -rf "$T"' EXIT

echo "# rehearse matrix: $(uname -r), $(nproc) CPUs, rehearse ${SECONDS_EACH} s, probe ${PROBE} s, extra '${EXTRA}'"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
"$BIN" probe --seconds "$PROBE" --json > "$T/probe.json" || { echo "probe failed"; exit 3; }
python3 - "$T/probe.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
print("# probed platform:", json.dumps(p["platform"]))
for c in p["cpus"]:
    ch = c.get("deadline_charge")
    if ch:
        print("# cpu %d charge samples %s, fit %d ns + %d ns/ms" %
              (c["cpu"], [l["samples"] for l in ch["lengths"]], ch["fixed"], ch["per_ms"]))
PY

cp "$SRC/examples/plant10.json" "$T/plant10.json"
cp "$SRC/examples/app12.json" "$T/app12.json"
seed=1
for u in 0.5 0.6 0.7; do
    total=$(python3 -c "print(2 * $u)")
    "$BIN" gen --tasks 8 --utilization "$total" --periods 10ms:200ms --granularity 1ms \
        --seed "$seed" > "$T/gen_u$u.json"
    seed=$((seed + 1))
done

for set in plant10 app12 gen_u0.5 gen_u0.6 gen_u0.7; do
    python3 - "$T/$set.json" "$T/probe.json" "$T/$set.probed.json" "${RTPACK_MATRIX_OLD:-0}" <<'PY'
import json, sys
ts = json.load(open(sys.argv[1])); probe = json.load(open(sys.argv[2]))
ov = dict(probe["platform"].get("overheads", {}))
if sys.argv[4] == "1":
    ov.pop("deadline_charge", None); ov.pop("noise_per_ms", None)
ts["platform"] = {"cpus": probe["platform"]["cpus"], "overheads": ov}
for t in ts["tasks"]:
    t.setdefault("cmd", "unused")
json.dump(ts, open(sys.argv[3], "w"))
PY
    for policy in edf fp; do
        if ! "$BIN" partition "$T/$set.probed.json" --policy "$policy" --capacity 0.9 --json \
            > "$T/plan.json" 2> /dev/null; then
            why=$("$BIN" partition "$T/$set.probed.json" --policy "$policy" --capacity 0.9 \
                --explain 2>&1 | grep -m1 -i -E "could not|cannot|refus|infeasible" | cut -c1-110)
            printf '%-9s %-3s %-4s refused by partition: %s\n' "$set" "$policy" "-" "$why"
            continue
        fi
        for hog in idle hog; do
            flag=""
            [ "$hog" = hog ] && flag="--hog"
            load=$(cut -d' ' -f1 /proc/loadavg)
            # shellcheck disable=SC2086 # EXTRA is a word list
            "$BIN" rehearse "$T/plan.json" --seconds "$SECONDS_EACH" $flag $EXTRA --json \
                > "$T/out.json" 2> "$T/err"
            rc=$?
            python3 - "$T/out.json" "$set" "$policy" "$hog" "$rc" "$load" "$T/err" <<'PY'
import json, sys
_, out, name, policy, hog, rc, load, err = sys.argv
try:
    d = json.load(open(out))
except Exception:
    print("%-9s %-3s %-4s failed (exit %s): %s" % (name, policy, hog, rc, open(err).read().strip()[:100]))
    sys.exit(0)
jobs = sum(t["jobs"] for t in d["tasks"]); miss = sum(t["misses"] for t in d["tasks"])
over = [t["name"] for t in d["tasks"] if t["over_bound"]]
worst = max(d["tasks"], key=lambda t: (t["response_max"] or 0) / (t["bound"] or 1))
print("%-9s %-3s %-4s jobs %6d misses %5d over-bound %-22s tightest %s %.3f/%.3f ms load %s exit %s" %
      (name, policy, hog, jobs, miss, ",".join(over) or "none", worst["name"],
       (worst["response_max"] or 0) / 1e6, (worst["bound"] or 0) / 1e6, load, rc))
PY
        done
    done
done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
