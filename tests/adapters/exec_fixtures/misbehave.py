#!/usr/bin/env python3
"""Fixture of tests/adapters/test_exec_eval.c: an exec adapter (docs/design.md section 5.2) that
serves good.f64 (y = 2x, exactly), fails.f64 (always replies 'error ...') and bad.f64, which
misbehaves the way argv[1] says:

  short     'ok N' and 4 payload bytes too few, then exit 0
  long      'ok N' and 8 payload bytes too many
  count     'ok N+1' and N+1 elements
  garbage   the line 'hello there' instead of a reply
  sign      'ok +N' (a count with a sign)
  exit      exit 3 with a word on stderr, no reply
  hang      never replies
  noread    never reads the payload (the host's write must time out)
  closein   exits 5 before reading the payload (the host's write gets EPIPE, never SIGPIPE)
  longline  a reply line of 10000 bytes
  nul       'ok\\0 N'
  unasked   a good reply, and 0.1 s later an unasked line
  chatty    1 MB on stderr, then a good reply (the host must drain stderr meanwhile)
  exitafter a good reply, then exit 0 before the next request
  segv      kills itself with SIGSEGV, no reply
  abort     os.abort() (SIGABRT), no reply
  none      behaves (y = 2x)
"""
import os
import signal
import struct
import sys
import time

MODE = sys.argv[1]
inp, out = sys.stdin.buffer, sys.stdout.buffer


def send(data):
    out.write(data)
    out.flush()


def misbehave(n, ys):
    if MODE == 'short':
        send(b'ok %d\n' % n + ys[:-4])
        sys.exit(0)
    replies = {
        'long': b'ok %d\n' % n + ys + bytes(8),
        'count': b'ok %d\n' % (n + 1) + ys + ys[:8],
        'garbage': b'hello there\n',
        'sign': b'ok +%d\n' % n + ys,
        'longline': b'a' * 10000 + b'\n',
        'nul': b'ok\0 %d\n' % n + ys,
    }
    if MODE in replies:
        send(replies[MODE])
    elif MODE == 'exit':
        sys.stderr.write('fixture: giving up\n')
        sys.exit(3)
    elif MODE == 'segv':
        os.kill(os.getpid(), signal.SIGSEGV)
    elif MODE == 'abort':
        os.abort()
    elif MODE == 'hang':
        time.sleep(30)
    elif MODE == 'escape':
        os.setpgid(0, os.getpgid(os.getppid()))  # leave the adapter's process group
        time.sleep(30)
    elif MODE == 'unasked':
        send(b'ok %d\n' % n + ys)
        time.sleep(0.1)
        send(b'surprise\n')
    elif MODE == 'chatty':
        sys.stderr.write('chatter ' * 125000)
        sys.stderr.flush()
        send(b'ok %d\n' % n + ys)
    elif MODE == 'exitafter':
        send(b'ok %d\n' % n + ys)
        sys.exit(0)
    else:
        send(b'ok %d\n' % n + ys)


def main():
    send(b'gelucheck-exec 1\n'
         b'kernel good.f64 gelu f64 y = 2x\n'
         b'kernel fails.f64 gelu f64 always fails\n'
         b'kernel bad.f64 gelu f64 misbehaves: ' + MODE.encode() + b'\n'
         b'ready\n')
    while True:
        line = inp.readline()
        if not line:
            return 0
        _, name, n = line.split()
        n = int(n)
        if name == b'bad.f64' and MODE in ('noread', 'closein'):
            if MODE == 'closein':
                sys.exit(5)
            time.sleep(30)
        xs = struct.unpack('<%dd' % n, inp.read(8 * n))
        ys = struct.pack('<%dd' % n, *[2 * x for x in xs])
        if name == b'good.f64':
            send(b'ok %d\n' % n + ys)
        elif name == b'fails.f64':
            send(b'error fixture: this kernel always fails\n')
        else:
            misbehave(n, ys)


if __name__ == '__main__':
    sys.exit(main())
