#!/usr/bin/python3
"""The per-site tables of docs/model-audit.md, from a scan and the report of a run of its kernels:
    site_table.py SCAN.json REPORT.md [--splice DOC.md] > tables.md
--splice also puts them into DOC.md between its two "model-audit tables" marker lines.
SCAN.json: `gelucheck scan MODEL --json` (gelucheck-scan/1); REPORT.md: the report.md of
`gelucheck run --adapter scan:MODEL [--torch-module FILE.pt] --report DIR`.  Two tables (and
report.md's pairing of the sites with the PyTorch activations, where the run had the module,
with its table of every activation per runtime before them): what ONNX Runtime runs at each
site at each optimization level (from the scan alone, the levels as columns: the same on every
CPU), and report.md's own table of the model's sites (what each site's kernel measured: max ulp
and the flush point depend on the CPU's MLAS code).  Standard library only."""
import json
import sys

LEVELS = ['disabled', 'basic', 'extended', 'layout', 'all']
BEGIN, END = '<!-- model-audit tables: begin', '<!-- model-audit tables: end'


def cell(s):
    return str(s).replace('|', '\\|')


def main():
    scan = json.load(open(sys.argv[1]))
    out = ['## What ONNX Runtime runs at each site', '',
           '| site | node | computes | ' + ' | '.join(LEVELS) + ' |',
           '|---|---|---|' + '---|' * len(LEVELS)]
    for s in scan['sites']:
        anchor = next(n for n in s['nodes'] if n.endswith(('Erf', 'Tanh', 'Sigmoid')) or
                      len(s['nodes']) == 1)
        out.append('| `%s` | `%s` | %s | %s |' % (
            s['site'], anchor, cell(s['func']),
            ' | '.join(cell(s['levels'][lv]['operator']) for lv in LEVELS)))
    report = open(sys.argv[2]).read()
    # report.md's table of every PyTorch activation per runtime (a run with --torch-module),
    # then its first section "## Sites of `MODEL`" (the native build's): their tables, under
    # headings of this page
    for heading, title in (('\n## Every GELU of the PyTorch module, per runtime',
                            '## Every GELU of the PyTorch module, per runtime (report.md)'),
                           ('\n## Sites of ', '## What it measured, per site (report.md)')):
        start = report.find(heading)
        if start < 0:
            continue
        end = report.find('\n## ', start + 1)
        section = report[start:end if end >= 0 else len(report)].strip('\n').split('\n')
        out += ['', title, ''] + section[2:]
    text = '\n'.join(out) + '\n'
    sys.stdout.write(text)
    if len(sys.argv) == 5 and sys.argv[3] == '--splice':
        doc = open(sys.argv[4]).read()
        begin, end = doc.index('\n', doc.index(BEGIN)) + 1, doc.index(END)
        with open(sys.argv[4], 'w') as f:
            f.write(doc[:begin] + text + doc[end:])


if __name__ == '__main__':
    main()
