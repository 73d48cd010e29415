"""python/tests/test_rtpack.py — the Python package against the CLI
(CTest python_unittest; env RTP_BINARY, RTP_SOURCE_DIR, RTPACK_LIBRARY):
the documents equal `rtpack ... --json` on every example and on 1,000
generated sets per policy, every error class, the cffi layouts equal the C
headers', two threads give the sequential answers, and 100,000 calls leave
the resident set flat."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest
from fractions import Fraction

import rtpack
from rtpack import _capi

BIN = os.environ["RTP_BINARY"]
SRC = os.environ["RTP_SOURCE_DIR"]
SETS = int(os.environ.get("RTP_PY_SETS", "1000"))


def cli(*args):
    """(exit code, parsed stdout with exact values) of the rtpack program."""
    p = subprocess.run([BIN, *args], capture_output=True, text=True, check=False)
    out = rtpack._document(p.stdout) if p.stdout.strip() else None
    return p.returncode, out


def examples():
    """Every example task set (a document with "tasks")."""
    for path in sorted(glob.glob(os.path.join(SRC, "examples", "*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
            if isinstance(doc.get("tasks"), list) and "seed" not in doc:  # not a sweep
                yield path


# Sensitivity runs the test once per candidate wcet; these take seconds in
# C (CLI and Python alike) and are left to tests/cli_sensitivity*.sh.
SLOW = {("quickstart.json", "edf"), ("plant10.json", "edf"), ("app12.json", "fp")}


POLICIES = [("edf", {}), ("fp", {}), ("gedf", {"cpus": 2}), ("gfp", {"cpus": 2})]
METHODS = ("best", "ffd", "bfd", "wfd", "nfd", "sfd", "ilp", "semi")
FORMATS = ("script", "systemd", "rtapp", "json", "header")


def cli_files(folder):
    """{name: text} of the files `emit --out DIR` wrote, its list left out."""
    out = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".files"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                out[name] = f.read()
    return out


class Examples(unittest.TestCase):
    def test_analyze_equals_cli(self):
        n = 0
        for path in examples():
            ts = rtpack.TaskSet.load(path)
            for policy, kw in POLICIES:
                for sens in (False, True):
                    if sens and (os.path.basename(path), policy) in SLOW:
                        continue
                    args = ["analyze", path, "--policy", policy, "--json"]
                    args += ["--cpus", str(kw["cpus"])] if kw else []
                    args += ["--sensitivity"] if sens else []
                    rc, doc = cli(*args)
                    with self.subTest(path=path, policy=policy, sensitivity=sens):
                        if rc >= 2:
                            with self.assertRaises(rtpack.RtpackError) as e:
                                rtpack.analyze(ts, policy, sensitivity=sens, **kw)
                            self.assertEqual(e.exception.exit_code, rc)
                            continue
                        a = rtpack.analyze(ts, policy, sensitivity=sens, **kw)
                        self.assertEqual(a.document, doc)
                        self.assertEqual(a.schedulable, rc == 0)
                        n += 1
        self.assertGreater(n, 40)

    def test_partition_equals_cli(self):
        n = 0
        for path in examples():
            ts = rtpack.TaskSet.load(path)
            for policy in ("edf", "fp"):
                sens = (os.path.basename(path), policy) not in SLOW
                for method in METHODS:
                    kw = {"sensitivity": sens and method in ("best", "ffd", "wfd")}
                    n += self.same_as_cli(path, ts, policy, method, **kw)
                # clusters and layouts as the CLI has them, and the options of the fits
                for kw in ({"cpus": 4, "clusters": "2x2"},
                           {"cpus": 4, "clusters": "3,1", "method": "ffd"},
                           {"cpus": 4, "clusters": "2x2", "layouts": ["partitioned",
                                                                      "clustered", "global"]},
                           {"cpus": 2, "layouts": ["partitioned", "global"]},
                           {"cpus": 2, "method": "bfd", "fit": "density", "order": "density"},
                           {"cpus": 2, "method": "ffd", "admission": "bound"},
                           {"cpus": 2, "method": "ilp", "objective": "min-cpus"},
                           {"cpus": 2, "capacity": "0.9", "priority": "rm"},
                           {"cpus": 2, "soft": True},
                           {"cpus": 1, "priority": "given", "method": "ffd"},
                           {"cpus": 1, "priority": "given", "ties": "given", "method": "ffd"}):
                    kw = dict(kw)
                    method = kw.pop("method", "best")
                    if (kw.get("soft") and policy == "fp") or \
                            (kw.get("priority") and policy == "edf"):
                        continue
                    n += self.same_as_cli(path, ts, policy, method, **kw)
        self.assertGreater(n, 150)

    def same_as_cli(self, path, ts, policy, method, **kw):
        """rtpack.partition(ts, policy, method, **kw) against the CLI with
        the same options; 1 when a plan was compared."""
        args = ["partition", path, "--policy", policy, "--method", method, "--json"]
        for k, v in kw.items():
            if v is True:
                args.append("--" + k)
            elif v:
                args += ["--" + k, ",".join(v) if isinstance(v, list) else str(v)]
        rc, doc = cli(*args)
        with self.subTest(args=args[1:]):
            if rc == 2 or (rc == 3 and doc is None):
                with self.assertRaises(rtpack.RtpackError) as e:
                    rtpack.partition(ts, policy, method, **kw)
                self.assertEqual(e.exception.exit_code, rc)
                return 0
            p = rtpack.partition(ts, policy, method, **kw)
            self.assertEqual(p.document, doc)
            self.assertEqual(p.exit_code, rc)
        return 1

    def test_simulate_equals_cli(self):
        """simulate: every example set under each policy (and one with an
        overrun and a window), every example plan, their exit classes."""
        n = 0
        cases = []
        for path in examples():
            for policy, kw in POLICIES:
                cases.append((path, policy, kw, None))
            cases.append((path, "fp", {"until": 50_000_000, "overrun": ("T2", 7_000_000)},
                          ["--until", "50ms", "--overrun", "T2:7ms"]))
        for path in sorted(glob.glob(os.path.join(SRC, "examples", "plan_*.json"))):
            cases.append((path, None, {}, None))
        for path, policy, kw, extra in cases:
            args = ["simulate", path, "--json"]
            args += ["--policy", policy] if policy else []
            args += ["--cpus", str(kw["cpus"])] if "cpus" in kw else []
            args += extra or []
            rc, doc = cli(*args)
            if policy:
                what = rtpack.TaskSet.load(path)
            else:
                with open(path, encoding="utf-8") as f:
                    what = f.read()
            with self.subTest(path=path, policy=policy, extra=extra):
                if rc >= 2:
                    with self.assertRaises(rtpack.RtpackError) as e:
                        rtpack.simulate(what, policy, **kw)
                    self.assertEqual(e.exception.exit_code, rc)
                    continue
                r = rtpack.simulate(what, policy, **kw)
                self.assertEqual(r.document, doc)
                self.assertEqual(r.schedulable, rc == 0)
                n += 1
        self.assertGreater(len(cases), 50)
        self.assertGreater(n, 20)
        r = rtpack.simulate(rtpack.TaskSet.load(os.path.join(SRC, "examples", "domino.json")),
                            gantt=True)
        self.assertTrue(r.svg.startswith("<svg") or r.svg.startswith("<?xml"))
        self.assertIsInstance(r.tasks[0]["response_max"], int)

    def test_emit_equals_cli(self):
        """Every format of every example plan and of a plan of every
        example (EDF and FP, 2 CPUs) equals `rtpack emit`'s output."""
        n = 0
        with tempfile.TemporaryDirectory() as d:
            plans = sorted(glob.glob(os.path.join(SRC, "examples", "plan_*.json")))
            for path in examples():
                for policy in ("edf", "fp"):
                    p = subprocess.run([BIN, "partition", path, "--policy", policy, "--cpus", "2",
                                        "--json"], capture_output=True, text=True, check=False)
                    if p.stdout:
                        plans.append(os.path.join(d, f"{os.path.basename(path)}-{policy}"))
                        with open(plans[-1], "w", encoding="utf-8") as f:
                            f.write(p.stdout)
            for path in plans:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for fmt in FORMATS:
                    n += self.emit_same_as_cli(path, text, fmt, d)
        self.assertGreater(n, 40)

    def emit_same_as_cli(self, path, text, fmt, scratch):
        """rtpack.emit(text, fmt) against `rtpack emit`; 1 when compared."""
        out = os.path.join(scratch, "out")
        shutil.rmtree(out, ignore_errors=True)
        args = [BIN, "emit", path, "--format", fmt]
        args += ["--name", "rtpack"] if fmt in ("script", "systemd", "rtapp") else []
        p = subprocess.run(args, capture_output=True, text=True, check=False)
        if p.returncode == 2 and "give --out DIR" in p.stderr:
            p = subprocess.run(args + ["--out", out], capture_output=True, text=True,
                               check=False)
        with self.subTest(path=path, format=fmt):
            kw = {"dir": out} if os.path.isdir(out) else {}
            if p.returncode != 0:
                with self.assertRaises(rtpack.RtpackError) as e:
                    rtpack.emit(text, fmt, **kw)
                self.assertEqual(e.exception.exit_code, p.returncode)
                return 0
            got, warnings = rtpack.emit(text, fmt, **kw)
            self.assertEqual(got, cli_files(out) if kw else p.stdout)
            self.assertEqual(warnings, p.stderr)
        return 1

    def test_taskset_round_trip(self):
        for path in examples():
            ts = rtpack.TaskSet.load(path)
            rc, doc = cli("analyze", path, "--policy", "edf", "--json")
            if rc >= 2:
                continue
            names = [t["name"] for t in doc["tasks"]]
            self.assertEqual([t.name for t in ts.tasks], names)
            self.assertEqual([t.wcet for t in ts.tasks], [t["wcet"] for t in doc["tasks"]])
            again = rtpack.TaskSet.from_json(ts.to_json())
            self.assertEqual(again.to_json(), ts.to_json())

    def test_built_in_python(self):
        ts = rtpack.TaskSet([rtpack.Task("T1", 3_000_000, 4_000_000),
                             rtpack.Task("T2", 2_000_000, 6_000_000),
                             rtpack.Task("T3", 4_000_000, 8_000_000)], cpus=2)
        self.assertFalse(rtpack.analyze(ts, "edf").schedulable)
        self.assertTrue(rtpack.analyze(ts, "gedf").schedulable in (True, False))
        plan = rtpack.partition(ts, "edf")
        self.assertTrue(plan.feasible)
        self.assertEqual(sum(len(c["tasks"]) for c in plan.cpus), 3)
        s = rtpack.sensitivity(rtpack.TaskSet([rtpack.Task("a", 1, 4), rtpack.Task("b", 1, 4)]))
        self.assertEqual(s.critical_scaling_factor, Fraction(2))
        self.assertEqual([t["wcet_max"] for t in s.tasks], [3, 3])


class Generated(unittest.TestCase):
    """SETS random sets per policy (rtpack.gen, itself checked against
    `rtpack gen`): analyze against `rtpack analyze --batch`, partition
    against `rtpack partition` on a slice."""

    @classmethod
    def setUpClass(cls):
        # utilization 0.70 .. 1.00 per CPU: both verdicts; the global
        # policies get the same draws scaled to 2 CPUs
        cls.dir = tempfile.TemporaryDirectory()
        cls.sets, cls.batch = {}, {}
        for m in (1, 2):
            cls.sets[m] = [rtpack.gen(8, Fraction(m * (70 + i % 31), 100), seed=7, index=i,
                                      deadlines="constrained" if i % 2 else "implicit")
                           for i in range(SETS)]
            cls.batch[m] = os.path.join(cls.dir.name, f"sets{m}.jsonl")
            with open(cls.batch[m], "w", encoding="utf-8") as f:
                for ts in cls.sets[m]:
                    f.write(ts.to_json().strip() + "\n")

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_gen_equals_cli(self):
        for i in range(0, SETS, max(1, SETS // 20)):
            ts = rtpack.gen(8, "2.5", seed=i)
            rc, doc = cli("gen", "--tasks", "8", "--utilization", "2.5", "--seed", str(i),
                          "--json")
            self.assertEqual(rc, 0)
            self.assertEqual(rtpack._document(ts.to_json()), doc)

    def test_analyze_batch_equals_cli(self):
        for policy, kw in POLICIES:
            m = kw.get("cpus", 1)
            args = ["analyze", "--batch", self.batch[m], "--policy", policy]
            args += ["--cpus", str(kw["cpus"])] if kw else []
            p = subprocess.run([BIN, *args], capture_output=True, text=True, check=False)
            lines = [rtpack._document(line) for line in p.stdout.splitlines()]
            self.assertEqual(len(lines), SETS, policy)
            verdicts = set()
            for i, ts in enumerate(self.sets[m]):
                cli_doc = lines[i]
                self.assertEqual(cli_doc.pop("line"), i + 1)
                if kw:  # one cluster: the platform of M CPUs
                    ts = rtpack.TaskSet.from_json(
                        json.dumps(dict(json.loads(ts.to_json()), platform={"cpus": 2})))
                doc = rtpack.analyze(ts, policy).document
                self.assertEqual(doc, cli_doc, (policy, i))
                verdicts.add(doc["schedulable"])
            self.assertEqual(verdicts, {True, False}, policy)  # both verdicts exercised

    def test_partition_equals_cli(self):
        for policy in ("edf", "fp"):
            for i in range(0, SETS, max(1, SETS // 50)):
                path = os.path.join(self.dir.name, "one.json")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(self.sets[2][i].to_json())
                rc, doc = cli("partition", path, "--policy", policy, "--cpus", "2", "--json")
                self.assertEqual(rtpack.partition(self.sets[2][i], policy, cpus=2).document, doc)
                if i % max(1, SETS // 10) == 0:  # every method on a tenth of the slice
                    for method in [m for m in METHODS
                                   if m not in ("sfd", "semi") or policy == "fp"]:
                        rc, doc = cli("partition", path, "--policy", policy, "--cpus", "2",
                                      "--method", method, "--json")
                        p = rtpack.partition(self.sets[2][i], policy, method, cpus=2)
                        self.assertEqual((p.document, p.exit_code), (doc, rc))


class Sweeps(unittest.TestCase):
    def test_sweep_script_equals_explore(self):
        """docs/examples/sweep_plot.py's numbers are explore's results.csv."""
        sys.path.insert(0, os.path.join(SRC, "docs", "examples"))
        import sweep_plot  # pylint: disable=import-outside-toplevel
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sweep.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump({"seed": 3, "sets_per_point": 20, "tasks": [8], "cpus": [2],
                           "utilization": {"from": "0.6", "to": "1.0", "step": "0.1"},
                           "deadlines": ["implicit", "constrained"],
                           "policies": ["edf", "fp"], "methods": ["ffd", "wfd", "best"]}, f)
            subprocess.run([BIN, "explore", path, "--out", os.path.join(d, "out")],
                           capture_output=True, check=True)
            with open(os.path.join(d, "out", "results.csv"), encoding="utf-8") as f:
                want = {tuple(r.split(",")[:8]) for r in f.read().splitlines()[1:]}
            sweep = rtpack.Sweep(path)
            got = set()
            for (policy, method), rows in sweep_plot.acceptance(sweep).items():
                for pt, ok in rows:
                    util = str(float(pt["utilization"])).rstrip("0").rstrip(".")
                    got.add((str(pt["tasks"]), str(pt["cpus"]), util, pt["deadlines"], policy,
                             method, str(ok), str(sweep.sets_per_point)))
        self.assertEqual(got, want)

    def test_sweep_with_resources(self):
        """A sweep's "resources": the points carry the resource columns of
        results.csv, and the sets their critical sections."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sweep.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump({"seed": 5, "sets_per_point": 3, "tasks": 6, "cpus": 2,
                           "utilization": ["0.5"], "policies": "fp",
                           "methods": ["ffd-oblivious", "sfd"],
                           "resources": {"count": [1, 2], "access": "0.75", "requests": 2,
                                         "cs_length": [{"min": "1us", "max": "2us"},
                                                       {"min": "5us", "max": "9us"}]}}, f)
            subprocess.run([BIN, "explore", path, "--out", os.path.join(d, "out")],
                           capture_output=True, check=True)
            with open(os.path.join(d, "out", "results.csv"), encoding="utf-8") as f:
                rows = [r.split(",") for r in f.read().splitlines()[1:]]
            sweep = rtpack.Sweep(path)
            self.assertEqual(len(sweep.points), 4)
            cols = [[str(pt["resources"]), "0.75", str(pt["requests"]), str(pt["cs_min_ns"]),
                     str(pt["cs_max_ns"])] for pt in sweep.points]
            self.assertEqual([r[10:] for r in rows[::2]], cols)
            self.assertEqual(sweep.points[3]["access"], Fraction(3, 4))
            ts = json.loads(sweep.taskset(3, 0).to_json())
            self.assertEqual([r["name"] for r in ts["resources"]], ["R1", "R2"])
            self.assertTrue(any(t.get("requests") for t in ts["tasks"]))

    def test_sweep_taskset_out_of_range(self):
        """A point or set index out of range is InputError naming the range
        (the point past the last one used to crash the interpreter, audit
        rev13c; a set index past sets_per_point drew a set explore never
        evaluates)."""
        sweep = rtpack.Sweep(os.path.join(SRC, "examples", "sweep.json"))
        for point, index, what in [(len(sweep.points) + 10**6, 0, "points"),
                                   (0, sweep.sets_per_point, "sets per point")]:
            with self.assertRaises(rtpack.InputError) as e:
                sweep.taskset(point, index)
            self.assertIn(what, str(e.exception))
        self.assertGreater(len(sweep.taskset(0, sweep.sets_per_point - 1).tasks), 0)


class Errors(unittest.TestCase):
    def test_bad_json_has_line_and_column(self):
        with self.assertRaises(rtpack.InputError) as e:
            rtpack.TaskSet.from_json('{"tasks": [\n  {"name": }]}')
        self.assertEqual((e.exception.exit_code, e.exception.status), (2, "input"))
        self.assertEqual(e.exception.line, 2)
        self.assertGreater(e.exception.column, 0)

    def test_from_json_needs_text(self):
        """None is not an empty document (it built an empty set, audit rev13c)."""
        with self.assertRaises(TypeError):
            rtpack.TaskSet.from_json(None)

    def test_bad_member_has_path(self):
        for text, path in [('{"tasks":[{"name":"a","wcet":-1,"period":4}]}', "tasks[0].wcet"),
                           ('{"tasks":[{"name":"a","wcet":1}]}', "tasks[0]")]:
            with self.assertRaises(rtpack.InputError) as e:
                rtpack.TaskSet.from_json(text)
            if path:
                self.assertTrue(e.exception.path.startswith(path), e.exception.path)
            self.assertEqual(e.exception.exit_code, 2)

    def test_python_built_set_is_checked_by_the_c_reader(self):
        with self.assertRaises(rtpack.InputError) as e:
            rtpack.TaskSet([rtpack.Task("a", 0, 10)])
        self.assertEqual(e.exception.path, "tasks[0].wcet")
        with self.assertRaises(rtpack.InputError):
            rtpack.TaskSet([rtpack.Task("a", 1.5, 10)])

    def test_usage_errors(self):
        ts = rtpack.TaskSet([rtpack.Task("a", 1, 10)])
        for call in (lambda: rtpack.analyze(ts, "llf"), lambda: rtpack.analyze(ts, "fp", cpus=4),
                     lambda: rtpack.partition(ts, method="xfd"),
                     lambda: rtpack.partition(ts, capacity="3/2"),
                     lambda: rtpack.gen(5, 0)):
            with self.assertRaises(rtpack.InputError) as e:
                call()
            self.assertEqual(e.exception.exit_code, 2)

    def test_resource_limit(self):
        ts = rtpack.gen(20, "0.97", seed=3, deadlines="constrained")
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            f.write(ts.to_json())
            f.flush()
            rc, _ = cli("analyze", f.name, "--policy", "fp", "--max-iterations", "1")
        with self.assertRaises(rtpack.LimitError) as e:
            rtpack.analyze(ts, "fp", max_iterations=1)
        self.assertEqual((e.exception.exit_code, e.exception.status), (rc, "limit"))


class Layout(unittest.TestCase):
    def test_structs_equal_the_headers(self):
        """Every size and field offset cffi uses equals the C compiler's on
        the installed headers (ABI mode would read garbage otherwise)."""
        ffi = _capi.ffi
        lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <rtpack/rtpack.h>",
                 "int main(void) {"]
        expected = []
        for name in _capi.STRUCTS:
            lines.append(f'printf("%zu\\n", sizeof({name}));')
            expected.append(ffi.sizeof(name))
            for field, _ in ffi.typeof(name).fields:
                lines.append(f'printf("%zu\\n", offsetof({name}, {field}));')
                expected.append(ffi.offsetof(name, field))
        lines.append("return 0; }")
        with tempfile.TemporaryDirectory() as d:
            c = os.path.join(d, "layout.c")
            with open(c, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
            gen = os.path.join(os.path.dirname(BIN), "generated")
            subprocess.run(["cc", "-o", os.path.join(d, "layout"), c, "-I", SRC, "-I", gen],
                           check=True)
            out = subprocess.run([os.path.join(d, "layout")], capture_output=True, text=True,
                                 check=True).stdout.split()
        self.assertEqual([int(x) for x in out], expected)


class Threads(unittest.TestCase):
    def test_two_threads_same_answers(self):
        sets = [rtpack.gen(30, "0.95", seed=11, index=i, deadlines="constrained")
                for i in range(60)]
        want = [rtpack.analyze(ts, p).document for ts in sets for p in ("edf", "fp")]
        got = [None, None]

        def work(k):
            got[k] = [rtpack.analyze(ts, p).document for ts in sets for p in ("edf", "fp")]

        threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(got, [want, want])


def rss_kib():
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Memory(unittest.TestCase):
    def test_100000_calls_flat_rss(self):
        """The resident set after 100,000 calls (analyze, sensitivity, a set
        built and freed, an error) grows by less than 4 MiB over the one
        after the first 10,000: nothing leaks per call."""
        ts = rtpack.TaskSet([rtpack.Task("a", 1_000, 4_000), rtpack.Task("b", 2_000, 6_000)])

        def calls(n):
            for i in range(n):
                k = i % 4
                if k == 0:
                    rtpack.analyze(ts, "edf")
                elif k == 1:
                    rtpack.sensitivity(ts, "fp")
                elif k == 2:
                    rtpack.TaskSet([rtpack.Task("c", 1, 3)])
                else:
                    try:
                        rtpack.TaskSet.from_json('{"tasks":[{"name":"x"}]}')
                    except rtpack.InputError:
                        pass
        calls(10_000)
        before = rss_kib()
        calls(90_000)
        after = rss_kib()
        print(f"\nRSS after 10,000 calls {before} KiB, after 100,000 {after} KiB")
        self.assertLess(after - before, 4096)


if __name__ == "__main__":
    unittest.main()
