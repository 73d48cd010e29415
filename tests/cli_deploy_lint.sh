#!/bin/sh
# tests/cli_deploy_lint.sh — the emitted launch scripts (EDF, FP, clustered,
# hostile names and commands, the launcher of --reclaim / --overrun-signal
# with a hostile --launcher path) parse under dash, busybox sh and bash and are
# clean under `shellcheck -s sh` (each tool is skipped with a note when it is
# not installed).
set -u
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
T=$(mktemp -d /tmp/rtp_deploy_lint.XXXXXX)
trap 'rm -rf "$T"' EXIT

# lint NAME: $T/NAME.sh parses under each shell here and lints clean.
lint() {
    for sh in dash bash "busybox sh"; do
        command -v "${sh%% *}" > /dev/null || continue
        $sh -n "$T/$1.sh" || fail "$sh -n $1.sh"
    done
    if command -v shellcheck > /dev/null; then
        shellcheck -s sh "$T/$1.sh" || fail "shellcheck -s sh $1.sh"
    fi
}

cat > "$T/hostile.json" <<'EOP'
{ "feasible": true, "method": "ffd", "policy": "fp", "platform": { "cpus": [0] },
  "cpus": [ { "cpu": 0, "tasks": [
    { "name": "$(touch x)", "wcet": 1, "period": 10, "priority": 3,
      "cmd": ["echo", "$(touch x)", "`touch x`", "'; reboot #", "a\"b\\c", "vidéo ✓", "c\\", "\\"] },
    { "name": "'; reboot #", "wcet": 1, "period": 10, "priority": 2, "cmd": "echo ../../etc $HOME" },
    { "name": "../../etc", "wcet": 1, "period": 10, "priority": 1, "cmd": ["echo"] } ] } ],
  "unassigned": [] }
EOP
for plan in "$SRC/examples/plan_edf.json" "$SRC/examples/plan_fp.json" \
    "$SRC/examples/plan_clustered.json" "$T/hostile.json"; do
    name=$(basename "$plan" .json)
    "$BIN" emit "$plan" --format script --out "$T/$name.sh" 2> /dev/null || { fail "emit $name"; continue; }
    lint "$name"
done
# a hostile --cgroup-root is quoted, parses, and lints clean too
"$BIN" emit "$T/hostile.json" --format script --cgroup-root '/tmp/x;rm $(id) `x` '"'"'q\' \
    --out "$T/root.sh" 2> /dev/null || fail "emit with a hostile --cgroup-root"
lint root
# the launcher variants (emit --reclaim, --overrun-signal): a hostile
# --launcher path is quoted, and the launcher check parses and lints clean
"$BIN" emit "$SRC/examples/plan_edf.json" --format script --reclaim --out "$T/reclaim.sh" \
    2> /dev/null || fail "emit --reclaim"
"$BIN" emit "$SRC/examples/plan_clustered.json" --format script --overrun-signal --reclaim \
    --launcher '/opt/x;rm $(id) `x` '"'"'q\/rtpack-launch' --out "$T/launcher.sh" 2> /dev/null ||
    fail "emit with a hostile --launcher"
lint reclaim
lint launcher
command -v shellcheck > /dev/null || echo "note: shellcheck not installed, not run"

[ "$FAILS" -eq 0 ] || { echo "$FAILS failure(s)"; exit 1; }
echo "launch scripts parse and lint clean"
