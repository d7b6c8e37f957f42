#!/usr/bin/python3
"""Cross-checks the adapter's protobuf encoder (adapters/onnxruntime/onnx_proto.js) with
Debian's python3-onnx: every built-in model (--write-model) decodes, re-serializes to the same
bytes, passes onnx.checker (opset <= 17: python3-onnx 1.12 knows no opset 20; those are only
decoded) and holds the graph the adapter claims; with torch installed, the two decompositions
equal torch 1.13's own export node for node.
Usage: check_proto.py NODE SCRIPT WORKDIR"""
import io
import math
import os
import subprocess
import sys

import numpy
import onnx
from onnx import numpy_helper

errors = []
F32, F16 = onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16
ERF = ['Constant', 'Div', 'Erf', 'Constant', 'Add', 'Mul', 'Constant', 'Mul']
TANH = ['Mul', 'Mul', 'Constant', 'Mul', 'Add', 'Constant', 'Mul', 'Tanh', 'Constant', 'Add',
        'Mul', 'Constant', 'Mul']
# graph -> (ir_version, opset_import, [(domain, op_type)], Constant values in node order)
GRAPHS = {
    'gelu20': (9, [('', 20)], [('', 'Gelu')], []),
    'gelu20_tanh': (9, [('', 20)], [('', 'Gelu')], []),
    'ms_gelu': (8, [('', 17), ('com.microsoft', 1)], [('com.microsoft', 'Gelu')], []),
    'ms_fastgelu': (8, [('', 17), ('com.microsoft', 1)], [('com.microsoft', 'FastGelu')], []),
    'erf_decomp': (8, [('', 17)], [('', t) for t in ERF], [math.sqrt(2), 1, 0.5]),
    'tanh_decomp': (8, [('', 17)], [('', t) for t in TANH],
                    [0.044715, math.sqrt(2 / math.pi), 1, 0.5]),
}


def check(cond, what):
    if not cond:
        errors.append(what)


def check_model(name, dt, data):
    m = onnx.load_from_string(data)
    ir, opsets, ops, consts = GRAPHS[name]
    who = '%s.%s' % (name, dt)
    check(m.SerializeToString() == data, '%s: re-serialized bytes differ' % who)
    check(m.ir_version == ir, '%s: ir_version %d' % (who, m.ir_version))
    check([(o.domain, o.version) for o in m.opset_import] == opsets, '%s: opsets' % who)
    if max(v for _, v in opsets) <= 17:
        onnx.checker.check_model(m, full_check=True)  # raises on a bad model
    elem = F32 if dt == 'f32' else F16
    for v in list(m.graph.input) + list(m.graph.output):
        t = v.type.tensor_type
        check(t.elem_type == elem and [d.dim_param for d in t.shape.dim] == ['N'],
              '%s: %s is not %d[N]' % (who, v.name, elem))
    check([(n.domain, n.op_type) for n in m.graph.node] == ops, '%s: nodes' % who)
    if name.startswith('gelu20'):
        a = m.graph.node[0].attribute[0]
        want = b'tanh' if 'tanh' in name else b'none'
        check(a.name == 'approximate' and a.s == want, '%s: approximate=%r' % (who, a.s))
    got = [numpy_helper.to_array(n.attribute[0].t) for n in m.graph.node if n.op_type == 'Constant']
    npt = numpy.float32 if dt == 'f32' else numpy.float16
    for g, c in zip(got, consts):  # each constant is the exact real rounded once to the dtype
        check(g.shape == () and g.dtype == npt and g == npt(c), '%s: constant %r, want %r'
              % (who, g, npt(c)))
    check(len(got) == len(consts), '%s: %d constants' % (who, len(got)))
    return m


def torch_export(approximate):
    import torch  # only when installed (python3-torch)

    class M(torch.nn.Module):
        def forward(self, x):
            return torch.nn.functional.gelu(x, approximate=approximate)
    f = io.BytesIO()
    torch.onnx.export(M(), torch.randn(5), f, opset_version=17, input_names=['x'],
                      output_names=['y'], dynamic_axes={'x': {0: 'N'}, 'y': {0: 'N'}})
    return onnx.load_from_string(f.getvalue())


def same_nodes(ours, theirs):
    key = lambda n: (n.op_type, list(n.input), list(n.output), n.name,
                     [numpy_helper.to_array(a.t).tobytes() for a in n.attribute])
    return [key(n) for n in ours.graph.node] == [key(n) for n in theirs.graph.node]


def main():
    node, script, work = sys.argv[1:4]
    models = {}
    for name in GRAPHS:
        for dt in ('f32', 'f16'):
            path = os.path.join(work, 'proto_%s.%s.onnx' % (name, dt))
            subprocess.run([node, script, '--write-model', '%s.%s' % (name, dt), path], check=True)
            with open(path, 'rb') as f:
                models[name, dt] = check_model(name, dt, f.read())
    try:
        import torch  # noqa: F401
        compared = True
    except ImportError:
        compared = False
    if compared:
        check(same_nodes(models['erf_decomp', 'f32'], torch_export('none')),
              'erf_decomp.f32 is not what torch exports')
        check(same_nodes(models['tanh_decomp', 'f32'], torch_export('tanh')),
              'tanh_decomp.f32 is not what torch exports')
    for e in errors:
        print('FAIL: ' + e)
    print('%d models checked; torch export compared: %s' % (len(models), compared))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
