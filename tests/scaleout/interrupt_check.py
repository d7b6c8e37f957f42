#!/usr/bin/python3
"""interrupt_check.py SLURM_DEMO GELUCHECK: scripts/slurm-demo interrupted (SIGINT) while its
job array runs stops everything it started.  The shards sweep hold_adapter.py's gelu_erfc.f32
(an exec adapter, tests/adapters/exec_fixtures/), which holds each shard's first request: the
test waits for the line saying the array was submitted, then for a request to be held (a
shard runs and cannot end: events, not sleeps), sends SIGINT, lets the requests go, and
checks: exit 130, the script's own pgrep check passed, its temporary folder is gone, and no
process carries its marker (GELUCHECK_SLURM_DEMO=folder) in its environment.  Exit 77 when
Slurm cannot run here."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

FIXTURES = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                         "adapters", "exec_fixtures"))
sys.path.insert(0, FIXTURES)
from hold_adapter import Gate, Output  # noqa: E402


def marked(marker):
    """The pids and command lines of the processes with marker in their environment."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                if marker not in f.read().split(b"\0"):
                    continue
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                out.append((pid, f.read().split(b"\0")))
        except OSError:
            pass
    return out


def main():
    demo, gelucheck = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="gelucheck-hold.")
    gate = Gate(os.path.join(tmp, "hold"))
    try:
        return check(demo, gelucheck, gate)
    finally:
        gate.release()
        shutil.rmtree(tmp)


def check(demo, gelucheck, gate):
    p = subprocess.Popen([demo, "--gelucheck", gelucheck, "--adapter",
                          "exec:/usr/bin/python3 " + os.path.join(FIXTURES, "hold_adapter.py"),
                          "--kernel", "gelu_erfc.f32", "--range", "-1.5:-1.3", "--shards", "3",
                          "--timeout", "600"], env=dict(os.environ, **gate.env()),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = Output(p.stdout, on_end=gate.ended)
    folder = None
    if out.wait_for(b"submitted job array"):
        m = re.search(rb"munged started \(socket (/\S+)/munge/munge\.socket\)", out.text())
        folder = m.group(1).decode() if m else None
        if gate.wait_held():
            print("interrupt_check: a shard's request is held; SIGINT to slurm-demo")
        else:
            print("interrupt_check: slurm-demo ended before a shard's request was held")
    marker = ("GELUCHECK_SLURM_DEMO=%s" % folder).encode()
    p.send_signal(signal.SIGINT)
    gate.release()  # the shards go on, or are stopped by then: either way, nothing is left
    rc = p.wait(timeout=300)
    out = out.done().decode()
    sys.stdout.write(out)
    if rc == 77:
        return 77
    ok = True
    if rc != 130:
        print("interrupt_check: exit %d, want 130" % rc)
        ok = False
    if "pgrep finds nothing left" not in out:
        print("interrupt_check: slurm-demo did not report nothing left")
        ok = False
    if not folder:
        print("interrupt_check: no temporary folder in the output")
        return 1
    if os.path.exists(folder):
        print("interrupt_check: %s is left" % folder)
        ok = False
    for pid, cmd in marked(marker):
        print("interrupt_check: process %s is left running: %r" % (pid, cmd))
        ok = False
    print("interrupt_check: %s" % ("OK" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
