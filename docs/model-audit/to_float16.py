#!/usr/bin/python3
"""Converts an ONNX model from float to float16, as a deployment script would:
    to_float16.py IN.onnx OUT.onnx
Every float tensor becomes float16: initializers and Constant values (rounded to nearest),
the graph's inputs, outputs and value_info, subgraphs included; a Cast to float becomes a Cast
to float16.  Nothing else changes: ONNX Runtime then inserts its own Casts around the operators
its CPU provider has no float16 kernel for, and gelucheck scan shows them.  python3-onnx and
numpy (Debian's python3-onnx)."""
import sys

import numpy as np
from onnx import TensorProto, checker, load, numpy_helper, save

F, H = TensorProto.FLOAT, TensorProto.FLOAT16


def tensor16(t):
    if t.data_type != F:
        return t
    return numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float16), t.name)


def value_info16(v):
    if v.type.HasField('tensor_type') and v.type.tensor_type.elem_type == F:
        v.type.tensor_type.elem_type = H


def graph16(g):
    for i, t in enumerate(g.initializer):
        g.initializer[i].CopyFrom(tensor16(t))
    for v in list(g.input) + list(g.output) + list(g.value_info):
        value_info16(v)
    for n in g.node:
        for a in n.attribute:
            if a.HasField('t'):
                a.t.CopyFrom(tensor16(a.t))
            if a.HasField('g'):
                graph16(a.g)
            for sub in a.graphs:
                graph16(sub)
            if n.op_type == 'Cast' and a.name == 'to' and a.i == F:
                a.i = H


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: to_float16.py IN.onnx OUT.onnx')
    m = load(sys.argv[1])
    graph16(m.graph)
    checker.check_model(m)
    save(m, sys.argv[2])


if __name__ == '__main__':
    main()
