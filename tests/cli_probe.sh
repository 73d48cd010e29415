#!/bin/sh
# tests/cli_probe.sh — `rtpack probe` without touching the machine: bad
# options are exit 2 with one line on stderr and nothing on stdout, and a
# probe of a recorded machine tree (RTPACK_PROBE_ROOT, built here from
# tests/fixtures/probe: this kind of VM, kernel 6.18, HZ=250, PREEMPT_NONE,
# debugfs locked down) prints the facts and warnings the fixture implies,
# in JSON and as text. The live probe is tests/cli_probe_real.sh.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_probe
FIX=$S/tests/fixtures/probe

# The recorded tree: facts only, so nothing below measures or changes anything.
R=$TMP/tree
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
    "$B" probe "$@" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "probe $* exited $rc, not 2"
    [ ! -s "$TMP/out" ] || fail "probe $* printed on stdout"
    [ "$(wc -l < "$TMP/err")" -eq 1 ] || fail "probe $*: not one line on stderr: $(cat "$TMP/err")"
    grep -q '^rtpack probe: ' "$TMP/err" || fail "probe $*: message does not name the command"
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
"$B" probe --cpus 7 2> "$TMP/err" > /dev/null
grep -q 'CPU 7 is not online (online: 0-1)' "$TMP/err" || fail "--cpus 7: $(cat "$TMP/err")"

"$B" probe --help > "$TMP/out" 2>&1 || fail "probe --help exit $?"
grep -q -- '^  --cpus LIST  *CPUs to measure' "$TMP/out" || fail "--help does not show probe's own --cpus LIST"
[ "$(grep -c -- '--cpus' "$TMP/out")" -eq 1 ] || fail "--help lists --cpus more than once"

# The recorded tree, as JSON.
"$B" probe --json > "$TMP/probe.json" 2> "$TMP/err" || fail "probe --json on the tree: exit $?"
python3 - "$TMP/probe.json" << 'EOF' || fail "JSON of the recorded tree"
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
"$B" probe > "$TMP/human" 2> "$TMP/err" || fail "probe (text) on the tree: exit $?"
grep -q '^  HZ  *250 (/proc/config.gz)' "$TMP/human" || fail "text: HZ line"
grep -q '^  "platform": {"cpus":\[0,1\]}' "$TMP/human" || fail "text: platform line"
grep -q '^warnings:' "$TMP/human" || fail "text: no warnings section"
grep -q '^  - HZ=250 and HRTICK_DL off' "$TMP/human" || fail "text: HZ warning"
n_json=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["warnings"]))' "$TMP/probe.json")
n_text=$(sed -n '/^warnings:/,$p' "$TMP/human" | grep -c '^  - ')
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
    env -u RTPACK_PROBE_ROOT $unpriv "$B" probe --seconds 1 --cpus 0 --json > "$TMP/np.json" 2> "$TMP/err" ||
        fail "probe without root: exit $?: $(cat "$TMP/err")"
    python3 - "$TMP/np.json" <<'EOF' || fail "probe without root: $(cat "$TMP/np.json")"
import json, sys
d = json.load(open(sys.argv[1]))
ov = d["platform"].get("overheads", {})
assert "context_switch" in ov and "release_latency" not in ov, ov
assert any("release latency was not measured" in w for w in d["warnings"]), d["warnings"]
EOF
fi

cli_end
