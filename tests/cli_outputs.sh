#!/bin/sh
# tests/cli_outputs.sh — rtpack writes only regular files or new paths
# (docs/spec.md "Output files"; as root, `emit --out
# /dev/full` renamed a regular file over the device node). Every option that
# writes — emit --out (script, json, rtapp; systemd and an EDF plan's rtapp
# folder), simulate --svg, partition --write-lp, report --out, explore --out,
# merge --out, help --write-docs (the man pages) — is pointed at a FIFO, a folder and a
# socket, directly and (for the folder options) as a file inside the folder;
# each is exit 2 with one line naming the path and what it is, and the node
# is unchanged (stat: type, inode, device numbers, size, mtime) with nothing
# written beside it.
# With RTP_OUTPUTS_DEVICES=1, as root (tests/cli_outputs_real.sh): the same
# with a private character device (mknod, the numbers of /dev/null) first,
# then /dev/null and /dev/full themselves, which a regression would replace
# for the whole machine: they are tried only once the private node held.
set -u
BIN=${RTP_BINARY:?RTP_BINARY must name the built rtpack}
SRC=${RTP_SOURCE_DIR:?RTP_SOURCE_DIR must name the source tree}
T=$(mktemp -d /tmp/rtp_outputs.XXXXXX)
trap 'rm -rf "$T"' EXIT
W=$T/scratch # this test's own files, apart from the nodes
mkdir "$W"
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }

node_stat() { stat -c '%F inode=%i dev=%t:%T size=%s mtime=%Y links=%h' "$1" 2>&1; }

# refused WHAT NODE -- COMMAND...: exit 2, one line naming NODE, NODE unchanged,
# no new file in NODE's folder.
refused() {
    what=$1 node=$2
    shift 3
    dir=$(dirname "$node")
    before=$(node_stat "$node")
    ls -A "$dir" > "$W/ls.before"
    timeout 60 "$@" > "$W/out" 2> "$W/err"
    rc=$?
    after=$(node_stat "$node")
    ls -A "$dir" > "$W/ls.after"
    if [ "$rc" -ne 2 ]; then
        fail "$what: exit $rc, want 2: $(head -c 300 "$W/err")"
    elif [ "$(wc -l < "$W/err")" -ne 1 ] || ! grep -qF "$node" "$W/err"; then
        fail "$what: want one line naming $node: $(cat "$W/err")"
    elif [ "$before" != "$after" ]; then
        fail "$what: $node changed: before '$before', after '$after'"
    elif ! cmp -s "$W/ls.before" "$W/ls.after"; then
        fail "$what: $dir changed: $(diff "$W/ls.before" "$W/ls.after" | tr '\n' ' ')"
    elif [ -s "$W/out" ]; then
        fail "$what: printed on standard output before refusing"
    else
        ok "$what (stat before = after: $after)"
    fi
}

PLAN_FP=$SRC/examples/plan_fp.json
PLAN_EDF=$SRC/examples/plan_edf.json
SET=$SRC/examples/quickstart.json
mkdir "$T/shard"
"$BIN" explore "$SRC/examples/sweep.json" --out "$T/shard" > /dev/null 2>&1 ||
    fail "setup: explore into $T/shard"

# file_options NODE: every option that writes one file, pointed at NODE.
file_options() {
    n=$1
    refused "emit script --out $2" "$n" -- "$BIN" emit "$PLAN_FP" --format script --out "$n"
    refused "emit json --out $2" "$n" -- "$BIN" emit "$PLAN_FP" --format json --out "$n"
    refused "emit rtapp (FP) --out $2" "$n" -- "$BIN" emit "$PLAN_FP" --format rtapp --out "$n"
    refused "simulate --svg $2" "$n" -- "$BIN" simulate "$SET" --policy gedf --cpus 2 --svg "$n"
    refused "partition --write-lp $2" "$n" -- "$BIN" partition "$SET" --method ilp --write-lp "$n"
    refused "report --out $2" "$n" -- "$BIN" report "$PLAN_FP" --out "$n"
}

# folder_options NODE WHAT: the folder options pointed at NODE itself.
folder_options() {
    n=$1
    refused "emit systemd --out $2" "$n" -- "$BIN" emit "$PLAN_FP" --format systemd --out "$n"
    refused "emit rtapp (EDF) --out $2" "$n" -- "$BIN" emit "$PLAN_EDF" --format rtapp --out "$n"
    refused "explore --out $2" "$n" -- "$BIN" explore "$SRC/examples/sweep.json" --out "$n"
    refused "merge --out $2" "$n" -- "$BIN" merge "$T/shard" --out "$n"
    refused "help --write-docs $2" "$n" -- "$BIN" help --write-docs "$n"
}

# inside_folders MAKE WHAT: MAKE PATH creates the node at a file each folder
# option writes, in a folder of its own.
inside_folders() {
    make=$1 what=$2
    for case in "systemd rtpack-plan-video.service" "rtapp rtpack-plan-0.rtapp.json" \
        "explore results.csv" "explore partial.txt" "merge results.csv" "docs man1/rtpack.1"; do
        kind=${case%% *} file=${case#* }
        d=$T/in-$kind-$(printf '%s' "$file" | tr -c 'a-z0-9' _)
        rm -rf "$d"
        mkdir -p "$(dirname "$d/$file")"
        $make "$d/$file"
        case $kind in
        systemd) set -- "$BIN" emit "$PLAN_FP" --format systemd --out "$d" ;;
        rtapp) set -- "$BIN" emit "$PLAN_EDF" --format rtapp --out "$d" ;;
        explore) set -- "$BIN" explore "$SRC/examples/sweep.json" --out "$d" ;;
        merge) set -- "$BIN" merge "$T/shard" --out "$d" --force ;;
        docs) set -- "$BIN" help --write-docs "$d" ;;
        esac
        refused "$kind into a folder whose $file is $what" "$d/$file" -- "$@"
    done
}

make_fifo() { mkfifo "$1"; }
make_dir() { mkdir "$1"; }
make_socket() { python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$1"; }
make_chr() { mknod "$1" c 1 3; } # the numbers of /dev/null

for kind in fifo dir socket; do
    [ "$kind" = socket ] && ! command -v python3 > /dev/null && continue
    n=$T/node-$kind
    "make_$kind" "$n"
    file_options "$n" "a $kind"
    [ "$kind" = dir ] || folder_options "$n" "a $kind"
    inside_folders "make_$kind" "a $kind"
done

if [ "${RTP_OUTPUTS_DEVICES:-0}" = 1 ]; then
    [ "$(id -u)" -eq 0 ] || { echo "SKIP device nodes: needs root (mknod; /dev/null)"; exit 77; }
    n=$T/node-chr
    make_chr "$n"
    file_options "$n" "a private character device"
    folder_options "$n" "a private character device"
    inside_folders make_chr "a character device"
    # The machine's own nodes only once the private one held.
    if [ "$FAILS" -eq 0 ]; then
        for dev in /dev/null /dev/full; do
            file_options "$dev" "$dev"
            folder_options "$dev" "$dev"
            [ -c "$dev" ] || fail "$dev is no longer a character device"
        done
        ls -A /dev | grep -q '^\.\(null\|full\)\.' && fail "a temporary file was left in /dev"
    fi
fi

# A regular file and a new path are still written (the rule refuses nothing else).
printf 'old\n' > "$T/regular.sh"
"$BIN" emit "$PLAN_FP" --format script --out "$T/regular.sh" 2> "$W/err" &&
    head -n 1 "$T/regular.sh" | grep -q '^#!/bin/sh' && ok "a regular file is replaced" ||
    fail "a regular file: $(cat "$W/err")"
"$BIN" emit "$PLAN_FP" --format systemd --out "$T/newunits" 2> "$W/err" &&
    [ -f "$T/newunits/rtpack-plan.target" ] && ok "a new folder is created" ||
    fail "a new folder: $(cat "$W/err")"

echo "$FAILS failure(s)"
[ "$FAILS" -eq 0 ]
