#!/usr/bin/env python3
"""Fixture of the crash and timeout tests (tests/suites/crash.cmake): an exec adapter
(docs/design.md section 5.2) whose f32 GELU kernels die or stall in the ways a kernel under test
does, and one that behaves.  Every kernel computes 0.5*x*erfc(-x/sqrt2) in double and rounds
it once to float (within 0.5 ulp + 2^-29 ulp of the true value: it passes the default policy),
then, before replying:

  segv.f32      kills the process with SIGSEGV (any batch with an input)
  abort.f32     os.abort(): SIGABRT (any batch with an input)
  segv_at.f32   SIGSEGV only when the batch holds x = 2 (0x40000000): the bisection must
                find exactly that input, a batch of 1
  hang.f32      never replies (any batch with an input)
  slow.f32      sleeps 3 s, then replies correctly (past a --timeout of 1 s)
  halfexit.f32  writes 'ok N' and half the payload, then exits with status 0
  huge.f32      replies 'ok 9999999' (a count that differs from the request's)
  good.f32      behaves (listed last: it must still be measured after the others)

With the argument 'only-good' it offers good.f32 alone (a restart that changes the kernel
list must fail).  Standard library only.
"""
import math
import os
import signal
import struct
import sys
import time

inp, out = sys.stdin.buffer, sys.stdout.buffer
SQRT2 = math.sqrt(2.0)
CRASH_AT = 2.0  # segv_at.f32 dies on this input


def gelu(x):
    if math.isnan(x) or x == math.inf:
        return x
    if x == -math.inf:
        return -0.0
    v = 0.5 * x * math.erfc(-x / SQRT2)
    try:
        return struct.unpack('<f', struct.pack('<f', v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def send(data):
    out.write(data)
    out.flush()


KERNELS = ['segv.f32', 'abort.f32', 'segv_at.f32', 'hang.f32', 'slow.f32', 'halfexit.f32',
           'huge.f32', 'good.f32']


def serve(name, xs):
    n = len(xs)
    ys = struct.pack('<%df' % n, *[gelu(x) for x in xs])
    if n and name == 'segv.f32' or (name == 'segv_at.f32' and CRASH_AT in xs):
        os.kill(os.getpid(), signal.SIGSEGV)
    if n and name == 'abort.f32':
        os.abort()
    if n and name == 'hang.f32':
        time.sleep(3600)
    if name == 'slow.f32':
        time.sleep(3)
    if n and name == 'halfexit.f32':
        send(b'ok %d\n' % n + ys[:len(ys) // 2])
        sys.exit(0)
    if name == 'huge.f32':
        send(b'ok 9999999\n')
        return
    send(b'ok %d\n' % n + ys)


def main():
    names = ['good.f32'] if sys.argv[1:] == ['only-good'] else KERNELS
    send(b'gelucheck-exec 1\n' +
         b''.join(b'kernel %s gelu f32 crash fixture\n' % k.encode() for k in names) +
         b'ready\n')
    while True:
        line = inp.readline()
        if not line:
            return 0
        _, name, n = line.decode().split()
        n = int(n)
        xs = struct.unpack('<%df' % n, inp.read(4 * n))
        serve(name, xs)


if __name__ == '__main__':
    sys.exit(main())
