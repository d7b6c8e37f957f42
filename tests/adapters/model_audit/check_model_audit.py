#!/usr/bin/python3
"""Test of docs/model-audit/run.sh: runs it into a fresh folder and compares the tables it
wrote with those committed in docs/model-audit.md.

    check_model_audit.py RUN_SH GELUCHECK DOC WORKDIR [--native-only]

The first table (the operator ONNX Runtime runs at each site and level) depends on the model
and the ORT version only: it must be equal line for line.  The second (report.md's table of
the sites: what the suites measured) must have the same rows: site, node, formula, levels,
operator, kernel and verdict; its numbers (max ulp, flush point) depend on the CPU's MLAS code
and are not compared.  The pairing table must be equal; the diff table must have the same
rows (site, levels, the two kernels, the inputs).  The table of every activation per runtime
must have the same columns and the same first three cells per row (activation, what PyTorch
computes, site); its counts depend on the CPU too.  With --native-only (run.sh's: the native
build alone, the default test model_audit) only its columns of the native build are there,
and they must be the committed table's first ones; model_audit_runtimes runs it all.  A
difference means the committed example is stale: regenerate it with
`docs/model-audit/run.sh DIR GELUCHECK --update`.
"""
import os
import re
import shutil
import subprocess
import sys

BEGIN, END = '<!-- model-audit tables: begin', '<!-- model-audit tables: end'


PAIRING = 'Each site beside the PyTorch activation'


DIFF = 'Each pair measured on both sides'


RUNTIMES = '## Every GELU of the PyTorch module, per runtime (report.md)'


def tables(text):
    """(table 1 lines, table 2 rows cut to their first seven cells, the pairing table's
    lines: which activation each site came from does not depend on the CPU, the diff table's
    rows cut to their first five cells: site, levels, the two kernels, the inputs; the counts
    depend on the CPU's MLAS and oneDNN code)"""
    parts = text.split('## What it measured, per site (report.md)')
    if len(parts) != 2 or PAIRING not in parts[1] or DIFF not in parts[1] or \
            RUNTIMES not in parts[0]:
        sys.exit('no table per runtime, no "What it measured" table with the pairing and the '
                 'diff in:\n' + text[:2000])
    parts[0], runtimes = parts[0].split(RUNTIMES)
    measured, pairing = parts[1].split(PAIRING, 1)
    pairing, diff = pairing.split(DIFF, 1)
    first = [l for l in parts[0].split('\n') if l.startswith('|')]
    second = [l.split(' | ')[:7] for l in measured.split('\n') if l.startswith('| `')]
    third = [l for l in pairing.split('\n') if l.startswith('| `')]
    fourth = [l.split(' | ')[:5] for l in diff.split('\n') if l.startswith('| `')]
    runtimes = [[c.strip() for c in l.strip().strip('|').split(' | ')]
                for l in runtimes.split('\n') if l.startswith('| ')]
    return first, second, third, fourth, runtimes


def main():
    run_sh, gelucheck, doc, work = sys.argv[1:5]
    native = sys.argv[5:] == ['--native-only']
    shutil.rmtree(work, ignore_errors=True)
    p = subprocess.run([run_sh, work, gelucheck] + sys.argv[5:], capture_output=True, text=True,
                       timeout=600)
    if p.returncode != 0:
        sys.exit('run.sh exited %d:\n%s%s' % (p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
    got = tables(open(os.path.join(work, 'tables.md')).read())
    committed = open(doc).read()
    want = tables(committed[committed.index(BEGIN):committed.index(END)])
    errors = []
    if got[0] != want[0]:
        errors.append('the operator table differs:\n  got  %s\n  want %s'
                      % ('\n       '.join(got[0]), '\n       '.join(want[0])))
    if got[1] != want[1]:
        errors.append('the measured rows differ:\n  got  %s\n  want %s' % (got[1], want[1]))
    if got[2] != want[2]:
        errors.append('the pairing differs:\n  got  %s\n  want %s'
                      % ('\n       '.join(got[2]), '\n       '.join(want[2])))
    if got[3] != want[3]:
        errors.append('the diff rows differ:\n  got  %s\n  want %s' % (got[3], want[3]))
    # the table per runtime: the header (its native columns only with --native-only), the
    # first three cells of each row, a cell per column that reads as a count and a side
    gh, wh = got[4][0] if got[4] else [], want[4][0] if want[4] else []
    if (gh != wh[:len(gh)] if native else gh != wh) or len(gh) < 5 or \
            any('native' not in c for c in gh[3:]) != (not native):
        errors.append('the columns per runtime differ:\n  got  %s\n  want %s' % (gh, wh))
    if [r[:3] for r in got[4][1:]] != [r[:3] for r in want[4][1:]] or len(got[4]) != 1 + 6:
        errors.append('the rows per runtime differ:\n  got  %s\n  want %s'
                      % ([r[:3] for r in got[4]], [r[:3] for r in want[4]]))
    for r in got[4][1:]:
        if len(r) != len(gh) or not all(re.match(r'^(\*\*formula changed\*\*; )?([0-9,]+ '
                                                 r'differ; \S.*|same bits)$|^- \(not a GELU\)$',
                                                 c) for c in r[3:]):
            errors.append('a row per runtime reads wrong: %s' % r)
    if len(got[2]) != 6 or any('not paired' in l for l in got[2]):
        errors.append('want 6 paired sites: %s' % got[2])
    if len(got[0]) != 2 + 6 or len(got[1]) != 12:
        errors.append('want 6 sites and 12 site rows: %d, %d'
                      % (len(got[0]) - 2, len(got[1])))
    # the result holds the scan under its adapter (what report.md's table is made of), valid
    # against the result's schema
    import json
    import jsonschema
    result = json.load(open(os.path.join(work, 'result.json')))
    schema = json.load(open(os.path.join(os.path.dirname(os.path.abspath(doc)), '..', 'reports',
                                         'schema', 'gelucheck-result-1.schema.json')))
    problems = [str(e)[:300] for e in jsonschema.Draft7Validator(schema).iter_errors(result)]
    if problems:
        errors.append('result.json breaks its schema: %s' % problems[:2])
    scan = result['adapters'][0].get('scan') or {}
    sites = [r.split(' | ')[0].strip('| `') for r in got[0][2:]]
    if [s['site'] for s in scan.get('sites', [])] != sites:
        errors.append('result.json: adapters[0].scan does not list the 6 sites: %s'
                      % [s['site'] for s in scan.get('sites', [])])
    for e in errors:
        print('FAIL: ' + e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
