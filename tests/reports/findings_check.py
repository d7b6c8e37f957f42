#!/usr/bin/env python3
"""Checks what the terminal summary, report.md and junit.xml say about findings (findings.cmake):

    findings_check.py GELUCHECK TEST_FINDINGS HOSTILE.so FAIL.so DIR

Three runs into DIR: the hostile fixture plug-in's crashing kernels (segv_nan.f32 is wrong
everywhere and segfaults on the special suite's NaN, after the ulp suite made thousands of
ulp_exceeded findings) with fail.so's picky.f32 (an adapter_error); every mutant with six
libm kernels; libm grad_erfc.f32 (NaN at both infinities) under lenient.  The summary must
lead each kernel with its worst finding (the crash and its signal, not an ulp_exceeded),
show one line per kind with the kind's largest error, and a cause and a fix under each;
report.md and junit.xml must name the signal; then test_findings checks every hint on the
results (hints_expect.h).
"""
import json
import os
import re
import shutil
import subprocess
import sys

GELUCHECK, TEST_FINDINGS, HOSTILE, FAIL, DIR = sys.argv[1:6]
LIBM = ['erf1p.f32', 'erfc.f32', 'grad_erfc.f32', 'tanh.f32', 'sigmoid.f32', 'tanh_grad.f32']


def die(what):
    sys.exit('findings_check: ' + what)


def run(name, args, want_rc):
    out_dir = os.path.join(DIR, name)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    cmd = [GELUCHECK, 'run'] + args + ['--progress', 'never', '--json', 'result.json',
                                       '--report', 'report']
    p = subprocess.run(cmd, cwd=out_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    print('$ ' + ' '.join(cmd) + '\n' + p.stdout)
    if p.returncode != want_rc:
        die('%s: exit status %d, want %d\n%s' % (name, p.returncode, want_rc, p.stderr))
    with open(os.path.join(out_dir, 'result.json')) as f:
        doc = json.load(f)
    with open(os.path.join(out_dir, 'report', 'report.md')) as f:
        md = f.read()
    with open(os.path.join(out_dir, 'report', 'junit.xml')) as f:
        junit = f.read()
    return p.stdout, doc, md, junit, os.path.join(out_dir, 'result.json')


def block(summary, kernel):
    """The kernel's line and the lines under it, continuation lines of hints joined."""
    lines = summary.split('\n')
    for i, line in enumerate(lines):
        if re.match(r'^[A-Z]+ +\S+  %s  ' % re.escape(kernel), line):
            end = i + 1
            while end < len(lines) and lines[end].startswith('    '):
                end += 1
            text = '\n'.join(lines[i:end])
            return re.sub(r'\n {13,}', ' ', text)  # a wrapped why/fix on one line
    die('no line for kernel %s in the summary' % kernel)


def kernel_of(doc, name):
    for k in doc['kernels']:
        if k['kernel'] == name:
            return k
    die('kernel %s missing from the result' % name)


def findings(k, kind):
    return [f for s in k['suites'] for f in s['findings'] if f['kind'] == kind]


def check_hints(text, kernel):
    """Every kind line of the kernel is followed by a why and a fix line."""
    lines = text.split('\n')[1:]
    kinds = [l for l in lines if re.match(r'^    [a-z_]+ +[0-9]+  ', l)]
    if not kinds:
        die('%s: no kind lines:\n%s' % (kernel, text))
    for i, l in enumerate(lines):
        if l in kinds and not (lines[i + 1].startswith('        why: ') and
                               lines[i + 2].startswith('        fix: ')):
            die('%s: no why/fix under %r' % (kernel, l))


# --- the crashing kernels
args = ['--adapter', 'plugin:' + HOSTILE, '--adapter', 'plugin:' + FAIL, '--timeout', '1',
        '--samples', '1000', '--threads', '1']
for k in ['segv_nan.f32', 'abort.f32', 'sigfpe.f32', 'exit3.f32', 'sleep.f32', 'write_after.f32',
          'write_x.f32', 'picky.f32']:
    args += ['--kernel', k]
out, doc, md, junit, hostile_json = run('hostile', args, 3)
k = kernel_of(doc, 'segv_nan.f32')
if not findings(k, 'ulp_exceeded') or k['suites'][0]['name'] != 'ulp':
    die('segv_nan.f32: the ulp suite, first, must have ulp_exceeded findings')
text = block(out, 'segv_nan.f32')
head = text.split('\n')[0]
if not re.search(r'  segv_nan\.f32  gelu f32  worst: crash, killed by SIGSEGV at x = nan$', head):
    die('segv_nan.f32: the kernel line does not lead with the crash: %r' % head)
if not re.match(r'    crash +1  special none  x = nan  killed by SIGSEGV;', text.split('\n')[1]):
    die('segv_nan.f32: the first kind line is not the crash:\n' + text)
check_hints(text, 'segv_nan.f32')
for name, what in [('abort.f32', 'killed by SIGABRT'), ('sigfpe.f32', 'killed by SIGFPE'),
                   ('exit3.f32', 'exited with status 3'), ('sleep.f32', 'no reply within')]:
    if what not in block(out, name).split('\n')[0]:
        die('%s: the kernel line does not say %r' % (name, what))
# report.md says what killed the kernel, in its section; junit.xml's failure message too
section = md[md.index('segv\\_nan.f32: **FAIL**'):]
section = section[:section.find('\n## ')] if '\n## ' in section else section
if 'killed by SIGSEGV' not in section or '**`crash`** (fail, 1 finding)' not in section:
    die('report.md: the section of segv_nan.f32 does not say it was killed by SIGSEGV')
if 'worst finding | ' not in md or '| **FAIL** | `crash` |' not in md:
    die('report.md: the summary table has no worst finding `crash`')
if not re.search(r'<failure message="crash none x = nan: killed by SIGSEGV" type="crash">', junit):
    die('junit.xml: no failure message naming SIGSEGV')
# picky.f32 errors on batches of more than two: the terminal quotes the reason, and report.md
# draws no flush conclusion from a tail suite that could not evaluate it
if 'is more than 2 elements' not in block(out, 'picky.f32'):
    die('picky.f32: the terminal does not quote the adapter_error reason')
section = md[md.index('picky.f32: **ERROR**'):]
section = section[:section.find('\n## ')] if '\n## ' in section else section
if 'no early flush' in section or 'no conclusion on where it flushes' not in section:
    die('report.md: picky.f32 (never measured by the tail suite) gets a flush conclusion')
if not re.search(r'\| `picky\.f32` \|[^\n]*\| \*\*ERROR\*\* \|[^\n]*\| - \| [0-9]+/[0-9]+ \|', md):
    die('report.md: the summary row of picky.f32 does not show its flush point as -')

# --- the mutants and libm kernels
listing = subprocess.run([GELUCHECK, 'list', '--adapter', 'mutants'], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
mutants = [l.split()[0] for l in listing.split('\n')[2:] if l.strip()]
# one thread: call_count.f32 counts its calls, and two threads would share them out by timing
args = ['--adapter', 'mutants', '--adapter', 'libm', '--samples', '2000', '--threads', '1']
for name in mutants + LIBM:
    args += ['--kernel', name]
out, doc, md, junit, all_json = run('all', args, 1)
for name in mutants + LIBM:
    check_hints(block(out, name), name)
# grad_erfc.f32: the ulp_exceeded line shows the largest error of any suite and region
k = kernel_of(doc, 'grad_erfc.f32')
ulps = [(f['ulp'], f['x']['dec']) for f in findings(k, 'ulp_exceeded') if not isinstance(f['ulp'], str)]
top = max(ulps)
first = findings(k, 'ulp_exceeded')[0]['ulp']
if first >= top[0]:
    die('grad_erfc.f32: the first ulp_exceeded finding listed is already the largest')
text = block(out, 'grad_erfc.f32')
line = [l for l in text.split('\n') if l.startswith('    ulp_exceeded ')][0]
want = '  x = %s  ' % top[1]
if want not in line or '(%.3g ulp)' % top[0] not in line:
    die('grad_erfc.f32: the ulp_exceeded line %r is not the largest error, %.6g at x = %s'
        % (line, top[0], top[1]))
zeros = sum(c['count'] for s in k['suites'] for c in s['finding_counts']
            if c['kind'] == 'signed_zero')
if not re.search(r'\n    signed_zero +%d  ' % zeros, text):
    die('grad_erfc.f32: no signed_zero line with its %d findings' % zeros)
# the erf-form kernel's flush: 1 + erf cancels, erfc fixes it; not said of the erfc kernel
text = block(out, 'erf1p.f32')
if not re.search(r'worst: premature_flush at x = ', text.split('\n')[0]):
    die('erf1p.f32: the kernel line does not lead with premature_flush')
if '1 + erf(x/sqrt2) cancels' not in text or 'Phi(x) = erfc(-x/sqrt2)/2' not in text:
    die('erf1p.f32: no 1 + erf cause and erfc fix:\n' + text)
if '1 + erf(x/sqrt2) cancels' in block(out, 'erfc.f32'):
    die('erfc.f32: the 1 + erf cause shown for a kernel that uses erfc')

# --- nan_at_neg_inf = allow tolerates NaN for -inf, and only that: NaN for +inf fails
out, doc, md, junit, _ = run('lenient', ['--adapter', 'libm', '--kernel', 'grad_erfc.f32',
                                         '--suite', 'special', '--policy', 'lenient'], 1)
sv = {f['x']['dec']: f for f in findings(kernel_of(doc, 'grad_erfc.f32'), 'special_value')}
if sv['-inf']['severity'] != 'warn' or 'tolerated' not in sv['-inf']['detail']:
    die('lenient: NaN for -inf is not a tolerated warning: %r' % sv['-inf'])
if sv['inf']['severity'] != 'fail' or 'tolerated' in sv['inf']['detail']:
    die('lenient: NaN for +inf is not a failing finding: %r' % sv['inf'])
head = block(out, 'grad_erfc.f32').split('\n')[0]
if not head.startswith('FAIL ') or 'worst: special_value at x = inf (got nan' not in head:
    die('lenient: the kernel line does not show NaN at +inf: %r' % head)

p = subprocess.run([TEST_FINDINGS, 'hints', all_json, hostile_json])
if p.returncode != 0:
    die('test_findings hints failed')
print('findings_check: ok')
