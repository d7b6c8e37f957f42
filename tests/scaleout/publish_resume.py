#!/usr/bin/python3
"""publish_resume.py SRC GELUCHECK DIR: `scripts/publish --exhaustive --shards 2` interrupted
by SIGTERM in the middle of its second shard, then run again (scaleout.cmake).

The kernel is hold_adapter.py's gelu_tanh.f32 (an exec adapter), run through
hold_gelucheck.sh: shard 1's first run holds its first request of each of its two threads
until this test lets them go.  The test waits for both requests to be held (so shard 1 has
started its sweep on both threads and cannot finish it: with one held, the other thread may
not have started its item when the signal comes, and a busy machine made it so once in a
CI run), sends SIGTERM to scripts/publish alone, which must
hand it to the shard's `gelucheck run`; waits for gelucheck's notice that it caught the signal,
then lets the requests go: the two work items in progress finish and the others are left.
Events, not sleeps: however busy the machine, the interruption lands mid-sweep.  Checks: exit
143 and nothing published; shard 0 kept as done; shard 1 kept with its partial result
("complete": false) and its part's line in time.txt (GNU time was not killed); then the same
command again must not rerun shard 0, must continue shard 1 with --resume, and must publish a
result equal to the uninterrupted run's (`gelucheck run` of the same command without shards,
in DIR/whole) byte for byte outside "timing" and "shard" (scripts/same_result.py)."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys

src, gelucheck, top = sys.argv[1:4]
gelucheck = os.path.abspath(gelucheck)
here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.normpath(os.path.join(here, "..", "adapters", "exec_fixtures"))
sys.path.insert(0, fixtures)
from hold_adapter import Gate, Output  # noqa: E402

publish = os.path.join(src, "scripts", "publish")
# shard 1: the odd items of 65,536 inputs in [-1.1, -1] (0xbf81...., 0xbf83...., ...): six
# items, of which the two held are the ones in progress when the signal comes
KERNEL, RANGE = "gelu_tanh.f32", "-1.1:-1"
ADAPTER = "exec:/usr/bin/python3 " + os.path.join(fixtures, "hold_adapter.py")
# the wait for gelucheck's notice guards against a hang alone (the requests are held until
# the notice comes): it decides nothing that a correct gelucheck and publish, however slow,
# could fail
GUARD_S = 600
p = None  # scripts/publish while it runs, in a session of its own


def fail(msg):
    if p and p.poll() is None:  # nothing left behind, held or not
        os.killpg(p.pid, signal.SIGKILL)
    sys.exit("publish_resume: FAIL: " + msg)


shutil.rmtree(top, ignore_errors=True)
pub, work, whole = (os.path.join(top, d) for d in ("pub", "work", "whole"))
for d in (pub, whole):
    os.makedirs(d)
gate = Gate(os.path.join(top, "hold"))
env = dict(os.environ, GELUCHECK_PUBLISH_GELUCHECK=os.path.join(here, "hold_gelucheck.sh"),
           GELUCHECK_TEST_REAL=gelucheck, GELUCHECK_TEST_HOLD_DIR=gate.folder,
           GELUCHECK_PUBLISH_DIR=pub, GELUCHECK_PUBLISH_RANGE=RANGE,
           GELUCHECK_PUBLISH_KERNEL=KERNEL)
cmd = [publish, "--exhaustive", "--shards", "2", "--work", work, ADAPTER]

# 1. interrupted while shard 1 has requests held
p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                     start_new_session=True)
out = Output(p.stdout, on_end=gate.ended)
if not gate.wait_held(2):
    fail("publish ended before both threads' requests of shard 1 were held:\n"
         + out.done().decode())
if b"publish: shard 1 of 2: " not in out.text():
    fail("a request was held outside shard 1:\n" + out.text().decode())
p.send_signal(signal.SIGTERM)
if not out.wait_for(b"gelucheck: SIGTERM: stopping after the work items in progress", GUARD_S):
    fail("no notice from gelucheck that it caught the SIGTERM (%s):\n%s"
         % ("publish ended" if p.poll() is not None else "none in %d s" % GUARD_S,
            out.text().decode()))
gate.release()  # the held requests go on: their items finish
rc = p.wait()
text = out.done().decode().replace("\r", "\n")
print(text[-3000:])
if rc != 143:
    fail("the interrupted publish: exit %d, want 143" % rc)
if "shard 1 was interrupted" not in text or "partial result is kept" not in text:
    fail("the interrupted publish does not say that shard 1's partial result is kept")
if os.listdir(pub):
    fail("the interrupted publish published something: %s" % os.listdir(pub))
if not os.path.isfile(os.path.join(work, "shard-0", "rc")):
    fail("shard 0 is not kept as done")
if os.path.exists(os.path.join(work, "shard-1", "rc")):
    fail("shard 1 is marked done although it was interrupted")
with open(os.path.join(work, "shard-1", "result.json")) as f:
    part = json.load(f)
if part.get("complete") is not False:
    fail("shard 1's result is not a partial one: complete = %r" % part.get("complete"))
# mid-sweep: the two items held (one per thread) were in progress and finished, no other
# item was started after the signal (the items before them hold no input in the range)
ulp = part["kernels"][0]["suites"][0]
covered = ulp["inputs"].get("covered", {}).get("x", [])
if ulp["name"] != "ulp" or ulp["points"] != 2 * 65536 or len(covered) != 2:
    fail("shard 1's partial ulp sweep: %s, %d points over %d intervals of x, want 2 items "
         "(131072 points)" % (ulp["name"], ulp["points"], len(covered)))
with open(os.path.join(work, "shard-1", "time.txt")) as f:
    lines = [l for l in f if re.fullmatch(r"[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+\n", l)]
if len(lines) != 1:
    fail("time.txt of shard 1 has %d lines of times, want 1 (its interrupted part)" % len(lines))

# 2. the same command again: shard 1 continued, shard 0 not rerun, published
r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
print(r.stdout)
if r.returncode != 0:
    fail("the second publish: exit %d" % r.returncode)
if "shard 0 of 2:" in r.stdout:
    fail("the second publish ran shard 0 again")
if "shard 1 of 2: continuing its interrupted run (--resume)" not in r.stdout:
    fail("the second publish did not continue shard 1 with --resume")
outs = [d for d in os.listdir(pub) if d.endswith("-exhaustive")]
if len(outs) != 1:
    fail("want one DATE-exhaustive folder in %s, found %s" % (pub, os.listdir(pub)))
readme = open(os.path.join(pub, outs[0], "README.md")).read()
if "as 2 shards run one after another on this machine" not in readme:
    fail("README.md does not say how it ran")
merged = os.path.join(top, "merged.json")
with open(merged, "wb") as f:
    subprocess.run(["xz", "-dc", os.path.join(pub, outs[0], "result.json.xz")], stdout=f,
                   check=True)

# 3. the uninterrupted run, and the comparison
# (the --timeout that hold_gelucheck.sh gives the shards is part of the command a result
# records: the same here; --threads is not)
w = subprocess.run([gelucheck, "run", "--timeout", "3600", "--adapter", ADAPTER, "--dtype",
                    "f32", "--exhaustive", "--range", RANGE, "--kernel", KERNEL, "--progress",
                    "never", "--json", "result.json"], cwd=whole, stdout=subprocess.DEVNULL)
if w.returncode > 1:
    fail("the uninterrupted run: exit %d" % w.returncode)
s = subprocess.run(["/usr/bin/python3", os.path.join(src, "scripts", "same_result.py"), merged,
                    os.path.join(whole, "result.json"), "2"])
if s.returncode:
    fail("the resumed audit's result is not the uninterrupted run's")
print("publish_resume: OK")
