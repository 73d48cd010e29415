"""rtpack from Python: exact schedulability analysis and partitioning of
real-time task sets, over librtpack.so's public C API (cffi, ABI mode).

Exact values stay exact: times are int nanoseconds, ratios (capacity, the
critical scaling factor) fractions.Fraction. Results are the documents
`rtpack analyze --json`, `rtpack partition --json` and `rtpack simulate --json`
print, as Python dicts (the same library calls make them), with convenience
attributes. Errors are exceptions carrying the JSON path and the CLI's
exit-code class.

Threads: every call works on its own C objects and the library has no
global mutable state, so Python threads may analyse at once; cffi releases
the GIL around each C call, so they run in parallel. A TaskSet is immutable
once built and may be shared between threads."""
import json
import os
import re
from fractions import Fraction

from ._capi import ffi, lib, libc

__all__ = ["Task", "TaskSet", "Analysis", "Plan", "RtpackError", "InputError", "LimitError",
           "analyze", "sensitivity", "partition", "gen", "Sweep", "emit", "Simulation",
           "simulate"]

_POLICIES = {"edf": lib.RTP_POLICY_EDF, "fp": lib.RTP_POLICY_FP, "gedf": lib.RTP_POLICY_GEDF,
             "gfp": lib.RTP_POLICY_GFP}
_PRIORITIES = {"opa": lib.RTP_PRIO_OPA, "dm": lib.RTP_PRIO_DM, "rm": lib.RTP_PRIO_RM,
               "given": lib.RTP_PRIO_GIVEN}
_ORDERS = {"util": lib.RTP_ORDER_UTIL, "density": lib.RTP_ORDER_DENSITY,
           "deadline": lib.RTP_ORDER_DEADLINE, "period": lib.RTP_ORDER_PERIOD,
           "input": lib.RTP_ORDER_INPUT}
# --method: one placement (in `order`), the exact ILP, every placement x order, or
# semi-partitioned FP (partition/partition.h RTP_METHOD_ILP, RTP_METHOD_BEST,
# RTP_METHOD_SEMI).
_METHODS = {"ffd": lib.RTP_PLACE_FF, "bfd": lib.RTP_PLACE_BF, "wfd": lib.RTP_PLACE_WF,
            "nfd": lib.RTP_PLACE_NF, "sfd": lib.RTP_PLACE_SF, "ilp": -1, "best": -2,
            "semi": -3}
_FITS = {"util": lib.RTP_LOAD_UTIL, "density": lib.RTP_LOAD_DENSITY}
_ADMISSIONS = {"exact": 0, "bound": 1}
_OBJECTIVES = {"feasibility": lib.RTP_ILP_FEASIBILITY, "min-cpus": lib.RTP_ILP_MIN_CPUS,
               "balanced": lib.RTP_ILP_BALANCED}
_LAYOUTS = {"partitioned": 0, "clustered": 1, "global": 2}  # heuristics/cluster.h rtp_layout
_FORMATS = {"script": lib.RTP_EMIT_SCRIPT, "systemd": lib.RTP_EMIT_SYSTEMD,
            "rtapp": lib.RTP_EMIT_RTAPP, "json": lib.RTP_EMIT_JSON,
            "header": lib.RTP_EMIT_HEADER}
_CGROUPS = {"auto": lib.RTP_CGROUP_AUTO, "v1": lib.RTP_CGROUP_V1, "v2": lib.RTP_CGROUP_V2}


class RtpackError(Exception):
    """A failed call. `status` is "input", "limit", "nomem" or "internal";
    `exit_code` the CLI's for it (2 bad input, 3 resource limit or
    internal); `path` the JSON path of the offending member ("" when none),
    `line`/`column` where a JSON text stops parsing (0 when not that)."""

    def __init__(self, status, exit_code, message, path="", line=0, column=0):
        super().__init__(f"{path}: {message}" if path else message)
        self.status, self.exit_code, self.message = status, exit_code, message
        self.path, self.line, self.column = path, line, column


class InputError(RtpackError, ValueError):
    """Bad input (the CLI's exit 2)."""


class LimitError(RtpackError):
    """A resource limit, out of memory or an internal failure (exit 3)."""


_STATUS = {lib.RTP_EINPUT: ("input", InputError), lib.RTP_ELIMIT: ("limit", LimitError),
           lib.RTP_ENOMEM: ("nomem", LimitError), lib.RTP_EINTERNAL: ("internal", LimitError)}


def _check(status, diag):
    if status == lib.RTP_OK:
        return
    name, cls = _STATUS.get(status, ("internal", LimitError))
    raise cls(name, lib.rtp_status_exit_code(status), ffi.string(diag.message).decode(),
              ffi.string(diag.path).decode(), diag.line, diag.column)


def _diag():
    d = ffi.new("rtp_diag *")
    lib.rtp_diag_clear(d)
    return d


def _take_text(ptr):
    """A malloc'd C string as str; frees it. NULL is out of memory."""
    if ptr == ffi.NULL:
        raise LimitError("nomem", 3, "out of memory")
    try:
        return ffi.string(ptr).decode()
    finally:
        libc.free(ptr)


_NS = re.compile(r"^([0-9]+)ns$")
# Members whose strings are times ("<n>ns" past 2^53) or exact ratios ("p/q").
_TIME_KEYS = {"wcet", "deadline", "period", "jitter", "blocking", "response_time", "first_miss",
              "wcet_max", "release_latency", "context_switch", "deadline_charge",
              "noise_per_ms", "bound", "slack", "computed_blocking", "spin", "until",
              "response_max", "blocking_max", "spin_max", "suspension"}
_RATIO_KEYS = {"critical_scaling_factor_exact"}


def _exact_members(pairs):
    """json.loads' object hook: times as int ns, "p/q" as Fraction."""
    d = {}
    for k, v in pairs:
        if v.__class__ is str:
            if k in _TIME_KEYS:
                m = _NS.match(v)
                if m:
                    v = int(m.group(1))
            elif k in _RATIO_KEYS:
                v = Fraction(v)
        d[k] = v
    return d


def _document(text):
    """A document with exact values: times as int ns, "p/q" as Fraction."""
    return json.loads(text, object_pairs_hook=_exact_members)


class Task:
    """One task; times in int nanoseconds (deadline defaults to period)."""

    __slots__ = ("name", "wcet", "period", "deadline", "jitter", "blocking", "priority",
                 "affinity")

    def __init__(self, name, wcet, period, deadline=None, jitter=0, blocking=0, priority=None,
                 affinity=None):
        self.name, self.wcet, self.period = name, wcet, period
        self.deadline = period if deadline is None else deadline
        self.jitter, self.blocking, self.priority = jitter, blocking, priority
        self.affinity = None if affinity is None else list(affinity)

    def _json(self):
        d = {"name": self.name}
        for k in ("wcet", "deadline", "period", "jitter", "blocking"):
            v = getattr(self, k)
            if not isinstance(v, int) or isinstance(v, bool):
                raise InputError("input", 2, f"{k} must be an int number of ns, not {v!r}")
            if k in ("wcet", "deadline", "period") or v:
                d[k] = f"{v}ns"
        if self.priority is not None:
            d["priority"] = self.priority
        if self.affinity is not None:
            d["affinity"] = self.affinity
        return d

    def __repr__(self):
        return (f"Task({self.name!r}, wcet={self.wcet}, period={self.period}, "
                f"deadline={self.deadline})")


class TaskSet:
    """A task set, held by the C library (parsed with its strict reader, so
    a set built in Python gets exactly the checks a JSON file gets).
    TaskSet(tasks, cpus=None) builds one (cpus: a count or a list of Linux
    CPU ids); TaskSet.from_json(text) and TaskSet.load(path) read one."""

    def __init__(self, tasks=(), cpus=None, _text=None, _ts=None):
        if _ts is not None:
            self._ts = _ts
            return
        if _text is None:
            doc = {"tasks": [t._json() for t in tasks]}
            if cpus is not None:
                doc["platform"] = {"cpus": cpus}
            _text = json.dumps(doc)
        raw = _text.encode() if isinstance(_text, str) else bytes(_text)
        ts = ffi.new("rtp_taskset *")
        diag = _diag()
        _check(lib.rtp_taskset_parse_json(raw, len(raw), ts, diag), diag)
        self._ts = ffi.gc(ts, lib.rtp_taskset_free)

    @classmethod
    def from_json(cls, text):
        if not isinstance(text, (str, bytes, bytearray)):  # None would build an empty set
            raise TypeError("TaskSet.from_json: text must be str or bytes, not "
                            + type(text).__name__)
        return cls(_text=text)

    @classmethod
    def load(cls, path):
        with open(path, "rb") as f:
            return cls(_text=f.read())

    @property
    def tasks(self):
        out = []
        for i in range(self._ts.n_tasks):
            t = self._ts.tasks[i]
            aff = [t.affinity[k] for k in range(t.affinity_len)] if t.affinity != ffi.NULL \
                else None
            out.append(Task(ffi.string(t.name).decode(), t.wcet_ns, t.period_ns, t.deadline_ns,
                            t.jitter_ns, t.blocking_ns, t.priority if t.has_priority else None,
                            aff))
        return out

    def __len__(self):
        return self._ts.n_tasks

    def to_json(self, pretty=False):
        """The set as a task-set document (times in ns), as the C writer makes it."""
        return _take_text(lib.rtp_taskset_to_json(self._ts, 1 if pretty else 0))


def _limits(max_iterations):
    lim = lib.rtp_limits_default()
    if max_iterations is not None:
        if max_iterations < 1:
            raise InputError("input", 2, "max_iterations must be at least 1")
        lim.max_iterations = max_iterations
    return lim


def _choice(table, value, what):
    try:
        return table[value]
    except KeyError:
        raise InputError("input", 2, f"unknown {what} {value!r} (one of "
                         f"{', '.join(sorted(table))})") from None


class Analysis:
    """`rtpack analyze --json`'s document (`document`, exact values) and its
    verdict; tasks are dicts with int-ns times ("response_time" None when it
    exceeds the deadline), critical_scaling_factor a Fraction (sensitivity)."""

    def __init__(self, document):
        self.document = document
        self.schedulable = document["schedulable"]
        self.tasks = document["tasks"]
        self.critical_scaling_factor = document.get("critical_scaling_factor_exact")
        self.first_miss = document.get("first_miss")

    def __repr__(self):
        return f"Analysis(schedulable={self.schedulable}, tasks={len(self.tasks)})"


def analyze(ts, policy="edf", priority=None, cpus=None, sensitivity=False,
            max_iterations=None):
    """rtpack analyze FILE --policy POLICY [--priority P] [--cpus M]
    [--sensitivity]: the exact test on one CPU (edf, fp) or the global tests
    on one cluster (gedf, gfp)."""
    pol = _choice(_POLICIES, policy, "policy")
    opts = ffi.new("rtp_analyze_opts *", lib.rtp_analyze_opts_default(pol))
    if priority is not None:
        opts.priority = _choice(_PRIORITIES, priority, "priority")
    if cpus is not None:
        if pol in (lib.RTP_POLICY_EDF, lib.RTP_POLICY_FP) and cpus > 1:
            raise InputError("input", 2, f"cpus={cpus} under policy {policy} would still "
                             "analyse one CPU: use gedf or gfp, or partition")
        opts.cpus_override = cpus
    opts.limits = _limits(max_iterations)
    opts.sensitivity = 1 if sensitivity else 0
    a = ffi.new("rtp_analysis *")
    diag = _diag()
    try:
        _check(lib.rtp_analyze(ts._ts, opts, a, diag), diag)
        text = _take_text(lib.rtp_analysis_doc_to_json(ffi.addressof(a, "doc"), 0))
    finally:
        lib.rtp_analysis_free(a)
    return Analysis(_document(text))


def sensitivity(ts, policy="edf", **kw):
    """analyze(..., sensitivity=True): per task wcet_max (int ns, None when
    no wcet keeps the set schedulable) and the critical scaling factor."""
    return analyze(ts, policy, sensitivity=True, **kw)


class Plan:
    """`rtpack partition --json`'s plan document (`document`, exact values):
    feasible, per CPU (or cluster) its tasks; `to_json()` is the text
    `rtpack emit` reads. `undecided` is True when the ILP stopped at its
    time limit without a verified plan (the CLI prints the plan and exits 3);
    `exit_code` is the CLI's: 0 feasible, 1 not, 3 undecided."""

    def __init__(self, document, text, undecided=False):
        self.document, self._text = document, text
        self.feasible = document["feasible"]
        self.cpus = document.get("cpus", [])
        self.clusters = document.get("clusters", [])
        self.unassigned = [t["name"] for t in document.get("unassigned", [])]
        self.undecided = undecided
        self.exit_code = 3 if undecided else 0 if self.feasible else 1

    def to_json(self):
        return self._text

    def __repr__(self):
        return f"Plan(feasible={self.feasible}, cpus={len(self.cpus)})"


def _fraction_in(value, lo_open, hi, what):
    c = Fraction(value)
    if c <= lo_open or c > hi:
        raise InputError("input", 2, f"{what} must be in ({lo_open}, {hi}], not {c}")
    return c.numerator, c.denominator


def partition(ts, policy="edf", method="best", cpus=None, priority=None, capacity=None,
              sensitivity=False, max_iterations=None, order=None, fit=None, admission=None,
              soft=False, clusters=None, layouts=None, objective=None, time_limit=None,
              write_lp=None, ties=None):
    """rtpack partition FILE with the same options, by name: policy (edf,
    fp), method (ffd, bfd, wfd, nfd, sfd, ilp, best, semi), cpus (--cpus M),
    priority, ties ("auto", "given": with priority "given"), capacity (a Fraction/int/str like "9/10"), sensitivity, order,
    fit, admission, soft, clusters ("2x2", "3,1"), layouts (names, e.g.
    ["partitioned", "global"], with method best), objective, time_limit
    (seconds) and write_lp (a path) of the ILP. One library call
    (partition/partition.h), so the plan is the CLI's."""
    opts = ffi.new("rtp_partition_opts *", lib.rtp_partition_opts_default())
    part = opts.part
    part.policy = _choice({"edf": lib.RTP_POLICY_EDF, "fp": lib.RTP_POLICY_FP}, policy,
                          "policy")
    opts.method = _choice(_METHODS, method, "method")
    if method == "semi":  # deadline-monotonic over the set, as the CLI's --method semi
        if priority is not None:
            raise InputError("input", 2, "method semi orders priorities deadline-monotonic "
                                         "over the set; it takes no priority")
        part.priority = lib.RTP_PRIO_DM
    if priority is not None:
        part.priority = _choice(_PRIORITIES, priority, "priority")
    if ties is not None:
        if priority != "given":
            raise InputError("input", 2, "ties applies only with priority \"given\"")
        part.keep_tie_policy = _choice({"auto": 0, "given": 1}, ties, "ties")
    if capacity is not None:
        part.capacity.num, part.capacity.den = _fraction_in(capacity, 0, 1, "capacity")
    if order is not None:
        part.order = _choice(_ORDERS, order, "order")
    if fit is not None:
        part.fit_measure = _choice(_FITS, fit, "fit")
    if admission is not None:
        part.bound_admission = _choice(_ADMISSIONS, admission, "admission")
    part.soft = 1 if soft else 0
    part.limits = _limits(max_iterations)
    if objective is not None:
        opts.ilp.objective = _choice(_OBJECTIVES, objective, "objective")
    if time_limit is not None:
        if not time_limit > 0:
            raise InputError("input", 2, f"time_limit must be positive, not {time_limit}")
        opts.ilp.time_limit_s = time_limit
    keep = []  # C strings the options borrow, alive through the call
    if write_lp is not None:
        keep.append(ffi.new("char[]", os.fsencode(write_lp)))
        opts.ilp.write_lp_path = keep[-1]
    if clusters is not None:
        keep.append(ffi.new("char[]", clusters.encode()))
        opts.clusters = keep[-1]
    if layouts:
        names = layouts.split(",") if isinstance(layouts, str) else list(layouts)
        for name in names:
            opts.layouts |= 1 << _choice(_LAYOUTS, name, "layout")
    opts.override_cpus = cpus or 0
    opts.sensitivity = 1 if sensitivity else 0
    plan = ffi.new("rtp_plan *")
    info = ffi.new("rtp_partition_info *")
    diag = _diag()
    try:
        _check(lib.rtp_partition(ts._ts, opts, plan, info, diag), diag)
        text = _take_text(lib.rtp_plan_to_json(plan, 1))
    finally:
        lib.rtp_plan_free(plan)
    return Plan(_document(text), text, bool(info.undecided))


def _ratio(value, what):
    r = Fraction(value)
    if r <= 0:
        raise InputError("input", 2, f"{what} must be positive, not {r}")
    return r.numerator, r.denominator


def gen(n_tasks, utilization, seed=1, point=0, index=0, generator="uunifast-discard",
        periods=(1_000_000, 1_000_000_000), deadlines="implicit", max_task_util=None):
    """rtpack gen --tasks N --utilization U --seed S [...]: the random set of
    (seed, point, index), the same bytes as the CLI and `rtpack explore`
    (utilization and max_task_util exact: Fraction, int or decimal str;
    periods in int ns)."""
    opts = ffi.new("rtp_gen_opts *", lib.rtp_gen_opts_default())
    opts.n_tasks = n_tasks
    opts.total_util.num, opts.total_util.den = _ratio(utilization, "utilization")
    if max_task_util is not None:
        opts.max_task_util.num, opts.max_task_util.den = _ratio(max_task_util, "max_task_util")
    opts.algo = _choice({"uunifast-discard": lib.RTP_GEN_UUNIFAST_DISCARD,
                         "randfixedsum": lib.RTP_GEN_RANDFIXEDSUM}, generator, "generator")
    opts.deadlines = _choice({"implicit": lib.RTP_DL_IMPLICIT,
                              "constrained": lib.RTP_DL_CONSTRAINED,
                              "arbitrary": lib.RTP_DL_ARBITRARY}, deadlines, "deadlines")
    opts.period_min_ns, opts.period_max_ns = periods
    ts = ffi.new("rtp_taskset *")
    diag = _diag()
    _check(lib.rtp_gen_taskset(opts, seed, point, index, ts, diag), diag)
    return TaskSet(_ts=ffi.gc(ts, lib.rtp_taskset_free))


class Sweep:
    """A sweep file of `rtpack explore` (docs/explore.md): `points` lists
    each point as a dict (tasks, cpus, utilization per CPU as a Fraction,
    deadlines; in a sweep with "resources" also resources, access as a
    Fraction, requests, cs_min_ns, cs_max_ns) in explore's order;
    taskset(point, index) is the set explore evaluates there (with its
    critical sections), so a script can re-run or extend explore's numbers."""

    def __init__(self, path):
        with open(path, "rb") as f:
            raw = f.read()
        self.document = _document(raw.decode())
        diag = _diag()
        sw = lib.rtp_sweep_open(raw, len(raw), diag)
        if sw == ffi.NULL:
            _check(lib.RTP_EINPUT if diag.message[0] else lib.RTP_ENOMEM, diag)
        self._sw = ffi.gc(sw, lib.rtp_sweep_close)
        key = ffi.new("char[160]")
        self.points = []
        for p in range(lib.rtp_sweep_n_points(self._sw)):
            lib.rtp_sweep_point_key(self._sw, p, key, 160)
            tasks, cpus, util, deadlines = ffi.string(key).decode().split(",")
            point = {"tasks": int(tasks), "cpus": int(cpus), "utilization": Fraction(util),
                     "deadlines": deadlines}
            lib.rtp_sweep_point_resources(self._sw, p, key, 160)
            if ffi.string(key):
                count, access, requests, cs_min, cs_max = ffi.string(key).decode().split(",")
                point.update(resources=int(count), access=Fraction(access),
                             requests=int(requests), cs_min_ns=int(cs_min),
                             cs_max_ns=int(cs_max))
            self.points.append(point)
        self.sets_per_point = self.document["sets_per_point"]

    def taskset(self, point, index):
        ts = ffi.new("rtp_taskset *")
        diag = _diag()
        _check(lib.rtp_sweep_taskset(self._sw, point, index, ts, diag), diag)
        return TaskSet(_ts=ffi.gc(ts, lib.rtp_taskset_free))


def emit(plan, format="script", name="rtpack", budget=None, fifo_range=None, cgroup=None,
         cgroup_root=None, duration=None, isolate=False, runtime_margin=None, reclaim=None,
         overrun_signal=False, launcher=None, dir=None):
    """rtpack emit PLAN --format FORMAT with the same options, by name
    (fifo_range a pair (lo, hi); reclaim True/False, None = the plan's
    default; duration in s), after the same re-check (exact tests, Linux's
    rules): one library call (deploy/emit.h). `plan` is a Plan or a plan
    document's text. Returns (output, warnings): output is the text for
    script, json, header and an FP plan's rtapp; for systemd and an EDF
    plan's rtapp, a dict {file name: text} of what `--out DIR` writes (the
    rt-app files name `dir`, an absolute folder, which they need). A plan
    Linux would refuse raises InputError with exit_code 1 and the reason
    (the CLI's "not deployable", exit 1); an option or format that does not
    apply, InputError with exit_code 2."""
    raw = (plan.to_json() if isinstance(plan, Plan) else plan).encode()
    opts = ffi.new("rtp_deploy_opts *", lib.rtp_deploy_opts_default())
    keep = [ffi.new("char[]", name.encode())]
    opts.name = keep[-1]
    if budget is not None:
        opts.budget.num, opts.budget.den = _ratio(budget, "budget")
    if fifo_range is not None:
        opts.fifo_lo, opts.fifo_hi = fifo_range
    if cgroup is not None:
        opts.cgroup = _choice(_CGROUPS, cgroup, "cgroup")
    if cgroup_root is not None:
        keep.append(ffi.new("char[]", os.fsencode(cgroup_root)))
        opts.cgroup_root = keep[-1]
    if duration is not None:
        opts.duration_s = duration
    opts.isolate = 1 if isolate else 0
    if runtime_margin is not None:
        m = Fraction(runtime_margin)
        opts.runtime_margin.num, opts.runtime_margin.den = m.numerator, m.denominator
    if reclaim is not None:
        opts.reclaim = 1 if reclaim else 0
    opts.overrun_signal = 1 if overrun_signal else 0
    if launcher is not None:
        keep.append(ffi.new("char[]", os.fsencode(launcher)))
        opts.launcher = keep[-1]
    c_dir = ffi.NULL
    if dir is not None:
        keep.append(ffi.new("char[]", os.fsencode(dir)))
        c_dir = keep[-1]
    fmt = _choice(_FORMATS, format, "format")
    p = ffi.new("rtp_plan *")
    res = ffi.new("rtp_emit_result *")
    diag = _diag()
    try:
        _check(lib.rtp_plan_parse_json(raw, len(raw), p, diag), diag)
        _check(lib.rtp_deploy_emit(p, fmt, opts, ffi.NULL, c_dir, res, diag), diag)
        if not res.deployable:
            raise InputError("not deployable", 1, ffi.string(diag.message).decode(),
                             ffi.string(diag.path).decode())
        if res.text != ffi.NULL:
            out = ffi.string(res.text).decode()
        else:
            out = {ffi.string(res.files[k].name).decode(): ffi.string(res.files[k].content).decode()
                   for k in range(res.n_files)}
        notes = ffi.string(res.warnings.data).decode() if res.warnings.data != ffi.NULL else ""
    finally:
        lib.rtp_emit_result_free(res)
        lib.rtp_plan_free(p)
    return out, notes


class Simulation:
    """`rtpack simulate --json`'s document (`document`, exact values): per
    task jobs, misses, first_miss and response_max (int ns, None when no
    job missed / completed), until, schedulable_in_simulation; `svg` the
    Gantt chart when asked for."""

    def __init__(self, document, svg=None):
        self.document, self.svg = document, svg
        self.schedulable = document["schedulable_in_simulation"]
        self.until = document["until"]
        self.tasks = document["tasks"]

    def __repr__(self):
        return f"Simulation(schedulable={self.schedulable}, until={self.until})"


def simulate(what, policy=None, priority=None, cpus=None, until=None, overrun=None,
             gantt=False, gantt_from=0, max_iterations=None):
    """rtpack simulate FILE|PLAN [--policy P] [--priority R] [--cpus M]
    [--until T] [--overrun NAME:T]: `what` is a TaskSet (one CPU under edf,
    fp; one cluster under gedf, gfp) or a Plan or a plan document's text
    (CPU by CPU with its own policy and priorities; then policy, priority
    and cpus are refused as the CLI refuses them). until and the overrun's
    time (overrun=(name, ns)) in int ns. gantt=True also draws the chart of
    [gantt_from, until] (Simulation.svg)."""
    is_plan = not isinstance(what, TaskSet)
    if is_plan and (policy is not None or priority is not None or cpus is not None):
        raise InputError("input", 2, "a plan carries its own CPUs, policy and priorities "
                         "(policy, priority and cpus are for task sets)")
    pol = _choice(_POLICIES, policy or "edf", "policy")
    opts = ffi.new("rtp_simulate_opts *", lib.rtp_simulate_opts_default(pol))
    if priority is not None:
        opts.priority = _choice(_PRIORITIES, priority, "priority")
    opts.cpus_override = cpus or 0
    if until is not None:
        if until < 1:
            raise InputError("input", 2, f"until must be positive, not {until}")
        opts.until_ns = until
    keep = None
    if overrun is not None:
        name, ns = overrun
        keep = ffi.new("char[]", name.encode())
        opts.overrun_task, opts.overrun_ns = keep, ns
    opts.gantt, opts.gantt_from_ns = (1 if gantt else 0), gantt_from
    opts.limits = _limits(max_iterations)
    diag = _diag()
    r = ffi.new("rtp_simulation *")
    p = ffi.new("rtp_plan *")
    svg = None
    try:
        if is_plan:
            raw = (what.to_json() if isinstance(what, Plan) else what).encode()
            _check(lib.rtp_plan_parse_json(raw, len(raw), p, diag), diag)
            _check(lib.rtp_simulate_plan(p, opts, r, diag), diag)
        else:
            _check(lib.rtp_simulate(what._ts, opts, r, diag), diag)
        text = _take_text(lib.rtp_sim_doc_to_json(ffi.addressof(r, "doc"), 0))
        if gantt:
            svg = _take_text(lib.rtp_simulation_svg(r, b"simulated schedule"))
    finally:
        lib.rtp_simulation_free(r)
        lib.rtp_plan_free(p)
    del keep
    return Simulation(_document(text), svg)
