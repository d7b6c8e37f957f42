'use strict';
// Fused operators (com.microsoft BiasGelu, FastGelu with its bias, QuickGelu, Gelu) as models
// of one input, shared by the built-in kernels (graphs.js) and scan:MODEL's (sitekernel.js).
// A bias becomes an initializer of -0.0 in every element, of the bias's real shape: under
// round-to-nearest x + -0.0 = x for every x (+-0, +-inf and NaN included; +0.0 would turn -0
// into +0), so the fused operator computes its GELU of x itself.  The real shape matters to
// models: ORT fuses Add + Gelu into BiasGelu only for a bias of the hidden size's shape.
const { onnx } = require('onnx-proto');

const ELEM = { f32: 1, f16: 10, f64: 11 }; // TensorProto.DataType

// -0.0 in every element of a tensor of dims and dtype
function negZeros(dims, dtype) {
    const n = dims.reduce((a, d) => a * d, 1), size = { f32: 4, f16: 2, f64: 8 }[dtype];
    const raw = Buffer.alloc(n * size);
    for (let k = 0; k < n; k++) raw[k * size + size - 1] = 0x80; // the sign bit, little-endian
    return { name: 'b', dims, dataType: ELEM[dtype], rawData: raw };
}

const vinfo = (name, dtype, shape) => ({ name, type: { tensorType: { elemType: ELEM[dtype],
    shape: { dim: shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } } });

// op { opType, domain, attribute } on x, with a -0.0 bias of dims biasDims when not null:
// { nodes, inits, shape } (shape: x's and y's, [N] or [N, ...biasDims])
function fusedGraph(op, dtype, biasDims) {
    const inits = [], input = ['x'];
    let shape = ['N'];
    if (biasDims) {
        inits.push(negZeros(biasDims, dtype));
        input.push('b');
        shape = ['N', ...biasDims];
    }
    return { nodes: [{ opType: op.opType, domain: op.domain, attribute: op.attribute || [],
                       input, output: ['y'] }], inits, shape };
}

// the ModelProto bytes of { nodes, inits, shape } with input x and output y of dtype
function modelBytes(k, opsetImport, dtype, producerName = 'gelucheck scan') {
    const graph = { name: 'site', node: k.nodes, initializer: k.inits,
                    input: [vinfo('x', dtype, k.shape)], output: [vinfo('y', dtype, k.shape)] };
    const m = onnx.ModelProto.fromObject({ irVersion: 8, opsetImport, graph, producerName });
    return Buffer.from(onnx.ModelProto.encode(m).finish());
}

module.exports = { ELEM, negZeros, fusedGraph, modelBytes };
