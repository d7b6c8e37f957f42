#!/usr/bin/env python3
"""Checks a result of `gelucheck run` on exec_fixtures/crashers.py (tests/suites/crash.cmake):
every kernel the result holds gets the outcome its name stands for.

    crash_check.py RESULT.json

A crash gives a `crash` finding naming the signal (or the exit status) with the smallest
batch that reproduces it, its command the run on that input alone; a stall a `timeout`
finding whose bisection was capped; a protocol break an `adapter_error`.  After a crash or
a timeout the kernel's other suites are skipped with a note saying why and the kernel fails;
good.f32, listed after the bad ones, is still measured and passes.
"""
import json
import sys

# kernel -> (finding kind, text the detail must hold, x bits or None, batch of one)
EXPECT = {
    'segv.f32': ('crash', 'killed by SIGSEGV;', None, True),
    'abort.f32': ('crash', 'killed by SIGABRT;', None, True),
    'segv_at.f32': ('crash', 'killed by SIGSEGV;', '0x40000000', True),
    'halfexit.f32': ('crash', 'exited with status 0;', None, True),
    'hang.f32': ('timeout', 'no reply within the batch timeout;', None, False),
    'slow.f32': ('timeout', 'no reply within the batch timeout;', None, False),
    'huge.f32': ('adapter_error', "reply 'ok 9999999' to 'eval huge.f32", None, False),
    # the hostile fixture plug-in (tests/adapters/fixtures/hostile.c), run in gelucheck-worker
    'sigfpe.f32': ('crash', 'killed by SIGFPE;', None, True),
    'sleep.f32': ('timeout', 'no reply within the batch timeout;', None, False),
    'exit3.f32': ('crash', 'exited with status 3;', None, True),
}
# hostile fixture kernels that write where they must not: the worker's guards catch the write,
# the outputs stay whole and every suite still runs
FAULTS = {
    'write_after.f32': ('out_of_bounds_write', 'past y[n-1]'),
    'write_before.f32': ('out_of_bounds_write', 'before y[0]'),
    'write_x.f32': ('input_modified', 'x[3] written'),
}


def fail(kernel, what):
    sys.exit('crash_check: %s: %s' % (kernel, what))


def check_bad(k, kind, text, bits, one):
    name = k['kernel']
    suites = k['suites']
    first = suites[0]
    found = [f for f in first['findings'] if f['kind'] == kind]
    if len(found) != 1:
        fail(name, 'want one %s finding in suite %s, got %r' %
             (kind, first['name'], [f['kind'] for f in first['findings']]))
    f = found[0]
    if text not in f['detail']:
        fail(name, 'detail %r lacks %r' % (f['detail'], text))
    if 'x' not in f:
        fail(name, 'the finding has no input')
    if bits is not None and f['x']['bits'] != bits:
        fail(name, 'x = %s, want %s' % (f['x']['bits'], bits))
    if kind == 'adapter_error':
        if k['verdict'] != 'error':
            fail(name, 'verdict %s, want error' % k['verdict'])
        return
    if one and 'reproduced by 1 input, x[' not in f['detail']:
        fail(name, 'not narrowed to one input: %r' % f['detail'])
    if not one and 'bisection capped' not in f['detail']:
        fail(name, 'a hang on every input must hit the cap: %r' % f['detail'])
    want_cmd = 'gelucheck run --adapter '
    if not f['command'].startswith(want_cmd) or ' --kernel %s --suite ' % name not in f['command']:
        fail(name, 'command %r does not rerun the kernel' % f['command'])
    if bits == '0x40000000' and not f['command'].endswith('--suite ulp --range 0x1p+1:0x1p+1'):
        fail(name, 'command %r is not the run on x = 2 alone' % f['command'])
    word = 'crashed' if kind == 'crash' else 'timed out'
    stop = '%s suite: stopped, the kernel %s (the %s finding gives the input)' % (
        first['name'], word, kind)
    if first.get('note') != stop:
        fail(name, 'suite %s: note %r, want %r' % (first['name'], first.get('note'), stop))
    if k['verdict'] != 'fail' or first['verdict'] != 'fail':
        fail(name, 'verdicts %s/%s, want fail' % (k['verdict'], first['verdict']))
    for s in suites[1:]:
        word = 'crashed' if kind == 'crash' else 'timed out'
        note = 'not run: the kernel %s in suite %s' % (word, first['name'])
        if s['verdict'] != 'skip' or s.get('note') != note:
            fail(name, 'suite %s: %s %r, want skip %r' % (s['name'], s['verdict'],
                                                           s.get('note'), note))


def check_fault(k, kind, text):
    name = k['kernel']
    if k['verdict'] != 'fail':
        fail(name, 'verdict %s, want fail' % k['verdict'])
    for s in k['suites']:
        found = [f for f in s['findings'] if f['kind'] == kind]
        if not found or text not in found[0]['detail'] or 'guard page' not in found[0]['detail'] \
                and 'read-only' not in found[0]['detail']:
            fail(name, 'suite %s: want a %s finding saying %r from the worker, got %r' %
                 (s['name'], kind, text, [(f['kind'], f['detail']) for f in s['findings']]))
        if s['verdict'] == 'skip' or s['points'] == 0:
            fail(name, 'suite %s was not run after the fault' % s['name'])
        if any(f['kind'] in ('crash', 'timeout', 'adapter_error') for f in s['findings']):
            fail(name, 'suite %s: a fault must not be a crash' % s['name'])


def check_measured(k):
    """A correct-enough kernel after the bad ones: every suite ran, nothing from the process."""
    for s in k['suites']:
        bad = [f['kind'] for f in s['findings']
               if f['kind'] in ('crash', 'timeout', 'adapter_error', 'out_of_bounds_write',
                                'input_modified')]
        if s['verdict'] in ('skip', 'error') or s['points'] == 0 or bad:
            fail(k['kernel'], 'suite %s: %s on %d points %r, want it measured' %
                 (s['name'], s['verdict'], s['points'], bad))


def main():
    doc = json.load(open(sys.argv[1]))
    names = [k['kernel'] for k in doc['kernels']]
    if names == ['segv_at.f32']:  # the finding's own command: that input alone
        check_bad(doc['kernels'][0], *EXPECT['segv_at.f32'])
        if 'of a batch of 1 ' not in doc['kernels'][0]['suites'][0]['findings'][0]['detail']:
            fail('segv_at.f32', 'the command did not run x = 2 alone')
        return 0
    hostile = 'write_x.f32' in names  # the plug-in: its good.f32 computes 2x, not gelu
    last = 'erfc.f32' if hostile else 'good.f32'  # hostile: libm's erfc.f32, a later adapter
    if names[-1] != last:
        fail('-', '%s must come last: %r' % (last, names))
    for k in doc['kernels']:
        if k['kernel'] in FAULTS:
            check_fault(k, *FAULTS[k['kernel']])
            continue
        if hostile and k['kernel'] in ('good.f32', 'erfc.f32'):
            check_measured(k)
            continue
        if k['kernel'] in EXPECT:
            check_bad(k, *EXPECT[k['kernel']])
            continue
        for s in k['suites']:
            if s['verdict'] != 'pass' or s['points'] == 0 or s['findings']:
                fail(k['kernel'], 'suite %s: %s on %d points (%d findings), want a pass' %
                     (s['name'], s['verdict'], s['points'], len(s['findings'])))
    return 0


if __name__ == '__main__':
    sys.exit(main())
