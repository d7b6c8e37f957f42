#!/usr/bin/python3
"""Interrupted runs and --resume, end to end (docs/design.md sections 7 and 10; interrupt.cmake).

interrupt_check.py GELUCHECK DIR SCHEMA VALIDATE SIG[,SIG...] ARGS...

Runs `GELUCHECK ARGS --json result.json` in DIR/whole (uninterrupted), then in DIR/cut: the
same command with --progress always, sending each SIG in turn (SIGINT, SIGTERM) while the
first request of the kernel being interrupted is held (ARGS name the exec adapter
tests/adapters/exec_fixtures/hold_adapter.py; SIG@NAME holds the first request for kernel
NAME, SIG alone the first of any kernel), and letting the request go once gelucheck says it
caught the signal: events, not sleeps, put the interruption mid-sweep however fast the sweep
or busy the machine.  Each time it checks the exit status (130, 143), that result.json is whole
(schema-valid, no temporary file left; junit.xml parses when ARGS has --junit) with "complete":
false, the signal, the kernel in progress marked incomplete with its covered work items, and
the kernels not started listed; then --resume result.json again.  The last resume runs to the
end: its exit status must be the whole run's and its result.json equal to the whole run's byte
for byte outside "timing".  Finally --resume is refused (exit 2, one line) for a complete
result, another seed and another command.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from xml.etree import ElementTree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "adapters",
                                "exec_fixtures"))
from hold_adapter import Gate, Output  # noqa: E402

signal.signal(signal.SIGINT, signal.SIG_DFL)  # children inherit a default SIGINT
exe, top, schema, validate, sigs = sys.argv[1:6]
args = sys.argv[6:]
CODES = {"SIGINT": 130, "SIGTERM": 143}
# the wait for gelucheck's notice guards against a hang alone (the request is held until the
# notice comes): it decides nothing that a correct gelucheck, however slow, could fail
GUARD_S = 600
running = None  # the gelucheck run in progress, in a session of its own


def fail(msg):
    if running and running.poll() is None:  # nothing left behind, held or not
        os.killpg(running.pid, signal.SIGKILL)
    sys.exit("interrupt_check: " + msg)


def run(cwd, extra, sig=None, kernel=None, n=0):
    """gelucheck ARGS extra in cwd; with sig, sent while the first request of kernel (of any
    kernel when None) is held, in a hold folder of its own (n).  Returns (exit status,
    stdout, stderr)."""
    global running
    env, gate = None, None
    if sig:
        gate = Gate(os.path.join(top, "hold-%d" % n))
        env = dict(os.environ, **gate.env(kernel))
    running = p = subprocess.Popen([exe] + args + extra, cwd=cwd, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
    out, err = Output(p.stdout), Output(p.stderr, on_end=gate.ended if gate else None)
    if gate:
        if not gate.wait_held():
            fail("the run ended before a request of %s was held:\n%s"
                 % (kernel or "a kernel", err.done().decode()))
        p.send_signal(getattr(signal, sig))
        notice = b"gelucheck: %s: stopping after the work items in progress" % sig.encode()
        if not err.wait_for(notice, GUARD_S):
            fail("%s: no notice that gelucheck caught it (%s):\n%s"
                 % (sig, "the run ended" if p.poll() is not None else "none in %d s" % GUARD_S,
                    err.text().decode()))
        gate.release()  # the held requests go on: their items finish
    p.wait()
    return p.returncode, out.done().decode(), err.done().decode()


def load(path):
    if validate:
        v = subprocess.run(["/usr/bin/python3", validate, schema, path], capture_output=True,
                           text=True)
        if v.returncode:
            fail("%s does not validate:\n%s" % (path, v.stderr))
    with open(path) as f:
        return json.load(f)


def no_timing(doc):
    doc = dict(doc)
    doc.pop("timing")
    return json.dumps(doc, indent=1)


whole, cut = os.path.join(top, "whole"), os.path.join(top, "cut")
shutil.rmtree(top, ignore_errors=True)
for d in (whole, cut):
    os.makedirs(d)
out = ["--json", "result.json"]
rc_whole, _, err = run(whole, out + ["--progress", "never"])
if rc_whole > 1:
    fail("uninterrupted run: exit %d\n%s" % (rc_whole, err))
ref = load(os.path.join(whole, "result.json"))
result = os.path.join(cut, "result.json")

for i, spec in enumerate(sigs.split(",")):
    sig, _, kern = spec.partition("@")
    extra = out + ["--progress", "always"] + (["--resume", "result.json"] if i else [])
    rc, stdout, err = run(cut, extra, sig, kern or None, i)
    ctx = "\n--- stdout:\n%s--- stderr:\n%s" % (stdout, err)
    if rc != CODES[sig]:
        fail("%s: exit %d, want %d%s" % (sig, rc, CODES[sig], ctx))
    if not re.search(r"[\r\n]gelucheck: interrupted \(%s\): 1 kernel incomplete, [0-9]+ not run; "
                     r"what was measured is in 'result\.json' \(\"complete\": false\): "
                     r"continue with the same options and --resume 'result\.json'\n$" % sig,
                     err):
        fail("%s: no notice on stderr%s" % (sig, ctx))
    if "(incomplete: the run was interrupted)" not in stdout:
        fail("%s: the summary does not mark the kernel incomplete%s" % (sig, ctx))
    left = [f for f in os.listdir(cut) if f not in ("result.json", "junit.xml")]
    if left:
        fail("%s: files left beside the outputs (not atomic?): %s" % (sig, left))
    if "--junit" in args:  # the JUnit XML is written too, whole
        ElementTree.parse(os.path.join(cut, "junit.xml"))
    doc = load(result)
    if doc["complete"] is not False or doc["interrupted"]["signal"] != sig or \
            doc["interrupted"]["exit_code"] != CODES[sig]:
        fail("%s: not marked incomplete: complete %r, interrupted %r"
             % (sig, doc["complete"], doc.get("interrupted")))
    ks = doc["kernels"]
    partial = [k for k in ks if k.get("complete") is False]
    if len(partial) != 1 or ks[-1] is not partial[0]:
        fail("%s: want exactly the last kernel incomplete" % sig)
    for k, r in zip(ks[:-1], ref["kernels"]):  # the kernels that finished are whole
        if json.dumps(k) != json.dumps(r):
            fail("%s: finished kernel %s differs from the whole run's" % (sig, k["kernel"]))
    not_run = [(k["adapter"], k["kernel"]) for k in ref["kernels"][len(ks):]]
    got = [(k["adapter"], k["kernel"]) for k in doc["interrupted"]["kernels_not_run"]]
    if got != not_run:
        fail("%s: kernels_not_run %r, want %r" % (sig, got, not_run))
    ulp = partial[0]["suites"][-1]
    cov = ulp["inputs"].get("covered") if ulp["name"] == "ulp" else None
    want_points = [s["points"] for s in ref["kernels"][len(ks) - 1]["suites"]][0]
    # covered x intervals: an exhaustive sweep's items are intervals of x, a stratified one's
    # are random inputs of a binade (items only)
    dt = partial[0]["dtype"]
    has_x = dt in ("f16", "bf16") or (dt == "f32" and "--exhaustive" in args)
    if not cov or not cov["done"] or bool(cov.get("x")) != has_x or \
            not 0 < ulp["points"] < want_points:
        fail("%s: the partial ulp suite has no covered ranges or all points: %s"
             % (sig, json.dumps(ulp["inputs"])))
    if i == 0:
        with open(os.path.join(top, "first.json"), "w") as f:
            json.dump(doc, f)
    print("%s: exit %d, kernel %s incomplete: %d of %d points, items %s, x %s"
          % (sig, rc, partial[0]["kernel"], ulp["points"], want_points, cov["done"][:4],
             cov.get("x", [])[:2]))

rc, stdout, err = run(cut, out + ["--progress", "never", "--resume", "result.json"])
if rc != rc_whole:
    fail("resume: exit %d, want the whole run's %d\n%s%s" % (rc, rc_whole, stdout, err))
doc = load(result)
if no_timing(doc) != no_timing(ref):
    a, b = no_timing(doc).splitlines(), no_timing(ref).splitlines()
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    fail("resumed result differs from the whole run's at line %d:\n%s\n%s"
         % (first + 1, "\n".join(a[first:first + 3]), "\n".join(b[first:first + 3])))
print("resumed: exit %d, the whole run's result outside \"timing\"" % rc)

# refusals: exit 2, one line, nothing run (the first interrupted result is incomplete)
first = os.path.join(top, "first.json")
for src, extra, msg in (
        ("result.json", [], r"--resume 'result\.json': the result is complete: nothing to resume"),
        (first, ["--seed", "7"], r"--resume '[^']*': a result of another run: 'seed' differs"),
        (first, ["--dtype", "f32"], r"--resume '[^']*': a result of another command: it has "
                                    r"'\(end\)' where this one has '--dtype'")):
    rc, stdout, err = run(cut, ["--progress", "never", "--resume", src] + extra)
    if rc != 2 or stdout or not re.fullmatch(r"gelucheck: error: %s[^\n]*\n" % msg, err):
        fail("refusal: exit %d, stdout %r, stderr %r (want 2 and %s)" % (rc, stdout, err, msg))
print("refused: a complete result, another seed, another command")
