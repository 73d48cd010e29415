#!/bin/sh
# tests/cli_probe_real.sh — `rtpack probe` on this machine, as root (run it
# under the machine lock: flock /work/locks/live.lock ctest -R _real):
# - `probe --seconds 5 --json` ends within 15 s, its document has the
#   documented shape, and HZ, the preemption model and HRTICK_DL agree with
#   /proc/config.gz and /sys/kernel/debug/sched (where readable), read here
#   independently;
# - as nobody it reports what it skipped, measures no real-time latency, and
#   its platform carries the context switch it measured (no release latency);
# - when it may not make cpusets (another probe's, faked here) it measures
#   SCHED_DEADLINE on the whole root domain and says so;
# - SIGINT in the middle of the latency phase (its cpusets present)
#   and SIGTERM early end it with exit 3 at once; after SIGKILL the next
#   probe removes the cpusets left behind and restores load balancing;
# - its platform member pasted into a task set is read and applied by
#   `rtpack analyze`;
# - after every run the machine's RT settings are as before: the RT
#   throttling sysctls, every cpuset with its cpus, exclusivity and
#   sched_load_balance, the debugfs mount state, and the set of real-time
#   threads.
# Skips (exit 0, message) when not root.
set -u
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
CG=/sys/fs/cgroup/cpuset
. "${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}/tests/support/machine_state.sh"
T=$(mktemp -d /tmp/rtp_probe_real.XXXXXX)
trap 'rm -rf "$T"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }
skip() { echo "SKIP cli_probe_real: $*"; exit 0; }

[ "$(id -u)" -eq 0 ] || skip "needs root (SCHED_FIFO, SCHED_DEADLINE, cpusets)"

# The machine's real-time state, one fact per line.
snapshot() {
    echo "rt_runtime $(cat /proc/sys/kernel/sched_rt_runtime_us)"
    echo "rt_period $(cat /proc/sys/kernel/sched_rt_period_us)"
    echo "debugfs mounted: $(grep -c ' /sys/kernel/debug debugfs ' /proc/mounts)"
    machine_state "$CG"
}

same_as_before() {
    snapshot > "$T/after"
    if diff "$T/before" "$T/after" > "$T/diff"; then
        ok "machine restored after $1"
    else
        fail "machine changed by $1: $(cat "$T/diff")"
    fi
}

snapshot > "$T/before"

# --- the timed run ---
start=$(date +%s%N)
timeout 30 "$BIN" probe --seconds 5 --json > "$T/probe.json" 2> "$T/err"
rc=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" -eq 0 ] || fail "probe --seconds 5 --json exit $rc: $(cat "$T/err")"
[ "$elapsed_ms" -le 15000 ] || fail "probe --seconds 5 took $elapsed_ms ms (limit 15000)"
ok "probe --seconds 5 --json: exit $rc in $elapsed_ms ms"
same_as_before "probe --seconds 5"

# Independent readings of the facts the probe must get right.
HZ=$(zcat /proc/config.gz 2> /dev/null | sed -n 's/^CONFIG_HZ=//p')
CONFIG=$(zcat /proc/config.gz 2> /dev/null || cat "/boot/config-$(uname -r)" 2> /dev/null)
FEATURES=$(cat /sys/kernel/debug/sched/features 2> /dev/null)
PREEMPT=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' /sys/kernel/debug/sched/preempt 2> /dev/null)
export HZ CONFIG FEATURES PREEMPT
export CMDLINE="$(cat /proc/cmdline)"
python3 - "$T/probe.json" << 'EOF' || fail "probe document"
import json, os, re, sys
d = json.load(open(sys.argv[1]))
k = d["kernel"]
cfg = os.environ["CONFIG"]
def on(name):
    return re.search("^%s=y$" % name, cfg, re.M) is not None
# HZ
if os.environ["HZ"]:
    assert k["hz"] == int(os.environ["HZ"]), ("hz", k["hz"], os.environ["HZ"])
# preemption model: debugfs when readable, else the build's (or preempt= at boot)
if os.environ["PREEMPT"]:
    assert k["preempt"] == os.environ["PREEMPT"], ("preempt", k["preempt"])
elif cfg:
    model = {"CONFIG_PREEMPT_RT": "rt", "CONFIG_PREEMPT_LAZY": "lazy", "CONFIG_PREEMPT": "full",
             "CONFIG_PREEMPT_VOLUNTARY": "voluntary", "CONFIG_PREEMPT_NONE": "none"}
    want = next(v for o, v in model.items() if on(o))
    m = re.search(r"(?:^|\s)preempt=(\w+)", os.environ["CMDLINE"].split(" -- ")[0])
    if on("CONFIG_PREEMPT_DYNAMIC") and m:
        want = m.group(1)
    assert k["preempt"] == want, ("preempt", k["preempt"], want)
# HRTICK_DL: the features file when readable; else off without CONFIG_SCHED_HRTICK;
# else the kernel default (off) only when debugfs is locked down; else unknown
feats = os.environ["FEATURES"].split()
if feats:
    assert k["hrtick_dl"] == ("HRTICK_DL" in feats), ("hrtick_dl", k["hrtick_dl"])
elif cfg and not on("CONFIG_SCHED_HRTICK"):
    assert k["hrtick_dl"] is False
elif k["lockdown"] in ("integrity", "confidentiality"):
    assert k["hrtick_dl"] is False, k
else:
    assert k["hrtick_dl"] is None, k
assert k["rt_runtime_us"] == int(open("/proc/sys/kernel/sched_rt_runtime_us").read())
assert k["release"] == os.uname().release
# shape
online = open("/sys/devices/system/cpu/online").read().strip()
assert d["online_cpus"] >= 1 and len(d["cpus"]) >= 1
assert d["method"]["release_latency_stat"] == "max"
worst = 0
for c in d["cpus"]:
    for pol in ("fifo_latency", "deadline_latency"):
        l = c[pol]
        assert l is not None, (c["cpu"], pol, d["skipped"])
        assert l["samples"] > 0 and 0 <= l["median"] <= l["p99"] <= l["max"], l
        worst = max(worst, l["max"])
    s = c["context_switch_stats"]
    assert c["context_switch"] == s["p99"] and s["samples"] > 0 and s["median"] <= s["p99"] <= s["max"], s
p = d["platform"]
assert p["cpus"] == [c["cpu"] for c in d["cpus"]], p
ov = p["overheads"]
assert re.fullmatch(r"[0-9]+ns", ov["release_latency"]) and re.fullmatch(r"[0-9]+ns", ov["context_switch"]), ov
assert int(ov["release_latency"][:-2]) == worst, (ov, worst)
assert int(ov["context_switch"][:-2]) == max(c["context_switch"] for c in d["cpus"])
# the lock overhead: every deployed kind on every CPU, the largest p99 carried
for c in d["cpus"]:
    assert set(c["locks"]) == {"protect", "inherit", "spin"}, c.get("locks")
    for l in c["locks"].values():
        assert l["samples"] > 0 and 0 < l["median"] <= l["p99"] <= l["max"], l
assert int(ov["lock"][:-2]) == max(l["p99"] for c in d["cpus"] for l in c["locks"].values()), ov
if os.path.exists("/sys/fs/cgroup/cpuset/cpuset.cpu_exclusive"):
    assert d["method"]["deadline_pinning"] == "cpuset", (d["method"], d["skipped"])
assert all(isinstance(w, str) and w for w in d["warnings"]) and d["warnings"]
print("facts: hz=%s preempt=%s hrtick_dl=%s; release_latency %s, context_switch %s" %
      (k["hz"], k["preempt"], k["hrtick_dl"], ov["release_latency"], ov["context_switch"]))
EOF

# --- the platform member pasted into a task set: `analyze` reads it and
# uses it (a task whose deadline equals the measured release latency cannot
# meet it with the overheads, and does without them) ---
python3 - "$T/probe.json" "$T" << 'EOF'
import json, sys
p = json.load(open(sys.argv[1]))["platform"]
rl = p["overheads"]["release_latency"]
# periods well above the measured latency, which a loaded machine makes long
rl_ns = int(rl[:-2])
tasks = [{"name": "ctl", "wcet": "1ms", "period": "%dns" % max(20000000, 4 * rl_ns)},
         {"name": "log", "wcet": "5ms", "period": "%dns" % max(100000000, 20 * rl_ns)}]
json.dump({"platform": p, "tasks": tasks}, open(sys.argv[2] + "/set.json", "w"))
tight = [{"name": "tight", "wcet": "1us", "deadline": rl, "period": "1s"}]
json.dump({"platform": p, "tasks": tight}, open(sys.argv[2] + "/tight.json", "w"))
json.dump({"platform": {"cpus": p["cpus"]}, "tasks": tight}, open(sys.argv[2] + "/bare.json", "w"))
EOF
"$BIN" analyze "$T/set.json" --json > "$T/analyze.json" 2> "$T/err"
rc=$?
[ "$rc" -eq 0 ] || fail "analyze of the probed platform: exit $rc: $(cat "$T/err")"
grep -q '"effective_utilization"' "$T/analyze.json" || fail "analyze ignored the probed context switch"
"$BIN" analyze "$T/tight.json" > /dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "deadline = probed release latency: analyze exit $rc, not 1"
"$BIN" analyze "$T/bare.json" > /dev/null 2>&1 || fail "the same task without overheads: exit $?"
ok "analyze reads and applies the probed platform"

# --- cpusets refused (another live probe's cpuset, named after this shell):
# SCHED_DEADLINE on the whole root domain, each sample counted for its CPU ---
if [ -f "$CG/cpuset.cpu_exclusive" ]; then
    FAKE=$CG/rtpack-probe.$$.lb1.test
    mkdir "$FAKE" && snapshot > "$T/before.fake"
    "$BIN" probe --seconds 2 --json > "$T/rd.json" 2> "$T/err" || fail "root-domain probe: exit $?"
    snapshot > "$T/after.fake"
    rmdir "$FAKE"
    diff "$T/before.fake" "$T/after.fake" > /dev/null || fail "root-domain probe changed the machine"
    python3 - "$T/rd.json" << 'EOF2' || fail "root-domain probe document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["method"]["deadline_pinning"] == "root_domain", d["method"]
assert any("another rtpack probe" in s for s in d["skipped"]), d["skipped"]
assert any("whole root domain" in w for w in d["warnings"]), d["warnings"]
assert sum(c["deadline_latency"]["samples"] for c in d["cpus"] if c["deadline_latency"]) > 0
EOF2
    ok "cpusets refused: SCHED_DEADLINE measured on the root domain"
fi

# --- without root ---
if command -v setpriv > /dev/null && id nobody > /dev/null 2>&1; then
    cp "$BIN" "$T/rtpack" && chmod 755 "$T" "$T/rtpack"
    setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$T/rtpack" probe --seconds 1 --json \
        > "$T/nobody.json" 2> "$T/err"
    rc=$?
    [ "$rc" -eq 0 ] || fail "probe as nobody: exit $rc: $(cat "$T/err")"
    python3 - "$T/nobody.json" << 'EOF' || fail "probe as nobody: document"
import json, sys
d = json.load(open(sys.argv[1]))
sk = " | ".join(d["skipped"])
assert "SCHED_FIFO latency" in sk and "SCHED_DEADLINE latency: needs root" in sk, sk
assert all(c["fifo_latency"] is None and c["deadline_latency"] is None for c in d["cpus"])
# without root only the context switch is measured, and carried
assert d["platform"].get("overheads", {}).keys() == {"context_switch"}, d["platform"]
assert "lock overhead: needs SCHED_FIFO" in sk and all("locks" not in c for c in d["cpus"]), sk
assert d["method"]["context_switch_policy"] == "other", d["method"]
assert d["kernel"]["hz"] is not None and d["kernel"]["release"]
print("as nobody, skipped:", sk)
EOF
    same_as_before "probe as nobody"
else
    echo "note: no setpriv or no user nobody: the unprivileged run is not checked"
fi

# --- interrupted: SIGINT while the SCHED_DEADLINE cpusets exist, SIGTERM early ---
interrupt() { # SIGNAL SECONDS DELAY_S WANT_CPUSETS
    "$BIN" probe --seconds "$2" --json > "$T/int.out" 2> "$T/int.err" &
    pid=$!
    sleep "$3"
    n=$(find "$CG" -maxdepth 1 -name 'rtpack-probe.*' 2> /dev/null | wc -l)
    if [ "$4" = yes ] && [ "$n" -eq 0 ] && [ -d "$CG" ]; then
        fail "no probe cpuset at ${3}s into a ${2}s probe (SCHED_DEADLINE phase)"
    fi
    t0=$(date +%s%N)
    kill -s "$1" "$pid"
    wait "$pid"
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    [ "$rc" -eq 3 ] || fail "SIG$1: exit $rc, not 3"
    [ "$ms" -le 2000 ] || fail "SIG$1: took $ms ms to stop"
    grep -q 'interrupted' "$T/int.err" || fail "SIG$1: message: $(cat "$T/int.err")"
    [ ! -s "$T/int.out" ] || fail "SIG$1: printed a document"
    ok "SIG$1 after ${3}s: exit $rc in $ms ms ($n probe cpusets present before)"
    same_as_before "SIG$1"
}
interrupt INT 10 6 yes
interrupt TERM 5 1 no

# --- SIGKILL leaves its cpusets; the next probe removes them and restores
# the root's sched_load_balance, and says so ---
"$BIN" probe --seconds 10 --json > /dev/null 2>&1 &
pid=$!
sleep 3
kill -s KILL "$pid"
wait "$pid"
left=$(find "$CG" -maxdepth 1 -name "rtpack-probe.$pid.*" 2> /dev/null | wc -l)
"$BIN" probe --seconds 1 --json > "$T/after_kill.json" 2> "$T/err" || fail "probe after SIGKILL: exit $?"
grep -q "killed rtpack probe (PID $pid)" "$T/after_kill.json" ||
    { [ "$left" -eq 0 ] || fail "the probe after SIGKILL did not report cleaning PID $pid"; }
ok "SIGKILL left $left cpuset(s); the next probe cleaned up"
same_as_before "SIGKILL and the next probe"

if [ "$FAILS" -ne 0 ]; then
    echo "$FAILS failure(s)"
    exit 1
fi
echo "cli_probe_real: ok"
