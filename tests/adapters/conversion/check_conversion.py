#!/usr/bin/python3
"""Test of docs/conversion-audit/run.sh: runs it into a fresh folder and checks what it wrote.

    check_conversion.py RUN_SH GELUCHECK WORKDIR

- module.py wrote the TorchScript and ONNX files, and the ONNX graphs are what torch 1.13
  exports below opset 20 (Erf for nn.GELU(), Tanh for approximate='tanh', no Gelu node);
- each of the four results holds one kernel of the declared func, whose fingerprint detects
  that func: the export kept the formula (a swap of erf for tanh would fail here);
- compare.md has a table per func with one row per side (torch --module, onnx:).
"""
import json
import os
import re
import shutil
import subprocess
import sys


def main():
    run_sh, gelucheck, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    p = subprocess.run([run_sh, work, gelucheck], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit('run.sh exited %d:\n%s%s' % (p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
    import onnx
    ops = {}
    for a in ('gelu', 'gelu_tanh'):
        for ext in ('pt', 'onnx'):
            path = os.path.join(work, 'models', '%s.%s' % (a, ext))
            assert os.path.getsize(path) > 0, path
        ops[a] = [n.op_type for n in onnx.load(os.path.join(work, 'models', a + '.onnx')).graph.node]
    assert 'Erf' in ops['gelu'] and 'Tanh' not in ops['gelu'], ops['gelu']
    assert 'Tanh' in ops['gelu_tanh'] and 'Erf' not in ops['gelu_tanh'], ops['gelu_tanh']
    assert all('Gelu' not in o for v in ops.values() for o in v), ops
    for side in ('torch', 'onnx'):
        for a in ('gelu', 'gelu_tanh'):
            with open(os.path.join(work, '%s-%s.json' % (side, a))) as f:
                r = json.load(f)
            ks = r['kernels']
            assert len(ks) == 1 and ks[0]['func'] == a and ks[0]['dtype'] == 'f32', \
                (side, a, [(k['kernel'], k['func']) for k in ks])
            fp = ks[0]['fingerprint']
            assert fp['declared'] == a and fp['detected'] == a, (side, a, fp['detected'])
            print('%s %s: detected %s (margin %.2f bits), verdict %s'
                  % (side, a, fp['detected'], fp['margin'], ks[0]['verdict']))
    with open(os.path.join(work, 'compare', 'compare.md')) as f:
        md = f.read()
    for title in ('gelu f32', 'gelu\\_tanh f32'):
        section = md.split('## ' + title + '\n', 1)[1].split('\n## ', 1)[0]
        # rows name the adapters by identity: the torch adapter's program, the model's stem
        # (and '.FUNC' after the stem of a model that computes another func than gelu)
        rows = [l for l in section.splitlines() if re.match(r'\| [^|]* \[[0-9]+\] \|', l)]
        assert len(rows) == 2 and rows[0].startswith('| torch\\_adapter [') and \
            rows[1].startswith('| gelu'), (title, rows)
    print('conversion audit: all checks passed')


if __name__ == '__main__':
    main()
