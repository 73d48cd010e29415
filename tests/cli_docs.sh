#!/bin/sh
# tests/cli_docs.sh — the contract and the citations stay in the tree:
#  1. no file refers outside the repository (the project's external contract,
#     style and machine notes live in docs/spec.md, HACKING.md and
#     docs/platform-notes.md; a clone must be complete without them);
#  2. every reference key cited in a comment (a bracketed word starting with
#     a capital letter, as in "QPA" followed by the key of Zhang & Burns) is
#     defined in docs/references.md, and every docs/spec.md section a comment
#     names (docs/spec.md followed by the quoted title) is a heading there;
#  3. links between the Markdown documents lead to a file and a heading;
#  4. every option `rtpack CMD --help` lists is documented in docs/spec.md;
#  5. the file pointers of docs/references.md, HACKING.md and README.md
#     (folder/file names) name files of the tree, and each row of HACKING's
#     module map names headers of that module, test programs and shell
#     tests, fuzzers and benchmarks that exist;
#  6. no source, build or test file cites an outside tracker's item (the
#     word for one followed by its number): a comment says what and why.
#  7. docs/tutorial.md's commands run and print the lines it shows.
# Env: RTP_SOURCE_DIR (the source tree), RTP_BINARY (built rtpack).
. "${RTP_SOURCE_DIR:-.}/tests/support/cli.sh"
cli_begin cli_docs

# The files of the tree: tracked and new ones when this is a git work tree,
# else everything outside build folders.
cd "$S" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files --cached --others --exclude-standard
else
    find . -name .git -prune -o -name 'build*' -prune -o -name 'out*' -prune \
        -o -type f -print | sed 's|^\./||'
fi | while IFS= read -r f; do
    [ -f "$f" ] && grep -Iq . "$f" && printf '%s\n' "$f"
done >"$TMP/files"
[ -s "$TMP/files" ] || fail "found no files under $S"

# 1. Names of the external documents, spelled so this file does not match
#    itself.
ext="SPEC""\\.md\\|STYLE""\\.md\\|NOTES""\\.md\\|\\.\\./shar""ed\\|/work""/shared"
while IFS= read -r f; do
    grep -Hn "$ext" "$f"
done <"$TMP/files" >"$TMP/outside"
if [ -s "$TMP/outside" ]; then
    fail "these lines refer to documents outside the repository (cite docs/spec.md, HACKING.md or docs/platform-notes.md instead):"
    cat "$TMP/outside" >&2
fi

# 2. Comment text: /* ... */ and // in C, # lines in shell, CMake and Python
#    (plus Python docstrings, which are whole-file text here).
c_comments() {
    awk '
    FNR == 1 { incomment = 0 }
    {
        line = $0; out = ""; i = 1; n = length(line); instr = ""
        while (i <= n) {
            c = substr(line, i, 1); two = substr(line, i, 2)
            if (incomment) {
                if (two == "*/") { incomment = 0; i += 2; continue }
                out = out c; i++; continue
            }
            if (instr != "") {
                if (c == "\\") { i += 2; continue }
                if (c == instr) instr = ""
                i++; continue
            }
            if (two == "/*") { incomment = 1; i += 2; continue }
            if (two == "//") { out = out substr(line, i + 2); break }
            if (c == "\"" || c == "'\''") instr = c
            i++
        }
        if (out != "") print FILENAME ":" FNR ":" out
    }' "$@"
}
hash_comments() {
    awk '{ p = index($0, "#"); if (p) print FILENAME ":" FNR ":" substr($0, p + 1) }' "$@"
}
grep -E '\.(c|h)$' "$TMP/files" >"$TMP/cfiles"
grep -E '\.(sh|cmake|txt|in)$|(^|/)(CMakeLists\.txt|run|setup)$' "$TMP/files" >"$TMP/hfiles"
grep -E '\.py$' "$TMP/files" >"$TMP/pyfiles"
{
    while IFS= read -r f; do c_comments "$f"; done <"$TMP/cfiles"
    while IFS= read -r f; do hash_comments "$f"; done <"$TMP/hfiles"
    while IFS= read -r f; do awk '{ print FILENAME ":" FNR ":" $0 }' "$f"; done <"$TMP/pyfiles"
} >"$TMP/comments"

# Keys defined: the bold bracketed word opening a list item of
# docs/references.md.
sed -n 's/^- \*\*\[\([^]]*\)\]\*\*.*/\1/p' docs/references.md | sort -u >"$TMP/defined"
[ -s "$TMP/defined" ] || fail "docs/references.md defines no keys"
# Keys cited: a bracketed word with a capital first letter, in comments.
grep -oE '^[^:]+:[0-9]+:|\[[A-Z][A-Za-z0-9+-]*\]' "$TMP/comments" |
    awk '/^\[/ { print where " " substr($0, 2, length($0) - 2); next } { where = $0 }' |
    sort -k2 >"$TMP/cited"
while read -r where key; do
    grep -qxF "$key" "$TMP/defined" || fail "$where cites [$key], which docs/references.md does not define"
done <"$TMP/cited"
[ -s "$TMP/cited" ] || fail "no reference key is cited anywhere (is the comment scan broken?)"

# Sections of docs/spec.md cited by their quoted title, on one line.
sed -n 's/^#\{1,6\} \(.*\)$/\1/p' docs/spec.md | sed 's/ (in progress)$//' >"$TMP/headings"
grep -oE '^[^:]+:[0-9]+:|docs/spec\.md "[^"]+"' "$TMP/comments" |
    awk '/^docs\/spec\.md "/ { sub(/^docs\/spec\.md "/, ""); sub(/"$/, ""); print where "\t" $0; next } { where = $0 }' \
    >"$TMP/sections"
while IFS="$(printf '\t')" read -r where title; do
    grep -qxF "$title" "$TMP/headings" || fail "$where cites docs/spec.md \"$title\", which is not a heading there"
done <"$TMP/sections"
[ -s "$TMP/sections" ] || fail "no comment cites a docs/spec.md section (is the comment scan broken?)"

# Links between the Markdown documents: the file exists and, with #anchor,
# a heading of it has that anchor (GitHub's rule: lower case, punctuation
# dropped, spaces to hyphens).
slugs() {
    sed -n 's/^#\{1,6\} \(.*\)$/\1/p' "$1" |
        awk '{ s = tolower($0); gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s); print s }'
}
grep -E '\.md$' "$TMP/files" >"$TMP/mdfiles"
while IFS= read -r md; do
    dir=$(dirname "$md")
    grep -oE '\]\([^)# ]*(#[^) ]*)?\)' "$md" | sed 's/^](//; s/)$//' |
        grep -vE '^[a-z]+:' | sort -u >"$TMP/links"
    while IFS= read -r link; do
        target=${link%%#*}
        anchor=
        case $link in *'#'*) anchor=${link#*#} ;; esac
        if [ -z "$target" ]; then target=$md; else target=$dir/$target; fi
        if [ ! -f "$target" ]; then
            fail "$md links to $link: no such file"
        elif [ -n "$anchor" ] && ! slugs "$target" | grep -qxF "$anchor"; then
            fail "$md links to $link: no such heading"
        fi
    done <"$TMP/links"
done <"$TMP/mdfiles"

# 4. Every option of every command's --help appears in docs/spec.md.
"$B" --help >"$TMP/help" || fail "rtpack --help failed"
sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' "$TMP/help" >"$TMP/commands"
[ -s "$TMP/commands" ] || fail "rtpack --help lists no commands"
while IFS= read -r cmd; do
    grep -q "^## rtpack $cmd\b\|^## .*rtpack $cmd\b" docs/spec.md || fail "docs/spec.md has no section for rtpack $cmd"
    "$B" "$cmd" --help >"$TMP/cmdhelp" || fail "rtpack $cmd --help failed"
    grep -oE '^  --[a-z][a-z-]*' "$TMP/cmdhelp" | sed 's/^  //' >"$TMP/options"
    while IFS= read -r opt; do
        grep -qF -- "\`$opt" docs/spec.md || fail "rtpack $cmd $opt is not documented in docs/spec.md"
    done <"$TMP/options"
done <"$TMP/commands"

# 5. File pointers. A path of a module or tree folder, with an extension.
folders='models|solver|sim|heuristics|ilp|deploy|probe|rehearse|report|gen|explore|cli|tests|docs|bench|fuzz|cmake|examples'
for doc in docs/references.md HACKING.md README.md; do
    grep -oE "(^|[^A-Za-z0-9_./-])($folders)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.(c|h|sh|py|md|cpp|css|cmake|json|jsonl|in)" "$doc" |
        sed -E 's/^[^A-Za-z]//' | sort -u | while IFS= read -r path; do
        [ -e "$path" ] || printf '%s\n' "$doc names $path, which is not in the tree"
    done
done >"$TMP/pointers"
# HACKING's module map: | module | public | internal | tests | bench |
sed -n '/^## Module map/,/^## /p' HACKING.md | grep '^| [a-z]* |' | grep -v '^| module |' |
while IFS= read -r row; do
    module=$(printf '%s\n' "$row" | sed -E 's/^\| ([a-z]+) \|.*/\1/')
    [ -d "$module" ] || { printf 'HACKING.md module map: no folder %s\n' "$module"; continue; }
    printf '%s\n' "$row" | grep -oE '`[A-Za-z0-9_/]+\.[ch]`' | tr -d '`' | while IFS= read -r f; do
        case $f in */*) p=$module/$f ;; *) p=$module/$f ;; esac
        [ -e "$p" ] || [ -e "$f" ] || printf 'HACKING.md module map, %s: no file %s\n' "$module" "$p"
    done
    printf '%s\n' "$row" | grep -oE '`(test|cli|fuzz|bench)_[a-z0-9_]+`' | tr -d '`' | while IFS= read -r t; do
        case $t in
        test_*) [ -e "tests/$t.c" ] ;;
        cli_*) [ -e "tests/$t.sh" ] ;;
        fuzz_*) [ -e "fuzz/$t.c" ] ;;
        bench_*) [ -e "bench/$t.c" ] ;;
        esac || printf 'HACKING.md module map, %s: no test or program %s\n' "$module" "$t"
    done
done >>"$TMP/pointers"
if [ -s "$TMP/pointers" ]; then
    while IFS= read -r line; do fail "$line"; done <"$TMP/pointers"
fi

# 6. No citation of an outside tracker in code (spelled so this file does
#    not match itself).
word="[Ii]ss""ue"
grep -E '\.(c|h|sh|py|cpp|cmake|css)$|CMakeLists\.txt$' "$TMP/files" | while IFS= read -r f; do
    grep -HnE "${word}s? *#?[0-9]|${word}-[0-9]" "$f"
done >"$TMP/tracker"
if [ -s "$TMP/tracker" ]; then
    while IFS= read -r line; do fail "cites an outside tracker: $line"; done <"$TMP/tracker"
fi

# 7. docs/tutorial.md's commands run and print what it shows: every
#    `$ rtpack ...` and `$ sed ...` line of its sh blocks (continued lines
#    joined, `sudo` ones left out: they deploy) runs in order in a scratch
#    folder beside the examples and exits 0 or 1 (1: a miss the text is
#    about), and every output line shown under it (blanks squeezed; `...`
#    lines stand for lines left out) is part of a line it prints.
tutorial_check() {
    mkdir "$TMP/tutorial" && ln -s "$S/examples" "$TMP/tutorial/examples" || return 1
    awk '
    /^```sh$/ { inblk = 1; have = 0; next }
    /^```/ { inblk = 0; have = 0; next }
    !inblk { next }
    cont { line = $0; sub(/^ +/, "", line); cmd = cmd " " line
           if (cmd ~ /\\$/) sub(/\\$/, "", cmd); else { cont = 0; n++; have = 1; print "CMD\t" n "\t" cmd }
           next }
    /^\$ / { cmd = substr($0, 3)
             if (cmd ~ /\\$/) { sub(/\\$/, "", cmd); cont = 1 } else { n++; have = 1; print "CMD\t" n "\t" cmd }
             next }
    have { print "OUT\t" n "\t" $0 }
    ' "$S/docs/tutorial.md" >"$TMP/tutorial/steps"
    grep -q '^CMD' "$TMP/tutorial/steps" || echo "docs/tutorial.md: no commands found"
    while IFS='	' read -r kind n text; do
        case $kind in
        CMD)
            case $text in
            rtpack\ *) run="\"\$B\" ${text#rtpack }" ;;
            sed\ *) run=$text ;;
            *) continue ;;
            esac
            (cd "$TMP/tutorial" && B=$B sh -c "$run" >"out$n" 2>"err$n")
            rc=$?
            [ "$rc" -le 1 ] ||
                printf 'docs/tutorial.md: `%s` exited %d: %s\n' "$text" "$rc" "$(head -c 300 "$TMP/tutorial/err$n")"
            tr -s ' ' <"$TMP/tutorial/out$n" >"$TMP/tutorial/flat$n"
            ;;
        OUT)
            want=$(printf '%s\n' "$text" | tr -s ' ' | sed 's/^ //')
            case $want in '' | ...) continue ;; esac
            grep -F -q -- "$want" "$TMP/tutorial/flat$n" ||
                printf 'docs/tutorial.md: command %s prints no line like `%s`\n' "$n" "$text"
            ;;
        esac
    done <"$TMP/tutorial/steps"
}
tutorial_check >"$TMP/tutorial.out" 2>&1
if [ -s "$TMP/tutorial.out" ]; then
    while IFS= read -r line; do fail "$line"; done <"$TMP/tutorial.out"
fi

cli_end
