#!/usr/bin/env python3
"""tests/support/plan_check.py — independent re-check of a `rtpack partition
--json` plan against the task set it came from (docs/spec.md "Plan document").

usage: plan_check.py TASKSET PLAN EXIT_CODE [--capacity F] [--given]
Prints one line per violation and exits 1 if any. Exact arithmetic only
(Python integers and Fractions): FP response-time analysis with busy periods
([Leh90], arbitrary deadlines; equal priorities interfere, counted as
higher priority), EDF processor demand dbf(t) <= t up to the synchronous busy
period [BRH90], GFB for clusters [GFB] only when the plan names it."""
import json
import sys
from fractions import Fraction

UNIT = {"ns": 1, "us": 1000, "ms": 10**6, "s": 10**9}
errors = []


def err(msg):
    errors.append(msg)


def to_ns(v, unit):
    if isinstance(v, int):
        return v * UNIT[unit]
    s = v
    for u in ("ns", "us", "ms", "s"):
        if s.endswith(u) and s[:-len(u)].replace(".", "", 1).isdigit():
            return int(Fraction(s[:-len(u)]) * UNIT[u])
    raise ValueError(v)


def ceil_div(a, b):
    return -(-a // b)


def fp_wcrt(task, hp):
    """Exact WCRT of task under preemptive FP with higher-priority set hp,
    or None when some job misses its deadline (busy-period analysis)."""
    c, d, t = task
    if sum(Fraction(x[0], x[2]) for x in hp) + Fraction(c, t) > 1:
        return None
    # length of the level-i busy period
    busy = c + sum(x[0] for x in hp)
    while True:
        nxt = ceil_div(busy, t) * c + sum(ceil_div(busy, x[2]) * x[0] for x in hp)
        if nxt == busy:
            break
        busy = nxt
    worst = 0
    for q in range(ceil_div(busy, t)):
        w = (q + 1) * c + sum(x[0] for x in hp)
        while True:
            nxt = (q + 1) * c + sum(ceil_div(w, x[2]) * x[0] for x in hp)
            if nxt == w:
                break
            w = nxt
            if w - q * t > d:
                return None
        r = w - q * t
        if r > d:
            return None
        worst = max(worst, r)
    return worst


def edf_ok(tasks):
    if not tasks:
        return True
    if sum(Fraction(c, t) for c, d, t in tasks) > 1:
        return False
    busy = sum(c for c, d, t in tasks)
    while True:
        nxt = sum(ceil_div(busy, t) * c for c, d, t in tasks)
        if nxt == busy:
            break
        busy = nxt
    points = sorted({d + k * t for c, d, t in tasks
                     for k in range(max(0, (busy - d) // t + 1)) if d + k * t <= busy})
    for p in points:
        dem = sum(((p - d) // t + 1) * c for c, d, t in tasks if p >= d)
        if dem > p:
            return False
    return True


def main():
    ts_path, plan_path, code = sys.argv[1], sys.argv[2], int(sys.argv[3])
    capacity = None
    given = "--given" in sys.argv
    if "--capacity" in sys.argv:
        capacity = Fraction(sys.argv[sys.argv.index("--capacity") + 1])
    ts = json.load(open(ts_path))
    plan = json.load(open(plan_path))
    unit = ts.get("time_unit", "ns")
    src = {}
    for t in ts["tasks"]:
        d = t.get("deadline", t["period"])
        src[t["name"]] = dict(c=to_ns(t["wcet"], unit), d=to_ns(d, unit),
                              t=to_ns(t["period"], unit), aff=t.get("affinity"),
                              prio=t.get("priority"), cmd=t.get("cmd"))
    policy = plan.get("policy")
    fp = policy == "fp"
    seen = {}
    clustered = "clusters" in plan
    bins = plan["clusters"] if clustered else plan["cpus"]
    if clustered == ("cpus" in plan):
        err("plan must have exactly one of cpus / clusters")
    plat = plan["platform"]["cpus"]
    listed = [c for b in bins for c in (b["cpus"] if clustered else [b["cpu"]])]
    if sorted(listed) != sorted(plat) or len(set(listed)) != len(listed):
        err("bins %s do not list every platform CPU %s once" % (listed, plat))
    all_ok = True

    def check_task(pt, where):
        name = pt["name"]
        if name in seen:
            err("task %s appears twice (%s and %s)" % (name, seen[name], where))
        seen[name] = where
        s = src.get(name)
        if s is None:
            err("unknown task %s" % name)
            return None
        if (pt["wcet"], pt["deadline"], pt["period"]) != (s["c"], s["d"], s["t"]):
            err("task %s timing changed" % name)
        if s["cmd"] is not None and "cmd" not in pt:
            err("task %s lost its cmd" % name)
        return s

    for pt in plan["unassigned"]:
        check_task(pt, "unassigned")
        all_ok = False
    for b in bins:
        cpus = b["cpus"] if clustered else [b["cpu"]]
        tasks = []
        for pt in b["tasks"]:
            s = check_task(pt, "cpu %s" % cpus)
            if s is None:
                continue
            if s["aff"] is not None and not set(cpus) <= set(s["aff"]):
                err("task %s on %s outside its affinity %s" % (pt["name"], cpus, s["aff"]))
            has = ("priority" in pt, "response_time" in pt)
            if fp and not clustered and has != (True, True):
                err("fp task %s lacks priority/response_time" % pt["name"])
            if not fp and any(has):
                err("edf task %s carries FP-only fields" % pt["name"])
            tasks.append((pt, s))
        n = len(tasks)
        util = sum((Fraction(s["c"], s["t"]) for _, s in tasks), Fraction(0))
        if not clustered and abs(float(util) - b["utilization"]) > 1e-9:
            err("cpu %s utilization %s, exact %s" % (cpus, b["utilization"], float(util)))
        if capacity is not None and not clustered and util > capacity:
            err("cpu %s utilization %s above capacity %s" % (cpus, util, capacity))
        if clustered:
            test = b.get("test")
            m = len(cpus)
            if tasks and test is None:
                all_ok = False
            if test == "gfb" and tasks:
                dens = [Fraction(s["c"], min(s["d"], s["t"])) for _, s in tasks]
                if not (sum(dens) <= m - (m - 1) * max(dens) and max(dens) <= 1):
                    err("cluster %s: gfb claimed but fails" % cpus)
            continue
        if fp:
            prios = [pt["priority"] for pt, _ in tasks]
            if any(not isinstance(p, int) or p < 1 or p > n for p in prios):
                err("cpu %s priorities %s not in 1..%d" % (cpus, prios, n))
            if not given and len(set(prios)) != n:
                err("cpu %s duplicate priorities %s" % (cpus, prios))
            if given:
                for (a, sa) in tasks:
                    for (b2, sb) in tasks:
                        if (sa["prio"] > sb["prio"]) != (a["priority"] > b2["priority"]) or \
                           (sa["prio"] == sb["prio"]) != (a["priority"] == b2["priority"]):
                            err("cpu %s: given ranking of %s/%s not repeated" %
                                (cpus, a["name"], b2["name"]))
            for pt, s in tasks:
                hp = [(x["c"], x["d"], x["t"]) for q, x in tasks
                      if q is not pt and q["priority"] >= pt["priority"]]
                r = fp_wcrt((s["c"], s["d"], s["t"]), hp)
                rt = pt["response_time"]
                if r is None:
                    all_ok = False
                    if rt is not None and rt <= s["d"] and not given:
                        err("task %s: response_time %s but misses (exact)" % (pt["name"], rt))
                elif rt is None:
                    if not given:
                        err("task %s: null response_time, exact %d" % (pt["name"], r))
                elif rt != r and not given:
                    err("task %s: response_time %s, exact %d" % (pt["name"], rt, r))
        else:
            if not edf_ok([(s["c"], s["d"], s["t"]) for _, s in tasks]):
                all_ok = False
                if plan["feasible"]:
                    err("cpu %s fails EDF demand test" % cpus)
    for name in src:
        if name not in seen:
            err("task %s missing from the plan" % name)
    if plan["feasible"] and not all_ok:
        err("plan says feasible but exact re-check fails")
    if plan["feasible"] != (code == 0):
        err("feasible=%s but exit %d" % (plan["feasible"], code))
    if not plan["feasible"] and code not in (1, 3):
        err("infeasible plan with exit %d" % code)
    if plan.get("method") == "best" and plan["feasible"] and "chosen" not in plan:
        err("best without chosen")
    for e in errors:
        print("%s: %s" % (plan_path, e))
    sys.exit(1 if errors else 0)


main()
