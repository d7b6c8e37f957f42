#!/usr/bin/python3
"""--range with an end at 0 (a regression test): the exhaustive ulp suite over --range=LO:HI
must sweep exactly the non-zero binary32 values x with LO <= x <= HI (the ulp suite leaves +-0
to the special suite).  Counted here independently, by walking bit patterns.  Once `0` was taken for the -0
bit pattern: `--range -1:0` swept nothing and `--range 0:8` every negative input as well.
    check_range_zero.py GELUCHECK WORKDIR"""
import json
import os
import struct
import subprocess
import sys


def count(lo, hi):
    """non-zero binary32 values in [lo, hi] (lo, hi tiny: walks the patterns near 0)"""
    n = 0
    for sign in (0, 0x80000000):
        for m in range(0, 1 << 20):
            x = struct.unpack('<f', struct.pack('<I', sign | m))[0]
            n += x != 0 and lo <= x <= hi
    return n


def main():
    gelucheck, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    bad = []
    for lo, hi in ((-1e-40, 0.0), (0.0, 1e-40), (-1e-40, 1e-40)):
        out = os.path.join(work, 'range.json')
        arg = '--range=%r:%r' % (lo, hi)
        p = subprocess.run([gelucheck, 'run', '--adapter', 'libm', '--kernel', 'erfc.f32',
                            '--suite', 'ulp', '--exhaustive', arg, '--json', out,
                            '--progress', 'never'], capture_output=True, text=True)
        if p.returncode not in (0, 1):
            bad.append('%s: exit %d: %s' % (arg, p.returncode, p.stderr[-300:]))
            continue
        k = json.load(open(out))['kernels'][0]
        got = next(s for s in k['suites'] if s['name'] == 'ulp')['metrics']['overall']['points']
        want = count(lo, hi)
        if got != want:
            bad.append('%s: the ulp suite swept %d inputs, want %d' % (arg, got, want))
    for b in bad:
        print('FAIL: ' + b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
