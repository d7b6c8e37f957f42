#!/usr/bin/python3
"""README.md of a published audit (scripts/publish), read off its result.json: when and how
it was made, the machine, the libraries, and the headline findings, each a table of the
kernels that show it.  Standard library only.

    published_summary.py RESULT.json --date D --command C --seconds S [--regenerate CMD] > README.md

Every number printed here is a number in RESULT.json; nothing is hand-written.
"""
import argparse
import json
import re
import sys

GELU_FAMILY = ('gelu', 'gelu_tanh', 'gelu_sigmoid')
GELU_AND_GRADS = GELU_FAMILY + ('gelu_grad', 'gelu_tanh_grad')
REGIONS = ('x<-10', '[-10,-5)', '[-5,-1)', '[-1,0)', '[0,1)', 'x>=1')
# adapters that are two builds of the same library's code: the same kernel names compute
# the same formula
BUILDS = (('libm', 'musl'), ('onnxruntime', 'onnxruntime-web'))
VECTOR_KINDS = ('position_dependent', 'alignment_dependent', 'inplace_mismatch',
                'lane_contamination', 'nondeterministic', 'out_of_bounds_write',
                'input_modified', 'fpenv_modified')


def outside_tail(func):
    """The ulp regions outside the tail, as gelucheck compare defines them (reports/compare.c):
    the tail is the underflow side beyond |x| = 1."""
    if func == 'erf':
        return REGIONS
    if func == 'erfc':
        return REGIONS[:5]
    if func == 'normpdf':
        return ('[-1,0)', '[0,1)')
    return ('[-1,0)', '[0,1)', 'x>=1')


def suites(k):
    return {s['name']: s for s in k.get('suites', [])}


# the ulp suite's finding kinds: in an exhaustive result the ulp suite judged every input, so
# its counts are exact totals, and the tail suite's (its sampled scan zeros, its depth bins)
# would count some inputs twice
ULP_KINDS = ('ulp_exceeded', 'nan_output', 'inf_output', 'wrong_sign', 'premature_flush', 'ftz',
             'signed_zero')
EXACT = False


def exhaustive(k):
    u = suites(k).get('ulp')
    return bool(u) and u.get('inputs', {}).get('kind') == 'exhaustive'


def count(k, kind):
    if EXACT and kind in ULP_KINDS and exhaustive(k):
        return sum(c['count'] for c in suites(k)['ulp'].get('finding_counts', [])
                   if c['kind'] == kind)
    return sum(c['count'] for s in k.get('suites', []) for c in s.get('finding_counts', [])
               if c['kind'] == kind)


def section_exact(kernels, out):
    """Every input of every kernel, counted: the ulp suite's overall statistics and finding
    counts, and the tail suite's exhaustive scan of the negative side."""
    rows = [k for k in kernels if exhaustive(k)]
    out.append('## Exact counts over every input\n')
    rng = {tuple(suites(k)['ulp']['inputs'].get('range') or ()) for k in rows}
    where = ('every one of their inputs (every bit pattern but the NaNs)' if rng == {()} else
             'every input in %s' % ', '.join('[%g, %g]' % r if r else 'the whole range'
                                             for r in sorted(rng)))
    out.append('%d kernels measured by the ulp suite on %s; `inputs` in each row.  Correctly rounded: the output is '
               'RN(f(x)); faithful: one of the two floats around f(x); the finding columns '
               'count the inputs the ulp suite judged so under the policy (premature flush: '
               'the output is 0 while RN(f(x)) is a normal number; wrong sign: the sign of '
               'the output differs from RN(f(x))\'s; NaN: a NaN output where f(x) is a '
               'number); zeros in the tail: the tail suite\'s count of zero outputs on the '
               'negative side, each where f(x) is not 0.\n' % (len(rows), where))
    if not rows:
        return
    out.append('| kernel | func | inputs | correctly rounded | not faithful | max ulp | '
               'premature flush | wrong sign | NaN | zeros in the tail | flush point |')
    out.append('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|')
    tot = {'premature_flush': 0, 'wrong_sign': 0, 'nan_output': 0}
    for k in rows:
        o = suites(k)['ulp']['metrics']['overall']
        tm = (suites(k).get('tail') or {}).get('metrics', {})
        for kind in tot:
            tot[kind] += count(k, kind)
        out.append('| %s | %s | %d | %d (%.4f%%) | %d | %s | %d | %d | %d | %s | %s |' % (
            kid(k), k['func'], o['points'], o['correctly_rounded'],
            100.0 * o['correctly_rounded'] / o['points'] if o['points'] else 0.0,
            o['points'] - o['faithful'], fmt_ulp(o.get('max_ulp')),
            count(k, 'premature_flush'), count(k, 'wrong_sign'), count(k, 'nan_output'),
            tm.get('zero_outputs', 'n/a'), tail_cell(k)))
    out.append('\nIn all: %d inputs return 0 where the correctly rounded result is a normal '
               'number (%d kernels), %d return the wrong sign (%d kernels), %d return NaN '
               'for a finite result (%d kernels).\n' % (
                   tot['premature_flush'], sum(1 for k in rows if count(k, 'premature_flush')),
                   tot['wrong_sign'], sum(1 for k in rows if count(k, 'wrong_sign')),
                   tot['nan_output'], sum(1 for k in rows if count(k, 'nan_output'))))


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
    out.append('## x = -inf\n')
    out.append('The reference\'s conventions: gelu, its approximations and the grads give -0 '
               'there, normcdf and normpdf +0, erf -1, erfc 2.\n')
    out.append('| adapter | kernels | right | NaN | other wrong value |')
    out.append('|---|--:|--:|--:|--:|')
    for ad in dict.fromkeys(k['adapter'] for k, _ in rows):
        mine = [r for k, r in rows if k['adapter'] == ad]
        nan = sum(1 for r in mine if not r['ok'] and r['got']['dec'] == 'nan')
        right = sum(1 for r in mine if r['ok'])
        out.append('| %s | %d | %d | %d | %d |' % (ad, len(mine), right, nan,
                                                  len(mine) - right - nan))
    fam = [(k, r) for k, r in rows if k['func'] in GELU_AND_GRADS]
    fam_nan = [k for k, r in fam if not r['ok'] and r['got']['dec'] == 'nan']
    fam_right = [kid(k) for k, r in fam if r['ok']]
    out.append('\nOf the %d kernels of GELU, its approximations and their derivatives, %d '
               'return NaN for x = -inf and %d return the right value%s.  The other '
               'functions (normcdf, normpdf, erf, erfc) are right there in %d of %d kernels.\n'
               % (len(fam), len(fam_nan), len(fam_right),
                  ' (%s)' % ', '.join(fam_right) if fam_right else '',
                  sum(1 for k, r in rows if k['func'] not in GELU_AND_GRADS and r['ok']),
                  sum(1 for k, r in rows if k['func'] not in GELU_AND_GRADS)))


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


def section_vector(kernels, out):
    rows = [(k, kind, count(k, kind)) for k in kernels for kind in VECTOR_KINDS]
    rows = [r for r in rows if r[2]]
    out.append('## Vector defects\n')
    out.append('%d findings of the vector suite (bits that depend on the batch, alignment, '
               'in-place use or other lanes; writes out of bounds; a changed floating-point '
               'environment).\n' % len(rows))
    if rows:
        out.append('| kernel | kind | findings | first x |')
        out.append('|---|---|--:|---|')
        for k, kind, n in rows:
            f = worst(k, kind)
            out.append('| %s | %s | %d | %s |' % (kid(k), kind, n, f['x']['dec'] if f else 'n/a'))
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
    out.append('Max ulp error outside the tail (as `gelucheck compare` defines it: x >= -1 '
               'for GELU, its derivatives and normcdf, x < 1 for erfc, |x| < 1 for normpdf, '
               'every x for erf), max ulp over all inputs, and the fraction correctly '
               'rounded, from the ulp suite (%s).\n'
               % ('every input: exact' if EXACT else 'f32 and f64 sampled: lower bounds'))
    out.append('| kernel | func | dtype | max ulp outside the tail | max ulp | correctly '
               'rounded | verdict |')
    out.append('|---|---|---|---|---|---|---|')
    for k in kernels:
        u = suites(k).get('ulp')
        if not u:
            continue
        m = u['metrics']
        core = [m['regions'][r]['max_ulp'] for r in outside_tail(k['func'])
                if r in m.get('regions', {}) and m['regions'][r].get('points')]
        o = m['overall']
        out.append('| %s | %s | %s | %s | %s | %.6f | %s |' % (
            kid(k), k['func'], k['dtype'], fmt_ulp(max(core) if core else None),
            fmt_ulp(o.get('max_ulp')), o.get('fraction_correctly_rounded', 0), k['verdict']))
    out.append('')


def pairs(kernels):
    """(title, [(a, b)]) groups of kernels that compute the same thing in two ways, each pair
    in the result: the same kernel name on two adapters (onnxruntime and onnxruntime-web), the
    same formula on two backends or CPU variants of one adapter (the name's last part: tfjs's
    cpu and wasm, ggml's x64 and its best variant), and a kernel beside the companion its
    description names (a fused operator or a matmul epilogue beside the standalone kernel).
    Two builds of one library: BUILDS."""
    by = {(k['adapter'], k['kernel']): k for k in kernels}
    same_name = [(by[(a, n)], by[(b, n)]) for a, b in BUILDS for (x, n) in by
                 if x == a and (b, n) in by and by[(a, n)]['func'] == by[(b, n)]['func']]
    variants = []
    for k in kernels:
        head, _, tail = k['kernel'].rpartition('.')
        if k['adapter'] in ('tfjs', 'ggml') and tail not in ('cpu', 'x64'):
            other = by.get((k['adapter'], head + ('.cpu' if k['adapter'] == 'tfjs' else '.x64')))
            if other:
                variants.append((other, k))
    mates = []
    for k in kernels:
        d = k.get('description') or ''
        m = re.search(r'companion kernel ([A-Za-z0-9_.-]+)', d)
        if m:
            name = m.group(1).rstrip('.')
            if (k['adapter'], name) in by:
                mates.append((by[(k['adapter'], name)], k))
    return [('The same kernel on two builds of a library', same_name),
            ('One formula on two backends or CPU variants', variants),
            ('A fused operator or epilogue beside its standalone kernel', mates)]


def tail_cell(k):
    m = (suites(k).get('tail') or {}).get('metrics', {})
    fp = m.get('flush_point')
    return fp['dec'] if fp else 'none'


def core_ulp(k):
    u = suites(k).get('ulp')
    if not u:
        return None
    regions = u['metrics'].get('regions', {})
    core = [regions[r]['max_ulp'] for r in outside_tail(k['func'])
            if r in regions and regions[r].get('points')]
    return max(core) if core else None


def section_pairs(kernels, out):
    out.append('## The same GELU computed two ways\n')
    out.append('Pairs of kernels of this result that compute the same function: A is the '
               'reference side (the native build, the generic backend or variant, the '
               'standalone kernel), B the other. Each side\'s own measurements, side by side: '
               'max ulp outside the tail, the flush point, f(-inf), and the count of failing '
               'inputs of every finding kind (a kind in one side only is marked). The result '
               'holds no outputs, so bits that differ without changing a measurement do not '
               'show here.\n')
    for title, rows in pairs(kernels):
        if not rows:
            continue
        out.append('### %s\n' % title)
        out.append('| A | B | dtype | max ulp outside the tail, A / B | flush point, A / B | '
                   'f(-inf), A / B | findings that differ (A / B) |')
        out.append('|---|---|---|---|---|---|---|')
        for a, b in rows:
            kinds = sorted({c['kind'] for k in (a, b) for s in k.get('suites', [])
                            for c in s.get('finding_counts', [])})
            diff = ['%s %d / %d' % (kind, count(a, kind), count(b, kind)) for kind in kinds
                    if count(a, kind) != count(b, kind)]
            inf = [((special_row(k, '-inf') or {}).get('got') or {}).get('dec', 'n/a')
                   for k in (a, b)]
            out.append('| %s | %s | %s | %s / %s | %s / %s | %s / %s | %s |' % (
                kid(a), kid(b), a['dtype'], fmt_ulp(core_ulp(a)), fmt_ulp(core_ulp(b)),
                tail_cell(a), tail_cell(b), inf[0], inf[1], ', '.join(diff) or 'none'))
        out.append('')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('result')
    ap.add_argument('--date', required=True)
    ap.add_argument('--command', required=True)
    ap.add_argument('--seconds', required=True)
    ap.add_argument('--regenerate', default='scripts/publish',
                    help='the command that writes this folder again')
    ap.add_argument('--where', default='on this machine', help='where it ran')
    ap.add_argument('--note', action='append', default=[], help='one more line under command')
    a = ap.parse_args()
    with open(a.result) as f:
        r = json.load(f)
    global EXACT
    EXACT = any(exhaustive(k) and k['dtype'] == 'f32' for k in r['kernels'])
    env, tool, kernels = r['environment'], r['tool'], r['kernels']
    out = ['# Published audit, %s\n' % a.date,
           'Written by `scripts/publish` (regenerate: `%s`); never edited by '
           'hand.  The full report is [report.md](report.md) (plots in plots/); the data is '
           'result.json.xz (`xz -dk result.json.xz`, then `gelucheck report result.json '
           '--report DIR` rebuilds the report from it, report.html with its plots embedded '
           'included).\n' % a.regenerate,
           '- command: `%s` (policy %s, seed %s, reference %s; %s s %s)'
           % (a.command, r['policy']['name'], r['seed'], r['reference'], a.seconds, a.where),
           ] + ['- %s' % n for n in a.note] + [
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
    if EXACT:
        section_exact(kernels, out)
    section_minus_inf(kernels, out)
    section_flush(kernels, out)
    section_kind(kernels, 'wrong_sign', 'Wrong sign',
                 'an output whose sign differs from the correctly rounded result\'s', out)
    section_kind(kernels, 'nan_output', 'NaN for a finite result',
                 'NaN where the correctly rounded result is a number (x = -inf aside: '
                 'see above)', out)
    section_kind(kernels, 'inf_output', 'Infinity for a finite result',
                 'an infinite output where the correctly rounded result is finite', out)
    section_kind(kernels, 'signed_zero', 'Zero of the wrong sign',
                 '+0 where the correctly rounded result is -0 or -0 where it is +0 (e.g. '
                 'GELU of a negative x deep in the tail, or of -0)', out)
    section_vector(kernels, out)
    section_formula(kernels, out)
    section_pairs(kernels, out)
    section_accuracy(kernels, out)
    sys.stdout.write('\n'.join(out) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
