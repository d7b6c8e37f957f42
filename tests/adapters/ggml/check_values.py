#!/usr/bin/python3
"""Talks to gelucheck_ggml (adapters/ggml) over the protocol directly and checks every kernel
bit for bit against its formula as ggml 0.19.0's source defines it (src/ggml-cpu/vec.h,
ggml-cpu.c), evaluated here by hand:

  ggml_gelu (GGML_GELU_FP16):  x <= -10 -> +0.0f;  x >= 10 -> x;  otherwise
      table[f16(x)], table[h] = f16(ggml_gelu_f32(h)),
      ggml_gelu_f32(x) = 0.5f*x*(1.0f + tanhf(SQRT_2_OVER_PI*x*(1.0f + GELU_COEF_A*x*x)))
  ggml_gelu_quick (GGML_GELU_QUICK_FP16): table[f16(x)], no clamp,
      ggml_gelu_quick_f32(x) = x*(1.0f/(1.0f + expf(GELU_QUICK_COEF*x)))
  ggml_gelu_erf: 0.5f*x*(1.0f + erff(x*SQRT_2_INV))

in binary32, one rounding per C operation (struct), with tanhf, expf and erff of the same glibc
the library calls (ctypes).  The variants built with FMA (piledriver and above in ggml's list)
contract 1.0f + GELU_COEF_A*x*x into fmaf(GELU_COEF_A*x, x, 1.0f) (gcc -O2 -mfma, gnu11): at
x = -1.9990234375 (f16 0xbfff) that moves the table entry from 0xa9d2 to 0xa9d3.

Independently, the tables are checked against MPFR (`gelucheck ref ... --dtype f16`): at the
inputs below every entry is the correctly rounded f16 value of gelu_tanh or gelu_sigmoid at
f16(x) except where listed in NOT_CR, and why.
Usage: check_values.py GELUCHECK GELUCHECK_GGML LIBDIR
"""
import ctypes
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from exec_client import (Adapter, bits16, bits32, check, f32, finish,  # noqa: E402
                         from_bits16, from_bits32, ref_bits)

LIBM = ctypes.CDLL('libm.so.6')
for _fn, _n in (('tanhf', 1), ('expf', 1), ('erff', 1), ('fmaf', 3)):
    getattr(LIBM, _fn).restype = ctypes.c_float
    getattr(LIBM, _fn).argtypes = [ctypes.c_float] * _n

# src/ggml-cpu/vec.h (ggml 0.19.0): static const float
GELU_COEF_A = f32(0.044715)
GELU_QUICK_COEF = f32(-1.702)
SQRT_2_OVER_PI = f32(0.79788456080286535587989211986876)
SQRT_2_INV = f32(0.70710678118654752440084436210484)
NO_FMA = ('x64', 'sse42', 'sandybridge', 'ivybridge')  # ggml's variants without FMA

INF, NAN = float('inf'), float('nan')
# f32 inputs: the clamps (+-10), the f16 range (65504 and the 65520 that rounds to inf), f16
# ties (-1.99951171875: halfway between f16 0xbfff and 0xc000; 2^-25: halfway to 0), inputs
# that are not f16 values, the tail, and 0xbfff itself
X = [-INF, -1e30, -65520.0, -20.0, -10.5, -10.0, -9.99, -7.25, -5.6, -5.3, -4.1, -3.3, -2.6,
     -1.99951171875, -1.9990234375, -1.0, -0.7, -0.3, -1e-3, -1e-7, -2.0 ** -25, -0.0, 0.0,
     2.0 ** -25, 2.0 ** -24, 6.1e-5, 0.3, 0.5, 1.0, 1.7, 2.5, 4.99, 9.5, 10.0, 12.5, 65519.0,
     65520.0, 1e30, INF, NAN]
# (kernel op, f16 bits of x): entries whose table value is not the correctly rounded f16 one,
# with the hand formula's reason.  Every other input checked here is correctly rounded.
NOT_CR = {
    # gelu_tanh(2^-24) = 2^-25 + tiny rounds up; in float the product is exactly 2^-25, a tie
    ('gelu', 0x0001): 'x = 2^-24: the float formula gives exactly the tie 2^-25 (-> 0)',
    # the tail: 1 + tanhf(u) cancels as tanhf(u) nears -1 (u = -3.46 here)
    ('gelu', 0xc41a): 'x = -4.1: 1 + tanhf(u) cancels, the float value is 1 f16 ulp off',
    # just below a midpoint (-0x1.749ff9cdp-5 vs -0x1.74ap-5): the fma rounds above it
    ('gelu.fma', 0xbfff): 'x = -1.9990234375: 1 + A*x*x fused lands above the f16 midpoint',
}


def f16_of(x):
    """f16(x) as ggml rounds: to nearest even (x is a binary32 value)."""
    return bits16(x)


def gelu_f32(h, fma):
    """ggml_gelu_f32(h) in binary32; with fma, 1.0f + GELU_COEF_A*h*h is one fmaf."""
    ax = f32(GELU_COEF_A * h)
    inner = LIBM.fmaf(ax, h, 1.0) if fma else f32(1.0 + f32(ax * h))
    u = f32(f32(SQRT_2_OVER_PI * h) * inner)
    return f32(f32(0.5 * h) * f32(1.0 + LIBM.tanhf(u)))


def gelu_quick_f32(h):
    e = LIBM.expf(f32(GELU_QUICK_COEF * h))
    return f32(h * f32(1.0 / f32(1.0 + e)))


def table(value):
    """a table entry: the float result rounded to f16, widened back"""
    return from_bits16(bits16(value))


def want(op, x, fma):
    if math.isnan(x):
        return NAN
    if op == 'gelu':
        if x <= -10.0:
            return 0.0  # +0.0f, whatever the sign of x
        if x >= 10.0:
            return x
        return table(gelu_f32(from_bits16(f16_of(x)), fma))
    if op == 'gelu_quick':
        h = from_bits16(f16_of(x))
        if math.isinf(h):  # inf*(1/(1+expf(-inf))) = inf; -inf*(1/(1+expf(inf))) = -inf*0
            return h if h > 0 else NAN
        return table(gelu_quick_f32(h))
    return f32(f32(0.5 * x) * f32(1.0 + LIBM.erff(f32(x * SQRT_2_INV))))


def same(got_bits, w):
    """bit equality, any NaN for NaN"""
    if math.isnan(w):
        return math.isnan(from_bits32(got_bits))
    return got_bits == bits32(w)


def check_tables_vs_mpfr(gelucheck):
    """the hand-evaluated table entries at X against MPFR's correctly rounded f16 values"""
    hs = sorted({f16_of(x) for x in X if not math.isnan(x) and abs(x) < 65520})
    for op, func in (('gelu', 'gelu_tanh'), ('gelu_quick', 'gelu_sigmoid')):
        cr = ref_bits(gelucheck, func, 'f16', ['0x%04x' % h for h in hs])
        for fma in (False, True):
            for h, c in zip(hs, cr):
                if op == 'gelu' and abs(from_bits16(h)) >= 10:
                    continue
                v = gelu_f32(from_bits16(h), fma) if op == 'gelu' else \
                    gelu_quick_f32(from_bits16(h))
                key = (op + ('.fma' if fma else ''), h)
                expect_cr = key not in NOT_CR and (op, h) not in NOT_CR
                check((bits16(v) == c) == expect_cr,
                      '%s table[0x%04x]: hand 0x%04x, MPFR 0x%04x (%s)'
                      % (key[0], h, bits16(v), c, NOT_CR.get(key, NOT_CR.get((op, h), 'CR'))))


def main():
    gelucheck, prog, libdir = sys.argv[1:4]
    check_tables_vs_mpfr(gelucheck)
    a = Adapter([prog, libdir])
    check(a.banner[0] == 'gelucheck-exec 1', 'banner %r' % a.banner[0])
    check(a.banner[1].startswith('version ggml 0.19.0 (commit '), 'version %r' % a.banner[1])
    variants = sorted({k.split('.')[2] for k in a.kernels})
    check('x64' in variants and len(variants) in (1, 2), 'variants %r' % variants)
    for v in variants:
        for op, func in (('gelu', 'gelu_tanh'), ('gelu_quick', 'gelu_sigmoid'),
                         ('gelu_erf', 'gelu')):
            name = '%s.f32.%s' % (op, v)
            check(a.kernels.get(name, ('',))[0] == func, '%s declares %r, want %s'
                  % (name, a.kernels.get(name), func))
            if name not in a.kernels:
                continue
            desc = a.kernels[name][2]
            check('ggml 0.19.0 (commit ' in desc and 'CPU variant %s ' % v in desc,
                  name + ': description lacks the version or the variant')
            if op != 'gelu_erf':
                check('confirmed at start-up' in desc, name + ': the f16 table not confirmed')
            ys = a.eval32(name, [bits32(x) for x in X])
            for x, y in zip(X, ys):
                w = want(op, x, v not in NO_FMA)
                check(y is not None and same(y, w), '%s(%r) = %s, want %r (0x%08x)'
                      % (name, x, y if y is None else '%r (0x%08x)' % (from_bits32(y), y),
                         w, bits32(w) if not math.isnan(w) else 0x7fc00000))
    # the protocol's edges: n = 0, an unknown kernel ends the stream (exit 1)
    check(a.request('eval gelu.f32.x64 0\n') == 'ok 0', 'empty batch')
    check(a.request('eval nope 1\n', bytes(4)).startswith('error '), 'unknown kernel')
    rc, err = a.close()
    check(rc == 1, 'exit status %d after an unknown kernel, want 1 (stderr %r)' % (rc, err))
    return finish('check_values (ggml)')


if __name__ == '__main__':
    sys.exit(main())
