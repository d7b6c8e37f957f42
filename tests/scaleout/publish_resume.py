#!/usr/bin/python3
"""publish_resume.py SRC GELUCHECK DIR: `scripts/publish --exhaustive --shards 2` interrupted
by SIGTERM in the middle of its second shard, then run again (scaleout.cmake).

The interruption is synchronised on the shard's own progress line (GELUCHECK_PUBLISH_PROGRESS
=always): once shard 1 reports inputs measured, SIGTERM goes to scripts/publish alone, which
must hand it to the shard's `gelucheck run` and wait for it.  Checks: exit 143 and nothing
published; shard 0 kept as done; shard 1 kept with its partial result ("complete": false)
and its part's line in time.txt (GNU time was not killed); then the same command again must
not rerun shard 0, must continue shard 1 with --resume, and must publish a result equal to
the uninterrupted run's (`gelucheck run` of the same command without shards, in DIR/whole)
byte for byte outside "timing" and "shard" (scripts/same_result.py)."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys

src, gelucheck, top = sys.argv[1:4]
publish = os.path.join(src, "scripts", "publish")
KERNEL, RANGE = "tanh.f32", "-4:-1"  # shard 1: 8.4 million inputs of the ulp suite, seconds


def fail(msg):
    sys.exit("publish_resume: FAIL: " + msg)


shutil.rmtree(top, ignore_errors=True)
pub, work, whole = (os.path.join(top, d) for d in ("pub", "work", "whole"))
os.makedirs(pub)
os.makedirs(whole)
env = dict(os.environ, GELUCHECK_PUBLISH_GELUCHECK=gelucheck, GELUCHECK_PUBLISH_DIR=pub,
           GELUCHECK_PUBLISH_RANGE=RANGE, GELUCHECK_PUBLISH_KERNEL=KERNEL)
cmd = [publish, "--exhaustive", "--shards", "2", "--work", work, "libm"]

# 1. interrupted in shard 1 once it has measured something
p = subprocess.Popen(cmd, env=dict(env, GELUCHECK_PUBLISH_PROGRESS="always"),
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
out = b""
started = None
while True:
    chunk = p.stdout.read1(65536)
    if not chunk:
        fail("publish ended before shard 1 could be interrupted:\n" + out.decode())
    out += chunk
    if started is None:
        m = re.search(rb"publish: shard 1 of 2: ", out)
        started = m.end() if m else None
    if started is not None and any(0 < int(n) < int(t) for n, t in
                                   re.findall(rb"ulp  ([0-9]+)/([0-9]+)", out[started:])):
        p.send_signal(signal.SIGTERM)
        break
out += p.stdout.read()
rc = p.wait()
text = out.decode().replace("\r", "\n")
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
w = subprocess.run([gelucheck, "run", "--adapter", "libm", "--dtype", "f32", "--exhaustive",
                    "--range", RANGE, "--kernel", KERNEL, "--progress", "never", "--json",
                    "result.json"], cwd=whole, stdout=subprocess.DEVNULL)
if w.returncode > 1:
    fail("the uninterrupted run: exit %d" % w.returncode)
s = subprocess.run(["/usr/bin/python3", os.path.join(src, "scripts", "same_result.py"), merged,
                    os.path.join(whole, "result.json"), "2"])
if s.returncode:
    fail("the resumed audit's result is not the uninterrupted run's")
print("publish_resume: OK")
