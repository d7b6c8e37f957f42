#!/usr/bin/python3
"""Talks to gelucheck_tfjs.js (adapters/tfjs) over the protocol directly and checks every kernel
bit for bit against TensorFlow.js 4.22.0's formulas evaluated by hand, one float32 rounding per
tensor op (each op's result is a Float32Array):

  'gelu'     (tfjs-layers Gelu):    mul(x, mul(0.5, add(1, erf(div(x, Math.sqrt(2))))))
  'gelu_new' (tfjs-layers GeluNew): mul(0.5, mul(x, add(1, tanh(mul(sqrt(div(2, Math.PI)),
                                    add(x, mul(0.044715, pow(x, 3))))))))
  tf.erf

Scalars become float32 tensors (Math.sqrt(2), Math.PI, 0.044715 rounded to float32 first).
The cpu backend evaluates each op in double in JavaScript and stores float32; its erf is
Abramowitz & Stegun 7.1.26 (tfjs-backend-cpu kernels/Erf.ts, constants ERF_P, ERF_A1..A5 of
tfjs-core backend_util), written out below in the same order of operations.  The wasm backend
evaluates in float32: its erf and tanh are the C library's (Emscripten's musl), taken here as
the correctly rounded values (erf from MPFR through `gelucheck ref`, tanh from double tanh
rounded to float32) at inputs where the pinned build returns exactly those, except erff's own
formula for tiny x (below), and x^3 only at inputs where it is exact in float32 (powf is then
exact too).
Usage: check_values.py GELUCHECK NODE GELUCHECK_TFJS_JS
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from exec_client import (Adapter, bits32, check, f32, finish, from_bits32,  # noqa: E402
                         ref_bits)

# tfjs-core 4.22.0, src/backends/backend_util (erf_util.ts)
ERF_P, ERF_A1, ERF_A2 = 0.3275911, 0.254829592, -0.284496736
ERF_A3, ERF_A4, ERF_A5 = 1.421413741, -1.453152027, 1.061405429
INF, NAN = float('inf'), float('nan')
# 1e-30: the cpu erf's floor, 1 - (a1 + ... + a5) = 1e-9 (A&S 7.1.26's error is absolute)
X = [-INF, -10.0, -6.0, -5.6, -4.5, -3.0, -2.5, -1.5, -1.0, -0.75, -0.5, -1e-3, -1e-7, -0.0,
     0.0, 1e-30, 1e-10, 1e-7, 1e-3, 0.5, 0.75, 1.0, 1.25, 1.5, 2.5, 3.0, 4.5, 10.0, 1e30, 3e38, INF,
     NAN]
X = [f32(x) for x in X]


def js_sign(v):
    """Math.sign: NaN, +-0 as they are, else +-1"""
    return v if v == 0 or math.isnan(v) else math.copysign(1.0, v)


def erf_cpu(x):
    """tfjs-backend-cpu's erf of a float32 x, in double, rounded to float32"""
    sign, v = js_sign(x), abs(x)
    t = 1.0 / (1.0 + ERF_P * v)
    e = math.exp(-v * v) if not math.isinf(v) else 0.0
    poly = ((((ERF_A5 * t + ERF_A4) * t) + ERF_A3) * t + ERF_A2) * t + ERF_A1
    return f32(sign * (1.0 - poly * t * e))


def mul(a, b):
    return f32(a * b)  # inf * 0 is NaN in Python too


def gelu(x, erf):
    t = f32(x / f32(math.sqrt(2.0)))
    return mul(x, mul(0.5, f32(1.0 + erf(t))))


def gelu_new(x, tanh):
    c = f32(math.sqrt(f32(2.0 / f32(math.pi))))
    try:
        cube = f32(x ** 3)
    except OverflowError:
        cube = math.copysign(INF, x)
    inner = f32(x + mul(f32(0.044715), cube)) if not math.isnan(x) else NAN
    return mul(0.5, mul(x, f32(1.0 + tanh(mul(c, inner)))))


def tanh32(v):
    return f32(math.tanh(v)) if not math.isnan(v) else NAN


def exact_cube(x):
    return math.isinf(x) or math.isnan(x) or x == 0 or f32(x ** 3) == x ** 3


def same(got_bits, w):
    if math.isnan(w):
        return math.isnan(from_bits32(got_bits))
    return got_bits == bits32(w)


def main():
    gelucheck, node, script = sys.argv[1:4]

    # RN(erf(t)) for every t the wasm kernels need, from one `gelucheck ref` call
    ts = sorted({bits32(t) for x in X for t in (x, f32(x / f32(math.sqrt(2.0))))
                 if not math.isnan(t)})
    cr = dict(zip(ts, ref_bits(gelucheck, 'erf', 'f32', ['0x%08x' % t for t in ts])))

    def erf_mpfr(t):
        """the wasm erf: correctly rounded (MPFR) except where musl's erff (src/math/erff.c)
        takes its tiny branch, |x| < 2^-28: 0.125f*(8*x + efx8*x), efx8 = 1.0270333290e+00f,
        which is not always (at 1e-30: 0x0db7170a, RN 0x0db71709)"""
        if t != 0 and abs(t) < 2.0 ** -28:
            return f32(0.125 * f32(f32(8 * t) + f32(f32(1.0270333290) * t)))
        return NAN if math.isnan(t) else from_bits32(cr[bits32(t)])

    a = Adapter([node, script])
    check(a.banner[0] == 'gelucheck-exec 1', 'banner %r' % a.banner[0])
    check(a.banner[1].startswith('version @tensorflow/tfjs 4.22.0, @tensorflow/tfjs-backend-wasm '
                                 '4.22.0 (Node v'), 'version %r' % a.banner[1])
    want = {
        'gelu.f32.cpu': ('gelu', lambda x: gelu(x, erf_cpu), X),
        'gelu_new.f32.cpu': ('gelu_tanh', lambda x: gelu_new(x, tanh32), X),
        'erf.f32.cpu': ('erf', erf_cpu, X),
        'gelu.f32.wasm': ('gelu', lambda x: gelu(x, erf_mpfr), X),
        'gelu_new.f32.wasm': ('gelu_tanh', lambda x: gelu_new(x, tanh32),
                              [x for x in X if exact_cube(x)]),
        'erf.f32.wasm': ('erf', erf_mpfr, X),
    }
    check(sorted(a.kernels) == sorted(want), 'kernels %r' % sorted(a.kernels))
    for name, (func, f, xs) in want.items():
        if name not in a.kernels:
            continue
        backend = name.split('.')[-1]
        k = a.kernels[name]
        check(k[0] == func and k[1] == 'f32', '%s declares %s %s' % (name, k[0], k[1]))
        check('%s backend (tfjs-backend-%s 4.22.0' % (backend, backend) in k[2] and
              k[2].endswith('@tensorflow/tfjs 4.22.0'), name + ': description ' + k[2])
        ys = a.eval32(name, [bits32(x) for x in xs])
        for x, y in zip(xs, ys):
            w = f(x)
            check(y is not None and same(y, w), '%s(%r) = %s, want %r (0x%08x)'
                  % (name, x, y if y is None else '%r (0x%08x)' % (from_bits32(y), y), w,
                     bits32(w) if not math.isnan(w) else 0x7fc00000))
    # the protocol's edges: n = 0, an unknown kernel ends the stream (exit 1)
    check(a.request('eval erf.f32.cpu 0\n') == 'ok 0', 'empty batch')
    check(a.request('eval nope 1\n', bytes(4)).startswith('error '), 'unknown kernel')
    rc, err = a.close()
    check(rc == 1, 'exit status %d after an unknown kernel, want 1 (stderr %r)' % (rc, err))
    return finish('check_values (tfjs)')


if __name__ == '__main__':
    sys.exit(main())
