"""A small client of the subprocess protocol (docs/design.md 5.2) for the tests that talk to
an exec adapter directly (tests/adapters/ggml, tests/adapters/tfjs), and the helpers they share:
f32/f16 bit conversions and `gelucheck ref`.  Standard library only."""
import math
import struct
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    """Records a failed check (and says so on stderr); the script goes on."""
    if not cond:
        failures.append(what)
        print('FAIL: ' + what, file=sys.stderr)


def finish(name):
    if failures:
        print('%s: %d failed checks' % (name, len(failures)), file=sys.stderr)
        return 1
    print('%s: all checks passed' % name)
    return 0


def f32(v):
    """v rounded to binary32 (to nearest even), as a Python float; +-inf beyond the range."""
    try:
        return struct.unpack('<f', struct.pack('<f', v))[0]
    except OverflowError:  # struct refuses only what rounds to inf
        return math.copysign(math.inf, v)


def bits32(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def from_bits32(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]


def bits16(v):
    """v rounded to binary16 (to nearest even) as bits; +-inf beyond the range."""
    try:
        return struct.unpack('<H', struct.pack('<e', v))[0]
    except OverflowError:
        return 0x7c00 if v > 0 else 0xfc00


def from_bits16(b):
    return struct.unpack('<e', struct.pack('<H', b))[0]


def ref_bits(gelucheck, func, dtype, args):
    """RN(func(x)) bits for each argument (a decimal, hex float or raw bits string), from
    `gelucheck ref` (the last column of each line)."""
    cmd = [gelucheck, 'ref', func, '--dtype', dtype, '--'] + list(args)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [int(line.split()[-1], 16) for line in out.splitlines()]


class Adapter:
    """An exec adapter started from argv; the banner is read up to 'ready'."""

    def __init__(self, argv, env=None):
        self.err = tempfile.TemporaryFile()
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.err, env=env)
        self.banner = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit('FAIL: adapter exited before ready: ' + self.stderr())
            line = line.decode('ascii').rstrip('\n')
            if line == 'ready':
                break
            self.banner.append(line)
        self.kernels = {}  # name -> (func, dtype, description)
        for line in self.banner:
            if line.startswith('kernel '):
                w = line.split(' ', 4)
                self.kernels[w[1]] = (w[2], w[3], w[4] if len(w) > 4 else '')

    def request(self, text, payload=b''):
        self.p.stdin.write(text.encode('ascii') + payload)
        self.p.stdin.flush()
        return self.p.stdout.readline().decode('ascii').rstrip('\n')

    def eval32(self, name, xs):
        """y bits for a list of f32 x bits."""
        n = len(xs)
        reply = self.request('eval %s %d\n' % (name, n), struct.pack('<%dI' % n, *xs))
        check(reply == 'ok %d' % n, '%s: reply %r' % (name, reply))
        if reply != 'ok %d' % n:
            return [None] * n
        return list(struct.unpack('<%dI' % n, self.p.stdout.read(4 * n)))

    def close(self):
        self.p.stdin.close()
        rc = self.p.wait(timeout=60)
        return rc, self.stderr()

    def stderr(self):
        self.err.seek(0)
        return self.err.read().decode('utf-8', 'replace')
