'use strict';
// The GELU graphs the adapter builds in memory: one input x and one output y, 1-D of dynamic
// length "N" (the fused operators at the end: [N, HIDDEN]), float or float16.  The
// decompositions are node for node what torch 1.13's exporter writes
// (torch/onnx/symbolic_opset9.py, gelu(); checked by exporting F.gelu(x, approximate=...) at
// opset 17): double constants as Constant nodes of x's dtype.
const { DT, AT, model, scalarRaw } = require('./onnx_proto');
const { fusedGraph, modelBytes } = require('./fused');

const SQRT2 = Math.SQRT2; // torch: _sqrt2 = 1.4142135623730951
const BETA = Math.sqrt(2 / Math.PI); // torch: kBeta = math.sqrt(2 / math.pi)
const KAPPA = 0.044715;

// a node named as torch names it: output '/Mul_1_output_0' -> name '/Mul_1' (extra.name for y)
const op = (opType, inputs, out, extra = {}) =>
    ({ opType, inputs, outputs: [out], name: out.replace(/_output_0$/, ''), ...extra });

// a torch-style Constant node holding a scalar of dtype t: its output is '/Constant[_k]_output_0'
function constants(t) {
    let k = 0;
    return (value) => {
        const out = `/Constant${k ? `_${k}` : ''}_output_0`;
        k++;
        const tensor = { dataType: t, raw: scalarRaw(t, value) };
        const attr = { name: 'value', type: AT.TENSOR, value: tensor };
        return { out, node: op('Constant', [], out, { attrs: [attr] }) };
    };
}

// y = Mul(Mul(x, Add(Erf(Div(x, sqrt2)), 1)), 0.5): torch's approximate='none' below opset 20
function erfDecomp(t) {
    const c = constants(t), s2 = c(SQRT2), one = c(1), half = c(0.5);
    return [s2.node, op('Div', ['x', s2.out], '/Div_output_0'),
            op('Erf', ['/Div_output_0'], '/Erf_output_0'),
            one.node, op('Add', ['/Erf_output_0', one.out], '/Add_output_0'),
            op('Mul', ['x', '/Add_output_0'], '/Mul_output_0'),
            half.node, op('Mul', ['/Mul_output_0', half.out], 'y', { name: '/Mul_1' })];
}

// y = 0.5 * (x * (1 + Tanh(beta * (x + kappa * (x * (x * x)))))): torch's approximate='tanh'
function tanhDecomp(t) {
    const c = constants(t), kappa = c(KAPPA), beta = c(BETA), one = c(1), half = c(0.5);
    return [op('Mul', ['x', 'x'], '/Mul_output_0'),
            op('Mul', ['x', '/Mul_output_0'], '/Mul_1_output_0'),
            kappa.node, op('Mul', [kappa.out, '/Mul_1_output_0'], '/Mul_2_output_0'),
            op('Add', ['x', '/Mul_2_output_0'], '/Add_output_0'),
            beta.node, op('Mul', [beta.out, '/Add_output_0'], '/Mul_3_output_0'),
            op('Tanh', ['/Mul_3_output_0'], '/Tanh_output_0'),
            one.node, op('Add', [one.out, '/Tanh_output_0'], '/Add_1_output_0'),
            op('Mul', ['x', '/Add_1_output_0'], '/Mul_4_output_0'),
            half.node, op('Mul', [half.out, '/Mul_4_output_0'], 'y', { name: '/Mul_5' })];
}

const gelu20 = (approximate) => () => [op('Gelu', ['x'], 'y', {
    name: '/Gelu', attrs: [{ name: 'approximate', type: AT.STRING, value: approximate }] })];
const ms = (opType) => () =>
    [op(opType, ['x'], 'y', { name: `/${opType}`, domain: 'com.microsoft' })];

// ir: IR version 9 for opset 20 (ONNX 1.15), 8 for opset 17 (ONNX 1.12; what torch writes)
const ONNX17 = { ir: 8, opsets: [['', 17]] };
const MS = { ir: 8, opsets: [['', 17], ['com.microsoft', 1]] };
const TANH = '0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))';
const CONST = 'its constants rounded to the dtype';
const GRAPHS = [
    { name: 'gelu20', func: 'gelu', ir: 9, opsets: [['', 20]], nodes: gelu20('none'),
      text: 'ai.onnx Gelu(x, approximate="none") = x*Phi(x), opset 20' },
    { name: 'gelu20_tanh', func: 'gelu_tanh', ir: 9, opsets: [['', 20]], nodes: gelu20('tanh'),
      text: `ai.onnx Gelu(x, approximate="tanh") = ${TANH}, opset 20` },
    { name: 'ms_gelu', func: 'gelu', ...MS, nodes: ms('Gelu'),
      text: 'com.microsoft Gelu(x) = 0.5*x*(1+erf(x/sqrt(2))), contrib opset 1' },
    { name: 'ms_fastgelu', func: 'gelu_tanh', ...MS, nodes: ms('FastGelu'),
      text: `com.microsoft FastGelu(x) = ${TANH} (no bias), contrib opset 1` },
    { name: 'erf_decomp', func: 'gelu', ...ONNX17, nodes: erfDecomp,
      text: 'torch 1.13 export of gelu(approximate="none"): Mul(Mul(x, Add(Erf(Div(x, ' +
            `sqrt2)), 1)), 0.5), ${CONST}, opset 17` },
    { name: 'tanh_decomp', func: 'gelu_tanh', ...ONNX17, nodes: tanhDecomp,
      text: 'torch 1.13 export of gelu(approximate="tanh"): Mul(0.5, Mul(x, Add(1, Tanh(Mul(' +
            `sqrt(2/pi), Add(x, Mul(0.044715, Mul(x, Mul(x, x)))))))), ${CONST}, opset 17` },
];
// The fused operators ORT's optimizer puts into transformer models, as one-input kernels
// (fused.js): the bias -0.0 in each of HIDDEN elements (BERT-base's hidden size), the input
// [N, HIDDEN] (a batch fills whole rows, the last padded).  ORT 1.30's CPU EP has float
// kernels only: a float16 graph runs the float kernel between Casts where ORT inserts them,
// and elsewhere the operator's function body (Mul, Sigmoid, ... in float): those kernels
// would not measure the fused operator, and are left out (nofused says why; the test
// tests/adapters/onnxruntime/check_fused.js reads ORT's optimized models to hold both true).
const HIDDEN = 768;
const ALPHA = 1.702; // QuickGelu's alpha, as the attribute: float 1.70200002193450927734375
const BODY = 'ORT 1.30 has no float16 kernel for it and runs its function body';
const NEG0 = `b = -0.0 in each of its ${HIDDEN} elements (x + -0.0 = x); input [N, ${HIDDEN}]`;
GRAPHS.push(
    { name: 'ms_quickgelu', func: 'gelu_sigmoid', ...MS,
      fused: { opType: 'QuickGelu', domain: 'com.microsoft',
               attribute: [{ name: 'alpha', type: AT.FLOAT, f: ALPHA }] },
      nofused: { 'f16.noopt': `${BODY} (Mul, Sigmoid, Mul in float) below level 'all'` },
      dtnote: { f16: "at level 'all' ORT fuses its function body back into the float " +
                     'QuickGelu between Casts, with the body\'s alpha: 1.702 rounded to ' +
                     'float16, 1.7021484375' },
      text: 'com.microsoft QuickGelu(x) = x*sigmoid(alpha*x), alpha = 1.702 (attribute ' +
            'alpha, float 0x1.b3b646p+0 = 1.70200002193450927734375), contrib opset 1' },
    { name: 'ms_biasgelu', func: 'gelu', ...MS, companion: 'ms_gelu',
      fused: { opType: 'BiasGelu', domain: 'com.microsoft', bias: [HIDDEN] },
      text: `com.microsoft BiasGelu(x, b) = Gelu(x + b) (erf form), ${NEG0}, contrib opset 1` },
    { name: 'ms_fastgelu_bias', func: 'gelu_tanh', ...MS, companion: 'ms_fastgelu',
      fused: { opType: 'FastGelu', domain: 'com.microsoft', bias: [HIDDEN] },
      nofused: { f16: `${BODY} (Add, Mul, Tanh in float) at every level`,
                 'f16.noopt': `${BODY} (Add, Mul, Tanh in float) at every level` },
      text: `com.microsoft FastGelu(x, b) = ${TANH} of x + b, ${NEG0}, contrib opset 1` });
const DTYPES = { f32: DT.FLOAT, f16: DT.FLOAT16 };

// the fused graph g (an entry of GRAPHS with g.fused) in dtype dt: { nodes, inits, shape }
const fusedOf = (g, dt) => fusedGraph(g.fused, dt, g.fused.bias || null);

// the shape of graph g's input and output in dtype dt
const shapeOf = (g, dt) => (g.fused ? fusedOf(g, dt).shape : ['N']);

// the ModelProto bytes of graph g (an entry of GRAPHS) in dtype dt ('f32' or 'f16')
function buildModel(g, dt, producerVersion) {
    if (g.fused) {
        const opsets = g.opsets.map(([domain, version]) => ({ domain, version }));
        return modelBytes(fusedOf(g, dt), opsets, dt, `gelucheck ${producerVersion}`);
    }
    const t = DTYPES[dt], io = (name) => ({ name, elemType: t, shape: ['N'] });
    const graph = { name: `${g.name}_${dt}`, nodes: g.nodes(t), inputs: [io('x')],
                    outputs: [io('y')] };
    return model({ irVersion: g.ir, producerName: 'gelucheck', producerVersion,
                   opsets: g.opsets, graph });
}

module.exports = { GRAPHS, DTYPES, HIDDEN, buildModel, shapeOf };
