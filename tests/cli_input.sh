#!/bin/sh
# tests/cli_input.sh — the CLI's input validation and option parsing
# (docs/spec.md "Conventions", "Task-set document"): every command that
# takes a task-set FILE (analyze, partition) answers bad input with exit 2
# and ONE line on stderr naming the file and the JSON path, from a file and
# from "-" (standard input), before any analysis; unknown options, --cpus 0 and a
# missing FILE are exit 2; --help is exit 0 for every command.
# Env: RTP_BINARY (built rtpack), RTP_SOURCE_DIR (unused here).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_input
checks=0


# run ARGS...: runs rtpack with stdin from $TMP/in (if present), sets $rc,
# $TMP/out and $TMP/err.
run() {
    checks=$((checks + 1))
    if [ -f "$TMP/in" ]; then
        "$B" "$@" <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
    else
        "$B" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
    fi
    rc=$?
}

NL='
'

# expect_bad_input WHAT PATH: last run gave exit 2, nothing on stdout and one
# stderr line that holds WHAT (the file name) and ": PATH: " (the JSON path).
expect_bad_input() {
    what=$1
    path=$2
    err=$(cat "$TMP/err")
    if [ "$rc" -ne 2 ]; then
        fail "$cmd $what: want exit 2 for path '$path', got $rc: $err"
        return
    fi
    case $err in
    *"$NL"*) fail "$cmd $what: want one line on stderr, got: $err" ;;
    esac
    case $err in
    *"$what"*) ;;
    *) fail "$cmd: message does not name the file '$what': $err" ;;
    esac
    case $path:$err in
    :* | *": $path: "*) ;;
    *) fail "$cmd $what: message does not name the path '$path': $err" ;;
    esac
    if [ -s "$TMP/out" ]; then
        fail "$cmd $what: bad input printed on stdout: $(cat "$TMP/out")"
    fi
}

# Bad documents, one per line: JSON path | document.
cat >"$TMP/cases" <<'EOF'
|{"tasks": [
tasks|{}
tasks[0].wcet|{"tasks": [{"name": "a", "period": 4}]}
tasks[1].period|{"tasks": [{"name": "a", "wcet": 1, "period": 4}, {"name": "b", "wcet": 1}]}
tasks[0].wcet|{"tasks": [{"name": "a", "wcet": 0, "period": 4}]}
tasks[0].deadline|{"tasks": [{"name": "a", "wcet": 1, "period": 4, "deadline": -1}]}
tasks[0].wcet|{"tasks": [{"name": "a", "wcet": "1.5ns", "period": 4}]}
tasks[0].wcet|{"tasks": [{"name": "a", "wcet": 1.5, "period": 4}]}
tasks[0].wcet|{"tasks": [{"name": "a", "wcet": 1.0000000000000001, "period": 4}]}
tasks[0].period|{"tasks": [{"name": "a", "wcet": 1, "period": "4611686018427387905ns"}]}
tasks[0].period|{"tasks": [{"name": "a", "wcet": 1, "period": 9007199254740993}]}
tasks[0].period|{"tasks": [{"name": "a", "wcet": 1, "period": true}]}
tasks[0].perod|{"tasks": [{"name": "a", "wcet": 1, "perod": 4}]}
platfrom|{"platfrom": {"cpus": 2}, "tasks": []}
tasks[0].wcet|{"tasks": [{"name": "a", "wcet": 1, "wcet": 2, "period": 4}]}
tasks[2].name|{"tasks": [{"name": "x", "wcet": 1, "period": 4}, {"name": "y", "wcet": 1, "period": 4}, {"name": "x", "wcet": 1, "period": 4}]}
tasks[0].name|{"tasks": [{"name": 7, "wcet": 1, "period": 4}]}
platform.cpus|{"platform": {"cpus": 0}, "tasks": []}
platform.cpus[1]|{"platform": {"cpus": [0, 0]}, "tasks": []}
platform.clusters[1][0]|{"platform": {"cpus": 4, "clusters": [[0, 1], [1, 2]]}, "tasks": []}
platform.clusters[0][1]|{"platform": {"cpus": 2, "clusters": [[0, 5]]}, "tasks": []}
platform.cpu|{"platform": {"cpus": 2, "cpu": 2}, "tasks": []}
tasks[0].cmd|{"tasks": [{"name": "a", "wcet": 1, "period": 4, "cmd": []}]}
tasks[0].affinity[1]|{"tasks": [{"name": "a", "wcet": 1, "period": 4, "affinity": [1, 1]}]}
tasks[0].priority|{"tasks": [{"name": "a", "wcet": 1, "period": 4, "priority": "high"}]}
time_unit|{"time_unit": "min", "tasks": []}
EOF

for cmd in analyze partition; do
    n=0
    while IFS='|' read -r path json; do
        n=$((n + 1))
        file="$TMP/bad_$n.json"
        printf '%s\n' "$json" >"$file"
        rm -f "$TMP/in"
        run "$cmd" "$file"
        expect_bad_input "$file" "$path"
        if [ $((n % 4)) -eq 0 ]; then
            run "$cmd" "$file" --json --cpus 2
            expect_bad_input "$file" "$path"
        fi
        cp "$file" "$TMP/in"
        run "$cmd" -
        expect_bad_input "<stdin>" "$path"
        rm -f "$TMP/in"
    done <"$TMP/cases"
    [ "$n" -ge 20 ] || fail "only $n cases read"

    # the not-JSON case says where: (line L, column C)
    printf '{"tasks": [\n  {"name": }\n]}\n' >"$TMP/broken.json"
    run "$cmd" "$TMP/broken.json"
    expect_bad_input "$TMP/broken.json" ""
    case $err in
    *"line 2, column 12"*) ;;
    *) fail "$cmd: no line/column: $err" ;;
    esac

    # unreadable FILE
    run "$cmd" "$TMP/does-not-exist.json"
    expect_bad_input "$TMP/does-not-exist.json" ""

    # usage errors: exit 2, a message, nothing on stdout
    for args in "" "a.json b.json" "--bogus x.json" "-x x.json" "--cpus 0 x.json" \
        "--cpus -1 x.json" "--cpus two x.json" "--cpus 1.5 x.json" "--cpus=0 x.json" \
        "x.json --cpus" "--json=yes x.json" "--policy"; do
        # shellcheck disable=SC2086
        run "$cmd" $args
        if [ "$rc" -ne 2 ] || [ ! -s "$TMP/err" ] || [ -s "$TMP/out" ]; then
            fail "rtpack $cmd $args: want exit 2 with a message, got $rc: $(cat "$TMP/err")"
        fi
    done

    # valid input from "-" is read and gets past validation: never exit 2
    # (0/1 once the analysis exists, 3 "not implemented" until then)
    printf '{"platform": {"cpus": 2}, "tasks": [{"name": "a", "wcet": "1ms", "period": "4ms"}]}' >"$TMP/in"
    run "$cmd" - --json
    case $rc in 0 | 1 | 3) ;; *) fail "$cmd - (valid stdin): exit $rc: $(cat "$TMP/err")" ;; esac
    run "$cmd" --json -- -
    case $rc in 0 | 1 | 3) ;; *) fail "$cmd -- - (valid stdin): exit $rc: $(cat "$TMP/err")" ;; esac
    rm -f "$TMP/in"
    printf '{"tasks": []}' >"$TMP/empty.json"
    # analyze takes --cpus M > 1 only for one cluster (gedf, gfp): see cli_options.sh
    global=""
    [ "$cmd" = analyze ] && global="--policy=gedf"
    run "$cmd" "$TMP/empty.json" --cpus=2 $global
    case $rc in 0 | 1 | 3) ;; *) fail "$cmd empty task list: exit $rc: $(cat "$TMP/err")" ;; esac
done

# partition on a valid set with neither platform nor --cpus: usage error
# (docs/spec.md "Task-set document"), once partitioning exists.
run partition "$TMP/empty.json"
if ! grep -q "not implemented" "$TMP/err" && [ "$rc" -ne 2 ]; then
    fail "partition without CPUs: want exit 2, got $rc: $(cat "$TMP/err")"
fi

# --help: exit 0 and a usage text on stdout, for every command
for cmd in analyze partition emit gen explore merge; do
    for flag in --help -h; do
        run "$cmd" "$flag"
        if [ "$rc" -ne 0 ] || ! grep -q "usage: rtpack $cmd" "$TMP/out"; then
            fail "rtpack $cmd $flag: want exit 0 and usage, got $rc"
        fi
    done
    run "$cmd" --bogus-option
    [ "$rc" -eq 2 ] || fail "rtpack $cmd --bogus-option: want exit 2, got $rc"
done

# top level
run
[ "$rc" -eq 2 ] || fail "rtpack (no command): want exit 2, got $rc"
run frobnicate
[ "$rc" -eq 2 ] || fail "rtpack frobnicate: want exit 2, got $rc"
run --help
if [ "$rc" -ne 0 ] || ! grep -q analyze "$TMP/out"; then
    fail "rtpack --help: want exit 0 and the command list, got $rc"
fi
run emit
[ "$rc" -eq 2 ] || fail "rtpack emit (no PLAN): want exit 2, got $rc"

cli_end "$checks runs"
