#!/usr/bin/python3
"""An injected swap for the pairing test (scan.cmake, check_scan.py pair): the export of
docs/model-audit/model.py edited with python3-onnx so that act1 (nn.GELU(), the exact GELU in
the PyTorch module) runs the tanh form: its Div/Erf/Add/Mul/Mul chain replaced by the tanh
chain, the nodes keeping act1's module path ('/act1/Tanh', ...).

    swap_tanh.py IN.onnx OUT.onnx
"""
import math
import sys

import onnx
from onnx import TensorProto, helper


def main():
    src, dst = sys.argv[1:3]
    m = onnx.load(src)
    g = m.graph
    old = [n for n in g.node if n.name.startswith('/act1/')]
    if not old:
        sys.exit('swap_tanh.py: no /act1/ nodes in %s' % src)
    produced = {o for n in old for o in n.output}
    x = next(i for n in old for i in n.input if i not in produced and not i.startswith('/act1/'))
    consumed = {i for n in g.node if n not in old for i in n.input} | {o.name for o in g.output}
    y = next(o for o in produced if o in consumed)
    first = list(g.node).index(old[0])
    for n in old:
        g.node.remove(n)
    for name, v in (('c044715', 0.044715), ('csqrt2pi', math.sqrt(2 / math.pi)),
                    ('cone', 1.0), ('chalf', 0.5)):
        g.initializer.append(helper.make_tensor('/act1/' + name, TensorProto.FLOAT, [], [v]))
    c = lambda name: '/act1/' + name
    chain = [('Mul', [x, x], 'x2'), ('Mul_1', [c('x2'), x], 'x3'),
             ('Mul_2', [c('x3'), c('c044715')], 'a'), ('Add', [x, c('a')], 'b'),
             ('Mul_3', [c('b'), c('csqrt2pi')], 'u'), ('Tanh', [c('u')], 't'),
             ('Add_1', [c('t'), c('cone')], 'v'), ('Mul_4', [x, c('v')], 'w'),
             ('Mul_5', [c('w'), c('chalf')], None)]
    for k, (name, ins, out) in enumerate(chain):
        op = name.split('_')[0]
        g.node.insert(first + k, helper.make_node(op, ins, [c(out) if out else y],
                                                  name='/act1/' + name))
    onnx.checker.check_model(m)
    onnx.save(m, dst)


if __name__ == '__main__':
    main()
