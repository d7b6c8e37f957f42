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
    check_pairs(script, r)
    print('published summary: %d kernels checked' % len(r['kernels']))


def check_pairs(script, r):
    """The pairs section on a result made from this one: its first two kernels of one func as
    'onnxruntime' kernels, their copies as 'onnxruntime-web' ones (one count changed), and the
    second naming the first as its companion."""
    import copy
    import tempfile
    ks = [k for k in r['kernels'] if k['func'] == r['kernels'][0]['func']][:2]
    a, b = copy.deepcopy(ks[0]), copy.deepcopy(ks[1])
    a['adapter'] = b['adapter'] = 'onnxruntime'
    b['description'] = 'the same; its companion kernel %s, as a test' % a['kernel']
    web = [copy.deepcopy(a), copy.deepcopy(b)]
    for k in web:
        k['adapter'] = 'onnxruntime-web'
    fc = web[0]['suites'][0]['finding_counts']
    fc.append({'kind': 'wrong_sign', 'region': 'x<-10', 'severity': 'error', 'count': 7})
    doc = dict(r, kernels=[a, b] + web,
               adapters=[dict(r['adapters'][0], name=n) for n in ('onnxruntime', 'onnxruntime-web')])
    with tempfile.NamedTemporaryFile('w', suffix='.json') as f:
        json.dump(doc, f)
        f.flush()
        md = subprocess.run(['/usr/bin/python3', script, f.name, '--date', 'd', '--command', 'c',
                             '--seconds', '1'], check=True, capture_output=True, text=True).stdout
    pairs = section(md, 'The same GELU computed two ways')
    builds = pairs.split('### The same kernel on two builds of a library')[1].split('###')[0]
    row = '| onnxruntime `%s` | onnxruntime-web `%s` |' % (a['kernel'], a['kernel'])
    assert row in builds and 'wrong_sign 0 / 7' in builds.split(row)[1].split('\n')[0], builds
    assert builds.count('\n| onnxruntime `') == 2, builds  # a and b, each beside its copy
    mates = pairs.split('### A fused operator or epilogue beside its standalone kernel')[1]
    assert '| onnxruntime `%s` | onnxruntime `%s` |' % (a['kernel'], b['kernel']) in mates, mates
    assert mates.count('\n| onnxruntime') == 2, mates  # on both builds


if __name__ == '__main__':
    main()
