#!/usr/bin/python3
"""threads_default.py GELUCHECK DIR: `gelucheck run` without --threads uses as many threads as
the CPUs it may run on (its affinity mask, as nproc counts them), not every online CPU: run
pinned to one CPU, it records "timing": {"threads": 1}; run with this process's own mask, as
many as that mask holds (run.cmake)."""
import json
import os
import subprocess
import sys

exe, top = sys.argv[1:3]
os.makedirs(top, exist_ok=True)
mask = sorted(os.sched_getaffinity(0))


def threads(cpus):
    out = os.path.join(top, "threads-%d.json" % len(cpus))
    r = subprocess.run([exe, "run", "--adapter", "libm", "--kernel", "erfc.f32", "--suite",
                        "special", "--progress", "never", "--json", out],
                       preexec_fn=lambda: os.sched_setaffinity(0, cpus),
                       stdout=subprocess.DEVNULL)
    if r.returncode > 1:  # 1: the kernel fails the policy (-inf gives NaN), a finding
        sys.exit("threads_default: FAIL: the run pinned to CPUs %s: exit %d" % (cpus, r.returncode))
    with open(out) as f:
        return json.load(f)["timing"]["threads"]


for cpus in ([mask[0]], mask):
    got = threads(cpus)
    if got != min(len(cpus), 1024):
        sys.exit("threads_default: FAIL: pinned to CPUs %s, the run used %d threads, want %d"
                 % (cpus, got, len(cpus)))
    print("threads_default: CPUs %s: %d threads" % (cpus, got))
print("threads_default: OK (%d CPUs online)" % os.cpu_count())
