#!/bin/sh
# tests/cli_options.sh — the table-driven option parser (cli/options.c) and
# the CLI conventions of docs/spec.md "Options": every value type checked
# with one message format, near names suggested, options of other commands
# named, `rtpack help CMD`, -V. Each case asserts the exit code and the
# message (one line on stderr, nothing on stdout for a usage error).
# Env: RTP_BINARY (built rtpack), RTP_SOURCE_DIR (the source tree).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_options
checks=0


run() {
    checks=$((checks + 1))
    "$B" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
    rc=$?
}

# usage TEXT ARGS...: exit 2, stdout empty, one stderr line holding TEXT.
usage() {
    want=$1
    shift
    run "$@"
    err=$(cat "$TMP/err")
    [ "$rc" -eq 2 ] || fail "rtpack $*: exit $rc, want 2 ($err)"
    [ -s "$TMP/out" ] && fail "rtpack $*: usage error printed on stdout"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "rtpack $*: want one line on stderr, got: $err"
    case $err in
    *"$want"*) ;;
    *) fail "rtpack $*: message lacks '$want': $err" ;;
    esac
}

# ok ARGS...: exit 0 or 1 (an answer), nothing about usage on stderr.
ok() {
    run "$@"
    case $rc in 0 | 1) ;; *) fail "rtpack $*: exit $rc: $(cat "$TMP/err")" ;; esac
}

E=$S/examples
Q=$E/quickstart.json

# --- every value type: accepted forms, and the one message format ---
ok partition "$Q" --policy=fp --priority dm
ok partition "$Q" --policy fp --policy edf --json # last wins
grep -q '"policy":[[:space:]]*"edf"' "$TMP/out" || fail "repeated --policy: last value did not win"
ok partition --json -- "$Q"
usage "rtpack partition: --policy wants edf or fp, got 'pf'" partition "$Q" --policy pf
usage "(did you mean edf?)" partition "$Q" --policy edff
usage "got 'gedf' (gedf is for rtpack analyze)" partition "$Q" --policy gedf
usage "--cpus wants a whole number from 1 to 4096, got '0'" partition "$Q" --cpus 0
usage "--cpus wants a whole number from 1 to 4096, got '1.5'" partition "$Q" --cpus 1.5
usage "--cpus wants a whole number from 1 to 4096, got ' 2'" partition "$Q" --cpus ' 2'
usage "--max-iterations wants a positive whole number, got '18446744073709551616'" \
    analyze "$Q" --max-iterations 18446744073709551616
ok analyze "$Q" --max-iterations 18446744073709551615
usage "--capacity wants a decimal number in (0, 1], got '0'" partition "$Q" --capacity 0
usage "--capacity wants a decimal number in (0, 1], got '1e3'" partition "$Q" --capacity 1e3
usage "got '0.1234567890123456789': more than 18 significant digits" \
    partition "$Q" --capacity 0.1234567890123456789
usage "--time-limit wants a positive number of seconds, got 'inf'" \
    partition "$Q" --method ilp --time-limit inf
usage "--granularity wants a positive time such as 5ms, 250us or 1s, got '1.5ns': not a whole number of ns" \
    gen --tasks 2 --utilization 1 --granularity 1.5ns
usage "--granularity wants a positive time such as 5ms, 250us or 1s, got '0'" \
    gen --tasks 2 --utilization 1 --granularity 0
usage "--period-set wants a comma-separated list of times such as 1ms,2ms,5ms, got '1ms,,2ms': entry 2 is empty" \
    gen --tasks 2 --utilization 1 --period-set 1ms,,2ms
usage "--periods wants MIN:MAX, e.g. 1ms:1s, got '1ms'" gen --tasks 2 --utilization 1 --periods 1ms
usage "--shard wants K/N with 1 <= K <= N, got '4/3'" explore "$E/sweep.json" --out "$TMP/x" --shard 4/3
usage "--fifo-range wants LO:HI within 1..99, got '0:5'" emit "$E/plan_fp.json" --format script --fifo-range 0:5
usage "--cpus wants a list of CPU ids below 4096 such as 0,2-3, got '3-1'" probe --cpus 3-1
ok gen --tasks 3 --utilization 1 --period-set 1ms,2ms --seed 18446744073709551615
ok gen --tasks 3 --utilization 1 --periods 1000:2000 --granularity 10

# --- names: flags, values, unknown options, options of other commands ---
usage "option --json takes no value" analyze "$Q" --json=yes
usage "option --policy needs a value" analyze "$Q" --policy
usage "unknown option '--polcy' (did you mean --policy?)" partition "$Q" --polcy fp
usage "unknown option '--capa' (did you mean --capacity?)" partition "$Q" --capa 0.5
usage "unknown option '--frobnicate' (see rtpack partition --help)" partition "$Q" --frobnicate
usage "unknown option '-x'" analyze "$Q" -x
usage "--cpus is not an option of emit (it is one of: analyze, partition, gen, probe" \
    emit "$E/plan_edf.json" --format script --cpus 2
usage "--cpus is not an option of explore" explore "$E/sweep.json" --out "$TMP/x" --cpus 2
usage "--cpus is not an option of merge" merge "$TMP/x" --out "$TMP/y" --cpus 2
usage "--json is not an option of emit" emit "$E/plan_edf.json" --format script --json
usage "--format script|systemd|rtapp|json|header is required" emit "$E/plan_edf.json"
usage "--tasks N is required" gen --utilization 1
usage "takes no operand, got 'x'" gen --tasks 1 --utilization 1 x
usage "missing FILE (use - for standard input)" partition
usage "expected one FILE, got 2 arguments" partition a.json b.json
usage "missing DIR... (the shard folders)" merge --out "$TMP/y"

# --- top level: help, version, unknown commands ---
usage "rtpack: unknown command 'partiton' (did you mean partition?)" partiton "$Q"
usage "rtpack: unknown command 'frobnicate'; 'rtpack --help' lists the commands" frobnicate
usage "rtpack: unknown option '--jsn'" --jsn
usage "unknown command 'anlyze' (did you mean analyze?)" help anlyze
for cmd in analyze partition emit gen explore merge probe; do
    run help "$cmd"
    cp "$TMP/out" "$TMP/help1"
    [ "$rc" -eq 0 ] || fail "rtpack help $cmd: exit $rc"
    run "$cmd" --help
    cmp -s "$TMP/out" "$TMP/help1" || fail "rtpack help $cmd differs from rtpack $cmd --help"
    grep -q "^usage: rtpack $cmd" "$TMP/help1" || fail "rtpack help $cmd: no usage line"
done
run help
if [ "$rc" -ne 0 ] || ! grep -q '^  partition ' "$TMP/out"; then
    fail "rtpack help: no command list"
fi
for v in -V --version; do
    run "$v"
    [ "$rc" -eq 0 ] || fail "rtpack $v: exit $rc"
    grep -Eq '^rtpack [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out" || fail "rtpack $v printed: $(cat "$TMP/out")"
done

cli_end "$checks runs"
