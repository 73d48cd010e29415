#!/usr/bin/env python3
"""bench/bench_python.py — the Python package's cost over the C call, and
whether cffi releases the GIL (docs/python.md "Performance").

1. One 50-task EDF analysis (rtpack.gen, U = 0.9, constrained deadlines):
   rtpack.analyze(ts, "edf") per call vs bench_api (the same rtp_analyze +
   result text in C), as a ratio, medians of 7 rounds.
2. The GIL: how far a spinning Python thread gets during one long C call
   compared with alone in the same time (1 = released around the call).

Ratios, with the load average beside them (other engineers share the
machine). usage: RTPACK_LIBRARY=build/librtpack.so PYTHONPATH=python \
  python3 bench/bench_python.py build/bench_api"""
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import rtpack


def per_call_us(fn, calls):
    rounds = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        rounds.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(rounds)


def main():
    bench_api = sys.argv[1]
    ts = rtpack.gen(50, "0.9", seed=1, deadlines="constrained")
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write(ts.to_json())
        f.flush()
        c_us = float(subprocess.run([bench_api, f.name, "2000"], capture_output=True, text=True,
                                    check=True).stdout)
    py_us = per_call_us(lambda: rtpack.analyze(ts, "edf"), 2000)
    print(f"# load average {os.getloadavg()[0]:.2f}")
    print(f"50-task EDF analysis: C {c_us:.1f} us, Python {py_us:.1f} us per call, "
          f"ratio Python/C {py_us / c_us:.2f}")

    # The GIL: Python work another thread gets done during one long C call
    # (EDF sensitivity of examples' plant10), over what it does alone in
    # the same time: ~1 when cffi releases the GIL around the call, ~0 if not.
    big = rtpack.TaskSet.load(os.path.join(os.path.dirname(__file__), "..", "examples",
                                           "plant10.json"))
    count, done = [0], threading.Event()

    def spin():
        while not done.is_set():
            count[0] += 1

    spinner = threading.Thread(target=spin)
    t0 = time.perf_counter()
    spinner.start()
    rtpack.sensitivity(big, "edf")
    done.set()
    spinner.join()
    during = time.perf_counter() - t0
    alone, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < during:
        alone += 1
    print(f"# load average {os.getloadavg()[0]:.2f}")
    print(f"Python thread's progress during a {during:.1f} s C call / alone: "
          f"{count[0] / alone:.2f} (1 = GIL released)")


if __name__ == "__main__":
    main()
