#!/usr/bin/env python3
"""Checks a result of `gelucheck run` on the memory hog fixture (tests/adapters/memlimit.cmake,
fixtures/hog.c) under --memory-limit, worker limited by RLIMIT_AS.

    memlimit_check.py RESULT.json

The limit the run was given is read from its recorded "command" (4 GiB when absent) and must
be its "memory_limit".  A run of limit.f32 alone: its adapter_error quotes the RLIMIT_AS the
worker had, which must be that limit ("unlimited" for 0).  Otherwise hog.f32 and
hog_abort.f32 each have one crash finding saying the worker ran out of memory under that limit
(SIGSEGV and SIGABRT), narrowed to one input, its command carrying the limit; good.f32, after
them, is measured without a crash.
"""
import json
import sys

UNIT = {'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30}
SIGNAL = {'hog.f32': 'SIGSEGV', 'hog_abort.f32': 'SIGABRT'}


def fail(what):
    sys.exit('memlimit_check: %s' % what)


def given_limit(command):
    """--memory-limit's value as the command gave it, in bytes (4 GiB when not given)."""
    for i, w in enumerate(command):
        v = None
        if w == '--memory-limit':
            v = command[i + 1]
        elif w.startswith('--memory-limit='):
            v = w.split('=', 1)[1]
        if v is not None:
            unit = UNIT.get(v[-1].lower(), 1)
            return int(v[:-1] if unit > 1 else v) * unit
    return 4 << 30


def mib(n):
    return '%d MiB' % (n >> 20) if n % (1 << 20) == 0 else '%d bytes' % n


def check_limit(k, limit):
    found = [f for s in k['suites'] for f in s['findings'] if f['kind'] == 'adapter_error']
    want = 'RLIMIT_AS unlimited' if limit == 0 else 'RLIMIT_AS %d' % limit
    if not found or not found[0]['detail'].endswith(want):
        fail('limit.f32: want an adapter_error ending %r, got %r' %
             (want, [f['detail'] for f in found]))


def check_hog(k, limit):
    name = k['kernel']
    first = k['suites'][0]
    crashes = [f for f in first['findings'] if f['kind'] == 'crash']
    if len(crashes) != 1:
        fail('%s: want one crash finding, got %r' % (name, [f['kind'] for f in first['findings']]))
    f = crashes[0]
    head = "ran out of memory: the worker's --memory-limit of %s (RLIMIT_AS); killed by %s; " \
           "reproduced by 1 input, x[" % (mib(limit), SIGNAL[name])
    if not f['detail'].startswith(head):
        fail('%s: detail %r does not start %r' % (name, f['detail'], head))
    want = ' --memory-limit %d --kernel %s --suite ' % (limit, name)
    if want not in f.get('command', ''):
        fail('%s: command %r lacks %r' % (name, f.get('command'), want))
    if 'x' not in f or k['verdict'] != 'fail':
        fail('%s: no input, or verdict %s' % (name, k['verdict']))


def check_measured(k):
    for s in k['suites']:
        bad = [f['kind'] for f in s['findings'] if f['kind'] in ('crash', 'timeout', 'adapter_error')]
        if s['verdict'] in ('skip', 'error') or s['points'] == 0 or bad:
            fail('good.f32: suite %s: %s on %d points %r, want it measured' %
                 (s['name'], s['verdict'], s['points'], bad))


def main():
    doc = json.load(open(sys.argv[1]))
    limit = given_limit(doc['command'])
    if doc.get('memory_limit') != limit:
        fail('"memory_limit" is %r, want %d' % (doc.get('memory_limit'), limit))
    names = [k['kernel'] for k in doc['kernels']]
    if names == ['limit.f32']:
        check_limit(doc['kernels'][0], limit)
        return 0
    if names != ['hog.f32', 'hog_abort.f32', 'good.f32']:
        fail('kernels %r' % names)
    for k in doc['kernels']:
        if k['kernel'] in SIGNAL:
            check_hog(k, limit)
        else:
            check_measured(k)
    return 0


if __name__ == '__main__':
    sys.exit(main())
