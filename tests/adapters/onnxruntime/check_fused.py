#!/usr/bin/python3
"""The fused kernels (com.microsoft BiasGelu, FastGelu with bias, QuickGelu; graphs.js) of the
onnxruntime or onnxruntime-web adapter, spoken to directly, checked bit for bit against values
that follow from the graphs, not from a measurement:
  - BiasGelu and FastGelu get x + (-0.0) = x (every x, -0 and NaN included), and ORT computes
    Gelu/FastGelu with and without bias in one template (contrib_ops/cpu/bert/bias_gelu.cc,
    fast_gelu.cc): so ms_biasgelu = ms_gelu and ms_fastgelu_bias = ms_fastgelu, bit for bit,
    on batches that end in a padded row;
  - a float16 kernel that runs the float kernel between Casts (graphs.js) returns
    RN16(float kernel(x)) for every float16 x (float16 -> float is exact): checked on all
    65536 inputs for BiasGelu (float16 ms_gelu runs Gelu's function body instead: not equal);
  - QuickGelu x*sigmoid(1.702x) at inputs whose value is exact whatever sigmoid's error:
    f(+-0) = +-0, f(+inf) = +inf, f(NaN) = NaN, f(-inf) = NaN (-inf * 0: sigmoid underflows),
    and f(x) = x where sigmoid(1.702x) rounds to 1 (x >= 100: 1 - sigmoid < 2^-245).
Usage: check_fused.py NODE SCRIPT [--web]"""
import math
import struct
import sys

from check_protocol import Adapter

errors = []


def check(cond, what):
    if not cond:
        errors.append(what)


def bits(ys, dt):
    fmt = '<%d' + ('f' if dt == 'f32' else 'e')
    return struct.pack(fmt % len(ys), *ys)


def main():
    argv = sys.argv[1:]
    a = Adapter(argv)
    k = a.kernels
    fused = sorted(n for n in k if n.split('.')[0] in ('ms_quickgelu', 'ms_biasgelu',
                                                          'ms_fastgelu_bias'))
    # what graphs.js serves: every fused graph in float, BiasGelu in float16 at both levels,
    # QuickGelu in float16 at 'all' (ORT runs its function body below)
    want = ['ms_biasgelu.f16', 'ms_biasgelu.f16.noopt', 'ms_biasgelu.f32', 'ms_biasgelu.f32.noopt',
            'ms_fastgelu_bias.f32', 'ms_fastgelu_bias.f32.noopt', 'ms_quickgelu.f16',
            'ms_quickgelu.f32', 'ms_quickgelu.f32.noopt']
    check(fused == want, 'fused kernels %s, want %s' % (fused, want))
    check(all(k[n][0] == 'gelu_sigmoid' for n in fused if 'quick' in n), 'QuickGelu func')
    check('alpha = 1.702' in k.get('ms_quickgelu.f32', ('', '', ''))[2], 'alpha not described')
    check(a.banner[1].count('left out: ') == 1, 'version line does not name what was left out')

    # BiasGelu = Gelu, FastGelu(bias) = FastGelu: 2 rows of 768 and a padded third
    xs = [-12 + 24 * i / 1700 for i in range(1700)]
    xs[:6] = [0.0, -0.0, math.inf, -math.inf, math.nan, 2.0 ** -149]
    for fz, plain in (('ms_biasgelu', 'ms_gelu'), ('ms_fastgelu_bias', 'ms_fastgelu')):
        for suffix in ('.f32', '.f32.noopt'):  # float16 ms_gelu runs Gelu's function body
            if fz + suffix not in k:
                continue
            dt = suffix[1:4]
            ys, ps = a.eval(fz + suffix, xs), a.eval(plain + suffix, xs)
            ok = not isinstance(ys, str) and bits(ys, dt) == bits(ps, dt)
            check(ok, '%s%s differs from %s%s' % (fz, suffix, plain, suffix))
            if ok:
                check(math.copysign(1, ys[1]) < 0, '%s%s: f(-0) is not -0' % (fz, suffix))

    # float16 = RN16(float kernel), on every float16 input
    every = list(struct.unpack('<65536e', struct.pack('<65536H', *range(65536))))
    # (not ms_quickgelu.f16: its alpha is 1.702 rounded to float16, check_fused_graph.js)
    for name in ('ms_biasgelu.f16', 'ms_biasgelu.f16.noopt'):
        h, f = a.eval(name, every), a.eval(name.replace('f16', 'f32'), every)
        if isinstance(h, str) or isinstance(f, str):
            check(False, '%s: %s' % (name, h if isinstance(h, str) else f))
            continue
        want16 = struct.unpack('<65536H', struct.pack('<65536e', *[
            v if not math.isnan(v) else math.nan for v in f]))
        got16 = struct.unpack('<65536H', struct.pack('<65536e', *h))
        bad = [i for i in range(65536) if got16[i] != want16[i] and
               not (math.isnan(h[i]) and math.isnan(f[i]))]
        check(not bad, '%s differs from RN16(%s) at %d inputs, e.g. 0x%04x' % (
            name, name.replace('f16', 'f32'), len(bad), bad[0] if bad else 0))

    # QuickGelu's exact values
    big = struct.unpack('<f', struct.pack('<I', 0x7f7fffff))[0]  # the largest float
    xs = [0.0, -0.0, math.inf, math.nan, -math.inf, 100.0, 1000.0, 2.0 ** 100, big]
    for name in ('ms_quickgelu.f32', 'ms_quickgelu.f32.noopt', 'ms_quickgelu.f16'):
        q = xs[:-2] if name.endswith('f16') else xs  # 2^100, 3e38 are inf in float16
        ys = a.eval(name, q)
        if isinstance(ys, str):
            check(False, '%s: %s' % (name, ys))
            continue
        got = [(v, math.copysign(1, v)) if not math.isnan(v) else 'nan' for v in ys]
        exp = [(v, math.copysign(1, v)) if not math.isnan(v) else 'nan' for v in
               q[:4] + [math.nan] + q[5:]]
        check(got == exp, '%s: %s, want %s' % (name, got, exp))
    rc = a.close()
    check(rc == 0, 'exit status %s' % rc)
    for e in errors:
        print('FAIL: ' + e)
    print('%s: %d fused kernels checked' % (a.banner[1].split(' (')[0], len(fused)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
