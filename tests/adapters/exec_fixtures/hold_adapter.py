#!/usr/bin/python3
"""hold_adapter.py: adapters/exec/example_adapter.py (its kernels, over the exec protocol)
that holds a request until a test lets it go, so that a test can interrupt a run in the
middle of its sweep without racing it (tests/scaleout/publish_resume.py,
tests/suites/interrupt_check.py).

With GELUCHECK_TEST_HOLD=DIR in the environment (empty or unset: no hold), the first request
this process gets (for the kernel GELUCHECK_TEST_HOLD_KERNEL=NAME when that is set) is held:
it writes "held PID" to the FIFO DIR/held (which the test keeps open for reading; not
blocking: without a reader the hold is an error), then waits for a shared flock on DIR/gate,
which the test holds exclusively until it lets the request go.  Then it answers the request
and every later one as the example does.

The test's side is here too: Gate (the FIFO and the lock) and Output (a process's output read
as it comes, to wait for a line in it).  Import this file as a module for them."""
import fcntl
import os
import sys
import threading


def hold(folder):
    fd = os.open(os.path.join(folder, "held"), os.O_WRONLY | os.O_NONBLOCK)
    os.write(fd, b"held %d\n" % os.getpid())
    os.close(fd)
    with open(os.path.join(folder, "gate"), "rb") as gate:
        fcntl.flock(gate, fcntl.LOCK_SH)  # blocks while the test holds LOCK_EX


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "..", "adapters", "exec"))
    import example_adapter as ex
    serve = ex.serve_request

    def serve_first(inp, out, line):
        folder = os.environ.get("GELUCHECK_TEST_HOLD")
        kernel = os.environ.get("GELUCHECK_TEST_HOLD_KERNEL")
        words = line.split(b" ")  # eval NAME N
        if folder and (not kernel or words[1:2] == [kernel.encode()]):
            ex.serve_request = serve  # this request alone is held
            hold(folder)
        return serve(inp, out, line)

    ex.serve_request = serve_first
    return ex.main()


class Gate:
    """The test's side, one per run to interrupt: a new FOLDER with the FIFO and the lock taken
    (requests are held from the start).  env(kernel): the variables that make the adapter hold;
    wait_held(n): True once n requests are held (one line each; each adapter process, one a
    thread, holds its first), False when ended() was called first (the run ended: call it
    from the thread that sees the end); release(): the held requests go on."""

    def __init__(self, folder):
        os.makedirs(folder)
        self.folder = folder
        os.mkfifo(os.path.join(folder, "held"))
        self.fd = os.open(os.path.join(folder, "held"), os.O_RDWR)  # writes never block
        self.lock = open(os.path.join(folder, "gate"), "wb")
        fcntl.flock(self.lock, fcntl.LOCK_EX)

    def env(self, kernel=None):
        return {"GELUCHECK_TEST_HOLD": self.folder, "GELUCHECK_TEST_HOLD_KERNEL": kernel or ""}

    def wait_held(self, n=1):
        buf = b""
        while True:  # (lines may come together in one read)
            lines = buf.split(b"\n")
            if sum(1 for line in lines if line.startswith(b"held ")) >= n:
                return True
            if b"ended" in lines:
                return False
            buf += os.read(self.fd, 256)

    def ended(self):
        os.write(self.fd, b"ended\n")

    def release(self):
        fcntl.flock(self.lock, fcntl.LOCK_UN)


class Output:
    """A stream (a process's stdout or stderr) read in a thread as it comes.  text(): what
    came so far; wait_for(pattern, timeout): until pattern (bytes) is in it or the stream
    ends, True when it is; done(): waits for the end.  on_end: called when the stream ends."""

    def __init__(self, stream, on_end=None):
        self.data, self.over, self.cond = b"", False, threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(stream, on_end))
        self.thread.start()

    def _read(self, stream, on_end):
        for chunk in iter(lambda: stream.read1(65536), b""):
            with self.cond:
                self.data += chunk
                self.cond.notify_all()
        with self.cond:
            self.over = True
            self.cond.notify_all()
        if on_end:
            on_end()

    def text(self):
        with self.cond:
            return self.data

    def wait_for(self, pattern, timeout=None):
        with self.cond:
            self.cond.wait_for(lambda: pattern in self.data or self.over, timeout)
            return pattern in self.data

    def done(self):
        self.thread.join()
        return self.data


if __name__ == "__main__":
    sys.exit(main())
