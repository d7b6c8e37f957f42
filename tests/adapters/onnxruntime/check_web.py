#!/usr/bin/python3
"""onnxruntime-web against onnxruntime: both adapters must list the same kernel names (so that
gelucheck compare lines them up), with the same func and dtype; then every kernel runs on a
fixed input set on both builds (float: 4096 points on [-12, 12) and the special values;
float16: all 65536 inputs) and the differing outputs are counted (bit patterns; any NaN equals
any NaN) and printed.  The builds need not agree; the test fails when the comparison could not
run (a kernel missing, an error reply, a count that differs, no kernel compared).
Usage: check_web.py NODE SCRIPT"""
import math
import struct
import sys

from check_protocol import Adapter

F32 = [-12 + 24 * i / 4096 for i in range(4096)] + [0.0, -0.0, math.inf, -math.inf, math.nan,
                                                       2.0 ** -149, -(2.0 ** -149), 3.0e38]
F32 = list(struct.unpack('<%df' % len(F32), struct.pack('<%df' % len(F32), *F32)))
F16 = list(struct.unpack('<65536e', struct.pack('<65536H', *range(65536))))


def same(p, q):
    if math.isnan(p) and math.isnan(q):
        return True
    return p == q and math.copysign(1, p) == math.copysign(1, q)


def main():
    node, script = sys.argv[1:3]
    native, web = Adapter([node, script]), Adapter([node, script, '--web'])
    problems = []
    if sorted(native.kernels) != sorted(web.kernels):
        problems.append('kernel names differ: only native %s, only web %s' % (
            sorted(set(native.kernels) - set(web.kernels)),
            sorted(set(web.kernels) - set(native.kernels))))
    compared, total = 0, 0
    for name in sorted(native.kernels):
        if name not in web.kernels:
            continue
        if native.kernels[name][:2] != web.kernels[name][:2]:
            problems.append('%s: func, dtype %s vs %s' % (name, native.kernels[name][:2],
                                                          web.kernels[name][:2]))
            continue
        xs = F16 if native.kernels[name][1] == 'f16' else F32
        a, b = native.eval(name, xs), web.eval(name, xs)
        if isinstance(a, str) or isinstance(b, str) or len(a) != len(xs) or len(b) != len(xs):
            problems.append('%s: no comparison: %s / %s' % (
                name, a if isinstance(a, str) else len(a), b if isinstance(b, str) else len(b)))
            continue
        diff = sum(1 for p, q in zip(a, b) if not same(p, q))
        print('%-28s %6d of %5d outputs differ' % (name, diff, len(xs)))
        compared += 1
        total += diff
    for who, ad in (('onnxruntime', native), ('onnxruntime-web', web)):
        rc = ad.close()
        if rc != 0:
            problems.append('%s exited with %s' % (who, rc))
    if compared == 0:
        problems.append('no kernel compared')
    for p in problems:
        print('FAIL: ' + p)
    print('%d kernels compared, %d outputs differ in all' % (compared, total))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
