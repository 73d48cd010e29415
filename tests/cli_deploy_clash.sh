#!/bin/sh
# tests/cli_deploy_clash.sh — the launch script's check and start name what
# holds the plan's CPUs (plan B's check said nothing while
# plan A held the CPUs, and start failed with only "the kernel refused '0'
# in .../cpuset.cpus"). Against a fake cgroup v1 folder (no root needed for
# check; start, which insists on root, runs as root and must refuse before
# it changes anything):
# - another rtpack deployment's bin on a planned CPU: named, with its state
#   and the exact stop command (RTPACK_STATE_DIR included when set);
# - a rehearsal's cpuset without a state file: named as a rehearsal, with
#   what to do;
# - an exclusive cpuset that is no rtpack deployment's: named;
# - a plain cpuset on a planned CPU refuses an EDF plan (its bins are
#   exclusive) but not an FP one; cpusets on other CPUs refuse nothing.
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_deploy_clash

FAKE=$TMP/cgroup
STATE=$TMP/state
mkdir -p "$FAKE" "$STATE"
printf '0-1\n' > "$FAKE/cpuset.cpus"
printf '0\n' > "$FAKE/cpuset.mems"
printf '1\n' > "$FAKE/cpuset.cpu_exclusive"
printf '1\n' > "$FAKE/cpuset.sched_load_balance"
cpuset() { # NAME CPUS EXCLUSIVE
    mkdir -p "$FAKE/$1"
    printf '%s\n' "$2" > "$FAKE/$1/cpuset.cpus"
    printf '0\n' > "$FAKE/$1/cpuset.mems"
    printf '%s\n' "$3" > "$FAKE/$1/cpuset.cpu_exclusive"
    : > "$FAKE/$1/cgroup.procs"
}

cat > "$TMP/edf.json" <<'EOF'
{ "feasible": true, "method": "ffd", "policy": "edf", "platform": { "cpus": [0, 1] },
  "cpus": [ { "cpu": 0, "tasks": [ { "name": "a", "wcet": 1000000, "period": 10000000,
                                    "cmd": ["sleep", "60"] } ] },
            { "cpu": 1, "tasks": [] } ],
  "unassigned": [] }
EOF
sed 's/"edf"/"fp"/; s/"period": 10000000,/"period": 10000000, "priority": 1, "response_time": 1000000,/' \
    "$TMP/edf.json" > "$TMP/fp.json"
for p in edf fp; do
    "$B" emit "$TMP/$p.json" --format script --name B --out "$TMP/$p.sh" 2> /dev/null ||
        fail "emit $p"
done

# run VERB POLICY WANT PATTERN LABEL: sh SCRIPT VERB against the fake tree.
run() {
    RTPACK_CGROUP=v1 RTPACK_CGROUP_ROOT=$FAKE RTPACK_STATE_DIR=$STATE RTPACK_LOG_DIR=$TMP/log \
        timeout 60 sh "$TMP/$2.sh" "$1" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    if [ "$rc" -ne "$3" ]; then
        fail "$5: $1 exit $rc, want $3: $(cat "$TMP/err")"
    elif [ -n "$4" ] && ! grep -qF -- "$4" "$TMP/err"; then
        fail "$5: $1 stderr lacks '$4': $(cat "$TMP/err")"
    else
        ok "$5 ($1 exit $rc)${4:+: $(cat "$TMP/err")}"
    fi
}

# Deployment A holds CPU 0: its state records the script that started it.
cpuset rtpack-A-0 0 1
mkdir -p "$STATE/A"
printf '#!/bin/sh\n' > "$TMP/A.sh"
printf 'version 1\nstarter 1\nscript %s\nmode v1\nroot %s\n' "$TMP/A.sh" "$FAKE" > "$STATE/A/state"
want="rtpack deployment 'A' holds CPUs 0 (cpuset $FAKE/rtpack-A-0, state $STATE/A/state): stop it with: RTPACK_STATE_DIR=$STATE sh $TMP/A.sh stop"
run check edf 1 "$want" "EDF plan, deployment A on CPU 0"
run check fp 1 "$want" "FP plan, deployment A on CPU 0"
if [ "$(id -u)" -eq 0 ]; then
    ls "$FAKE" > "$TMP/before"
    run start edf 1 "$want" "start refused before any change"
    ls "$FAKE" > "$TMP/after"
    cmp -s "$TMP/before" "$TMP/after" && [ ! -e "$STATE/B" ] || fail "start changed the tree: $(ls "$FAKE" "$STATE")"
fi
rm "$TMP/A.sh"
run check edf 1 "the script that started it ($TMP/A.sh) is gone: emit its plan again with --name A" \
    "A's script is gone"
rm -r "$FAKE/rtpack-A-0" "$STATE/A"

# A rehearsal's leftover without state.
cpuset rtpack-rehearse_4242-0 0 1
run check edf 1 "the rehearsal 'rehearse_4242' (rtpack rehearse, pid 4242; when that rtpack is gone, the next rtpack rehearse stops it) holds CPUs 0 (cpuset $FAKE/rtpack-rehearse_4242-0) but $STATE has no state for it" \
    "a rehearsal's leftover"
rm -r "$FAKE/rtpack-rehearse_4242-0"

# Not an rtpack deployment's.
cpuset rtpack-probe.77 0 1
run check fp 1 "exclusive cpuset $FAKE/rtpack-probe.77 holds CPUs 0 and is not an rtpack deployment's" \
    "someone else's exclusive cpuset"
rm -r "$FAKE/rtpack-probe.77"
cpuset docker 0-1 0
run check edf 1 "cpuset $FAKE/docker holds CPUs 0-1 and is not an rtpack deployment's" \
    "a plain cpuset under an EDF plan (its bins are exclusive)"
run check fp 0 "" "a plain cpuset under an FP plan"
rm -r "$FAKE/docker"

# Other CPUs: nothing to say.
cpuset rtpack-A-1 1 1
run check edf 0 "" "deployment A on CPU 1 only"
grep -q 'status: not started' "$TMP/out" || fail "check output: $(cat "$TMP/out")"

cli_end
