#!/usr/bin/python3
"""Talks to adapters/torch/torch_adapter.py over the protocol of docs/design.md 5.2 directly, and
checks its answers against correctly rounded values from `gelucheck ref`.
Usage: check_protocol.py GELUCHECK PYTHON TORCH_ADAPTER_PY       (the test adapter_torch_protocol)

Tolerances (ulp of the correctly rounded f32 value, docs/design.md section 4), from measurements
with Debian's torch 1.13.1 and what the code does (adapters/torch/torch_adapter.py, header):
both paths compute 0.5*x*(1+erf(x/sqrt2)) with Abramowitz-Stegun 7.1.26 (|error of erf| <=
1.5e-7, about 1.3 ulp of 1+erf when that is in [1,2)); TOL_NEAR = 16 covers x in {-1, +-0.5,
1, 3} with room (measured <= 5).  At x = -3 every form cancels (1+erf(-2.12) = 0.0027, 1+tanh
likewise, Phi + x*phi = 0.0013 - 0.0133): measured gelu 372 ulp (oneDNN's S + S*erf) and 12
(ATen), gelu_tanh 176, gelu_grad 45, gelu_tanh_grad 140; TOL_CANCEL = 1024 says "the
cancellation, not garbage".
"""
import math
import os
import re
import struct
import subprocess
import sys
import tempfile

TOL_NEAR = 16
TOL_CANCEL = 1024
X_F32 = [-3.0, -1.0, -0.5, 0.5, 1.0, 3.0]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL: ' + what, file=sys.stderr)


def ref_bits(gelucheck, func, dtype, xs):
    """RN(func(x)) bits for each x, from `gelucheck ref` (the last column of each line)."""
    args = [gelucheck, 'ref', func, '--dtype', dtype, '--'] + [repr(x) for x in xs]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return [int(line.split()[-1], 16) for line in out.splitlines()]


def f32(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def ulp_f32(v):
    """ulp(v) for binary32 (docs/design.md section 4): 2^(max(e, -126) - 23)."""
    e = math.frexp(abs(v))[1] - 1 if v != 0 else -126
    return 2.0 ** (max(e, -126) - 23)


class Adapter:
    def __init__(self, python, script, env):
        self.err = tempfile.TemporaryFile()
        self.p = subprocess.Popen([python, script], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err, env=env)
        self.banner = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit('FAIL: adapter exited before ready: ' + self.stderr())
            line = line.decode('ascii').rstrip('\n')
            if line == 'ready':
                break
            self.banner.append(line)

    def request(self, text, payload=b''):
        self.p.stdin.write(text.encode('ascii') + payload)
        self.p.stdin.flush()
        return self.p.stdout.readline().decode('ascii').rstrip('\n')

    def eval(self, name, xbits, fmt):
        """y bits for x bits ('I' for f32, 'H' for bf16)."""
        n = len(xbits)
        reply = self.request('eval %s %d\n' % (name, n), struct.pack('<%d%s' % (n, fmt), *xbits))
        check(reply == 'ok %d' % n, '%s: reply %r' % (name, reply))
        if reply != 'ok %d' % n:
            return [None] * n
        data = self.p.stdout.read(n * struct.calcsize(fmt))
        return list(struct.unpack('<%d%s' % (n, fmt), data))

    def close(self):
        self.p.stdin.close()
        rc = self.p.wait(timeout=60)
        return rc, self.stderr()

    def stderr(self):
        self.err.seek(0)
        return self.err.read().decode('utf-8', 'replace')


def check_banner(a):
    check(a.banner[0] == 'gelucheck-exec 1', 'banner %r' % a.banner[0])
    check(re.match(r'^version torch [0-9][^ ]* \(.*Python 3\.[0-9]+\.[0-9]+\)$', a.banner[1])
          is not None, 'version line %r' % a.banner[1])
    kernels = {}
    for line in a.banner[2:]:
        words = line.split(' ', 4)
        check(words[0] == 'kernel' and len(words) == 5, 'kernel line %r' % line)
        name, func, dtype, desc = words[1:]
        kernels[name] = desc
        check(name.split('.')[:2] == [func, dtype], '%s: func %s dtype %s' % (name, func, dtype))
        check('torch ' in desc and ', CPU, ATen capability ' in desc, name + ': description')
    # Debian's torch is built with oneDNN (USE_MKLDNN=ON): the erf form comes in both settings;
    # the tanh form never reaches oneDNN in 1.13, so it has one kernel
    for dtype in ('f32', 'bf16'):
        for name in ('gelu', 'gelu_grad', 'gelu_tanh', 'gelu_tanh_grad'):
            check('%s.%s' % (name, dtype) in kernels, 'no kernel %s.%s' % (name, dtype))
        for name in ('gelu', 'gelu_grad'):
            check('%s.%s.nomkldnn' % (name, dtype) in kernels, 'no %s.%s.nomkldnn' % (name, dtype))
        for name in ('gelu_tanh', 'gelu_tanh_grad'):
            check('%s.%s.nomkldnn' % (name, dtype) not in kernels, name + ' with .nomkldnn')
    return kernels


def check_f32(a, gelucheck):
    """Values against `gelucheck ref`; one batch of 6 (so oneDNN serves the default kernels)."""
    xbits = [struct.unpack('<I', struct.pack('<f', x))[0] for x in X_F32]
    for name, func in (('gelu.f32', 'gelu'), ('gelu.f32.nomkldnn', 'gelu'),
                       ('gelu_tanh.f32', 'gelu_tanh'), ('gelu_grad.f32', 'gelu_grad'),
                       ('gelu_grad.f32.nomkldnn', 'gelu_grad'),
                       ('gelu_tanh_grad.f32', 'gelu_tanh_grad')):
        want = ref_bits(gelucheck, func, 'f32', X_F32)
        got = a.eval(name, xbits, 'I')
        for x, g, w in zip(X_F32, got, want):
            if g is None:
                continue
            err = abs(f32(g) - f32(w)) / ulp_f32(f32(w))
            tol = TOL_CANCEL if x == -3.0 else TOL_NEAR
            check(err <= tol, '%s(%g) = %r (0x%08x), RN %r: %.1f ulp > %d'
                  % (name, x, f32(g), g, f32(w), err, tol))
    # exact: +0 -> +0, +inf -> +inf, NaN -> NaN; -inf -> NaN is what both paths do (-inf times
    # 1+erf(-inf) = 0; oneDNN: S + S*erf = -inf + inf), a finding the special suite reports
    for name in ('gelu.f32', 'gelu.f32.nomkldnn', 'gelu_tanh.f32'):
        y = a.eval(name, [0x00000000, 0x7f800000, 0x7fc00000, 0xff800000], 'I')
        check(y[0] == 0x00000000 and y[1] == 0x7f800000, '%s: +0, +inf -> %r' % (name, y[:2]))
        check(math.isnan(f32(y[2])) and math.isnan(f32(y[3])), '%s: nan, -inf -> %r' % (name, y))
    # oneDNN serves numel > 1 only (use_mkldnn in Activation.cpp): alone, x = -3 gets ATen's
    # bits; in a batch of two, oneDNN's (measured 0xbb84b4c0 against ATen's 0xbb84b34c + 6)
    m3 = 0xc0400000
    one_on, one_off = a.eval('gelu.f32', [m3], 'I'), a.eval('gelu.f32.nomkldnn', [m3], 'I')
    two_on, two_off = a.eval('gelu.f32', [m3, m3], 'I'), a.eval('gelu.f32.nomkldnn', [m3, m3], 'I')
    check(one_on == one_off, 'gelu.f32 alone %r != .nomkldnn %r' % (one_on, one_off))
    check(two_on[0] != two_off[0], 'gelu.f32 in a batch equals .nomkldnn: oneDNN not used?')
    # the sign of zero: ATen's x*0.5*(1+erf) keeps -0, oneDNN's S + S*erf gives +0
    check(a.eval('gelu.f32.nomkldnn', [0x80000000] * 2, 'I') == [0x80000000] * 2, 'ATen -0')
    check(a.eval('gelu.f32', [0x80000000] * 2, 'I') == [0x00000000] * 2, 'oneDNN -0 -> +0')


def check_bf16(a, gelucheck, kernels):
    """bf16 travels as bits: x = 1.0 (0x3f80).  oneDNN computes in float and rounds once:
    RN(GELU(1)) = 0x3f57.  ATen 1.13 rounds every intermediate to bf16 (kAlpha = M_SQRT1_2 is
    a bf16 too) and lands one position up, 0x3f58.  Where this CPU lacks avx512bw/vl/dq, the
    default kernel is ATen too; its description then says the bits equal .nomkldnn."""
    rn = ref_bits(gelucheck, 'gelu', 'bf16', [1.0])[0]
    check(rn == 0x3f57, 'gelucheck ref gelu bf16 1 = 0x%04x' % rn)
    aten = 0x3f58
    onednn = aten if 'bits equal .nomkldnn' in kernels['gelu.bf16'] else rn
    check(a.eval('gelu.bf16', [0x3f80, 0x3f80], 'H') == [onednn] * 2, 'gelu.bf16(1)')
    check(a.eval('gelu.bf16.nomkldnn', [0x3f80, 0x3f80], 'H') == [aten] * 2, 'ATen gelu.bf16(1)')
    # +0, -0, +inf and a NaN with a payload go through as bits (ATen: -0 stays -0)
    y = a.eval('gelu.bf16.nomkldnn', [0x0000, 0x8000, 0x7f80, 0x7fc1], 'H')
    check(y[:3] == [0x0000, 0x8000, 0x7f80] and (y[3] & 0x7fff) > 0x7f80, 'bf16 specials %r' % y)


def check_errors(python, script, env):
    """Requests that break the protocol get 'error ...'; the adapter stays usable; an unknown
    kernel (payload size unknown) ends it with status 1."""
    a = Adapter(python, script, env)
    check(a.request('bogus line\n') == "error malformed request 'bogus line'", 'malformed')
    check(a.request('eval gelu.f32 70000\n', bytes(280000)) ==
          'error batch of 70000 elements: at most 65536', 'batch too large')
    check(a.request('eval gelu.f32 0\n') == 'ok 0', 'empty batch')
    check(a.eval('gelu.f32.nomkldnn', [0x3f800000], 'I') == [0x3f57625e], 'usable after errors')
    check(a.request('eval nope 1\n', bytes(4)) == "error unknown kernel 'nope'", 'unknown kernel')
    rc, _ = a.close()
    check(rc == 1, 'exit status %d after an unknown kernel, want 1' % rc)


def main():
    gelucheck, python, script = sys.argv[1:4]
    # ONEDNN_VERBOSE makes oneDNN print to fd 1: the adapter must keep it off the protocol
    env = dict(os.environ, ONEDNN_VERBOSE='1', DNNL_VERBOSE='1')
    a = Adapter(python, script, env)
    kernels = check_banner(a)
    check_f32(a, gelucheck)
    check_bf16(a, gelucheck, kernels)
    rc, err = a.close()
    check(rc == 0, 'exit status %d after stdin closed, want 0' % rc)
    check('alg:eltwise_gelu_erf' in err, 'no oneDNN verbose line on stderr')
    for func in ('gelu', 'gelu_tanh', 'gelu_grad', 'gelu_tanh_grad'):
        check('%s.f16' % func in kernels or '%s.f16 left out: ' % func in err,
              '%s.f16 neither served nor noted on stderr' % func)
    check_errors(python, script, dict(os.environ))
    if failures:
        print('%d failed checks' % len(failures), file=sys.stderr)
        return 1
    print('check_protocol: all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
