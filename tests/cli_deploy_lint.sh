#!/bin/sh
# tests/cli_deploy_lint.sh — the emitted launch scripts (EDF, FP, clustered,
# hostile names and commands, the launcher of --reclaim / --overrun-signal
# with a hostile --launcher path) parse under dash, busybox sh and bash and are
# clean under `shellcheck -s sh` (each tool is skipped with a note when it is
# not installed).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_deploy_lint

# lint NAME: $TMP/NAME.sh parses under each shell here and lints clean.
lint() {
    for sh in dash bash "busybox sh"; do
        command -v "${sh%% *}" > /dev/null || continue
        $sh -n "$TMP/$1.sh" || fail "$sh -n $1.sh"
    done
    if command -v shellcheck > /dev/null; then
        shellcheck -s sh "$TMP/$1.sh" || fail "shellcheck -s sh $1.sh"
    fi
}

cat > "$TMP/hostile.json" <<'EOP'
{ "feasible": true, "method": "ffd", "policy": "fp", "platform": { "cpus": [0] },
  "cpus": [ { "cpu": 0, "tasks": [
    { "name": "$(touch x)", "wcet": 1, "period": 10, "priority": 3,
      "cmd": ["echo", "$(touch x)", "`touch x`", "'; reboot #", "a\"b\\c", "vidéo ✓", "c\\", "\\"] },
    { "name": "'; reboot #", "wcet": 1, "period": 10, "priority": 2, "cmd": "echo ../../etc $HOME" },
    { "name": "../../etc", "wcet": 1, "period": 10, "priority": 1, "cmd": ["echo"] } ] } ],
  "unassigned": [] }
EOP
for plan in "$S/examples/plan_edf.json" "$S/examples/plan_fp.json" \
    "$S/examples/plan_clustered.json" "$TMP/hostile.json"; do
    name=$(basename "$plan" .json)
    "$B" emit "$plan" --format script --out "$TMP/$name.sh" 2> /dev/null || { fail "emit $name"; continue; }
    lint "$name"
done
# a hostile --cgroup-root is quoted, parses, and lints clean too
"$B" emit "$TMP/hostile.json" --format script --cgroup-root '/tmp/x;rm $(id) `x` '"'"'q\' \
    --out "$TMP/root.sh" 2> /dev/null || fail "emit with a hostile --cgroup-root"
lint root
# the launcher variants (emit --reclaim, --overrun-signal): a hostile
# --launcher path is quoted, and the launcher check parses and lints clean
"$B" emit "$S/examples/plan_edf.json" --format script --reclaim --out "$TMP/reclaim.sh" \
    2> /dev/null || fail "emit --reclaim"
"$B" emit "$S/examples/plan_clustered.json" --format script --overrun-signal --reclaim \
    --launcher '/opt/x;rm $(id) `x` '"'"'q\/rtpack-launch' --out "$TMP/launcher.sh" 2> /dev/null ||
    fail "emit with a hostile --launcher"
lint reclaim
lint launcher
command -v shellcheck > /dev/null || echo "note: shellcheck not installed, not run"

cli_end "launch scripts parse and lint clean"
