#!/bin/sh
# tests/cli_probe.sh — `rtpack probe` without touching the machine: bad
# options are exit 2 with one line on stderr and nothing on stdout, and a
# probe of a recorded machine tree (RTPACK_PROBE_ROOT, built here from
# tests/fixtures/probe: this kind of VM, kernel 6.18, HZ=250, PREEMPT_NONE,
# debugfs locked down) prints the facts and warnings the fixture implies,
# in JSON and as text. The live probe is tests/cli_probe_real.sh.
set -u
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
FIX=$SRC/tests/fixtures/probe
T=$(mktemp -d /tmp/rtp_cli_probe.XXXXXX)
trap 'rm -rf "$T"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

# The recorded tree: facts only, so nothing below measures or changes anything.
R=$T/tree
mkdir -p "$R/proc/sys/kernel" "$R/sys/devices/system/cpu/cpu0/topology" \
    "$R/sys/devices/system/cpu/cpu1/topology" "$R/sys/fs/cgroup/cpuset"
echo 6.18.44-fc-v1252 > "$R/proc/sys/kernel/osrelease"
gzip -c "$FIX/config-vm-6.18" > "$R/proc/config.gz"
cp "$FIX/cmdline-vm" "$R/proc/cmdline"
printf 'flags\t\t: fpu tsc hypervisor\n' > "$R/proc/cpuinfo"
echo 950000 > "$R/proc/sys/kernel/sched_rt_runtime_us"
echo 1000000 > "$R/proc/sys/kernel/sched_rt_period_us"
echo 0-1 > "$R/sys/devices/system/cpu/online"
echo > "$R/sys/devices/system/cpu/isolated"
echo 0 > "$R/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"
echo 1 > "$R/sys/devices/system/cpu/cpu1/topology/thread_siblings_list"
echo 0-1 > "$R/sys/fs/cgroup/cpuset/cpuset.cpus"
export RTPACK_PROBE_ROOT="$R"

# bad ARGS...: exit 2, stdout empty, exactly one line on stderr naming probe.
bad() {
    "$BIN" probe "$@" > "$T/out" 2> "$T/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "probe $* exited $rc, not 2"
    [ ! -s "$T/out" ] || fail "probe $* printed on stdout"
    [ "$(wc -l < "$T/err")" -eq 1 ] || fail "probe $*: not one line on stderr: $(cat "$T/err")"
    grep -q '^rtpack probe: ' "$T/err" || fail "probe $*: message does not name the command"
}
bad --cpus x
bad --cpus ''
bad --cpus 1-0
bad --cpus 0,,1
bad --cpus 4096
bad --cpus 7
bad --cpus
bad --seconds 0
bad --seconds 3601
bad --seconds 1.5
bad --seconds ''
bad --seconds -3
bad --period 1s
bad --period 50us
bad --period 1.5ns
bad --period ten
bad --release-latency mean
bad --json=yes
bad --bogus
bad extra-argument
"$BIN" probe --cpus 7 2> "$T/err" > /dev/null
grep -q 'CPU 7 is not online (online: 0-1)' "$T/err" || fail "--cpus 7: $(cat "$T/err")"

"$BIN" probe --help > "$T/out" 2>&1 || fail "probe --help exit $?"
grep -q -- '^  --cpus LIST  *CPUs to measure' "$T/out" || fail "--help does not show probe's own --cpus LIST"
[ "$(grep -c -- '--cpus' "$T/out")" -eq 1 ] || fail "--help lists --cpus more than once"

# The recorded tree, as JSON.
"$BIN" probe --json > "$T/probe.json" 2> "$T/err" || fail "probe --json on the tree: exit $?"
python3 - "$T/probe.json" << 'EOF' || fail "JSON of the recorded tree"
import json, sys
d = json.load(open(sys.argv[1]))
k = d["kernel"]
assert k["release"] == "6.18.44-fc-v1252", k
assert k["hz"] == 250 and k["preempt"] == "none" and k["hrtick_dl"] is False, k
assert k["dl_fair_server"] is True and k["dl_bandwidth"] == "0.9", k
assert k["virtualized"] is True and k["rt_runtime_us"] == 950000, k
assert k["isolcpus"] == [] and k["cpuset"] == "v1", k
assert [c["cpu"] for c in d["cpus"]] == [0, 1]
for c in d["cpus"]:
    assert c["fifo_latency"] is None and c["deadline_latency"] is None, c
    assert c["context_switch"] is None, c
assert d["platform"] == {"cpus": [0, 1]}, d["platform"]
w = d["warnings"]
assert any(x.startswith("HZ=250 and HRTICK_DL off: a SCHED_DEADLINE budget is enforced only "
                        "every 4 ms, so a task that overruns its runtime can take up to 4 ms "
                        "from the others") for x in w), w
assert any("preemption model 'none'" in x for x in w), w
assert any("no overheads were measured" in x for x in w), w
assert any("recorded tree" in x for x in d["skipped"]), d["skipped"]
EOF

# The same as text: every warning printed, the platform line ready to paste.
"$BIN" probe > "$T/human" 2> "$T/err" || fail "probe (text) on the tree: exit $?"
grep -q '^  HZ  *250 (/proc/config.gz)' "$T/human" || fail "text: HZ line"
grep -q '^  "platform": {"cpus":\[0,1\]}' "$T/human" || fail "text: platform line"
grep -q '^warnings:' "$T/human" || fail "text: no warnings section"
grep -q '^  - HZ=250 and HRTICK_DL off' "$T/human" || fail "text: HZ warning"
n_json=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["warnings"]))' "$T/probe.json")
n_text=$(sed -n '/^warnings:/,$p' "$T/human" | grep -c '^  - ')
[ "$n_json" -eq "$n_text" ] || fail "text shows $n_text warnings, JSON $n_json"

# Without root the probe measures the context switch (as
# SCHED_OTHER) but not the release latency; platform.overheads carries what
# was measured, with a warning saying what it lacks. Run here as nobody
# (changes nothing: no real-time policy, no cpuset), when this test runs as
# root and setpriv exists; as an ordinary user, as that user.
unpriv=""
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
    unpriv="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" -ne 0 ] || [ -n "$unpriv" ]; then
    env -u RTPACK_PROBE_ROOT $unpriv "$BIN" probe --seconds 1 --cpus 0 --json > "$T/np.json" 2> "$T/err" ||
        fail "probe without root: exit $?: $(cat "$T/err")"
    python3 - "$T/np.json" <<'EOF' || fail "probe without root: $(cat "$T/np.json")"
import json, sys
d = json.load(open(sys.argv[1]))
ov = d["platform"].get("overheads", {})
assert "context_switch" in ov and "release_latency" not in ov, ov
assert any("release latency was not measured" in w for w in d["warnings"]), d["warnings"]
EOF
fi

if [ "$FAILS" -ne 0 ]; then
    echo "$FAILS failure(s)"
    exit 1
fi
echo "cli_probe: ok"
