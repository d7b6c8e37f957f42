#!/usr/bin/python3
"""Test of scripts/published_summary.py (the README of reports/published/): runs it on a
committed result and checks each section against the result, read here independently.

    check_published_summary.py SUMMARY_PY RESULT.json
"""
import json
import subprocess
import sys


def section(md, title):
    assert '\n## %s\n' % title in md, 'no section %r' % title
    return md.split('\n## %s\n' % title, 1)[1].split('\n## ', 1)[0]


def main():
    script, result = sys.argv[1:3]
    md = subprocess.run(['/usr/bin/python3', script, result, '--date', '2026-01-02',
                         '--command', 'gelucheck run --adapter mutants', '--seconds', '7'],
                        check=True, capture_output=True, text=True).stdout
    with open(result) as f:
        r = json.load(f)
    assert md.startswith('# Published audit, 2026-01-02\n'), md[:80]
    assert '`gelucheck run --adapter mutants`' in md and '7 s on this machine' in md
    # x = -inf: one row per adapter; counts from the special suites' -inf rows (by bits)
    inf = section(md, 'x = -inf')
    for ad in r['adapters']:
        rows = [row for k in r['kernels'] if k['adapter'] == ad['name']
                for s in k['suites'] if s['name'] == 'special'
                for row in s['metrics']['table'] if row['input'] == '-inf']
        right = sum(row['got']['bits'] == row['want']['bits'] or row['ok'] for row in rows)
        nan = sum(row['got']['dec'] == 'nan' for row in rows)
        want = '| %s | %d | %d | %d | %d |' % (ad['name'], len(rows), right, nan,
                                                len(rows) - right - nan)
        assert want in inf, (want, inf)
    # every kernel with a premature_flush count and a flush point is in the flush table, with
    # its flush point; none other
    flush = section(md, 'Premature flush to zero in the negative tail')
    for k in r['kernels']:
        tail = {s['name']: s for s in k['suites']}.get('tail')
        n = sum(c['count'] for s in k['suites'] for c in s['finding_counts']
                if c['kind'] == 'premature_flush')
        listed = '`%s`' % k['kernel'] in flush
        fp = tail and tail['metrics'].get('flush_point')
        expect = bool(n and fp and k['func'] in ('gelu', 'gelu_tanh', 'gelu_sigmoid'))
        assert listed == expect, (k['kernel'], n, listed)
        if expect:
            assert '| mutants `%s` | %s |' % (k['kernel'], fp['dec']) in flush, k['kernel']
    # wrong sign: exactly the kernels that have wrong_sign findings
    wrong = section(md, 'Wrong sign')
    have = [k['kernel'] for k in r['kernels']
            if any(c['kind'] == 'wrong_sign' for s in k['suites'] for c in s['finding_counts'])]
    assert ('%d kernels:' % len(have)) in wrong, wrong[:200]
    for name in have:
        assert '`%s`' % name in wrong, name
    # the accuracy table has a row per kernel with a ulp suite
    acc = section(md, 'Accuracy outside the tail')
    n_ulp = sum(1 for k in r['kernels'] if any(s['name'] == 'ulp' for s in k['suites']))
    assert acc.count('\n| mutants `') == n_ulp, (acc.count('\n| mutants `'), n_ulp)
    print('published summary: %d kernels checked' % len(r['kernels']))


if __name__ == '__main__':
    main()
