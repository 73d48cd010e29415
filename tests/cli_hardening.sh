#!/bin/sh
# tests/cli_hardening.sh — hostile inputs and broken outputs:
# every case asserts the exit status, the one-line message, and that no
# output file was left behind or changed.
# - unbounded input: /dev/zero and /dev/urandom stop at their first NUL
#   byte (exit 2), an endless pipe at --max-input-bytes (exit 3), within a
#   wall-clock and a memory limit; a file of exactly N bytes is read, N + 1
#   is refused; nesting past 1000 is exit 3; --batch streams with the cap
#   per line;
# - task names: control characters, escapes, invalid UTF-8, U+0000 and
#   overlong names are exit 2 at tasks[i].name in task sets, plans and
#   batch lines;
# - output errors: emit, partition --json and gen into /dev/full exit 3;
#   emit --out into a folder that cannot take the file exits 3 and leaves
#   nothing; as root, on a full tmpfs, emit --out over an existing script
#   exits 3 and leaves the old script byte for byte, with no temporary file.
# Env: RTP_BINARY, RTP_SOURCE_DIR, RTP_SANITIZED (ON under ASan).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_hardening
MNT=""
cli_cleanup() {
    [ -n "$MNT" ] && umount "$MNT" 2> /dev/null
}

# expect RC PATTERN DESCRIPTION -- COMMAND...: exit status and a stderr line.
expect() {
    want=$1 pattern=$2 what=$3
    shift 4
    timeout 60 "$@" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$what: exit $rc, want $want: $(head -c 300 "$TMP/err")"
    elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$TMP/err"; then
        fail "$what: stderr lacks '$pattern': $(head -c 300 "$TMP/err")"
    elif [ "$(wc -l < "$TMP/err")" -ne 1 ] && [ "$want" -ne 0 ]; then
        fail "$what: more than one line on stderr: $(cat "$TMP/err")"
    else
        ok "$what"
    fi
}

# --- bounded input ---
# Binary input stops at its first NUL byte (exit 2, at once); an endless
# pipe at the cap (exit 3), within the wall clock and (without ASan, which
# reserves terabytes of address space) a virtual-memory limit of 300 MB
# although the default cap is 256 MiB: each case below sets a small cap or
# never reaches it.
ULIMIT="ulimit -v 300000;"
[ "${RTP_SANITIZED:-OFF}" = ON ] && ULIMIT=""
printf '#!/bin/sh\n%s exec "$@"\n' "$ULIMIT" > "$TMP/limited" # limited COMMAND...
chmod +x "$TMP/limited"
for cmd in "analyze" "partition --cpus 2" "emit --format json" "explore --out $TMP/x"; do
    # shellcheck disable=SC2086
    expect 2 "/dev/zero: a NUL byte: not a text document (line 1, column 1)" "$cmd /dev/zero" -- \
        "$TMP/limited" "$B" $cmd /dev/zero
    # shellcheck disable=SC2086
    expect 2 "/dev/urandom: a NUL byte: not a text document" "$cmd /dev/urandom" -- \
        "$TMP/limited" "$B" $cmd /dev/urandom
done
[ ! -e "$TMP/x" ] || fail "explore created its folder for an input it refused"
expect 3 "<stdin>: the input is larger than 4096 bytes" "an endless pipe" -- sh -c "yes | '$B' analyze - --max-input-bytes 4096"
expect 3 "<stdin>: the input is larger than 20000000 bytes" "an endless pipe, 20 MB cap, memory limit" -- \
    sh -c "$ULIMIT yes | '$B' partition --cpus 2 - --max-input-bytes 20000000"
expect 3 "larger than 10 bytes" "explore over the cap" -- "$B" explore "$S/examples/sweep.json" --out "$TMP/x" --max-input-bytes 10
[ ! -e "$TMP/x" ] || fail "explore created its folder for an input it refused"
expect 3 "larger than 100 bytes" "emit over the cap" -- "$B" emit "$S/examples/plan_fp.json" --format json --max-input-bytes 100
python3 -c "print('[' * 5000 + ']' * 5000)" > "$TMP/deep.json"
expect 3 "resource limit: $TMP/deep.json: arrays and objects nested more than 1000 deep" "nesting 5000 deep" -- \
    "$B" analyze "$TMP/deep.json"
# --batch streams: one line held at a time, each under the cap; a NUL line is
# a bad line and the run goes on; a line past the cap is a resource-limit
# line that ends the run (its end may never come), all on standard output.
"$TMP/limited" timeout 60 "$B" analyze --batch - --max-input-bytes 65536 < /dev/zero > "$TMP/out" 2> "$TMP/err"
rc=$?
[ "$rc" -eq 3 ] && [ ! -s "$TMP/err" ] &&
    grep -q '^{"line":1,"error":"resource limit: the line is larger than 65536 bytes' "$TMP/out" ||
    fail "analyze --batch < /dev/zero: exit $rc: $(head -c 300 "$TMP/out") $(head -c 300 "$TMP/err")"
{
    echo '{"tasks": []}'
    printf '{"tasks": []}\000\n'
    echo '{"tasks": []}'
    python3 -c "print(' ' * 300)"
    echo '{"tasks": []}'
} > "$TMP/batch.jsonl"
"$B" analyze --batch "$TMP/batch.jsonl" --max-input-bytes 200 > "$TMP/out" 2> "$TMP/err"
rc=$?
{ [ "$rc" -eq 2 ] && [ "$(grep -c '"schedulable":true' "$TMP/out")" -eq 2 ] &&
    grep -q '"line":2,"error":"a NUL byte' "$TMP/out" &&
    grep -q '"line":4,"error":"resource limit: the line is larger than 200 bytes' "$TMP/out" &&
    ! grep -q '"line":5' "$TMP/out"; } || fail "a batch with a NUL line and a long line: exit $rc: $(cat "$TMP/out")"
printf '{"tasks":[{"name":"a","wcet":1,"period":4}]}' > "$TMP/ok.json"
size=$(wc -c < "$TMP/ok.json")
expect 0 "" "a file of exactly --max-input-bytes" -- "$B" analyze "$TMP/ok.json" --max-input-bytes "$size"
expect 3 "larger than $((size - 1)) bytes" "one byte over --max-input-bytes" -- "$B" analyze "$TMP/ok.json" --max-input-bytes "$((size - 1))"
expect 2 "--max-input-bytes wants" "--max-input-bytes 0" -- "$B" analyze "$TMP/ok.json" --max-input-bytes 0

# --- task names, checked when read ---
name_case() {
    printf '{"tasks":[{"name":%s,"wcet":1,"period":4}]}' "$1" > "$TMP/n.json"
    expect 2 "tasks\[0\].name: $2" "name $1" -- "$B" analyze "$TMP/n.json"
}
name_case '"a\u001b[2J"' "contains a control character (byte 0x1b)"
name_case '"a\nb"' "contains a control character (byte 0x0a)"
name_case '"a\tb"' "contains a control character (byte 0x09)"
name_case '"a\u009bb"' "contains a control character (U+009B)"
name_case '"a\u0000b"' "a string must not contain U+0000"
name_case "\"$(printf 'x%.0s' $(seq 256))\"" "longer than 255 bytes"
# Format characters that reorder, hide or break text
name_case '"ok\u202egnp.exe"' "contains U+202E (bidirectional override)"
name_case '"a\u2028b"' "contains U+2028 (line or paragraph separator)"
name_case '"a\u2029b"' "contains U+2029 (line or paragraph separator)"
name_case '"vi\u200bdeo"' "contains U+200B (zero-width character)"
name_case '"a\u2066b"' "contains U+2066 (bidirectional isolate)"
name_case '"\ufeffa"' "contains U+FEFF (zero-width no-break space)"
name_case '"a\udb40\udc41"' "contains U+E0041 (tag character)"
printf '{"tasks":[{"name":"caf\u00e9 \u65e5\u672c \ud83d\ude80","wcet":1,"period":4}]}' > "$TMP/n.json"
expect 0 "" "a name in other scripts and with an emoji is still plain text" -- "$B" analyze "$TMP/n.json"

# --- commands, checked when read ---
cmd_case() {
    printf '{"tasks":[{"name":"a","wcet":1,"period":4,"cmd":%s}]}' "$1" > "$TMP/c.json"
    expect 2 "$2" "cmd $(printf '%.40s' "$1")" -- "$B" analyze "$TMP/c.json"
    expect 2 "$2" "cmd $(printf '%.40s' "$1") (partition)" -- "$B" partition "$TMP/c.json" --cpus 1
}
cmd_case '["/bin/true", ""]' 'tasks\[0\].cmd\[1\]: must not be empty'
cmd_case '"   "' 'tasks\[0\].cmd: holds only spaces'
cmd_case '["", "x"]' 'tasks\[0\].cmd\[0\]: must not be empty'
python3 -c 'import json; print(json.dumps(["/bin/echo", "x" * 131072]))' > "$TMP/words"
cmd_case "$(cat "$TMP/words")" 'tasks\[0\].cmd\[1\]: word 2 is 131072 bytes: Linux starts no program with an argument over 131071 bytes'
python3 -c 'import json; print(json.dumps(["/bin/echo"] + ["x"] * 300000))' > "$TMP/words"
cmd_case "$(cat "$TMP/words")" 'the command passes 131072 bytes by word 13107'
python3 -c 'import json; print(json.dumps("/bin/echo " + "x " * 300000))' > "$TMP/words"
cmd_case "$(cat "$TMP/words")" 'tasks\[0\].cmd: the command passes 131072 bytes'
python3 -c 'import json; print(json.dumps(["/bin/echo", "x" * 100000] + ["y"] * 1000))' > "$TMP/words"
printf '{"tasks":[{"name":"a","wcet":1,"period":4,"cmd":%s}]}' "$(cat "$TMP/words")" > "$TMP/c.json"
expect 0 "" "a command within 128 KiB is accepted" -- "$B" analyze "$TMP/c.json"
printf '{"tasks":[{"name":"a\377","wcet":1,"period":4}]}' > "$TMP/n.json"
expect 2 "tasks\[0\].name: is not valid UTF-8 (byte 0xff)" "invalid UTF-8 name" -- "$B" analyze "$TMP/n.json"
printf '{"tasks":[{"name":"ok","wcet":1,"period":4}]}\n{"tasks":[{"name":"e\\u001b","wcet":1,"period":4}]}\n' > "$TMP/b.jsonl"
timeout 60 "$B" analyze --batch "$TMP/b.jsonl" > "$TMP/out" 2> "$TMP/err"
grep -q 'contains a control character' "$TMP/out" && ! grep -q "$(printf '\033')" "$TMP/out" ||
    fail "a batch line with an escape in a name: $(cat "$TMP/out")"
"$B" partition "$S/examples/quickstart.json" --json > "$TMP/plan.json" || fail "partition quickstart"
sed 's/"name":[[:space:]]*"\([^"]*\)"/"name": "\1\\u0007"/' "$TMP/plan.json" > "$TMP/badplan.json"
expect 2 "name: contains a control character (byte 0x07)" "a plan with a bell in a name" -- "$B" emit "$TMP/badplan.json" --format json

# A cluster's test that no rtpack analysis names (audit rev13c: "magic" was
# taken; rehearse and emit act on "soft" and "apa").
python3 - "$S/examples/plan_clustered.json" "$TMP/magic.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['clusters'][0]['test'] = 'magic'
json.dump(d, open(sys.argv[2], 'w'))
PY
"$B" emit "$TMP/magic.json" --format json >/dev/null 2>"$TMP/magic.err"
[ $? -eq 2 ] && grep -q 'clusters\[0\].test: "magic" is not a test' "$TMP/magic.err" ||
    fail "a cluster test named magic: $(cat "$TMP/magic.err")"

# A plan whose response_time members were edited (review rev13c: logger
# "5 ns", network "999999999 ns") is re-analysed: emit --format json writes
# the bounds the re-check proves (26.75 ms, 7 ms), not the edited ones.
python3 - "$S/examples/plan_fp.json" "$TMP/edited_rt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['cpus'][0]['tasks'][2]['response_time'] = 5
d['cpus'][1]['tasks'][2]['response_time'] = 999999999
json.dump(d, open(sys.argv[2], 'w'))
PY
"$B" emit "$TMP/edited_rt.json" --format json >"$TMP/edited_out.json" ||
    fail "emit of a plan with edited response times: exit $?"
python3 - "$TMP/edited_out.json" <<'PY' || fail "emit --format json passed edited response times on"
import json, sys
rt = {t['name']: t['response_time'] for c in json.load(open(sys.argv[1]))['cpus'] for t in c['tasks']}
sys.exit(0 if rt['logger'] == 26750000 and rt['network'] == 7000000 else 1)
PY

# --- output errors ---
expect 3 "cannot write standard output" "emit script > /dev/full" -- sh -c "'$B' emit '$S/examples/plan_fp.json' --format script > /dev/full"
expect 3 "cannot write standard output" "partition --json > /dev/full" -- sh -c "'$B' partition '$S/examples/app12.json' --json > /dev/full"
expect 3 "cannot write standard output" "gen > /dev/full" -- sh -c "'$B' gen --tasks 1000 --utilization 1 > /dev/full"
# Help, -V and --help checked standard output too
for words in "help partition" "help" "-V" "--version" "--help" "help --man emit" "help --completion"; do
    expect 3 "cannot write standard output" "rtpack $words > /dev/full" -- sh -c "'$B' $words > /dev/full"
done
# A reader that goes away is exit 3, not death by SIGPIPE (141)
"$B" gen --tasks 3000 --utilization 0.5 --seed 3 > "$TMP/big.json"
for cmd in "analyze '$TMP/big.json' --policy fp" "gen --tasks 3000 --utilization 0.5" "partition '$TMP/big.json' --cpus 2 --method ffd --json"; do
    rc=$(sh -c "'$B' $cmd 2> '$TMP/err'; echo \$? > '$TMP/rc'" | head -c 1 > /dev/null; cat "$TMP/rc")
    if [ "$rc" = 3 ] && grep -q "cannot write standard output: Broken pipe" "$TMP/err"; then
        ok "rtpack $cmd | head -c 1: exit 3"
    else
        fail "rtpack $cmd | head -c 1: exit $rc, want 3: $(cat "$TMP/err")"
    fi
done
mkdir "$TMP/ro"
chmod 0555 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then
    expect 3 "cannot write $TMP/ro/rt.sh" "emit --out into a read-only folder" -- "$B" emit "$S/examples/plan_fp.json" --format script --out "$TMP/ro/rt.sh"
    [ -z "$(ls -A "$TMP/ro")" ] || fail "emit left files in the read-only folder: $(ls -A "$TMP/ro")"
fi
expect 3 "cannot write $TMP/none/rt.sh" "emit --out into a missing folder" -- "$B" emit "$S/examples/plan_fp.json" --format script --out "$TMP/none/rt.sh"
if [ "$(id -u)" -eq 0 ] && mkdir "$TMP/full" && mount -t tmpfs -o size=64k tmpfs "$TMP/full" 2> /dev/null; then
    MNT="$TMP/full"
    "$B" emit "$S/examples/plan_fp.json" --format script --out "$TMP/full/rt.sh" 2> /dev/null ||
        fail "emit onto the small tmpfs"
    cp "$TMP/full/rt.sh" "$TMP/old.sh"
    dd if=/dev/zero of="$TMP/full/filler" bs=1k count=64 2> /dev/null # fill it
    expect 3 "cannot write $TMP/full/rt.sh: No space left on device" "emit --out over a script on a full disk" -- \
        "$B" emit "$S/examples/plan_edf.json" --format script --out "$TMP/full/rt.sh"
    cmp -s "$TMP/old.sh" "$TMP/full/rt.sh" || fail "the old script changed on a full disk"
    [ "$(ls -A "$TMP/full" | sort | tr '\n' ' ')" = "filler rt.sh " ] ||
        fail "files left on the full disk: $(ls -A "$TMP/full")"
else
    echo "note: not root or no tmpfs: the full-disk case is not run"
fi

cli_end
