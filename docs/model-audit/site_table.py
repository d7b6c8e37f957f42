#!/usr/bin/python3
"""The per-site tables of docs/model-audit.md, from a scan and a run of its kernels:
    site_table.py SCAN.json RESULT.json [--splice DOC.md] > tables.md
--splice also puts them into DOC.md between its two "model-audit tables" marker lines.
SCAN.json: `gelucheck scan MODEL --json` (gelucheck-scan/1); RESULT.json: `gelucheck run
--adapter scan:MODEL --json` (gelucheck-result/1).  Two tables: what ONNX Runtime runs at each
site at each optimization level (from the scan alone: the same on every CPU), and, per site and
kernel, what the suites measured (max ulp and the flush point depend on the CPU's MLAS code).
Standard library only."""
import json
import sys

LEVELS = ['disabled', 'basic', 'extended', 'layout', 'all']
BEGIN, END = '<!-- model-audit tables: begin', '<!-- model-audit tables: end'


def cell(s):
    return str(s).replace('|', '\\|')


def suite(k, name):
    return next((s for s in k['suites'] if s['name'] == name), None)


def count(k, kind):
    return sum(c['count'] for s in k['suites'] for c in s['finding_counts'] if c['kind'] == kind)


def measured(k):
    ulp, tail, special = suite(k, 'ulp'), suite(k, 'tail'), suite(k, 'special')
    regions = ulp['metrics']['regions'] if ulp else {}
    near = [regions[r]['max_ulp'] for r in ('[-1,0)', '[0,1)', 'x>=1') if r in regions]
    max_ulp = max(u for u in near if isinstance(u, (int, float))) if near else None
    flush = tail['metrics'].get('flush_point') if tail else None
    minf = next((r['got']['dec'] for r in special['metrics']['table'] if r['input'] == '-inf'),
                '-') if special else '-'
    return ['**%s**' % k['verdict'].upper(),
            '%.3g' % max_ulp if isinstance(max_ulp, (int, float)) else '-',
            flush['dec'] if flush else 'none', minf, count(k, 'wrong_sign'),
            count(k, 'inf_output')]


def main():
    scan, result = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
    kernels = {k['kernel']: k for k in result['kernels']}
    out = ['## What ONNX Runtime runs at each site', '',
           '| site | node | computes | ' + ' | '.join(LEVELS) + ' |',
           '|---|---|---|' + '---|' * len(LEVELS)]
    for s in scan['sites']:
        anchor = next(n for n in s['nodes'] if n.endswith(('Erf', 'Tanh', 'Sigmoid')) or
                      len(s['nodes']) == 1)
        out.append('| `%s` | `%s` | %s | %s |' % (
            s['site'], anchor, cell(s['func']),
            ' | '.join(cell(s['levels'][lv]['operator']) for lv in LEVELS)))
    out += ['', '## What it measured, per site and kernel', '',
            '| site | levels | kernel | verdict | max ulp, x >= -1 | flush point | f(-inf) | '
            'wrong_sign findings | inf_output findings |',
            '|---|---|---|---|--:|--:|--:|--:|--:|']
    for s in scan['sites']:
        by_kernel = {}
        for lv in LEVELS:
            k = s['levels'][lv]['kernel']
            by_kernel.setdefault(k, []).append(lv)
        for k, lvs in by_kernel.items():
            row = (measured(kernels[k]) if k in kernels
                   else ['not a GELU: no kernel' if k is None else 'not run'] + ['-'] * 5)
            out.append('| `%s` | %s | %s | %s |' % (s['site'], ', '.join(lvs),
                                                     '`%s`' % k if k else '-',
                                                     ' | '.join(str(c) for c in row)))
    text = '\n'.join(out) + '\n'
    sys.stdout.write(text)
    if len(sys.argv) == 5 and sys.argv[3] == '--splice':
        doc = open(sys.argv[4]).read()
        begin, end = doc.index('\n', doc.index(BEGIN)) + 1, doc.index(END)
        with open(sys.argv[4], 'w') as f:
            f.write(doc[:begin] + text + doc[end:])


if __name__ == '__main__':
    main()
