#!/usr/bin/python3
"""The scan tests (tests/adapters/scan.cmake): `gelucheck scan --json` on models the tests
build, against tables written by hand for onnxruntime-node 1.30.0 (what ORT 1.30.0 was seen to
run at each site and level, not what the scanner's code says), and the scan: kernels against
the whole model.
    check_scan.py table GELUCHECK MODELDIR NAME...   scan each NAME.onnx, compare its table
    check_scan.py exact NODE SCRIPT MODELDIR         site kernel = whole model (bias_gelu,
                                                     f16_erf, f16_quick)
Standard library, the adapter client of tests/adapters/onnxruntime, and python3-jsonschema
(the scan JSON against reports/schema/gelucheck-scan-1.schema.json)."""
import json
import math
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'onnxruntime'))
from check_protocol import Adapter  # noqa: E402

LEVELS = ['disabled', 'basic', 'extended', 'layout', 'all']
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'reports',
                      'schema', 'gelucheck-scan-1.schema.json')
errors = []


def check(cond, what):
    if not cond:
        errors.append(what)


def token(op):
    """A short name for what computes a site, read from the scan's operator text: '/float' for
    a site ORT runs in float between Casts, '/float-region' for one it inlined and runs in float
    with its neighbours."""
    for tail, mark in ((', in part float between Casts', '/float'),
                       (', in float between Casts', '/float'),
                       (", run in float with its neighbours (input and output never rounded to "
                        "the model's type)", '/float-region')):
        if op.endswith(tail):
            return token(op[:-len(tail)]) + mark
    rules = [(r'^com\.microsoft BiasGelu taking the Add before it', 'BiasGelu+Add'),
             (r'^com\.microsoft QuickGelu \(alpha=([0-9.]+)\)', r'QuickGelu(\1)'),
             (r'^com\.microsoft (\w+)', r'\1'),
             (r'^ai\.onnx Gelu \(approximate=none\)', 'Gelu-20'),
             (r'^ai\.onnx Gelu \(approximate=tanh\)', 'Gelu-20-tanh'),
             (r'^tanh chain up to .*folded into com\.microsoft FusedMatMul .*\(alpha=0\.5\)',
              'tanh-chain/x0.5->FusedMatMul'),
             (r'^(erf|tanh|sigmoid) chain \(', r'\1-chain')]
    for pat, rep in rules:
        m = re.match(pat, op)
        if m:
            return m.expand(rep)
    return '?' + op


def same(tok):
    return [tok] * 5


def fused_from_extended(before, after):
    return [before] * 2 + [after] * 3


# site, func, the operator at disabled, basic, extended, layout, all
TORCH = [('_act1_Erf', 'gelu', fused_from_extended('erf-chain', 'BiasGelu+Add')),
         ('_act2_Tanh', 'gelu_tanh',
          fused_from_extended('tanh-chain', 'tanh-chain/x0.5->FusedMatMul')),
         ('_Erf', 'gelu', fused_from_extended('erf-chain', 'BiasGelu+Add')),
         ('_quick_Sigmoid', 'gelu_sigmoid',
          fused_from_extended('sigmoid-chain', 'QuickGelu(1.702)')),
         ('_silu_Sigmoid', 'silu', fused_from_extended('sigmoid-chain', 'QuickGelu(1)')),
         ('_enc_Erf', 'gelu', fused_from_extended('erf-chain', 'BiasGelu+Add'))]
# the TF-style, hand-written and Pow forms are not fused by ORT 1.30 (its GeluFusion wants
# Div by sqrt2 and (x*(1+erf))*0.5 or 0.5*(x*(1+erf))); the lone Tanh, the Sigmoid gate and
# the Erf of x/1.5 are no sites
# the same model converted to float16 (docs/model-audit/to_float16.py): ORT 1.30's CPU
# provider has no float16 kernels for these operators; it runs every site in float with its
# neighbours, never fuses BiasGelu or folds the x0.5, and from level all fuses the sigmoid
# chains back into QuickGelu in float, alpha 1.702 rounded to float16
def float_region(before, last=None):
    return [before + '/float-region'] * 4 + [(last or before) + '/float-region']


TORCH16 = [('_act1_Erf', 'gelu', float_region('erf-chain')),
           ('_act2_Tanh', 'gelu_tanh', float_region('tanh-chain')),
           ('_Erf', 'gelu', float_region('erf-chain')),
           ('_quick_Sigmoid', 'gelu_sigmoid', float_region('sigmoid-chain', 'QuickGelu(1.702148)')),
           ('_silu_Sigmoid', 'silu', float_region('sigmoid-chain', 'QuickGelu(1)')),
           ('_enc_Erf', 'gelu', float_region('erf-chain'))]
PATTERNS = [('tf_erf', 'gelu', same('erf-chain')), ('hand_erf', 'gelu', same('erf-chain')),
            ('pow_tanh', 'gelu_tanh', same('tanh-chain')),
            ('silu_sigmoid', 'silu', fused_from_extended('sigmoid-chain', 'QuickGelu(1)')),
            ('swish2_sigmoid', 'swish', fused_from_extended('sigmoid-chain', 'QuickGelu(2)'))]
TABLES = {
    'torch14': TORCH, 'torch17': TORCH, 'torch14_f16': TORCH16, 'patterns_consts': PATTERNS, 'patterns_inits': PATTERNS,
    'fused': [('ms_gelu', 'gelu', same('Gelu')), ('ms_fastgelu', 'gelu_tanh', same('FastGelu')),
              ('ms_biasgelu', 'gelu', same('BiasGelu')),
              ('ms_quickgelu', 'gelu_sigmoid', same('QuickGelu(1.702)')),
              ('onnx_gelu', 'gelu', same('Gelu-20')),
              ('onnx_gelu_tanh', 'gelu_tanh', same('Gelu-20-tanh'))],
    'bias_gelu': [('gelu', 'gelu', fused_from_extended('Gelu', 'BiasGelu+Add'))],
    # float16: no ORT 1.30 CPU kernels for Div, Erf, Add, Mul in float16, so the chain runs in
    # float, fed the bias Add's float result (never rounded to float16)
    'f16_erf': [('erf16', 'gelu', same('erf-chain/float'))],
    # the fused operators in float16: inlined (com.microsoft Gelu -> Mul, Erf, Add, Mul, Mul)
    # and run in float with the Add; QuickGelu fused back at level all, its alpha 1.702 rounded
    # to float16
    'f16_fused': [('msgelu16', 'gelu', same('erf-chain/float-region')),
                  ('quick16', 'gelu_sigmoid',
                   ['sigmoid-chain/float'] * 4 + ['QuickGelu(1.702148)/float'])],
    # a site inside an If's then branch: found, traced (fused to com.microsoft Gelu from
    # extended on, inside the branch), and told where it is
    'subgraph': [('then_Erf', 'gelu', fused_from_extended('erf-chain', 'Gelu'))],
}
DTYPES = {'f16_erf': 'f16', 'f16_fused': 'f16', 'torch14_f16': 'f16'}
SUBGRAPH = {'subgraph': {'then_Erf': "in the If node 'branch' (then_branch)"}}
# the kernels of the torch model: equal computations share one (the encoder's erf chain is
# fc1's; fc3's hand-written erf GELU becomes the same BiasGelu of width 32 as fc1's; the tanh
# chain with its x0.5 folded is measured as the whole chain)
TORCH_KERNELS = {'_act1_Erf.disabled': ['_act1_Erf.disabled', '_act1_Erf.basic',
                                        '_enc_Erf.disabled', '_enc_Erf.basic'],
                 '_act1_Erf.extended': ['_act1_Erf.' + x for x in LEVELS[2:]] +
                                       ['_Erf.' + x for x in LEVELS[2:]],
                 '_act2_Tanh.disabled': ['_act2_Tanh.' + x for x in LEVELS],
                 '_Erf.disabled': ['_Erf.disabled', '_Erf.basic'],
                 '_quick_Sigmoid.disabled': ['_quick_Sigmoid.disabled', '_quick_Sigmoid.basic'],
                 '_quick_Sigmoid.extended': ['_quick_Sigmoid.' + x for x in LEVELS[2:]],
                 '_enc_Erf.extended': ['_enc_Erf.' + x for x in LEVELS[2:]]}


def table(gelucheck, folder, name):
    out = os.path.join(folder, name + '.scan.json')
    p = subprocess.run([gelucheck, 'scan', os.path.join(folder, name + '.onnx'), '--json', out],
                       capture_output=True, text=True)
    check(p.returncode == 0, '%s: gelucheck scan exit %d: %s' % (name, p.returncode, p.stderr))
    if p.returncode:
        return
    doc = json.load(open(out))
    import jsonschema
    problems = sorted(jsonschema.Draft7Validator(json.load(open(SCHEMA))).iter_errors(doc),
                      key=str)
    check(not problems, '%s: the scan JSON breaks its schema: %s' % (name, problems[:1]))
    got = [(s['site'], s['func'], [token(s['levels'][lv]['operator']) for lv in LEVELS])
           for s in doc['sites']]
    want = TABLES[name]
    check([g[0] for g in got] == [w[0] for w in want],
          '%s: sites %s, want %s' % (name, [g[0] for g in got], [w[0] for w in want]))
    for g, w in zip(got, want):
        check(g == w, '%s: site %s: got %s, want %s' % (name, w[0], g, w))
    for s in doc['sites']:
        check(s['dtype'] == DTYPES.get(name, 'f32'),
              '%s: site %s dtype %s' % (name, s['site'], s['dtype']))
        check(('[kernel ' in p.stdout) and all(
            (s['levels'][lv]['kernel'] is None) == (not s['func'].startswith('gelu'))
            for lv in LEVELS), '%s: site %s: a kernel per level iff a GELU' % (name, s['site']))
    for s in doc['sites']:
        check(s.get('subgraph') == SUBGRAPH.get(name, {}).get(s['site']),
              '%s: site %s: subgraph %r' % (name, s['site'], s.get('subgraph')))
    if name in ('torch14', 'torch17'):
        act1 = doc['sites'][0]
        check(act1['nodes'] == ['/act1/Div', '/act1/Erf', '/act1/Add', '/act1/Mul', '/act1/Mul_1']
              and act1['input'] == '/fc1/Add_output_0'
              and act1['output'] == '/act1/Mul_1_output_0', '%s: act1 site %s' % (name, act1))
        kernels = {}
        for s in doc['sites']:
            for lv in LEVELS:
                k = s['levels'][lv]['kernel']
                if k:
                    kernels.setdefault(k, []).append('%s.%s' % (s['site'], lv))
        check(kernels == TORCH_KERNELS, '%s: kernels %s' % (name, kernels))


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def exact(node, script, folder):
    """bias_gelu = Gelu(x + b), f16_erf = the erf chain of x + b in float16, f16_quick =
    QuickGelu of x + b in float16 (in float between Casts, fused back at level all): at every
    level the
    site kernel at z = x + b gives the whole model's bits, for x and b chosen so that x + b = z
    exactly (b dyadic, z on a 1/64 grid, within float16's 11 bits for f16_erf)."""
    b = [0.25, -0.5, 1.0, -2.0, 0.125, 3.0, -0.75, 0.0]  # make_models.py's bias
    for name, site, dt, fmt in (('bias_gelu', 'gelu', 'f32', '<f'),
                                ('f16_erf', 'erf16', 'f16', '<e'),
                                ('f16_quick', 'quick16', 'f16', '<e')):
        rnd = lambda v: struct.unpack(fmt, struct.pack(fmt, v))[0]
        zs = [k / 64 for k in range(-640, 640, 3)] + [-5.5, -6.0, -9.0, -13.0, 7.0, 20.0]
        zs += [0.0] * (-len(zs) % 8)  # whole rows
        xs = [z - b[i % 8] for i, z in enumerate(zs)]
        check(all(rnd(x) == x and rnd(rnd(x) + b[i % 8]) == zs[i] for i, x in enumerate(xs)),
              'exact %s: x + b is not exact in %s' % (name, dt))
        model = os.path.join(folder, name + '.onnx')
        for lv in LEVELS:
            whole = Adapter([node, script, '--model', model, '--func', 'gelu', '--opt', lv])
            scan = Adapter([node, script, '--scan', model, '--opt', lv])
            k = '%s.%s' % (site, lv)
            check(list(scan.kernels) == [k], 'exact %s %s: kernels %s' % (name, lv, scan.kernels))
            want, got = whole.eval('%s.%s' % (name, dt), xs), scan.eval(k, zs)
            diff = [z for z, w, g in zip(zs, want, got) if struct.pack(fmt, w) != struct.pack(fmt, g)]
            check(not diff, 'exact %s %s: site kernel differs from the whole model at z = %s'
                  % (name, lv, diff[:5]))
            whole.close()
            scan.close()


def web(node, script, folder):
    """--web: a scan: model's kernels on onnxruntime-web have the names of the native build's
    (the optimizer's choices are the native build's) and evaluate known inputs on both: the
    GELU of x + b for bias_gelu (BiasGelu at level all), float16 QuickGelu for f16_quick."""
    b = [0.25, -0.5, 1.0, -2.0, 0.125, 3.0, -0.75, 0.0]  # make_models.py's bias
    zs = [1.0, -1.0, 0.5, -3.0, 2.0, 0.0, -0.25, 4.0]
    for name, fmt, f in (('bias_gelu', '<f', lambda z: 0.5 * z * (1 + math.erf(z / math.sqrt(2)))),
                         ('f16_quick', '<e', lambda z: z / (1 + math.exp(-1.702 * z)))):
        model = os.path.join(folder, name + '.onnx')
        native = Adapter([node, script, '--scan', model, '--opt', 'all'])
        wasm = Adapter([node, script, '--scan', model, '--opt', 'all', '--web'])
        check(list(native.kernels) == list(wasm.kernels) and native.kernels,
              'web %s: kernels %s native, %s web' % (name, list(native.kernels),
                                                     list(wasm.kernels)))
        version = wasm.banner[1]
        check('onnxruntime-web' in version and 'optimizer' in version and
              'onnxruntime-node' in version,
              'web %s: the version line does not say where the choices come from: %s'
              % (name, version))
        tol = 1e-5 if fmt == '<f' else 2e-3
        for k in native.kernels:
            for side, a in (('native', native), ('web', wasm)):
                got = a.eval(k, zs)
                want = [f(z) for z in zs]
                bad = [(z, g, w) for z, g, w in zip(zs, got, want)
                       if abs(g - w) > tol * max(1.0, abs(w))]
                check(not bad, 'web %s %s %s: wrong values (x, got, want) %s'
                      % (name, k, side, bad[:3]))
        native.close()
        wasm.close()


def pair(gelucheck, folder):
    """scan --torch-module: the model.py module (traced, saved) pairs every site of its ONNX
    export: the nn.GELU, QuickGELU and SiLU layers by module path, the written-out erf GELU
    and the encoder layer's functional gelu by order in their module; and in the swapped
    export (act1's erf chain edited to the tanh form) act1's pair shows the changed formula."""
    want = {'_act1_Erf': ('act1', 'module path', 'gelu'),
            '_act2_Tanh': ('act2', 'module path', 'gelu_tanh'),
            '_Erf': ('', 'order in module', 'gelu'),
            '_quick_Sigmoid': ('quick', 'module path', 'gelu_sigmoid'),
            '_silu_Sigmoid': ('silu', 'module path', 'silu'),
            '_enc_Erf': ('enc', 'order in module', 'gelu')}
    pt = os.path.join(folder, 'torch14.pt')
    for model, swapped in (('torch14', False), ('torch14_swap', True)):
        out = os.path.join(folder, model + '.pair.json')
        p = subprocess.run([gelucheck, 'scan', os.path.join(folder, model + '.onnx?opt=all'),
                            '--torch-module', pt, '--json', out], capture_output=True,
                           text=True, check=False)
        check(p.returncode == 0, 'pair %s: exit %d: %s' % (model, p.returncode, p.stderr))
        if p.returncode:
            continue
        doc = json.load(open(out))
        import jsonschema
        problems = sorted(jsonschema.Draft7Validator(json.load(open(SCHEMA))).iter_errors(doc),
                          key=str)
        check(not problems, 'pair %s: the scan JSON breaks its schema: %s' % (model, problems[:1]))
        got = {s['site']: s['torch'] for s in doc['sites']}
        exp = dict(want)
        if swapped:
            del exp['_act1_Erf']
            exp['_act1_Tanh'] = ('act1', 'module path', 'gelu')
        check(set(got) == set(exp), 'pair %s: sites %s' % (model, sorted(got)))
        for site, (path, by, func) in exp.items():
            t = got.get(site)
            check(t is not None and (t['path'], t['paired_by'], t['func']) == (path, by, func),
                  'pair %s %s: %s, want %s' % (model, site, t, (path, by, func)))
            changed = swapped and site == '_act1_Tanh'
            check(t is not None and t['formula_changed'] == changed,
                  'pair %s %s: formula_changed %s' % (model, site, t and t['formula_changed']))
        check(doc['torch']['unpaired_sites'] == [] and doc['torch']['unpaired_activations'] == [],
              'pair %s: unpaired %s' % (model, doc['torch']))
        check(('FORMULA CHANGED: gelu in torch, gelu_tanh in ONNX' in p.stdout) == swapped,
              'pair %s: the text %s the changed formula' % (model, 'lacks' if swapped else
                                                           'has'))
    # run --torch-module: report.md pairs the sites too, and measures each pair on both sides
    # (every kernel at level all with one suite: their accuracy cells)
    rep = os.path.join(folder, 'pair_report')
    p = subprocess.run([gelucheck, 'run', '--adapter', 'scan:%s?opt=all' % os.path.join(
        folder, 'torch14_swap.onnx'), '--torch-module', pt, '--suite', 'special', '--policy',
        'lenient', '--report', rep, '--json', os.path.join(rep, 'result.json'), '--progress',
        'never'], capture_output=True, text=True, check=False)
    check(p.returncode in (0, 1), 'pair run: exit %d: %s' % (p.returncode, p.stderr))
    md = open(os.path.join(rep, 'report.md')).read() if p.returncode in (0, 1) else ''
    check(re.search(r'\| `_act1_Tanh` \| #0 `act1` \| GELU \| .* \| module path \| gelu\\_tanh '
                    r'\| \*\*yes\*\*: gelu in PyTorch, gelu\\_tanh in ONNX \|', md) and
          re.search(r'\| `_enc_Erf` \| #5 `enc` \| TransformerEncoderLayer \| .* \| order in '
                    r'module \| gelu \| no \|', md) and '1 formula changed by the export' in md,
          'pair run: report.md lacks the pairing table')
    if p.returncode not in (0, 1):
        return
    diff_checks(json.load(open(os.path.join(rep, 'result.json'))), md)
    runtime_table(json.load(open(os.path.join(rep, 'result.json'))), md,
                  [('torch14_swap', 'native')])
    site_map(gelucheck, rep)
    baseline_map(gelucheck, folder, rep)


def baseline_map(gelucheck, folder, rep):
    """run --baseline through --site-map: the PyTorch module's kernels (those of the paired
    run, kept alone in a compact baseline) as the baseline of the swapped export's kernels
    (another adapter: by identity nothing matches): through the map (the paired run's result)
    every kernel of the export is compared with its activation's, and act1's swap (gelu in
    PyTorch, gelu_tanh in ONNX) is a regression; the libm kernels of the same run are in no
    site of the map: each is warned about and says why.  Without the map the baseline
    matches nothing, and a warning says so; a bad map is exit 2 naming the file."""
    res = os.path.join(rep, 'result.json')
    doc = json.load(open(res))
    full, torch_only = os.path.join(rep, 'full.baseline.json'), os.path.join(rep,
                                                                             'torch.baseline.json')
    p = subprocess.run([gelucheck, 'baseline', res, '-o', full], capture_output=True, text=True)
    check(p.returncode == 0, 'baseline map: gelucheck baseline exit %d: %s' % (p.returncode,
                                                                              p.stderr))
    if p.returncode:
        return
    b = json.load(open(full))
    b['kernels'] = [k for k in b['kernels'] if k['id'].startswith('torch14.torch/')]
    json.dump(b, open(torch_only, 'w'))
    torch_ids = sorted(k['id'] for k in b['kernels'])
    # the site map of the paired run: site -> the torch kernel and the export's kernel
    pairs = {}
    for a in doc['adapters']:
        for st in (a.get('scan') or {}).get('sites', []):
            for d in (st.get('torch') or {}).get('diff', []):
                pairs['torch14_swap/' + d['kernel']] = 'torch14.torch/' + d['torch_kernel']
    check(len(set(pairs.values())) == 5 and sorted(set(pairs.values())) == torch_ids,
          'baseline map: the paired run measured %s, the baseline holds %s' % (pairs, torch_ids))
    out = os.path.join(rep, 'through_map.json')
    cmd = [gelucheck, 'run', '--adapter', 'scan:%s?opt=all' % os.path.join(
        folder, 'torch14_swap.onnx'), '--adapter', 'libm', '--suite', 'special', '--policy',
        'lenient', '--baseline', torch_only, '--progress', 'never']
    p = subprocess.run(cmd + ['--site-map', res, '--json', out], capture_output=True, text=True)
    check(p.returncode == 1, 'baseline map: exit %d (want 1: the swap regressed): %s'
          % (p.returncode, p.stderr[-800:]))
    if p.returncode not in (0, 1):
        return
    now = json.load(open(out))
    import jsonschema
    schema = os.path.join(os.path.dirname(SCHEMA), 'gelucheck-result-1.schema.json')
    problems = list(jsonschema.Draft7Validator(json.load(open(schema))).iter_errors(now))
    check(not problems, 'baseline map: the result breaks its schema: %s' % problems[:1])
    libm = []
    for k in now['kernels']:
        kb = k.get('baseline', {})
        if k['id'] in pairs:
            # a shared kernel is compared with each activation's kernel; the one kept has the
            # most regressions, the others are listed
            seen = [kb.get('kernel')] + [x['kernel'] for x in kb.get('also', [])]
            check(kb.get('found') is True and kb.get('matched_by') == 'site map' and
                  pairs[k['id']] in seen,
                  'baseline map: %s not compared with %s: %s' % (k['id'], pairs[k['id']], kb))
            func = [m for m in kb.get('metrics', []) if m['name'] == 'func']
            swapped = k['id'] == 'torch14_swap/_act1_Tanh.all'
            check(bool(func) == swapped and (not swapped or (
                func[0]['old'], func[0]['new'], func[0]['worse']) == ('gelu', 'gelu_tanh', True)
                and k['verdict'] == 'fail'),
                'baseline map: %s: func metric %s, verdict %s' % (k['id'], func, k['verdict']))
        elif k['id'].startswith('libm/'):
            libm.append(k['id'])
            check(kb.get('found') is False and 'not in the site map' in kb.get('why', ''),
                  'baseline map: %s: %s' % (k['id'], kb))
        else:
            check(False, 'baseline map: a kernel of neither: %s' % k['id'])
    sm = now.get('baseline', {}).get('site_map', {})
    check(libm and sm.get('matched') == len(pairs) and
          sorted(u['kernel'] for u in sm.get('unmatched_kernels', [])) == sorted(libm) and
          sm.get('unmatched_baseline') == [] and sm.get('entries_in_no_result') == [] and
          'torch14_swap/_act1_Tanh.all' in now['baseline'].get('regressed_kernels', []),
          'baseline map: the summary %s' % now.get('baseline'))
    warned = sorted(re.findall(r"warning: --baseline '[^']*': kernel '([^']*)' has no baseline: "
                               r"not in the site map", p.stderr))
    check(warned == sorted(libm), 'baseline map: warned about %s, want %s' % (warned, libm))
    check(re.search(r'baseline: %d kernels compared, [1-9][0-9]* regressions, .*, %d new\n'
                    % (len(pairs), len(libm)), p.stdout),
          'baseline map: the summary line: %s' % p.stdout[-600:])
    # without the map nothing matches: a warning names the file and suggests --site-map
    p = subprocess.run(cmd[:2] + cmd[4:6] + ['--kernel', 'erfc.f32'] + cmd[6:],
                       capture_output=True, text=True)
    check(p.returncode in (0, 1) and "--baseline '%s': no kernel of this run has the identity"
          % torch_only in p.stderr and '--site-map MAP' in p.stderr,
          'baseline without a map: exit %d: %s' % (p.returncode, p.stderr[-600:]))
    bad = os.path.join(rep, 'bad.map.json')
    json.dump({'schema': 'gelucheck-sitemap/1', 'sites': {'act1': ['no-slash']}}, open(bad, 'w'))
    p = subprocess.run(cmd + ['--site-map', bad], capture_output=True, text=True)
    check(p.returncode == 2 and p.stderr.startswith("gelucheck: error: --site-map: site map '%s':"
                                                    " site 'act1' is not a list" % bad),
          'baseline bad map: exit %d: %s' % (p.returncode, p.stderr))


def site_map(gelucheck, rep):
    """compare --site-map: the run's own result as the map lines up every row (the PyTorch
    activation's beside the site's); a written map with one site leaves the other rows and its
    entry that is in no result listed and warned about; a bad map is exit 2."""
    res = os.path.join(rep, 'result.json')
    doc = json.load(open(res))
    ids = {k['id'] for k in doc['kernels']}
    p = subprocess.run([gelucheck, 'compare', res, '--site-map', res], capture_output=True,
                       text=True, check=False)
    check(p.returncode == 0 and 'warning' not in p.stderr and
          'Every row matches a site of the map' in p.stdout and
          re.search(r'\| `_act1_Tanh` \| `torch14\.torch/a0\.act1` \|', p.stdout) and
          re.search(r'\| `_act1_Tanh` \| `torch14_swap/_act1_Tanh\.all` \|', p.stdout),
          'site map from the result: exit %d, %s%s' % (p.returncode, p.stderr, p.stdout[-800:]))
    mine = os.path.join(rep, 'map.json')
    json.dump({'schema': 'gelucheck-sitemap/1', 'sites': {
        'act1': ['torch14_swap/_act1_Tanh.all', 'nosuch/_act1.all']}}, open(mine, 'w'))
    p = subprocess.run([gelucheck, 'compare', res, '--site-map', mine], capture_output=True,
                       text=True, check=False)
    left = sorted(ids - {'torch14_swap/_act1_Tanh.all'})
    warned = sorted(re.findall(r"kernel '([^']*)' matches no site", p.stderr))
    check(p.returncode == 0 and left and warned == left and
          "'nosuch/_act1.all' of site 'act1' is in no result given" in p.stderr and
          '**Map entries found in no result**: `nosuch/_act1.all` of `act1`' in p.stdout and
          '%d kernel(s) or map entries matched nothing' % (len(left) + 1) in p.stderr,
          'site map written: exit %d, warned %s, want %s: %s' % (p.returncode, warned, left,
                                                                 p.stderr[-600:]))
    json.dump({'schema': 'gelucheck-sitemap/1', 'sites': {'act1': 'x'}}, open(mine, 'w'))
    p = subprocess.run([gelucheck, 'compare', res, '--site-map', mine], capture_output=True,
                       text=True, check=False)
    check(p.returncode == 2 and "site 'act1' is not a list of kernel identities" in p.stderr,
          'bad site map: exit %d: %s' % (p.returncode, p.stderr))


def pair_runtimes(gelucheck, folder):
    """run --torch-module with the f16 export and the WebAssembly build as adapters of one run
    (only PyTorch's act1 measured, by one suite): their pairs are diffed all the same, and
    report.md's table of every activation has a column for each."""
    rep = os.path.join(folder, 'pair_runtimes')
    p = subprocess.run([gelucheck, 'run', '--adapter', 'scan:%s?opt=all' % os.path.join(
        folder, 'torch14_f16.onnx'), '--adapter', 'scan:%s?opt=all&runtime=onnxruntime-web'
        % os.path.join(folder, 'torch14.onnx'), '--torch-module',
        os.path.join(folder, 'torch14.pt'), '--kernel', 'a0.act1', '--suite', 'special',
        '--policy', 'lenient', '--report', rep, '--json', os.path.join(rep, 'result.json'),
        '--progress', 'never'], capture_output=True, text=True, check=False)
    check(p.returncode in (0, 1), 'pair runtimes: exit %d: %s' % (p.returncode, p.stderr))
    if p.returncode not in (0, 1):
        return
    doc = json.load(open(os.path.join(rep, 'result.json')))
    scans = [a['scan'] for a in doc['adapters'] if 'scan' in a]
    check(len(scans) == 2, 'pair runtimes: %d scans in the result' % len(scans))
    if len(scans) == 2:
        md = open(os.path.join(rep, 'report.md')).read()
        other_checks(scans[0], scans[1], md)
        runtime_table(doc, md, [('torch14_f16', 'native'), ('torch14.web', 'WebAssembly')])


def other_checks(f16, web, md):
    """The f16 export's pairs: every f16 input, PyTorch's f32 output rounded to f16; the
    WebAssembly build's: its own rows, diffed like the native ones."""
    import torch
    check('## Sites of `%s` on onnxruntime-web' % web['model'] in md and
          web.get('kernels_runtime', '').startswith('onnxruntime-web'),
          'pair run: the web scan is not headed as such')
    for scan, n in ((f16, 65536), (web, 33083)):
        for s in scan['sites']:
            if not s.get('torch') or s['func'] == 'silu':
                continue
            for d in s['torch'].get('diff', []):
                check(d['compared'] and d['inputs'] == n and
                      ('torch_rounded' in d) == (scan is f16) and
                      sum(d['regions'].values()) == d['differ'] and
                      'changed the formula' not in d['verdict'],
                      'pair run %s %s: %s' % (scan['model'], s['site'], d))
                if scan is f16 and d['differ'] and s['func'] in ('gelu', 'gelu_tanh'):
                    x = float(d['widest']['x'])
                    y = torch.nn.functional.gelu(
                        torch.full((64,), x, dtype=torch.float32), approximate='tanh' if
                        s['func'] == 'gelu_tanh' else 'none').half()[0].item()
                    check('%.9g' % y == d['widest']['torch'],
                          'pair run f16 %s: PyTorch rounded to f16 gives %.9g at x = %s, the '
                          'diff says %s' % (s['site'], y, d['widest']['x'], d['widest']['torch']))


def runtime_table(doc, md, want_columns):
    """report.md's table of every PyTorch activation per runtime: a column per scan: adapter
    and run of levels (the headers), each cell the count of differing outputs of that site's
    diff at that level and its worse side, as the result's diffs say."""
    part = md.split('## Every GELU of the PyTorch module, per runtime', 1)
    check(len(part) == 2, 'runtime table: not in report.md')
    if len(part) != 2:
        return
    rows = [l for l in part[1].split('\n## ', 1)[0].split('\n') if l.startswith('| ')]
    head = [c.strip() for c in rows[0].strip('|').split(' | ')][3:]
    cols = []
    for h in head:
        m = re.match(r'`([^`]*)` (native|WebAssembly) (\w+): (.*)$', h)
        check(m is not None, 'runtime table: header %r' % h)
        if m:
            cols.append((m.group(1), m.group(2), m.group(3), m.group(4).split(', ')))
    check([(c[0], c[1]) for c in cols] == want_columns,
          'runtime table: columns %s, want %s' % ([(c[0], c[1]) for c in cols], want_columns))
    scans = {a.get('id'): a['scan'] for a in doc['adapters'] if 'scan' in a}
    acts = next(iter(scans.values()))['torch']['activations']
    check(len(rows) - 1 == len(acts), 'runtime table: %d rows for %d activations'
          % (len(rows) - 1, len(acts)))
    words = {'onnx': '**ONNX worse**', 'pytorch': 'PyTorch worse', 'mixed': 'mixed',
             'neither': 'neither worse'}
    for act, row in zip(acts, rows[1:]):
        cells = [c.strip() for c in row.strip('|').split(' | ')]
        for (aid, _, dt, levels), cell in zip(cols, cells[3:]):
            scan = scans.get(aid, {})
            check(all(lv in scan.get('levels', []) for lv in levels),
                  'runtime table: %s: levels %s' % (aid, levels))
            site = next((x for x in scan.get('sites', []) if (x.get('torch') or {}).get(
                'activation') == act['index']), None)
            d = site and next((d for d in site['torch'].get('diff', [])
                               if levels[0] in d['levels']), None)
            if not site:
                want = 'not paired'
            elif not d:
                want = '- (not a GELU)' if not site['func'].startswith('gelu') else \
                    '- (no kernel)'
            elif not d['compared']:
                want = 'not compared'
            else:
                want = '**formula changed**; ' if site['torch']['formula_changed'] else ''
                want += 'same bits' if not d['differ'] else '{:,} differ; {}'.format(
                    d['differ'], words[d['worse_side']])
            check(cell == want, 'runtime table: #%d in %s %s: %r, want %r'
                  % (act['index'], aid, levels, cell, want))


def diff_checks(doc, md):
    """The diff per pair of the swapped export: checked against torch run here, by the test."""
    import jsonschema
    import torch
    scans = [a['scan'] for a in doc['adapters'] if 'scan' in a]
    check(len(scans) == 1, 'pair run: %d scans in the result' % len(scans))
    if len(scans) != 1:
        return
    scan = scans[0]
    problems = list(jsonschema.Draft7Validator(json.load(open(SCHEMA))).iter_errors(scan))
    check(not problems, 'pair run: its scan breaks the scan schema: %s' % problems[:1])
    check(scan['torch'].get('measured_by', '').startswith('torch-module:'),
          'pair run: no measured_by: %s' % scan['torch'].get('measured_by'))
    diffs = {s['site']: s['torch']['diff'] for s in scan['sites'] if s.get('torch')}
    check(diffs.get('_silu_Sigmoid') == [], 'pair run: the SiLU got a diff')
    approx = {'_act1_Tanh': 'none', '_act2_Tanh': 'tanh', '_enc_Erf': 'none'}
    for site, ds in diffs.items():
        if site == '_silu_Sigmoid':
            continue
        check(len(ds) == 1 and ds[0]['compared'] and ds[0]['levels'] == ['all'],
              'pair run %s: one compared diff at level all: %s' % (site, ds))
        if not ds or not ds[0]['compared']:
            continue
        d = ds[0]
        check(sum(d['regions'].values()) == d['differ'] and
              d['onnx_farther'] + d['torch_farther'] <= d['differ'] <= d['inputs'],
              'pair run %s: the counts do not add up: %s' % (site, d))
        if site in approx and d['differ']:
            # the PyTorch side at the widest input is F.gelu as torch computes it here (a
            # vector, as the kernel is fed: oneDNN's path, not the scalar one)
            x = float(d['widest']['x'])
            y = torch.nn.functional.gelu(torch.full((64,), x, dtype=torch.float32),
                                         approximate=approx[site])[0].item()
            check('%.9g' % y == d['widest']['torch'],
                  'pair run %s: PyTorch gives %.9g at x = %s, the diff says %s' % (
                      site, y, d['widest']['x'], d['widest']['torch']))
    d = (diffs.get('_act1_Tanh') or [{}])[0]
    # the swap: the exact GELU exported as the tanh form differs by up to 1e-3 at |x| < 4,
    # far beyond any rounding: most outputs differ, ONNX is the side far from the exact GELU
    check(d.get('differ', 0) > d.get('inputs', 0) // 4 and
          d.get('onnx_farther', 0) > 10 * d.get('torch_farther', 1) and
          'the conversion changed the formula (gelu in PyTorch, gelu_tanh in ONNX); the '
          'conversion made it worse at _act1_Tanh (all)' in d.get('verdict', ''),
          'pair run: the swapped pair: %s' % {k: d.get(k) for k in (
              'inputs', 'differ', 'onnx_farther', 'torch_farther', 'verdict')})
    check(d.get('torch_accuracy') and d['torch_accuracy']['suites'] == 1 and
          d.get('onnx_accuracy') and d['onnx_accuracy']['suites'] == 1,
          'pair run: the swapped pair lacks the accuracy of its two kernels')
    for site, ds in diffs.items():
        if ds and site != '_act1_Tanh':
            check('changed the formula' not in ds[0].get('verdict', ''),
                  'pair run %s: an unchanged pair says %s' % (site, ds[0].get('verdict')))
    check(re.search(r'\| `_act1_Tanh` \| all \| `_act1_Tanh.all` \| `a0.act1` \| %d \| %d \| '
                    % (d.get('inputs', -1), d.get('differ', -1)), md) is not None,
          'pair run: report.md lacks the diff row of the swapped pair')


def main():
    if sys.argv[1] == 'table':
        for name in sys.argv[4:]:
            table(sys.argv[2], sys.argv[3], name)
    elif sys.argv[1] == 'web':
        web(*sys.argv[2:5])
    elif sys.argv[1] == 'pair':
        pair(*sys.argv[2:4])
    elif sys.argv[1] == 'pair_runtimes':
        pair_runtimes(*sys.argv[2:4])
    else:
        exact(*sys.argv[2:5])
    for e in errors:
        print('FAIL: ' + e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
