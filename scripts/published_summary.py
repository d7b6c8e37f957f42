#!/usr/bin/python3
"""README.md of a published audit (scripts/publish), read off its result.json: when and how
it was made, the machine, the libraries, and the headline findings, each a table of the
kernels that show it.  Standard library only.

    published_summary.py RESULT.json --date D --command C --seconds S > README.md

Every number printed here is a number in RESULT.json; nothing is hand-written.
"""
import argparse
import json
import sys

GELU_FAMILY = ('gelu', 'gelu_tanh', 'gelu_sigmoid')
CORE_REGIONS = ('[-5,-1)', '[-1,0)', '[0,1)', 'x>=1')  # outside the tail (x < -5)


def suites(k):
    return {s['name']: s for s in k.get('suites', [])}


def count(k, kind):
    return sum(c['count'] for s in k.get('suites', []) for c in s.get('finding_counts', [])
               if c['kind'] == kind)


def kid(k):
    return '%s `%s`' % (k['adapter'], k['kernel'])


def fmt_ulp(v):
    if v is None:
        return 'n/a'
    return '%.3g' % v if v < 1e4 else '%.3e' % v


def special_row(k, name):
    sp = suites(k).get('special')
    for row in (sp or {}).get('metrics', {}).get('table', []):
        if row.get('input') == name:
            return row
    return None


def section_minus_inf(kernels, out):
    rows = [(k, special_row(k, '-inf')) for k in kernels]
    rows = [(k, r) for k, r in rows if r]
    bad = [(k, r) for k, r in rows if not r['ok']]
    nan = [(k, r) for k, r in bad if r['got']['dec'] == 'nan']
    out.append('## x = -inf\n')
    out.append('%d of %d kernels with a special suite return a wrong value for x = -inf; '
               '%d of them return NaN (DESIGN.md section 2: gelu, its approximations and '
               'gelu_grad give -0 there, normcdf and normpdf +0, erf -1, erfc 2).\n'
               % (len(bad), len(rows), len(nan)))
    if bad:
        out.append('| kernel | func | dtype | got | want |')
        out.append('|---|---|---|---|---|')
        for k, r in bad:
            out.append('| %s | %s | %s | %s | %s |' % (kid(k), k['func'], k['dtype'],
                                                      r['got']['dec'], r['want']['dec']))
    right = [kid(k) for k, r in rows if r['ok']]
    out.append('\nRight at -inf: %s.\n' % (', '.join(right) if right else 'none'))


def section_flush(kernels, out):
    rows = []
    for k in kernels:
        t = suites(k).get('tail')
        m = (t or {}).get('metrics', {})
        if k['func'] in GELU_FAMILY and m.get('flush_point') and count(k, 'premature_flush'):
            rows.append((float(m['flush_point']['dec']), k, m))
    out.append('## Premature flush to zero in the negative tail\n')
    out.append('%d gelu-family kernels return 0 where the correctly rounded result is a normal '
               'number.  Flush point: the largest x whose output is 0 while the true result '
               'is not; last non-zero: the last x whose correctly rounded result is not 0.\n'
               % len(rows))
    if rows:
        out.append('| kernel | flush point | last non-zero (true) | floats in between | '
                   'premature_flush inputs |')
        out.append('|---|---|---|---|---|')
        for fp, k, m in sorted(rows, key=lambda r: (-r[0], r[1]['adapter'], r[1]['kernel'])):
            gap = m.get('flush_gap', {}).get('floats', 'n/a')
            out.append('| %s | %s | %s | %s | %d |' % (kid(k), m['flush_point']['dec'],
                                                      m['last_nonzero']['dec'], gap,
                                                      count(k, 'premature_flush')))
    out.append('')


def worst(k, kind):
    best = None
    for s in k.get('suites', []):
        for f in s.get('findings', []):
            if f['kind'] == kind and (best is None or f.get('score', 0) > best.get('score', 0)):
                best = f
    return best


def section_kind(kernels, kind, title, text, out):
    rows = [(k, count(k, kind)) for k in kernels]
    rows = [(k, n) for k, n in rows if n]
    out.append('## %s\n' % title)
    out.append('%d kernels: %s\n' % (len(rows), text))
    if rows:
        out.append('| kernel | inputs | worst x | got | want |')
        out.append('|---|---|---|---|---|')
        for k, n in rows:
            f = worst(k, kind)
            cells = (f['x']['dec'], f['got']['dec'], f.get('want', {}).get('dec', 'n/a')) \
                if f else ('n/a',) * 3
            out.append('| %s | %d | %s | %s | %s |' % ((kid(k), n) + cells))
    out.append('')


def section_formula(kernels, out):
    rows = [k for k in kernels if k.get('fingerprint', {}).get('detected') not in (None, 'n/a')]
    mism = [k for k in rows if k['fingerprint']['detected'] != k['fingerprint']['declared']]
    out.append('## Declared against detected formula\n')
    out.append('The fingerprint suite judged %d gelu-family kernels; %d behave unlike the '
               'formula they declare.\n' % (len(rows), len(mism)))
    if mism:
        out.append('| kernel | declared | detected | margin (bits) |')
        out.append('|---|---|---|---|')
        for k in mism:
            fp = k['fingerprint']
            out.append('| %s | %s | %s | %.2f |' % (kid(k), fp['declared'], fp['detected'],
                                                    fp.get('margin', float('nan'))))
    out.append('')


def section_accuracy(kernels, out):
    out.append('## Accuracy outside the tail\n')
    out.append('Max ulp error over x >= -5 (the regions [-5,-1), [-1,0), [0,1), x >= 1), '
               'max ulp over all inputs, and the fraction correctly rounded.\n')
    out.append('| kernel | func | dtype | max ulp, x >= -5 | max ulp | correctly rounded | '
               'verdict |')
    out.append('|---|---|---|---|---|---|---|')
    for k in kernels:
        u = suites(k).get('ulp')
        if not u:
            continue
        m = u['metrics']
        core = [m['regions'][r]['max_ulp'] for r in CORE_REGIONS
                if r in m.get('regions', {}) and m['regions'][r].get('points')]
        o = m['overall']
        out.append('| %s | %s | %s | %s | %s | %.6f | %s |' % (
            kid(k), k['func'], k['dtype'], fmt_ulp(max(core) if core else None),
            fmt_ulp(o.get('max_ulp')), o.get('fraction_correctly_rounded', 0), k['verdict']))
    out.append('')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('result')
    ap.add_argument('--date', required=True)
    ap.add_argument('--command', required=True)
    ap.add_argument('--seconds', required=True)
    a = ap.parse_args()
    with open(a.result) as f:
        r = json.load(f)
    env, tool, kernels = r['environment'], r['tool'], r['kernels']
    out = ['# Published audit, %s\n' % a.date,
           'Written by `scripts/publish` (regenerate: `scripts/publish`); never edited by '
           'hand.  The full report is [report.md](report.md) ([report.html](report.html)); '
           'the data is [result.json](result.json).\n',
           '- command: `%s` (policy %s, seed %s, reference %s; %s s on this machine)'
           % (a.command, r['policy']['name'], r['seed'], r['reference'], a.seconds),
           '- gelucheck %s (geluref %s, MPFR %s)' % (tool['version'], tool['geluref'],
                                                   tool['mpfr']),
           '- CPU: %s; flags: %s' % (env['cpu'], ', '.join(env['cpu_flags'])),
           '- %s, %s, built with %s\n' % (env['libc'], env['os'], env['compiler']),
           '## Libraries\n',
           '| adapter | version | kernels | verdict |', '|---|---|---|---|']
    for ad in r['adapters']:
        out.append('| %s | %s | %d | %s |' % (ad['name'], ad['version'], ad['kernels'],
                                             ad['verdict']))
    t = r['totals']
    out.append('\n%d kernels: %d pass, %d fail, %d error (policy %s).\n'
               % (t['kernels'], t['pass'], t['fail'], t['error'], r['policy']['name']))
    section_minus_inf(kernels, out)
    section_flush(kernels, out)
    section_kind(kernels, 'wrong_sign', 'Wrong sign',
                 'an output whose sign differs from the correctly rounded result\'s', out)
    section_kind(kernels, 'nan_output', 'NaN for a finite result',
                 'NaN where the correctly rounded result is a number (x = -inf aside: '
                 'see above)', out)
    section_formula(kernels, out)
    section_accuracy(kernels, out)
    sys.stdout.write('\n'.join(out) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
