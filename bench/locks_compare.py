#!/usr/bin/env python3
"""bench/locks_compare.py - rtpack's shared-resource bounds against SchedCAT's.

Optional, never in CI (HACKING.md "Against SchedCAT"): SchedCAT and the driver
that prints its blocking terms live outside this tree. Usage:

    locks_compare.py RTPACK_OUT DRIVER_OUT

RTPACK_OUT is build/bench_locks's output and DRIVER_OUT the driver's on the
same sets (the line format of bench/bench_locks.c). Compared fact by fact:
MSRP spin and FP arrival blocking per task, FP response times (where SchedCAT
gives a number within the deadline: its RTA with jitter compares w, not w + J,
with D), b(t) at every deadline, and the EDF verdict per CPU; FMLP+ (every
resource run by it, solver/fmlp.h): the verdict per set (unless SchedCAT
accepts a response above its deadline) and, where SchedCAT accepts the set
(its numbers are then the converged fixed point), every task's remote, local
and total blocking and response time. Prints the counts and every mismatch;
exit 1 when any.
"""
import sys


def fmlp_facts(out, label, lines, verdict):
    """The FMLP+ facts of one set: verdict None = rtpack's output (all
    lines count), else SchedCAT's verdict (numbers only when it accepts)."""
    if lines is None:
        return
    quirk = any("resp_gt_deadline" in kv for kv in lines.values())
    mine = verdict is None
    if mine:
        verdict = bool(lines) and all(kv["resp"] not in ("miss", "n/a") for kv in lines.values())
    if quirk:
        return
    out[(label, "fmlp-verdict", "set")] = str(int(verdict))
    if verdict or mine:
        for name, kv in lines.items():
            for key in ("remote", "local", "total", "resp"):
                out[(label, "fmlp-" + key, name)] = kv[key]


def facts(path):
    out, label, fm, verdict = {}, None, None, None
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "end":
            fmlp_facts(out, label, fm, verdict)
            fm = verdict = None
        elif f[0] == "fmlpp" and f[1] == "n/a":
            fm = None
        elif f[0] == "fmlpp":
            fm = {} if fm is None else fm
            fm[f[1]] = dict(x.split("=", 1) for x in f[2:])
        elif f[0] == "verdict":
            verdict = dict(x.split("=", 1) for x in f[1:])["fmlpp"] == "1"
        if f[0] == "set":
            label = f[1]
        elif f[0] == "msrp-fp":
            kv = dict(x.split("=", 1) for x in f[2:])
            out[(label, "spin", f[1])] = kv["spin"]
            out[(label, "local", f[1])] = kv["local"]
            if "resp_gt_deadline" not in kv and kv["resp"] != "n/a":
                out[(label, "resp", f[1])] = kv["resp"]
        elif f[0] == "msrp-edf-cpu":
            kv = dict(x.split("=", 1) for x in f[2:])
            out[(label, "edf", f[1])] = kv["qpa"]
        elif f[0] == "bt":
            kv = dict(x.split("=", 1) for x in f[1:])
            out[(label, "bt", kv["cpu"] + "@" + kv["t"])] = kv["b"]
    return out


def main():
    ours, theirs = facts(sys.argv[1]), facts(sys.argv[2])
    counts, bad = {}, []
    for key, value in theirs.items():
        if key not in ours:
            continue
        counts[key[1]] = counts.get(key[1], 0) + 1
        if ours[key] != value:
            bad.append((key, ours[key], value))
    sets = len({k[0] for k in theirs})
    kinds = {}
    for key, _, _ in bad:
        kinds[key[1]] = kinds.get(key[1], 0) + 1
    print("sets %d; compared: %s; mismatches %d (%s)" %
          (sets, ", ".join("%s %d" % kv for kv in sorted(counts.items())), len(bad),
           ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    for key, a, b in bad[:50]:
        print("  %s %s %s: rtpack %s, SchedCAT %s" % (key[0], key[1], key[2], a, b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
