#!/bin/sh
# tests/cli_hardening.sh — hostile inputs and broken outputs (issue 13):
# every case asserts the exit status, the one-line message, and that no
# output file was left behind or changed.
# - unbounded input: /dev/zero, /dev/urandom and an endless pipe stop at
#   --max-input-bytes (exit 3) within a wall-clock limit; a file of exactly
#   N bytes is read, N + 1 is refused;
# - task names: control characters, escapes, invalid UTF-8, U+0000 and
#   overlong names are exit 2 at tasks[i].name in task sets, plans and
#   batch lines;
# - output errors: emit, partition --json and gen into /dev/full exit 3;
#   emit --out into a folder that cannot take the file exits 3 and leaves
#   nothing; as root, on a full tmpfs, emit --out over an existing script
#   exits 3 and leaves the old script byte for byte, with no temporary file.
set -u
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
expect 3 "larger than 268435456 bytes (--max-input-bytes)" "analyze /dev/zero" -- "$BIN" analyze /dev/zero
expect 3 "larger than 1000000 bytes" "partition /dev/urandom" -- "$BIN" partition /dev/urandom --cpus 2 --max-input-bytes 1000000
expect 3 "<stdin>: the input is larger than 4096 bytes" "an endless pipe" -- sh -c "yes | '$BIN' analyze - --max-input-bytes 4096"
expect 3 "larger than 65536 bytes" "analyze --batch /dev/zero" -- "$BIN" analyze --batch /dev/zero --max-input-bytes 65536
expect 3 "larger than 100 bytes" "emit /dev/zero" -- "$BIN" emit /dev/zero --format json --max-input-bytes 100
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
