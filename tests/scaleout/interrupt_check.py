#!/usr/bin/python3
"""interrupt_check.py SLURM_DEMO GELUCHECK: scripts/slurm-demo interrupted (SIGINT) while its
job array runs stops everything it started.  Waits for the line saying the array was
submitted, then for a shard's `gelucheck run` to be running under Slurm (a process with the
run's marker in its environment: events, not sleeps), sends SIGINT, and checks: exit 130, the script's own pgrep
check passed, its temporary folder is gone, and no process carries its marker
(GELUCHECK_SLURM_DEMO=folder) in its environment.  Exit 77 when Slurm cannot run here."""
import os
import re
import signal
import subprocess
import sys
import time


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
    p = subprocess.Popen([demo, "--gelucheck", gelucheck, "--range", "-6:-1", "--shards", "3",
                          "--timeout", "600"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    folder, lines = None, []
    for line in p.stdout:
        lines.append(line)
        sys.stdout.write(line)
        m = re.search(r"munged started \(socket (/\S+)/munge/munge\.socket\)", line)
        if m:
            folder = m.group(1)
        if "submitted job array" in line:
            break
    if folder:
        marker = ("GELUCHECK_SLURM_DEMO=" + folder).encode()
        end = time.monotonic() + 120
        while not any(b"--shard" in c for _, c in marked(marker)):
            if time.monotonic() > end or p.poll() is not None:
                print("interrupt_check: no shard started running within 120 s")
                break
            time.sleep(0.05)
        else:
            print("interrupt_check: a shard runs; SIGINT to slurm-demo")
    p.send_signal(signal.SIGINT)
    rest = p.stdout.read()
    sys.stdout.write(rest)
    rc = p.wait(timeout=300)
    out = "".join(lines) + rest
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
