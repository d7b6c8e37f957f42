#!/usr/bin/python3
"""Talks to the onnxruntime adapter over the subprocess protocol (docs/design.md 5.2) directly:
the banner, known values, exact cases, the findings at single inputs, and the error replies.
    check_protocol.py builtin NODE SCRIPT [--web]    the built-in kernels (of onnxruntime-web)
    check_protocol.py models NODE SCRIPT MODELDIR    --model with make_models.py's models
Standard library only."""
import math
import struct
import subprocess
import sys

FMT = {'f32': '<%df', 'f64': '<%dd', 'f16': '<%de'}
SIZE = {'f32': 4, 'f64': 8, 'f16': 2}
errors = []


def check(cond, what):
    if not cond:
        errors.append(what)


class Adapter:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.banner = []
        while True:
            line = self.p.stdout.readline().decode()
            if not line:
                raise SystemExit('adapter ended before ready: %s' % self.banner)
            self.banner.append(line.rstrip('\n'))
            if line == 'ready\n':
                break
        self.kernels = {}  # name -> (func, dtype, description)
        for line in self.banner:
            if line.startswith('kernel '):
                _, name, func, dtype, desc = line.split(' ', 4)
                self.kernels[name] = (func, dtype, desc)

    def request(self, header, payload=b''):
        self.p.stdin.write(header + payload)
        self.p.stdin.flush()
        return self.p.stdout.readline().decode().rstrip('\n')

    def eval(self, name, xs):
        dt = self.kernels[name][1]
        reply = self.request(b'eval %s %d\n' % (name.encode(), len(xs)),
                             struct.pack(FMT[dt] % len(xs), *xs))
        if reply != 'ok %d' % len(xs):
            return reply
        return struct.unpack(FMT[dt] % len(xs), self.p.stdout.read(len(xs) * SIZE[dt]))

    def close(self):
        self.p.stdin.close()
        return self.p.wait(30)


# the tanh forms: MLAS tanh(z) < -1 near z = -9, so 1+tanh < 0 and the result is positive
# (README.md); f32: one input for all three; f16: 0xc51e, 0xc513, 0xc516 (measured)
WRONG_SIGN = {'f32': {'gelu20_tanh': -5.1033244, 'ms_fastgelu': -5.1033244,
                      'tanh_decomp': -5.1033244},
              'f16': {'gelu20_tanh': -5.1171875, 'ms_fastgelu': -5.07421875,
                      'tanh_decomp': -5.0859375}}


def gelu_tanh(x):  # in double: far more accurate than the f32/f16 kernels
    return 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


# GELU at -3, -1, 1, 3: the binary64 values of docs/design.md section 2
GELU = {-3.0: -0.0040496940948902835, -1.0: -0.15865525393145705, 1.0: 0.8413447460685429,
        3.0: 2.99595030590511}


def tolerance(x, want, dt):
    """The float form 0.5*x*(1+erf) or 0.5*x*(1+tanh): 1+... carries an absolute error of about
    one float ulp of 1 (2^-24), times 0.5|x|, three more roundings, and (f16) the rounding of
    a result computed in float plus float16 constants (a couple of f16 ulp at x = -3)."""
    ulp = 2.0 ** (math.frexp(want)[1] - (24 if dt == 'f32' else 11))
    return 4 * ulp + (abs(x) * 2.0 ** -23 if dt == 'f32' else 2 * ulp)


STANDALONE = ('gelu20', 'gelu20_tanh', 'ms_gelu', 'ms_fastgelu', 'erf_decomp', 'tanh_decomp')


def builtin(node, script, *web):
    a = Adapter([node, script, *web])
    check(a.banner[0] == 'gelucheck-exec 1', 'banner %r' % a.banner[0])
    build = ('onnxruntime-web 1.30.0 (ORT 1.30.0, WebAssembly (wasm) execution provider' if web
             else 'onnxruntime-node 1.30.0 (ORT 1.30.0, CPU EP')
    check(a.banner[1].startswith('version ' + build), 'version line %r' % a.banner[1])
    # 6 graphs x 2 dtypes x 2 levels, and the fused ones check_fused.py checks
    check(len(a.kernels) == 33, '%d kernels, want 33' % len(a.kernels))
    for name, (func, dt, desc) in sorted(a.kernels.items()):
        fam = name.split('.')[0]
        if fam not in STANDALONE:
            continue
        check(func == ('gelu_tanh' if fam in WRONG_SIGN[dt] else 'gelu'), '%s: func %s' % (name, func))
        check(("optimizations 'disabled'" in desc) == name.endswith('.noopt'),
              '%s: optimization level in %r' % (name, desc))
        ys = a.eval(name, list(GELU) + [0.0, -0.0, math.inf, math.nan, -math.inf])
        if isinstance(ys, str):
            check(False, '%s: %s' % (name, ys))
            continue
        for x, y in zip(GELU, ys):
            want = GELU[x] if func == 'gelu' else gelu_tanh(x)
            check(abs(y - want) <= tolerance(x, want, dt),
                  '%s: f(%g) = %r, want %r' % (name, x, y, want))
        z, nz, inf, nan, minf = ys[4:]
        check(z == 0 and math.copysign(1, z) > 0, '%s: f(+0) = %r' % (name, z))
        check(nz == 0 and math.copysign(1, nz) < 0, '%s: f(-0) = %r' % (name, nz))
        check(inf == math.inf and math.isnan(nan), '%s: f(inf), f(nan) = %r, %r' % (name, inf, nan))
        check(math.isnan(minf), '%s: f(-inf) = %r, want nan (-inf*0, measured)' % (name, minf))
        if fam in WRONG_SIGN[dt] and not web:
            x = WRONG_SIGN[dt][fam]
            y = a.eval(name, [x])[0]
            check(y > 0, '%s: f(%g) = %r, want > 0 (the wrong sign, measured)' % (name, x, y))
        elif fam in WRONG_SIGN[dt]:  # the wasm build's tanh stays >= -1 there (measured)
            x = WRONG_SIGN[dt][fam]
            y = a.eval(name, [x])[0]
            check(y <= 0, '%s: f(%g) = %r, want <= 0 (measured on wasm)' % (name, x, y))
    # the fusion changes bits: 'all' turns erf_decomp into com.microsoft Gelu (= ms_gelu.f32,
    # and gelu20.f32 runs the same kernel); 'disabled' keeps Div, Erf, Add, Mul, Mul
    xs = [-8 + 16 * i / 4096 for i in range(4096)]
    fused, ms, g20, nodes = (a.eval(n, xs) for n in ('erf_decomp.f32', 'ms_gelu.f32', 'gelu20.f32',
                                                     'erf_decomp.f32.noopt'))
    check(fused == ms == g20, 'erf_decomp.f32, ms_gelu.f32, gelu20.f32 differ')
    diff = sum(1 for p, q in zip(fused, nodes) if p != q)
    check(diff > 0, 'erf_decomp.f32 and .noopt agree on all of [-8, 8): the fusion went away?')
    # protocol: n = 0, error replies, and the unknown kernel that ends the stream
    check(a.eval('gelu20.f32', []) == (), 'eval of 0 elements')
    check(a.request(b'bogus line\n') == "error malformed request 'bogus line'", 'malformed line')
    check(a.request(b'eval gelu20.f16 70000\n', bytes(140000)) ==
          'error batch of 70000 elements: at most 65536', 'batch too long')
    check(a.eval('gelu20.f16', [1.0]) != 'ok', 'a good request after the errors')
    check(a.request(b'eval nope 1\n', bytes(4)) == "error unknown kernel 'nope'", 'unknown kernel')
    check(a.close() == 1, 'exit status after an unknown kernel, want 1')
    b = Adapter([node, script, *web])
    check(b.close() == 0, 'exit status at the end of stdin, want 0')
    return len(a.kernels), diff


def models(node, script, folder):
    run = lambda m, f='gelu': Adapter([node, script, '--model', '%s/%s.onnx' % (folder, m),
                                       '--func', f])
    ms = Adapter([node, script])
    xs = [-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0]
    want = ms.eval('ms_gelu.f32', xs)  # the same com.microsoft Gelu kernel: the same bits
    fixed = run('fixed4', 'gelu_tanh')
    check(list(fixed.kernels) == ['fixed4.f32'], 'fixed4: kernels %s' % list(fixed.kernels))
    check(fixed.kernels['fixed4.f32'][0] == 'gelu_tanh', 'fixed4: --func did not pass through')
    check(fixed.eval('fixed4.f32', xs) == want, 'fixed4: 8 = 2 runs of [4]: not ms_gelu.f32')
    check(fixed.eval('fixed4.f32', []) == (), 'fixed4: 0 elements')
    check(fixed.eval('fixed4.f32', xs[:6]) == want[:6],
          'fixed4: 6 elements = 2 runs of [4], the last padded: not ms_gelu.f32')
    check(fixed.close() == 0, 'fixed4: exit status')
    nby2 = run('n_by_2')
    check(nby2.eval('n_by_2.f32', xs) == want, 'n_by_2: [4, 2] not ms_gelu.f32')
    check(nby2.eval('n_by_2.f32', xs[:5]) == want[:5], 'n_by_2: 5 elements, padded to [3, 2]')
    bsh = run('batch_seq_hidden')
    many = [((k * 37) % 101) / 12.5 - 4 for k in range(1000)]  # 1000 = 31 rows of 32, and 8
    check(bsh.eval('batch_seq_hidden.f32', many) == ms.eval('ms_gelu.f32', many),
          'batch_seq_hidden: 1000 elements as [32, 1, 32], the last row padded')
    bsh.close()
    f64 = run('identity_f64', 'erf')
    check(f64.kernels['identity_f64.f64'][:2] == ('erf', 'f64'), 'identity_f64: %s' % f64.kernels)
    check(f64.eval('identity_f64.f64', [math.pi, -0.0, 1e-310]) == (math.pi, -0.0, 1e-310),
          'identity_f64: double payload not returned as is')
    for a in (ms, nby2, f64):
        a.close()


def main():
    if sys.argv[1] == 'builtin':
        n, diff = builtin(*sys.argv[2:])
        print('%d kernels; erf_decomp.f32 fused vs noopt: %d of 4096 differ' % (n, diff))
    else:
        models(*sys.argv[2:5])
    for e in errors:
        print('FAIL: ' + e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
