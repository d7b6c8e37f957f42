#!/usr/bin/python3
"""Writes the scan tests' hand-made models into DIR with python3-onnx's helper (an encoder
independent of the adapter's onnx-proto): the GELU forms TensorFlow/Keras exports and people
write (Mul by 1/sqrt2, 0.5 first, Pow, constants as Constant nodes or initializers, Add 1 on
either side), the fused operators, and activations that are not GELU sites.  Usage:
make_models.py DIR.  Every model: input x [N, 8], output y of the same shape, float but for
the f16_ ones; subgraph also has an input cond."""
import math
import os
import sys

import numpy as np
from onnx import TensorProto, checker, helper, numpy_helper, save

F = TensorProto.FLOAT
H = 8  # the hidden size: the width of every bias


class Graph:
    """A graph under construction: nodes named after their op and a counter; constants either
    as initializers or as Constant nodes."""

    def __init__(self, const_nodes):
        self.nodes, self.inits, self.k, self.const_nodes = [], [], 0, const_nodes

    def op(self, op_type, *inputs, name=None, domain=None, **attrs):
        self.k += 1
        out = '%s_%d_out' % (op_type.lower(), self.k)
        self.nodes.append(helper.make_node(op_type, list(inputs), [out],
                                           name=name or '%s_%d' % (op_type, self.k),
                                           domain=domain, **attrs))
        return out

    def const(self, value, shape=()):
        self.k += 1
        name = 'c%d' % self.k
        t = numpy_helper.from_array(np.full(shape, value, dtype=np.float32), name)
        if self.const_nodes and not shape:
            self.nodes.append(helper.make_node('Constant', [], [name], value=t,
                                               name='Constant_%d' % self.k))
        else:
            self.inits.append(t)
        return name

    def save(self, folder, name, y, opset=17, check=True):
        self.nodes.append(helper.make_node('Identity', [y], ['y'], name='out'))
        io = lambda n: helper.make_tensor_value_info(n, F, ['N', H])
        model = helper.make_model(
            helper.make_graph(self.nodes, name, [io('x')], [io('y')], self.inits),
            opset_imports=[helper.make_opsetid('', opset), helper.make_opsetid('com.microsoft', 1)],
            ir_version=8 if opset <= 17 else 9)
        if check:
            checker.check_model(model)
        save(model, os.path.join(folder, name + '.onnx'))


def patterns(folder):
    """Hand-written and TF-style decompositions, constants as Constant nodes (consts) or
    initializers (inits), each preceded by a bias Add so ORT can fuse it."""
    for style in ('consts', 'inits'):
        g = Graph(style == 'consts')
        b = g.const(0.25, (H,))
        x = g.op('Add', 'x', b, name='bias0')
        # TF/Keras: 0.5 * x * (1 + erf(x * (1/sqrt2))), Add 1 on the left
        u = g.op('Mul', x, g.const(1 / math.sqrt(2)))
        a = g.op('Add', g.const(1.0), g.op('Erf', u, name='tf_erf'))
        x = g.op('Mul', g.op('Mul', g.const(0.5), x), a)
        # hand-written: x * ((1 + erf(x / sqrt2)) * 0.5)
        a = g.op('Add', g.op('Erf', g.op('Div', x, g.const(math.sqrt(2))), name='hand_erf'),
                 g.const(1.0))
        x = g.op('Mul', x, g.op('Mul', a, g.const(0.5)))
        # tanh with Pow(x, 3): 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
        c = g.op('Mul', g.const(0.044715), g.op('Pow', x, g.const(3.0)))
        t = g.op('Tanh', g.op('Mul', g.op('Add', x, c), g.const(math.sqrt(2 / math.pi))),
                 name='pow_tanh')
        x = g.op('Mul', g.op('Mul', x, g.op('Add', t, g.const(1.0))), g.const(0.5))
        # not sites: a lone Tanh, a Sigmoid gate x * sigmoid(g), an Erf scaled wrongly
        x = g.op('Add', g.op('Tanh', x, name='lone_tanh'), x)
        gate = g.op('Add', x, g.const(1.0))
        x = g.op('Mul', x, g.op('Sigmoid', gate, name='gate_sigmoid'))
        a = g.op('Add', g.op('Erf', g.op('Div', x, g.const(1.5)), name='wrong_erf'),
                 g.const(1.0))
        x = g.op('Mul', g.op('Mul', x, a), g.const(0.5))
        # SiLU and x * sigmoid(2x): listed, not GELUs
        x = g.op('Mul', x, g.op('Sigmoid', x, name='silu_sigmoid'))
        x = g.op('Mul', g.op('Sigmoid', g.op('Mul', x, g.const(2.0)), name='swish2_sigmoid'), x)
        g.save(folder, 'patterns_' + style, x)


def fused(folder):
    """The fused operators as a model may hold them."""
    g = Graph(False)
    x = g.op('Gelu', 'x', name='ms_gelu', domain='com.microsoft')
    x = g.op('FastGelu', x, g.const(0.5, (H,)), name='ms_fastgelu', domain='com.microsoft')
    x = g.op('BiasGelu', x, g.const(-0.25, (H,)), name='ms_biasgelu', domain='com.microsoft')
    x = g.op('QuickGelu', x, name='ms_quickgelu', domain='com.microsoft', alpha=1.702)
    x = g.op('Gelu', x, name='onnx_gelu')
    x = g.op('Gelu', x, name='onnx_gelu_tanh', approximate='tanh')
    g.save(folder, 'fused', x, opset=20, check=False)  # onnx 1.12 knows no opset 20


def bias_gelu(folder):
    """x -> Add(b) -> Gelu -> y, b exactly representable: the site kernel must equal the
    whole model at x + b."""
    g = Graph(False)
    b = numpy_helper.from_array(np.array([0.25, -0.5, 1.0, -2.0, 0.125, 3.0, -0.75, 0.0],
                                         dtype=np.float32), 'b')
    g.inits.append(b)
    x = g.op('Add', 'x', 'b', name='bias')
    x = g.op('Gelu', x, name='gelu', domain='com.microsoft')
    g.save(folder, 'bias_gelu', x)


def f16_erf(folder):
    """x -> Add(b) -> PyTorch's erf chain, all in float16: ORT has no float16 kernels for these
    ops and runs them in float between Casts, the Add's float result fed to the chain as is."""
    f16 = lambda name, v: numpy_helper.from_array(np.array(v, dtype=np.float16), name)
    nodes = [helper.make_node('Add', ['x', 'b'], ['a'], name='bias'),
             helper.make_node('Div', ['a', 's2'], ['d'], name='div'),
             helper.make_node('Erf', ['d'], ['e'], name='erf16'),
             helper.make_node('Add', ['e', 'one'], ['p'], name='add1'),
             helper.make_node('Mul', ['a', 'p'], ['m'], name='mul'),
             helper.make_node('Mul', ['m', 'half'], ['y'], name='mul_half')]
    io = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT16, ['N', H])
    inits = [f16('b', [0.25, -0.5, 1.0, -2.0, 0.125, 3.0, -0.75, 0.0]),
             f16('s2', math.sqrt(2)), f16('one', 1.0), f16('half', 0.5)]
    model = helper.make_model(helper.make_graph(nodes, 'f16_erf', [io('x')], [io('y')], inits),
                              opset_imports=[helper.make_opsetid('', 17)], ir_version=8)
    checker.check_model(model)
    save(model, os.path.join(folder, 'f16_erf.onnx'))


def f16_fused(folder):
    """x -> Add(b) -> com.microsoft Gelu -> com.microsoft QuickGelu(1.702), in float16: ORT
    1.30 has no float16 CPU kernels for either; it inlines their function bodies and runs them
    in float with the Add, and from level all fuses the sigmoid chain back into a float
    QuickGelu whose alpha is 1.702 rounded to float16 (1.7021484375)."""
    f16 = lambda name, v: numpy_helper.from_array(np.array(v, dtype=np.float16), name)
    nodes = [helper.make_node('Add', ['x', 'b'], ['a'], name='bias'),
             helper.make_node('Gelu', ['a'], ['g'], name='msgelu16', domain='com.microsoft'),
             helper.make_node('QuickGelu', ['g'], ['y'], name='quick16', domain='com.microsoft',
                              alpha=1.702)]
    f16_model(folder, 'f16_fused', nodes, [f16('b', [0.25, -0.5, 1.0, -2.0, 0.125, 3.0, -0.75,
                                                      0.0])])
    # x -> Add(b) -> QuickGelu -> y: the site is the model's output (check_scan.py exact)
    nodes = [helper.make_node('Add', ['x', 'b'], ['a'], name='bias'),
             helper.make_node('QuickGelu', ['a'], ['y'], name='quick16', domain='com.microsoft',
                              alpha=1.702)]
    f16_model(folder, 'f16_quick', nodes, [f16('b', [0.25, -0.5, 1.0, -2.0, 0.125, 3.0, -0.75,
                                                      0.0])])


def f16_model(folder, name, nodes, inits):
    io = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT16, ['N', H])
    model = helper.make_model(helper.make_graph(nodes, name, [io('x')], [io('y')], inits),
                              opset_imports=[helper.make_opsetid('', 17),
                                             helper.make_opsetid('com.microsoft', 1)],
                              ir_version=8)
    save(model, os.path.join(folder, name + '.onnx'))


def subgraph(folder):
    """An If whose condition is an input: its then branch holds PyTorch's erf chain of the
    outer x (constants of the main graph), its else branch a lone Tanh (no site)."""
    c = lambda name, v: numpy_helper.from_array(np.array(v, dtype=np.float32), name)
    then = [helper.make_node('Div', ['x', 's2'], ['t_d'], name='then_Div'),
            helper.make_node('Erf', ['t_d'], ['t_e'], name='then_Erf'),
            helper.make_node('Add', ['t_e', 'one'], ['t_a'], name='then_Add'),
            helper.make_node('Mul', ['x', 't_a'], ['t_m'], name='then_Mul'),
            helper.make_node('Mul', ['t_m', 'half'], ['t_y'], name='then_Mul_1')]
    io = lambda n: helper.make_tensor_value_info(n, F, ['N', H])
    branch = helper.make_node(
        'If', ['cond'], ['y'], name='branch',
        then_branch=helper.make_graph(then, 'then', [], [io('t_y')]),
        else_branch=helper.make_graph([helper.make_node('Tanh', ['x'], ['e_y'], name='else_Tanh')],
                                      'else', [], [io('e_y')]))
    graph = helper.make_graph([branch], 'subgraph',
                              [io('x'), helper.make_tensor_value_info('cond', TensorProto.BOOL, [])],
                              [io('y')], [c('s2', math.sqrt(2)), c('one', 1.0), c('half', 0.5)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)], ir_version=8)
    checker.check_model(model)
    save(model, os.path.join(folder, 'subgraph.onnx'))


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    patterns(folder)
    fused(folder)
    bias_gelu(folder)
    f16_erf(folder)
    f16_fused(folder)
    subgraph(folder)


if __name__ == '__main__':
    main()
