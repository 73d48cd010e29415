#!/usr/bin/env python3
"""tests/support/layers.py SOURCE_DIR BUILD_DIR -- the layering rule, checked.

The layers are what each module's CMakeLists.txt says: rtp_add_module(NAME
... PUBLIC rtpack_X ...) names the modules below NAME (HACKING.md
"Architecture"). A module may use itself and what lies below it, transitively;
cli/ may use every module. Two checks, each failing with one line per
violation:

- include: every `#include "X/..."` in a module folder (subfolders too) names
  X = the module itself or a module below it;
- link: every rtp_/ilp_/cli_ symbol a module's static library leaves
  undefined is defined by that library or by one below it (nm), so a call
  upward fails here even where the linker would find it in librtpack.a.

Plus the third-party doors: <glpk.h> only in ilp/glpk_model.c, <cjson/...>
only through models/ (its json_util.h) and never in solver/, heuristics/ or
ilp/ (solvers take plain structs, HACKING.md "Layers").
"""
import os
import re
import subprocess
import sys

SRC, BUILD = sys.argv[1], sys.argv[2]
# The module folders, as the top-level CMakeLists.txt lists them (so a new
# module is checked from the day it is added), and cli/ on top.
_top = open(os.path.join(SRC, "CMakeLists.txt")).read()
_list = re.search(r"foreach\(module ([a-z ]+)\)\s*\n\s*add_subdirectory", _top)
if not _list:
    sys.exit("layers: the module list of CMakeLists.txt (foreach(module ...)) not found")
FOLDERS = _list.group(1).split() + ["cli"]
NO_CJSON = {"solver", "heuristics", "ilp", "sim", "gen"}
failures = []


def below():
    """module -> the modules it may use (itself included), from CMake."""
    direct = {}
    for m in FOLDERS:
        if m == "cli":
            continue
        text = open(os.path.join(SRC, m, "CMakeLists.txt")).read()
        call = re.search(r"rtp_add_module\((.*?)\)", text, re.S)
        if not call:
            failures.append(f"{m}/CMakeLists.txt: no rtp_add_module call")
            direct[m] = set()
            continue
        words = call.group(1).split()
        deps, public = set(), False
        for w in words[1:]:
            if w in ("HEADERS", "PRIVATE"):
                public = False
            elif w == "PUBLIC":
                public = True
            elif public and w.startswith("rtpack_"):
                deps.add(w[len("rtpack_"):])
        direct[m] = deps
    closure = {}
    for m in direct:
        seen, todo = {m}, [m]
        while todo:
            for d in direct.get(todo.pop(), ()):
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        closure[m] = seen
    closure["cli"] = set(FOLDERS)
    return closure


def check_includes(allowed):
    inc = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
    for m in FOLDERS:
        for root, _, files in os.walk(os.path.join(SRC, m)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, f)
                rel = os.path.relpath(path, SRC)
                for n, line in enumerate(open(path, errors="replace"), 1):
                    hit = inc.match(line)
                    if not hit:
                        continue
                    name = hit.group(1)
                    top = name.split("/")[0]
                    if "/" in name and top in FOLDERS and top not in allowed[m]:
                        failures.append(f"{rel}:{n}: includes {name}: {top} is not below {m}")
                    if name == "glpk.h" and rel != "ilp/glpk_model.c":
                        failures.append(f"{rel}:{n}: includes <glpk.h> (ilp/glpk_model.c only)")
                    if name.startswith("cjson/") and m != "models":
                        failures.append(f"{rel}:{n}: includes <{name}> (models/ only)")
                    if name == "models/json_util.h" and m in NO_CJSON:
                        failures.append(f"{rel}:{n}: includes {name}: {m} never sees cJSON")


def symbols(lib):
    out = subprocess.run(["nm", "-g", lib], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVW":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
    return defined, undefined


def check_links(allowed):
    libs = {}
    for m in FOLDERS:
        if m == "cli":
            continue
        lib = os.path.join(BUILD, m, f"librtpack_{m}.a")
        if not os.path.exists(lib):
            failures.append(f"{lib}: not built")
            continue
        libs[m] = symbols(lib)
    owner = {}
    for m, (defined, _) in libs.items():
        for s in defined:
            owner.setdefault(s, m)
    ours = re.compile(r"^(rtp_|ilp_|cli_)")
    for m, (defined, undefined) in sorted(libs.items()):
        for s in sorted(undefined - defined):
            if not ours.match(s):
                continue
            o = owner.get(s)
            if o is None:
                failures.append(f"librtpack_{m}.a: {s} is defined by no module")
            elif o not in allowed[m]:
                failures.append(f"librtpack_{m}.a: uses {s} of {o}, which is not below {m}")


allowed = below()
check_includes(allowed)
check_links(allowed)
for f in failures:
    print("layers:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
