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
set -u
# Env: RTP_BINARY, RTP_SOURCE_DIR, RTP_SANITIZED (ON under ASan).
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
T=$(mktemp -d /tmp/rtp_hardening.XXXXXX)
MNT=""
cleanup() {
    [ -n "$MNT" ] && umount "$MNT" 2> /dev/null
    rm -rf "$T"
}
trap cleanup EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }

# expect RC PATTERN DESCRIPTION -- COMMAND...: exit status and a stderr line.
expect() {
    want=$1 pattern=$2 what=$3
    shift 4
    timeout 60 "$@" > "$T/out" 2> "$T/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$what: exit $rc, want $want: $(head -c 300 "$T/err")"
    elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$T/err"; then
        fail "$what: stderr lacks '$pattern': $(head -c 300 "$T/err")"
    elif [ "$(wc -l < "$T/err")" -ne 1 ] && [ "$want" -ne 0 ]; then
        fail "$what: more than one line on stderr: $(cat "$T/err")"
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
printf '#!/bin/sh\n%s exec "$@"\n' "$ULIMIT" > "$T/limited" # limited COMMAND...
chmod +x "$T/limited"
for cmd in "analyze" "partition --cpus 2" "emit --format json" "explore --out $T/x"; do
    # shellcheck disable=SC2086
    expect 2 "/dev/zero: a NUL byte: not a text document (line 1, column 1)" "$cmd /dev/zero" -- \
        "$T/limited" "$BIN" $cmd /dev/zero
    # shellcheck disable=SC2086
    expect 2 "/dev/urandom: a NUL byte: not a text document" "$cmd /dev/urandom" -- \
        "$T/limited" "$BIN" $cmd /dev/urandom
done
[ ! -e "$T/x" ] || fail "explore created its folder for an input it refused"
expect 3 "<stdin>: the input is larger than 4096 bytes" "an endless pipe" -- sh -c "yes | '$BIN' analyze - --max-input-bytes 4096"
expect 3 "<stdin>: the input is larger than 20000000 bytes" "an endless pipe, 20 MB cap, memory limit" -- \
    sh -c "$ULIMIT yes | '$BIN' partition --cpus 2 - --max-input-bytes 20000000"
expect 3 "larger than 10 bytes" "explore over the cap" -- "$BIN" explore "$SRC/examples/sweep.json" --out "$T/x" --max-input-bytes 10
[ ! -e "$T/x" ] || fail "explore created its folder for an input it refused"
expect 3 "larger than 100 bytes" "emit over the cap" -- "$BIN" emit "$SRC/examples/plan_fp.json" --format json --max-input-bytes 100
python3 -c "print('[' * 5000 + ']' * 5000)" > "$T/deep.json"
expect 3 "resource limit: $T/deep.json: arrays and objects nested more than 1000 deep" "nesting 5000 deep" -- \
    "$BIN" analyze "$T/deep.json"
# --batch streams: one line held at a time, each under the cap; a NUL line is
# a bad line and the run goes on; a line past the cap is a resource-limit
# line that ends the run (its end may never come), all on standard output.
"$T/limited" timeout 60 "$BIN" analyze --batch - --max-input-bytes 65536 < /dev/zero > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" -eq 3 ] && [ ! -s "$T/err" ] &&
    grep -q '^{"line":1,"error":"resource limit: the line is larger than 65536 bytes' "$T/out" ||
    fail "analyze --batch < /dev/zero: exit $rc: $(head -c 300 "$T/out") $(head -c 300 "$T/err")"
{
    echo '{"tasks": []}'
    printf '{"tasks": []}\000\n'
    echo '{"tasks": []}'
    python3 -c "print(' ' * 300)"
    echo '{"tasks": []}'
} > "$T/batch.jsonl"
"$BIN" analyze --batch "$T/batch.jsonl" --max-input-bytes 200 > "$T/out" 2> "$T/err"
rc=$?
{ [ "$rc" -eq 2 ] && [ "$(grep -c '"schedulable":true' "$T/out")" -eq 2 ] &&
    grep -q '"line":2,"error":"a NUL byte' "$T/out" &&
    grep -q '"line":4,"error":"resource limit: the line is larger than 200 bytes' "$T/out" &&
    ! grep -q '"line":5' "$T/out"; } || fail "a batch with a NUL line and a long line: exit $rc: $(cat "$T/out")"
printf '{"tasks":[{"name":"a","wcet":1,"period":4}]}' > "$T/ok.json"
size=$(wc -c < "$T/ok.json")
expect 0 "" "a file of exactly --max-input-bytes" -- "$BIN" analyze "$T/ok.json" --max-input-bytes "$size"
expect 3 "larger than $((size - 1)) bytes" "one byte over --max-input-bytes" -- "$BIN" analyze "$T/ok.json" --max-input-bytes "$((size - 1))"
expect 2 "--max-input-bytes wants" "--max-input-bytes 0" -- "$BIN" analyze "$T/ok.json" --max-input-bytes 0

# --- task names, checked when read ---
name_case() {
    printf '{"tasks":[{"name":%s,"wcet":1,"period":4}]}' "$1" > "$T/n.json"
    expect 2 "tasks\[0\].name: $2" "name $1" -- "$BIN" analyze "$T/n.json"
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
printf '{"tasks":[{"name":"caf\u00e9 \u65e5\u672c \ud83d\ude80","wcet":1,"period":4}]}' > "$T/n.json"
expect 0 "" "a name in other scripts and with an emoji is still plain text" -- "$BIN" analyze "$T/n.json"

# --- commands, checked when read ---
cmd_case() {
    printf '{"tasks":[{"name":"a","wcet":1,"period":4,"cmd":%s}]}' "$1" > "$T/c.json"
    expect 2 "$2" "cmd $(printf '%.40s' "$1")" -- "$BIN" analyze "$T/c.json"
    expect 2 "$2" "cmd $(printf '%.40s' "$1") (partition)" -- "$BIN" partition "$T/c.json" --cpus 1
}
cmd_case '["/bin/true", ""]' 'tasks\[0\].cmd\[1\]: must not be empty'
cmd_case '"   "' 'tasks\[0\].cmd: holds only spaces'
cmd_case '["", "x"]' 'tasks\[0\].cmd\[0\]: must not be empty'
python3 -c 'import json; print(json.dumps(["/bin/echo", "x" * 131072]))' > "$T/words"
cmd_case "$(cat "$T/words")" 'tasks\[0\].cmd\[1\]: word 2 is 131072 bytes: Linux starts no program with an argument over 131071 bytes'
python3 -c 'import json; print(json.dumps(["/bin/echo"] + ["x"] * 300000))' > "$T/words"
cmd_case "$(cat "$T/words")" 'the command passes 131072 bytes by word 13107'
python3 -c 'import json; print(json.dumps("/bin/echo " + "x " * 300000))' > "$T/words"
cmd_case "$(cat "$T/words")" 'tasks\[0\].cmd: the command passes 131072 bytes'
python3 -c 'import json; print(json.dumps(["/bin/echo", "x" * 100000] + ["y"] * 1000))' > "$T/words"
printf '{"tasks":[{"name":"a","wcet":1,"period":4,"cmd":%s}]}' "$(cat "$T/words")" > "$T/c.json"
expect 0 "" "a command within 128 KiB is accepted" -- "$BIN" analyze "$T/c.json"
printf '{"tasks":[{"name":"a\377","wcet":1,"period":4}]}' > "$T/n.json"
expect 2 "tasks\[0\].name: is not valid UTF-8 (byte 0xff)" "invalid UTF-8 name" -- "$BIN" analyze "$T/n.json"
printf '{"tasks":[{"name":"ok","wcet":1,"period":4}]}\n{"tasks":[{"name":"e\\u001b","wcet":1,"period":4}]}\n' > "$T/b.jsonl"
timeout 60 "$BIN" analyze --batch "$T/b.jsonl" > "$T/out" 2> "$T/err"
grep -q 'contains a control character' "$T/out" && ! grep -q "$(printf '\033')" "$T/out" ||
    fail "a batch line with an escape in a name: $(cat "$T/out")"
"$BIN" partition "$SRC/examples/quickstart.json" --json > "$T/plan.json" || fail "partition quickstart"
sed 's/"name":[[:space:]]*"\([^"]*\)"/"name": "\1\\u0007"/' "$T/plan.json" > "$T/badplan.json"
expect 2 "name: contains a control character (byte 0x07)" "a plan with a bell in a name" -- "$BIN" emit "$T/badplan.json" --format json

# --- output errors ---
expect 3 "cannot write standard output" "emit script > /dev/full" -- sh -c "'$BIN' emit '$SRC/examples/plan_fp.json' --format script > /dev/full"
expect 3 "cannot write standard output" "partition --json > /dev/full" -- sh -c "'$BIN' partition '$SRC/examples/app12.json' --json > /dev/full"
expect 3 "cannot write standard output" "gen > /dev/full" -- sh -c "'$BIN' gen --tasks 1000 --utilization 1 > /dev/full"
# Help, -V and --help checked standard output too
for words in "help partition" "help" "-V" "--version" "--help" "help --man emit" "help --completion"; do
    expect 3 "cannot write standard output" "rtpack $words > /dev/full" -- sh -c "'$BIN' $words > /dev/full"
done
# A reader that goes away is exit 3, not death by SIGPIPE (141)
"$BIN" gen --tasks 3000 --utilization 0.5 --seed 3 > "$T/big.json"
for cmd in "analyze '$T/big.json' --policy fp" "gen --tasks 3000 --utilization 0.5" "partition '$T/big.json' --cpus 2 --method ffd --json"; do
    rc=$(sh -c "'$BIN' $cmd 2> '$T/err'; echo \$? > '$T/rc'" | head -c 1 > /dev/null; cat "$T/rc")
    if [ "$rc" = 3 ] && grep -q "cannot write standard output: Broken pipe" "$T/err"; then
        ok "rtpack $cmd | head -c 1: exit 3"
    else
        fail "rtpack $cmd | head -c 1: exit $rc, want 3: $(cat "$T/err")"
    fi
done
mkdir "$T/ro"
chmod 0555 "$T/ro"
if [ "$(id -u)" -ne 0 ]; then
    expect 3 "cannot write $T/ro/rt.sh" "emit --out into a read-only folder" -- "$BIN" emit "$SRC/examples/plan_fp.json" --format script --out "$T/ro/rt.sh"
    [ -z "$(ls -A "$T/ro")" ] || fail "emit left files in the read-only folder: $(ls -A "$T/ro")"
fi
expect 3 "cannot write $T/none/rt.sh" "emit --out into a missing folder" -- "$BIN" emit "$SRC/examples/plan_fp.json" --format script --out "$T/none/rt.sh"
if [ "$(id -u)" -eq 0 ] && mkdir "$T/full" && mount -t tmpfs -o size=64k tmpfs "$T/full" 2> /dev/null; then
    MNT="$T/full"
    "$BIN" emit "$SRC/examples/plan_fp.json" --format script --out "$T/full/rt.sh" 2> /dev/null ||
        fail "emit onto the small tmpfs"
    cp "$T/full/rt.sh" "$T/old.sh"
    dd if=/dev/zero of="$T/full/filler" bs=1k count=64 2> /dev/null # fill it
    expect 3 "cannot write $T/full/rt.sh: No space left on device" "emit --out over a script on a full disk" -- \
        "$BIN" emit "$SRC/examples/plan_edf.json" --format script --out "$T/full/rt.sh"
    cmp -s "$T/old.sh" "$T/full/rt.sh" || fail "the old script changed on a full disk"
    [ "$(ls -A "$T/full" | sort | tr '\n' ' ')" = "filler rt.sh " ] ||
        fail "files left on the full disk: $(ls -A "$T/full")"
else
    echo "note: not root or no tmpfs: the full-disk case is not run"
fi

[ "$FAILS" -eq 0 ] || { echo "$FAILS failure(s)"; exit 1; }
echo "cli_hardening: all passed"
