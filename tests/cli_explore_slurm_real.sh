#!/bin/sh
# tests/cli_explore_slurm_real.sh — the Slurm recipe of docs/explore.md, run
# on a real single-node Slurm: munged, slurmctld and slurmd from
# Debian's packages, started here with a temporary key, slurm.conf and state
# folder; the job array of `rtpack explore --shard` and the dependent `merge`
# are the two code blocks under "### Slurm job array" in docs/explore.md,
# extracted and run as they are; the merged results.csv must equal a
# single-machine run byte for byte. Everything started here is stopped by its
# PID and the temporary folder (key included) removed, whatever happens.
#
# The node is declared with 128 CPUs (SlurmdParameters=config_overrides) so
# the recipe's 16 tasks x 8 CPUs all fit at once on a small machine; no
# cgroup plugin is used (proctrack/linuxproc, task/none). Exit 77 (CTest
# skip) with a message naming what is missing when Slurm cannot run here.
set -eu
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
skip() { echo "SKIP: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; dump; exit 1; }
stage() { echo "[$(date +%T)] $*" >&2; }

for tool in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (Debian: munge slurmctld slurmd slurm-client; .ci/setup installs them)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root here (to start jobs as the submitting user)"

WORK=$(mktemp -d /tmp/rtp_slurm.XXXXXX)
chmod 0700 "$WORK"
PIDS=""
# Processes started under $WORK (job steps, their shells, rtpack) by PID.
ours() {
    for d in /proc/[0-9]*; do
        case "$(readlink "$d/cwd" 2>/dev/null)$(tr '\0' ' ' 2>/dev/null < "$d/cmdline")" in
            *"$WORK"*) echo "${d#/proc/}" ;;
        esac
    done
}
cleanup() {
    if [ -n "${SLURM_CONF:-}" ]; then
        scancel --quiet --user=root 2>/dev/null || true
        n=0
        while [ -n "$(squeue -h 2>/dev/null)" ] && [ "$n" -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
    fi
    for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done
    for pid in $PIDS; do
        n=0
        while kill -0 "$pid" 2>/dev/null && [ "$n" -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
        kill -9 "$pid" 2>/dev/null || true
    done
    for pid in $(ours 2>/dev/null); do [ "$pid" != $$ ] && kill -9 "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
dump() {
    for log in "$WORK"/*.log; do
        [ -f "$log" ] && { echo "--- $log"; tail -n 15 "$log"; }
    done >&2
    squeue 2>/dev/null >&2 || true
    tail -n 5 "$WORK"/run-dir/logs/* >&2 2>/dev/null || true
}

stage "starting munged"
# munge: a fresh key and socket of our own (the system's are not touched).
dd if=/dev/urandom of="$WORK/munge.key" bs=1024 count=1 2>/dev/null
chmod 0400 "$WORK/munge.key"
mkdir -m 0700 "$WORK/munge"
munged --force --key-file="$WORK/munge.key" --socket="$WORK/munge/socket" \
    --pid-file="$WORK/munge/pid" --seed-file="$WORK/munge/seed" \
    --log-file="$WORK/munged.log" || skip "munged does not start here: $(tail -n 3 "$WORK/munged.log" 2>/dev/null)"
n=0
until [ -s "$WORK/munge/pid" ] || [ "$n" -ge 50 ]; do sleep 0.1; n=$((n + 1)); done
PIDS="$(cat "$WORK/munge/pid")"

HOST=$(hostname -s)
mkdir -p "$WORK/state" "$WORK/spool" "$WORK/run"
cat > "$WORK/slurm.conf" <<EOF
ClusterName=rtpacktest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge/socket
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/run/slurmctld.pid
SlurmdPidFile=$WORK/run/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=300
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=128 State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$WORK/slurm.conf"
stage "starting slurmctld and slurmd"
slurmctld -D -f "$SLURM_CONF" >"$WORK/slurmctld.out.log" 2>&1 &
PIDS="$PIDS $!"
slurmd -D -f "$SLURM_CONF" -N "$HOST" >"$WORK/slurmd.out.log" 2>&1 &
PIDS="$PIDS $!"
n=0
until sinfo -h -o '%t' 2>/dev/null | grep -q '^idle'; do
    n=$((n + 1))
    if [ "$n" -ge 200 ]; then
        for pid in $PIDS; do
            kill -0 "$pid" 2>/dev/null || skip "a Slurm daemon exits at start here: $(tail -n 3 "$WORK"/slurm*.log | tr '\n' ' ')"
        done
        skip "the node never became idle in 20 s: $(sinfo -h 2>&1) $(tail -n 3 "$WORK/slurmd.log" | tr '\n' ' ')"
    fi
    sleep 0.1
done

stage "node idle"
# The recipe: the two sh blocks under "### Slurm job array", as written.
extract() { # N: the N-th ```sh block after the heading
    awk -v want="$1" '
        /^### Slurm job array/ { inside = 1; next }
        inside && /^## / { exit }
        inside && /^```sh$/ { block++; if (block == want) { on = 1; next } }
        on && /^```$/ { exit }
        on { print }' "$SRC/docs/explore.md"
}
RUN="$WORK/run-dir"
mkdir -p "$RUN/bin"
ln -s "$BIN" "$RUN/bin/rtpack"
cd "$RUN"
extract 1 > sweep.sbatch
extract 2 > submit.sh
grep -q '^#SBATCH --array=1-16$' sweep.sbatch || fail "docs/explore.md: no job array block"
grep -q 'rtpack merge shards/\* --out results' submit.sh || fail "docs/explore.md: no merge block"
cat > sweep.json <<'EOF'
{"seed": 3, "sets_per_point": 20, "tasks": 6, "cpus": 2,
 "utilization": {"from": "0.5", "to": "0.95", "step": "0.05"},
 "periods": {"min": "1ms", "max": "100ms", "granularity": "1ms"},
 "deadlines": ["implicit", "constrained"], "policies": ["edf", "fp"],
 "methods": ["ffd", "wfd", "best"]}
EOF
PATH="$RUN/bin:$PATH" "$BIN" explore sweep.json --out single 2>/dev/null || fail "single-machine run"

stage "submitting"
start=$(date +%s)
PATH="$RUN/bin:$PATH" sh submit.sh > submit.out 2>&1 || fail "submission: $(cat submit.out)"
n=0
while [ -n "$(squeue -h 2>/dev/null)" ] || [ "$n" -lt 10 ]; do
    n=$((n + 1))
    [ "$n" -lt 750 ] || fail "jobs still queued after 75 s: $(squeue 2>&1)"
    sleep 0.1
done
took=$(( $(date +%s) - start ))
[ -f results/results.csv ] || fail "the merge job wrote no results.csv; logs: $(cat logs/* 2>/dev/null | tail -n 5)"
cmp single/results.csv results/results.csv || fail "Slurm's merged results.csv differs from one run"
[ "$(ls shards | wc -l)" -eq 16 ] || fail "expected 16 shard folders: $(ls shards)"
echo "cli_explore_slurm_real: ok (16 array tasks + merge on Slurm $(sinfo -V | cut -d' ' -f2) in ${took} s)"
