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
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_outputs
W=$TMP/scratch # this test's own files, apart from the nodes
mkdir "$W"

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

PLAN_FP=$S/examples/plan_fp.json
PLAN_EDF=$S/examples/plan_edf.json
SET=$S/examples/quickstart.json
mkdir "$TMP/shard"
"$B" explore "$S/examples/sweep.json" --out "$TMP/shard" > /dev/null 2>&1 ||
    fail "setup: explore into $TMP/shard"

# file_options NODE: every option that writes one file, pointed at NODE.
file_options() {
    n=$1
    refused "emit script --out $2" "$n" -- "$B" emit "$PLAN_FP" --format script --out "$n"
    refused "emit json --out $2" "$n" -- "$B" emit "$PLAN_FP" --format json --out "$n"
    refused "emit rtapp (FP) --out $2" "$n" -- "$B" emit "$PLAN_FP" --format rtapp --out "$n"
    refused "simulate --svg $2" "$n" -- "$B" simulate "$SET" --policy gedf --cpus 2 --svg "$n"
    refused "partition --write-lp $2" "$n" -- "$B" partition "$SET" --method ilp --write-lp "$n"
    refused "report --out $2" "$n" -- "$B" report "$PLAN_FP" --out "$n"
}

# folder_options NODE WHAT: the folder options pointed at NODE itself.
folder_options() {
    n=$1
    refused "emit systemd --out $2" "$n" -- "$B" emit "$PLAN_FP" --format systemd --out "$n"
    refused "emit rtapp (EDF) --out $2" "$n" -- "$B" emit "$PLAN_EDF" --format rtapp --out "$n"
    refused "explore --out $2" "$n" -- "$B" explore "$S/examples/sweep.json" --out "$n"
    refused "merge --out $2" "$n" -- "$B" merge "$TMP/shard" --out "$n"
    refused "help --write-docs $2" "$n" -- "$B" help --write-docs "$n"
}

# inside_folders MAKE WHAT: MAKE PATH creates the node at a file each folder
# option writes, in a folder of its own.
inside_folders() {
    make=$1 what=$2
    for case in "systemd rtpack-plan-video.service" "rtapp rtpack-plan-0.rtapp.json" \
        "explore results.csv" "explore partial.txt" "merge results.csv" "docs man1/rtpack.1"; do
        kind=${case%% *} file=${case#* }
        d=$TMP/in-$kind-$(printf '%s' "$file" | tr -c 'a-z0-9' _)
        rm -rf "$d"
        mkdir -p "$(dirname "$d/$file")"
        $make "$d/$file"
        case $kind in
        systemd) set -- "$B" emit "$PLAN_FP" --format systemd --out "$d" ;;
        rtapp) set -- "$B" emit "$PLAN_EDF" --format rtapp --out "$d" ;;
        explore) set -- "$B" explore "$S/examples/sweep.json" --out "$d" ;;
        merge) set -- "$B" merge "$TMP/shard" --out "$d" --force ;;
        docs) set -- "$B" help --write-docs "$d" ;;
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
    n=$TMP/node-$kind
    "make_$kind" "$n"
    file_options "$n" "a $kind"
    [ "$kind" = dir ] || folder_options "$n" "a $kind"
    inside_folders "make_$kind" "a $kind"
done

if [ "${RTP_OUTPUTS_DEVICES:-0}" = 1 ]; then
    [ "$(id -u)" -eq 0 ] || { echo "SKIP device nodes: needs root (mknod; /dev/null)"; exit 77; }
    n=$TMP/node-chr
    make_chr "$n"
    file_options "$n" "a private character device"
    folder_options "$n" "a private character device"
    inside_folders make_chr "a character device"
    # A folder on the way swapped for a link to one holding a device node,
    # between the check and the rename (review rev13c: the old code replaced
    # the node 294 times in 4,705 runs in 25 s): the write goes through the
    # folder it opened, so the node stays, every time.
    R=$TMP/race
    mkdir -p "$R/real" "$R/devdir" && make_chr "$R/devdir/node" && ln -s real "$R/d"
    python3 - "$R" <<'PY' &
import os, sys, time
os.chdir(sys.argv[1])
end = time.time() + 3
while time.time() < end:
    for to in ("devdir", "real"):
        os.symlink(to, "d.new")
        os.replace("d.new", "d")
PY
    racer=$!
    runs=0
    replaced=0
    while kill -0 "$racer" 2> /dev/null; do
        runs=$((runs + 1))
        "$B" emit "$PLAN_FP" --format script --out "$R/d/node" > /dev/null 2>&1
        if [ ! -c "$R/devdir/node" ]; then
            replaced=$((replaced + 1))
            rm -f "$R/devdir/node"
            make_chr "$R/devdir/node"
        fi
        rm -f "$R/real/node"
    done
    [ "$replaced" -eq 0 ] && [ "$runs" -gt 50 ] &&
        ok "a folder swapped for a link mid-write: the device node stayed ($runs runs)" ||
        fail "a folder swapped for a link mid-write: the device node was replaced $replaced times in $runs runs"
    # The machine's own nodes only once the private one held.
    if [ "$fails" -eq 0 ]; then
        for dev in /dev/null /dev/full; do
            file_options "$dev" "$dev"
            folder_options "$dev" "$dev"
            [ -c "$dev" ] || fail "$dev is no longer a character device"
        done
        ls -A /dev | grep -q '^\.\(null\|full\)\.' && fail "a temporary file was left in /dev"
    fi
fi

# A regular file and a new path are still written (the rule refuses nothing else).
printf 'old\n' > "$TMP/regular.sh"
"$B" emit "$PLAN_FP" --format script --out "$TMP/regular.sh" 2> "$W/err" &&
    head -n 1 "$TMP/regular.sh" | grep -q '^#!/bin/sh' && ok "a regular file is replaced" ||
    fail "a regular file: $(cat "$W/err")"
"$B" emit "$PLAN_FP" --format systemd --out "$TMP/newunits" 2> "$W/err" &&
    [ -f "$TMP/newunits/rtpack-plan.target" ] && ok "a new folder is created" ||
    fail "a new folder: $(cat "$W/err")"

cli_end
