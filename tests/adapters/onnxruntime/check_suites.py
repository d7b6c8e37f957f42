#!/usr/bin/python3
"""Runs gelucheck's ulp, special, tail and fingerprint suites on the four kernels of one graph
family of the onnxruntime adapter (f32, f16, each optimized and .noopt) and checks the JSON
result against what ONNX Runtime 1.30.0's CPU EP was measured to do, and why it does it.
Usage: check_suites.py GELUCHECK FAMILY WORKDIR [ADAPTER]   (onnxruntime, or onnxruntime-web:
the same graphs on the WebAssembly build, held to the same bounds)

The bounds hold for the AVX512F and the generic MLAS paths alike where the reason given is
the formula, not the kernel; those that come from MLAS's tanh say so.  A kernel that gets
better fails its expectation too: then the README and these numbers are updated together."""
import json
import os
import subprocess
import sys

F32_MAX, F16_MAX = '0x7f7fffff', '0x7bff'
F32_INF = '0x7f800000'
# family -> what every kernel of it shows; per-kernel exceptions in FLT_MAX_OVERFLOWS
FAMILIES = {
    # 0.5*x*(1+erf(x/sqrt2)) in float: 1+erf cancels, so GELU is 0 once erf(x/sqrt2) rounds
    # to -1, at x ~ -5.54 (Phi(x) < 2^-25), far above the last non-zero -14.356 (f32).  x >= -1:
    # erf faithful (MLAS erf.cpp) plus three roundings: a few ulp (measured 1.98, noopt 2.48).
    # f16: ORT has no CPU float16 kernels; it runs the graph in float between Casts, so x >= -1
    # is within one f16 ulp (measured 0.50 gelu20, 0.70 where float16 constants enter).
    'gelu20': dict(func='gelu', ulp32=4, ulp16=1, all16=8, flush=(-5.60, -5.50)),
    'ms_gelu': dict(func='gelu', ulp32=4, ulp16=1, all16=8, flush=(-5.60, -5.50)),
    'erf_decomp': dict(func='gelu', ulp32=4, ulp16=1, all16=8, flush=(-5.60, -5.50)),
    # the tanh form: 1+tanh cancels; MLAS tanh reaches -1 (and a little beyond: the wrong
    # sign) near z = -8.1, x ~ -4.9.  x >= -1: measured 4.74 (f32), 0.58 (f16).
    'gelu20_tanh': dict(func='gelu_tanh', ulp32=8, ulp16=1, all16=12, flush=(-5.0, -4.85),
                        wrong_sign=(-5.2, -4.9)),
    'ms_fastgelu': dict(func='gelu_tanh', ulp32=8, ulp16=1, all16=12, flush=(-5.0, -4.85),
                        wrong_sign=(-5.2, -4.9)),
    'tanh_decomp': dict(func='gelu_tanh', ulp32=8, ulp16=1, all16=12, flush=(-5.0, -4.85),
                        wrong_sign=(-5.2, -4.9)),
}
# the decompositions ORT runs node by node compute x*(1+...) = 2x before the *0.5, which
# overflows at FLT_MAX; 'all' fuses erf_decomp into com.microsoft Gelu, which does not
FLT_MAX_OVERFLOWS = {'erf_decomp.f32.noopt', 'tanh_decomp.f32', 'tanh_decomp.f32.noopt'}
# the last x whose correctly rounded GELU is non-zero (gelucheck ref; docs/design.md section 2)
LAST_NONZERO = {('gelu', 'f32'): -14.356068, ('gelu', 'f16'): -5.723,
                ('gelu_tanh', 'f32'): -10.770867, ('gelu_tanh', 'f16'): -5.285}

errors = []


def check(cond, kernel, what):
    if not cond:
        errors.append('%s: %s' % (kernel, what))


def check_kernel(k, fam):
    name, dt, func = k['kernel'], k['dtype'], fam['func']
    s = {x['name']: x for x in k['suites']}
    check(k['func'] == func, name, 'func %s, want %s' % (k['func'], func))
    check(k['fingerprint']['detected'] == func, name,
          'fingerprint detected %s, want %s' % (k['fingerprint']['detected'], func))
    regions = s['ulp']['metrics']['regions']
    near = max(regions[r]['max_ulp'] for r in ('[-1,0)', '[0,1)', 'x>=1'))
    bound = fam['ulp32'] if dt == 'f32' else fam['ulp16']
    check(near <= bound, name, 'max ulp %.3f for x >= -1, want <= %g' % (near, bound))
    if dt == 'f16':  # exhaustive: every f16 input
        overall = s['ulp']['metrics']['overall']['max_ulp']
        check(overall <= fam['all16'], name, 'max ulp %.3f, want <= %g' % (overall, fam['all16']))
    table = {t['input']: t for t in s['special']['metrics']['table']}
    got = lambda i: table[i]['got']['bits']
    for inp, want in (('+0', '0x0000'), ('-0', '0x8000'), ('+inf', '0x7c00')):
        if dt == 'f32':
            want = {'0x0000': '0x00000000', '0x8000': '0x80000000', '0x7c00': F32_INF}[want]
        check(got(inp) == want, name, 'f(%s) = %s, want %s' % (inp, got(inp), want))
    # -inf: 0.5*x*(1+erf(-inf)) = -inf*0 = NaN: the finding every kernel here has
    check(table['-inf']['got']['dec'] == 'nan', name, 'f(-inf) = %s, want nan (measured)'
          % table['-inf']['got']['dec'])
    top = (F32_MAX if dt == 'f32' else F16_MAX)
    want_top = F32_INF if name in FLT_MAX_OVERFLOWS else top
    check(got('+max') == want_top, name, 'f(+max) = %s, want %s' % (got('+max'), want_top))
    tail = s['tail']['metrics']
    flush = float(tail['flush_point']['dec'])
    lo, hi = fam['flush']
    check(lo <= flush <= hi, name, 'flush point %g, want in [%g, %g]' % (flush, lo, hi))
    last = float(tail['last_nonzero']['dec'])
    check(abs(last - LAST_NONZERO[(func, dt)]) < 1e-3, name, 'last non-zero %g' % last)
    kinds = {f['kind'] for x in k['suites'] for f in x['findings']}
    # f32: results that are normal numbers flushed; f16: they are subnormal there, so ftz
    check(('premature_flush' if dt == 'f32' else 'ftz') in kinds, name, 'no flush finding')
    signs = [float(f['x']['dec']) for x in k['suites'] for f in x['findings']
             if f['kind'] == 'wrong_sign']
    if 'wrong_sign' in fam:  # 0.5*x*(1+tanh): MLAS tanh slightly below -1, so 1+tanh < 0
        lo, hi = fam['wrong_sign']
        check(signs and all(lo <= x <= hi for x in signs), name,
              'wrong_sign at %s, want some, all in [%g, %g]' % (signs[:5], lo, hi))
    else:
        check(not signs, name, 'wrong_sign at %s' % signs[:5])


def main():
    gelucheck, family, work = sys.argv[1:4]
    adapter = sys.argv[4] if len(sys.argv) > 4 else 'onnxruntime'
    fam = FAMILIES[family]
    out = os.path.join(work, '%s_suites_%s.json' % (adapter, family))
    names = ['%s.%s%s' % (family, dt, sfx) for dt in ('f32', 'f16') for sfx in ('', '.noopt')]
    cmd = [gelucheck, 'run', '--adapter', adapter, '--suite', 'ulp,special,tail,fingerprint',
           '--samples', '4096', '--threads', '1', '--progress', 'never', '--json', out]
    for n in names:
        cmd += ['--kernel', n]
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode
    if rc != 1:  # every kernel here fails the default policy (NaN at -inf at least)
        print('gelucheck exited with %d, want 1: %s' % (rc, ' '.join(cmd)))
        return 1
    with open(out) as f:
        result = json.load(f)
    seen = [k['kernel'] for k in result['kernels']]
    if sorted(seen) != sorted(names):
        print('kernels %s, want %s' % (seen, names))
        return 1
    for k in result['kernels']:
        check_kernel(k, fam)
    for e in errors:
        print(e)
    print('%s %s: %d kernels checked, %d problems' % (adapter, family, len(seen), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
