#!/usr/bin/env python3
"""A gelucheck exec adapter in Python (standard library only): GELU as people write it with
the math module, served over gelucheck's subprocess protocol (docs/design.md section 5.2).

    gelucheck list --adapter 'exec:python3 adapters/exec/example_adapter.py'
    gelucheck run  --adapter 'exec:python3 adapters/exec/example_adapter.py'

To test your own kernel, copy this file and edit KERNELS below: a name, the function the
kernel claims to compute, its dtype, a description, and a Python function of one float.

The protocol (every line ends in "\\n"; payloads are raw little-endian arrays):
    adapter -> host   gelucheck-exec 1
                      version TEXT                       (optional)
                      kernel NAME FUNC DTYPE DESCRIPTION (one line per kernel)
                      ready
    host -> adapter   eval NAME N                        then N elements of x
    adapter -> host   ok N                               then N elements of y
                  or  error MESSAGE                      (no payload)
    the host closes stdin: exit with status 0.
Write nothing else to stdout; diagnostics go to stderr (gelucheck quotes its end when
something goes wrong).

What the kernels claim: the formulas, evaluated in binary64 with CPython's math module (the
C library's erf, erfc and tanh).  The erf and tanh forms cancel for x < -1 (1 + erf(x/sqrt2)
loses digits), which gelucheck's ulp and tail suites show; the erfc form does not.  The f32
kernels compute in double and round once to float, as many frameworks do.
"""
import math
import struct
import sys

SQRT2 = math.sqrt(2.0)
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
MAX_BATCH = 65536  # the most elements in one request
MAX_LINE = 4096    # the longest line, without its "\n"


def gelu_erf(x):
    return 0.5 * x * (1.0 + math.erf(x / SQRT2))


def gelu_erfc(x):
    return 0.5 * x * math.erfc(-x / SQRT2)


def gelu_tanh(x):
    # x*x*x, not x**3: ** raises OverflowError for huge x, * gives inf
    return 0.5 * x * (1.0 + math.tanh(SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)))


def to_f32(v):
    """v rounded to the nearest binary32 (ties to even), as a Python float."""
    try:
        return struct.unpack('<f', struct.pack('<f', v))[0]
    except OverflowError:  # rounds beyond the largest float
        return math.copysign(math.inf, v)


def in_f32(f):
    return lambda x: to_f32(f(x))


# dtype -> (struct format letter, bytes per element).  For f16 use 'e'; bf16 travels as
# 'H' (uint16 bit patterns) that you convert yourself.
DTYPES = {'f64': ('d', 8), 'f32': ('f', 4)}

# name -> (func, dtype, description, function of one float).  func is what the kernel claims
# to compute: gelu, gelu_tanh, gelu_sigmoid, gelu_grad, gelu_tanh_grad, normcdf, normpdf,
# erf, erfc.  Names: [A-Za-z0-9_.-]+, unique.
KERNELS = {
    'gelu_erf.f64': ('gelu', 'f64', '0.5*x*(1+math.erf(x/math.sqrt(2))), CPython math, double',
                     gelu_erf),
    'gelu_erfc.f64': ('gelu', 'f64', '0.5*x*math.erfc(-x/math.sqrt(2)), CPython math, double',
                      gelu_erfc),
    'gelu_tanh.f64': ('gelu_tanh', 'f64',
                      '0.5*x*(1+math.tanh(sqrt(2/pi)*(x+0.044715*x^3))), CPython math, double',
                      gelu_tanh),
    'gelu_erf.f32': ('gelu', 'f32', 'gelu_erf.f64 computed in double, rounded to float',
                     in_f32(gelu_erf)),
    'gelu_erfc.f32': ('gelu', 'f32', 'gelu_erfc.f64 computed in double, rounded to float',
                      in_f32(gelu_erfc)),
    'gelu_tanh.f32': ('gelu_tanh', 'f32', 'gelu_tanh.f64 computed in double, rounded to float',
                      in_f32(gelu_tanh)),
}


def send(out, data):
    out.write(data)
    out.flush()


def reply_error(out, message):
    send(out, b'error ' + message.encode('ascii', 'replace') + b'\n')


def banner(out):
    lines = ['gelucheck-exec 1', 'version example_adapter.py 1.0 (Python %s)'
             % sys.version.split()[0]]
    for name, (func, dtype, description, _) in KERNELS.items():
        lines.append('kernel %s %s %s %s' % (name, func, dtype, description))
    lines.append('ready')
    send(out, ''.join(line + '\n' for line in lines).encode('ascii'))


def skip(inp, size):
    """Reads and drops size bytes; False when stdin ends first."""
    while size > 0:
        chunk = inp.read(min(size, 1 << 16))
        if not chunk:
            return False
        size -= len(chunk)
    return True


def serve_request(inp, out, line):
    """Answers one request.  Returns False when the stream cannot go on."""
    words = line.split(b' ')
    if len(words) != 3 or words[0] != b'eval' or not words[2].isdigit():
        reply_error(out, 'malformed request %r' % line[:80].decode('ascii', 'replace'))
        return True  # a bad line: the next one may be good again
    name, n = words[1].decode('ascii', 'replace'), int(words[2])
    if name not in KERNELS:
        reply_error(out, 'unknown kernel %r' % name[:128])
        return False  # the size of its payload is unknown: the stream is lost
    func, dtype, description, f = KERNELS[name]
    letter, size = DTYPES[dtype]
    if n > MAX_BATCH:  # read the whole request first, then reply
        if not skip(inp, n * size):
            return False
        reply_error(out, 'batch of %d elements: at most %d' % (n, MAX_BATCH))
        return True
    data = inp.read(n * size)
    if len(data) != n * size:
        return False  # stdin closed in the middle of the payload
    xs = struct.unpack('<%d%s' % (n, letter), data)
    try:
        ys = [f(x) for x in xs]
    except (ValueError, OverflowError) as e:  # report, and stay usable
        reply_error(out, '%s: %s' % (name, e))
        return True
    send(out, b'ok %d\n' % n + struct.pack('<%d%s' % (n, letter), *ys))
    return True


def main():
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    banner(out)
    while True:
        line = inp.readline(MAX_LINE + 2)
        if not line:
            return 0  # the host closed stdin: done
        if not line.endswith(b'\n'):
            print('example_adapter.py: request line too long or cut short', file=sys.stderr)
            return 1
        if not serve_request(inp, out, line.rstrip(b'\r\n')):
            return 1


if __name__ == '__main__':
    sys.exit(main())
