#!/bin/sh
# tests/cli_manual.sh — the man pages and the bash completion, generated from
# the option tables, after `cmake --install` to a temporary prefix:
# `man rtpack-CMD` works with MANPATH set to the prefix for every command
# `rtpack --help` lists, each page documents exactly the options of
# `rtpack CMD --help`, and the installed completion offers commands, options
# and the allowed values of an option.
# Env: RTP_BINARY (built rtpack; its folder is the build tree).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_manual
BUILD=$(dirname "$B")
command -v man >/dev/null || { echo "FAIL: man is not installed (.ci/setup installs man-db)"; exit 1; }

P=$TMP/prefix
cmake --install "$BUILD" --prefix "$P" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
COMPLETION=$P/share/bash-completion/completions/rtpack
[ -f "$COMPLETION" ] || fail "no completion at share/bash-completion/completions/rtpack"
MANPATH=$P/share/man
export MANPATH
MANWIDTH=200
export MANWIDTH

"$B" --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' >"$TMP/commands"
[ "$(wc -l <"$TMP/commands")" -ge 6 ] || fail "rtpack --help lists too few commands"

where=$(man -w rtpack 2>/dev/null)
[ "$where" = "$P/share/man/man1/rtpack.1" ] || fail "man -w rtpack: '$where'"
man rtpack 2>/dev/null >"$TMP/page" || fail "man rtpack failed"
while IFS= read -r cmd; do
    grep -q "rtpack-$cmd(1)" "$TMP/page" || fail "rtpack(1) does not list rtpack-$cmd(1)"
done <"$TMP/commands"

while IFS= read -r cmd; do
    page=$P/share/man/man1/rtpack-$cmd.1
    [ -f "$page" ] || { fail "no man page for $cmd"; continue; }
    where=$(man -w "rtpack-$cmd" 2>/dev/null)
    [ "$where" = "$page" ] || fail "man -w rtpack-$cmd: '$where'"
    man "rtpack-$cmd" 2>/dev/null >"$TMP/page" || fail "man rtpack-$cmd failed"
    if ! grep -q "^NAME" "$TMP/page" || ! grep -q "rtpack-$cmd - " "$TMP/page"; then
        fail "man rtpack-$cmd: no NAME section"
    fi
    # The same options, from the same table: --help's and the page's OPTIONS.
    "$B" "$cmd" --help | grep -oE '^  --[a-z][a-z-]*' | sed 's/^ *//' | sort >"$TMP/help_opts"
    sed -n '/^OPTIONS/,/^EXIT STATUS/p' "$TMP/page" | grep -oE '^ +--[a-z][a-z-]*' |
        sed 's/^ *//' | sort >"$TMP/man_opts"
    cmp -s "$TMP/help_opts" "$TMP/man_opts" ||
        fail "rtpack-$cmd(1) options differ from --help: $(diff "$TMP/help_opts" "$TMP/man_opts" | tr '\n' ' ')"
    "$B" help --man "$cmd" | cmp -s - "$page" || fail "installed rtpack-$cmd.1 is not what the binary writes"
    # Completion offers every option of the command.
    bash -c '. "$1"; COMP_WORDS=(rtpack "$2" --); COMP_CWORD=2; _rtpack; printf "%s\n" "${COMPREPLY[@]}"' \
        sh "$COMPLETION" "$cmd" | grep -v '^--help$' | sort >"$TMP/completed"
    cmp -s "$TMP/help_opts" "$TMP/completed" ||
        fail "completion of 'rtpack $cmd --' differs from --help: $(diff "$TMP/help_opts" "$TMP/completed" | tr '\n' ' ')"
done <"$TMP/commands"

# complete WANT WORDS...: the completion of the last word is WANT.
complete_is() {
    want=$1
    shift
    got=$(bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rtpack; echo "${COMPREPLY[*]}"' \
        sh "$COMPLETION" "$@")
    [ "$got" = "$want" ] || fail "completion of '$*': got '$got', want '$want'"
}
complete_is "partition" rtpack part
complete_is "--policy" rtpack partition --pol
complete_is "edf fp" rtpack partition --policy ""
complete_is "fp edf gedf gfp" rtpack analyze x --policy ""
complete_is "rtapp" rtpack emit plan.json --format r
complete_is "constrained" rtpack gen --deadlines c
complete_is "probe" rtpack help pr
mkdir -p "$TMP/work/sub" && : >"$TMP/work/set.json"
complete_is "$TMP/work/set.json" rtpack analyze "$TMP/work/se"
complete_is "$TMP/work/sub" rtpack merge "$TMP/work/s"

cli_end
