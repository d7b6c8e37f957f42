#!/usr/bin/env python3
"""Test fixture (gelucheck exec protocol v1, docs/design.md section 5.2): one f32 normpdf kernel,
exp(-x^2/2) * C in double rounded once to float, with C = 0x1.988452p-2, the float one below
RN(1/sqrt(2 pi)) = 0x1.988454p-2.  So normpdf(+-0) is 1 ulp low (an inexact special value)
and every output is within about 1.5 ulp: the default policy must pass it (special and
identity judge normpdf(0) by the accuracy it grants), strict must fail it."""
import math
import struct
import sys

C = float.fromhex('0x1.988452p-2')


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def main():
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    out.write(b'gelucheck-exec 1\nkernel normpdf_lo.f32 normpdf f32 exp(-x*x/2)*0x1.988452p-2 '
              b'in double, rounded to float\nready\n')
    out.flush()
    for line in inp:
        words = line.split()
        n = int(words[2])
        xs = struct.unpack('<%df' % n, inp.read(4 * n))
        ys = [f32(math.exp(-0.5 * x * x) * C) if not math.isinf(x) else 0.0 for x in xs]
        out.write(b'ok %d\n' % n + struct.pack('<%df' % n, *ys))
        out.flush()


main()
