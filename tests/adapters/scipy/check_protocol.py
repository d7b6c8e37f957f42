#!/usr/bin/python3
"""The scipy adapter spoken to directly over the subprocess protocol (docs/design.md 5.2):
    check_protocol.py GELUCHECK PYTHON SCIPY_ADAPTER_PY
The banner (name, version, the twelve kernels), known inputs bit for bit, an error reply.
Known values come from two places, never from the adapter:
  - `gelucheck ref FUNC --dtype DT X...` (MPFR), at inputs where SciPy 1.10 rounds correctly
    (not everywhere: erf(1) and ndtr(-1) in float64 do not);
  - Cephes' code at special inputs (scipy/special/cephes/ndtr.c), derived by hand:
    erfc(x) = 0 once x*x > MAXLOG = 709.78 (x > 26.64, where erfc is still subnormal) and
    2 for x < -26.64; erf = +-(1 - erfc) for |x| > 1; ndtr(x) = 0.5*erfc(|x|/sqrt2) for
    x <= -1, so 0 at -inf and below x = -37.68; x * ndtr(x) and 0.5*x*(1 + erf) are
    -inf * 0 = NaN at -inf; float32 erf is float64 erf rounded to float32 (SciPy's 'f->f'
    loop), so erf(-6/sqrt2) rounds to -1 and the float32 erf form is 0.5*-6*0 = -0 at x = -6.
Needs only the standard library and numpy (to pack arrays the way the adapter reads them).
"""
import struct
import subprocess
import sys

import numpy as np

FUNC = {'erf': 'erf', 'erfc': 'erfc', 'ndtr': 'normcdf', 'gelu_ndtr': 'gelu',
        'gelu_erf': 'gelu', 'gelu_erfc': 'gelu'}
# kernel -> inputs where SciPy 1.10.1 / NumPy 1.24 give the correctly rounded value
REF_ROWS = {
    'erf.f64': [-3.0, 0.5, 3.0], 'erfc.f64': [-3.0, -1.0, 0.5], 'ndtr.f64': [0.5, 1.0, 3.0],
    'gelu_ndtr.f64': [0.5, 1.0, 3.0], 'gelu_erf.f64': [1.0, 3.0], 'gelu_erfc.f64': [1.0, 3.0],
    'erf.f32': [-3.0, -1.0, 0.5, 1.0, 3.0], 'erfc.f32': [-3.0, -1.0, 0.5, 1.0, 3.0],
    'ndtr.f32': [-3.0, -1.0, 0.5, 1.0, 3.0], 'gelu_ndtr.f32': [-3.0, -1.0, 0.5, 1.0, 3.0],
    'gelu_erf.f32': [-1.0, 0.5, 3.0], 'gelu_erfc.f32': [-1.0, 0.5, 3.0],
}
INF = float('inf')
NAN = 'nan'
SRC_ROWS = [  # (kernel, x, expected value, why)
    ('erf.f64', -INF, -1.0, 'erf(-inf) = -(1 - erfc(inf)), erfc(inf) = 0'),
    ('erfc.f64', -INF, 2.0, 'erfc(-inf) = 2'),
    ('erfc.f64', 27.0, 0.0, 'erfc(27): 27*27 > MAXLOG: 0 (RN(erfc(27)) is a subnormal: ftz)'),
    ('ndtr.f64', -INF, 0.0, 'ndtr(-inf) = 0.5*erfc(inf) = 0'),
    ('ndtr.f64', -38.0, 0.0, 'ndtr(-38) = 0.5*erfc(26.87) = 0 (Phi(-38) is a subnormal)'),
    ('gelu_ndtr.f64', -INF, NAN, '-inf * ndtr(-inf) = -inf * 0 = NaN (GELU(-inf) = -0)'),
    ('gelu_erf.f64', -INF, NAN, '0.5 * -inf * (1 + -1) = NaN'),
    ('gelu_erfc.f64', -INF, NAN, '0.5 * -inf * erfc(inf) = -inf * 0 = NaN'),
    ('gelu_ndtr.f32', -INF, NAN, 'the same in float32'),
    ('gelu_erf.f32', -6.0, -0.0,
     'erf(-6/sqrt2) rounds to -1 in float32: 0.5*-6*0 = -0 (GELU(-6) is normal: a flush)'),
]


def ref_bits(gelucheck, func, dtype, xs):
    out = subprocess.run([gelucheck, 'ref', func, '--dtype', dtype, '--'] +
                         [repr(x) for x in xs], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    return [int(line.split()[-1], 16) for line in out]


class Adapter:
    def __init__(self, python, script):
        self.p = subprocess.Popen([python, script], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)
        self.banner = []
        while True:
            line = self.p.stdout.readline().decode().rstrip('\n')
            if not line:
                raise SystemExit('FAIL: the banner ended before ready')
            self.banner.append(line)
            if line == 'ready':
                break

    def request(self, line, payload=b''):
        self.p.stdin.write(line.encode() + b'\n' + payload)
        self.p.stdin.flush()
        return self.p.stdout.readline().decode().rstrip('\n')

    def eval(self, kernel, xs):
        dt = '<f4' if kernel.endswith('.f32') else '<f8'
        reply = self.request('eval %s %d' % (kernel, len(xs)),
                             np.array(xs, dtype=dt).tobytes())
        if reply != 'ok %d' % len(xs):
            raise SystemExit('FAIL: eval %s: reply %r' % (kernel, reply))
        data = self.p.stdout.read(len(xs) * np.dtype(dt).itemsize)
        return np.frombuffer(data, dtype=dt)

    def close(self):
        self.p.stdin.close()
        return self.p.wait(timeout=60)


def bits(a):
    return [int(v) for v in a.view('<u4' if a.dtype.itemsize == 4 else '<u8')]


def main():
    gelucheck, python, script = sys.argv[1:4]
    failures = []
    a = Adapter(python, script)
    b = a.banner
    import numpy
    import scipy
    if b[:2] != ['gelucheck-exec 1', 'name scipy'] or \
            not b[2].startswith('version SciPy %s, NumPy %s' % (scipy.__version__,
                                                                numpy.__version__)):
        failures.append('banner head %r' % b[:3])
    kernels = {line.split()[1]: line for line in b if line.startswith('kernel ')}
    want = ['%s.%s' % (f, d) for d in ('f32', 'f64') for f in FUNC]
    if sorted(kernels) != sorted(want):
        failures.append('kernels %s, want %s' % (sorted(kernels), sorted(want)))
    for name, line in kernels.items():
        if line.split()[2] != FUNC[name.split('.')[0]]:
            failures.append('%s declares %s' % (name, line.split()[2]))
    # what NumPy does with float32 / np.sqrt(2), asked here, and what the description says
    x32 = np.ones(2, dtype=np.float32)
    f32_kept = (x32 / np.sqrt(2)).dtype == np.float32 and (0.5 * x32 * (1 + x32)).dtype == \
        np.float32
    said = 'computed in float32 throughout' in kernels.get('gelu_erf.f32', '')
    if f32_kept != said:
        failures.append('gelu_erf.f32: NumPy keeps float32: %s; the description says so: %s'
                        % (f32_kept, said))
    # known values from the reference
    for kernel, xs in REF_ROWS.items():
        name, dtype = kernel.split('.')
        got = bits(a.eval(kernel, xs))
        want_bits = ref_bits(gelucheck, FUNC[name], dtype, xs)
        for x, g, w in zip(xs, got, want_bits):
            if g != w:
                failures.append('%s(%r): got 0x%x, gelucheck ref 0x%x' % (kernel, x, g, w))
    # known values from Cephes' code
    for kernel, x, y, why in SRC_ROWS:
        got = a.eval(kernel, [x])[0]
        ok = np.isnan(got) if y == NAN else \
            bits(np.array([got]))[0] == bits(np.array([y], dtype=got.dtype))[0]
        if not ok:
            failures.append('%s(%r): got %r, want %r: %s' % (kernel, x, got, y, why))
    # the batch is elementwise: the same x anywhere gives the same y, and n = 0 works
    many = a.eval('gelu_erfc.f64', [1.5] * 1000)
    if len(set(bits(many))) != 1:
        failures.append('gelu_erfc.f64: the same x gave different bits in one batch')
    if a.request('eval erf.f64 0') != 'ok 0':
        failures.append('eval of 0 elements')
    # errors: a malformed line gets an error and the adapter stays usable
    reply = a.request('evaluate erf.f64 1')
    if not reply.startswith('error malformed request'):
        failures.append('malformed request: reply %r' % reply)
    if bits(a.eval('erf.f64', [0.5])) != ref_bits(gelucheck, 'erf', 'f64', [0.5]):
        failures.append('erf.f64 after an error reply')
    status = a.close()
    if status != 0:
        failures.append('exit status %d after stdin closed' % status)
    for f in failures:
        print('FAIL: ' + f)
    print('%d failures; %d reference rows, %d source rows' % (
        len(failures), sum(len(v) for v in REF_ROWS.values()), len(SRC_ROWS)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
