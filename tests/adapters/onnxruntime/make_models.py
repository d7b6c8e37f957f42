#!/usr/bin/python3
"""Writes the test models of tests/adapters/onnxruntime.cmake into DIR with python3-onnx's
own helpers (an encoder independent of the adapter's): models the adapter must refuse
(two inputs, two outputs, an int input, bfloat16) and ones it serves (a fixed shape [4], a
shape [N, 2], [batch, seq, 32], double) or refuses at load (not elementwise).  Usage: make_models.py DIR"""
import os
import sys

from onnx import TensorProto, checker, helper, save

OPSET = [helper.make_opsetid('', 17), helper.make_opsetid('com.microsoft', 1)]


def ms_gelu(name, elem, shape, extra_inputs=(), extra_outputs=(), check=True):
    """com.microsoft Gelu(x) -> y, plus the extra (name, elem, shape) inputs and outputs
    (an extra output is Identity(x))."""
    nodes = [helper.make_node('Gelu', ['x'], ['y'], domain='com.microsoft')]
    ins = [helper.make_tensor_value_info('x', elem, shape)]
    outs = [helper.make_tensor_value_info('y', elem, shape)]
    for n, e, s in extra_inputs:
        ins.append(helper.make_tensor_value_info(n, e, s))
    for n, e, s in extra_outputs:
        nodes.append(helper.make_node('Identity', ['x'], [n]))
        outs.append(helper.make_tensor_value_info(n, e, s))
    model = helper.make_model(helper.make_graph(nodes, name, ins, outs), opset_imports=OPSET,
                              ir_version=8)
    if check:
        checker.check_model(model)
    save(model, os.path.join(sys.argv[1], name + '.onnx'))


def identity(name, elem):
    """y = Identity(x), 1-D of dynamic length: loads in ORT for any elem type."""
    io = lambda n: helper.make_tensor_value_info(n, elem, ['N'])
    model = helper.make_model(helper.make_graph([helper.make_node('Identity', ['x'], ['y'])],
                                                name, [io('x')], [io('y')]),
                              opset_imports=OPSET[:1], ir_version=8)
    checker.check_model(model)
    save(model, os.path.join(sys.argv[1], name + '.onnx'))


F = TensorProto.FLOAT
ms_gelu('two_inputs', F, ['N'], extra_inputs=[('z', F, ['N'])])
ms_gelu('two_outputs', F, ['N'], extra_outputs=[('z', F, ['N'])])
identity('int_input', TensorProto.INT64)
identity('bf16', TensorProto.BFLOAT16)
identity('identity_f64', TensorProto.DOUBLE)
ms_gelu('fixed4', F, [4])
ms_gelu('n_by_2', F, ['N', 2])
ms_gelu('batch_seq_hidden', F, ['batch', 'seq', 32])


def not_elementwise(name, nodes, shape):
    """y = nodes(x) of x's shape, where an output depends on other elements than its own."""
    io = lambda n: helper.make_tensor_value_info(n, F, shape)
    model = helper.make_model(helper.make_graph(nodes, name, [io('x')], [io('y')]),
                              opset_imports=OPSET[:1], ir_version=8)
    checker.check_model(model)
    save(model, os.path.join(sys.argv[1], name + '.onnx'))


# x minus the mean of its row of 16: each output depends on the whole row
not_elementwise('centered', [helper.make_node('ReduceMean', ['x'], ['m'], axes=[-1]),
                             helper.make_node('Sub', ['x', 'm'], ['y'])], ['N', 16])
