#!/usr/bin/python3
"""hold_adapter.py: adapters/exec/example_adapter.py (its kernels, over the exec protocol)
that holds its first request until a test lets it go, so that a test can interrupt a run in
the middle of its sweep without racing it (publish_resume.py).

With GELUCHECK_TEST_HOLD=DIR in the environment (empty or unset: no hold), the first request
this process gets is held: it writes "held PID" to the FIFO DIR/held (which the test keeps
open for reading; not blocking: without a reader the hold is an error), then waits for a
shared flock on DIR/gate, which the test holds exclusively until it lets the request go.
Then it answers the request and every later one as the example does."""
import fcntl
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "adapters", "exec"))
import example_adapter as ex  # noqa: E402

serve = ex.serve_request


def hold(folder):
    fd = os.open(os.path.join(folder, "held"), os.O_WRONLY | os.O_NONBLOCK)
    os.write(fd, b"held %d\n" % os.getpid())
    os.close(fd)
    with open(os.path.join(folder, "gate"), "rb") as gate:
        fcntl.flock(gate, fcntl.LOCK_SH)  # blocks while the test holds LOCK_EX


def serve_first(inp, out, line):
    ex.serve_request = serve  # this request alone is held
    folder = os.environ.get("GELUCHECK_TEST_HOLD")
    if folder:
        hold(folder)
    return serve(inp, out, line)


ex.serve_request = serve_first
sys.exit(ex.main())
