'use strict';
// The GELU-like sites of an ONNX graph (read with onnx-proto): fused operators, and the
// decompositions exporters and people write, matched node by node.  A site is
//   { kind, func, formula, anchor, nodes: [NodeProto], x, y, alpha?, bias? }
// x: the tensor the GELU is applied to; y: the tensor holding its result; nodes in graph order.
// kind: gelu_op (ai.onnx Gelu), ms_gelu, ms_fastgelu, ms_biasgelu, ms_quickgelu, erf_chain,
// tanh_chain, sigmoid_chain.  func: gelu, gelu_tanh, gelu_sigmoid, or silu / swish (x times
// sigmoid(alpha x) with alpha 1, or neither 1 nor 1.702: listed, not GELUs).
const SQRT2 = Math.SQRT2;
const BETA = Math.sqrt(2 / Math.PI); // the tanh form's sqrt(2/pi)
const KAPPA = 0.044715;
const QUICK = 1.702; // x*sigmoid(1.702x), the sigmoid approximation of GELU
const F16 = 10, BF16 = 16; // TensorProto.DataType codes read below (FLOAT 1, DOUBLE 11)
const DTYPE = { 1: 'f32', 10: 'f16', 11: 'f64', 16: 'bf16' };

const num = (v) => (v && typeof v === 'object' && 'toNumber' in v ? v.toNumber() : Number(v));

function half(b) {
    const s = b & 0x8000 ? -1 : 1, e = (b >> 10) & 31, m = b & 1023;
    if (e === 31) return m ? NaN : s * Infinity;
    return s * (e ? (1 + m / 1024) * 2 ** (e - 15) : m * 2 ** -24);
}

// The value of a one-element TensorProto, or undefined.
function scalar(t) {
    if (!t || t.dims.reduce((a, d) => a * num(d), 1) !== 1) return undefined;
    const type = t.dataType;
    if (t.rawData && t.rawData.length) {
        const v = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.length);
        const read = { 1: () => v.getFloat32(0, true), 11: () => v.getFloat64(0, true),
                       10: () => half(v.getUint16(0, true)),
                       16: () => new Float32Array(new Uint32Array([v.getUint16(0, true) << 16])
                                                  .buffer)[0],
                       6: () => v.getInt32(0, true), 7: () => Number(v.getBigInt64(0, true)) };
        return read[type] ? read[type]() : undefined;
    }
    if (t.floatData.length) return t.floatData[0];
    if (t.doubleData.length) return t.doubleData[0];
    if (t.int32Data.length) return type === F16 ? half(t.int32Data[0]) :
        type === BF16 ? new Float32Array(new Uint32Array([t.int32Data[0] << 16]).buffer)[0] :
        t.int32Data[0];
    if (t.int64Data.length) return num(t.int64Data[0]);
    return undefined;
}

// Producers, consumers and constant tensors (initializers, Constant nodes) of a graph.
function index(graph) {
    const producer = new Map(), consumers = new Map(), consts = new Map(), order = new Map();
    for (const t of graph.initializer) consts.set(t.name, t);
    graph.node.forEach((n, k) => {
        order.set(n, k);
        for (const o of n.output) producer.set(o, n);
        for (const i of n.input) {
            if (!consumers.has(i)) consumers.set(i, []);
            consumers.get(i).push(n);
        }
        if (n.opType === 'Constant' && isOnnx(n)) {
            const a = n.attribute.find((x) => x.name === 'value' || x.name === 'value_float');
            if (a && a.t) consts.set(n.output[0], a.t);
            else if (a) consts.set(n.output[0], { dims: [], dataType: 1, floatData: [a.f],
                                                  doubleData: [], int32Data: [], int64Data: [] });
        }
    });
    const prod = (name) => producer.get(name);
    // a constant's value, also through the Cast ORT puts on a float16 constant (exact)
    const value = (name) => {
        const p = producer.get(name);
        return p && p.opType === 'Cast' && isOnnx(p) ? scalar(consts.get(p.input[0]))
                                                     : scalar(consts.get(name));
    };
    const uses = (name) => consumers.get(name) || [];
    return { graph, producer, consumers, consts, order, value, prod, uses };
}

const isOnnx = (n) => !n.domain || n.domain === 'ai.onnx';
const is = (n, op) => n && n.opType === op && isOnnx(n);
const near = (v, c, rel = 2e-3) => typeof v === 'number' && Math.abs(v - c) <= rel * Math.abs(c);
const other = (n, t) => (n.input[0] === t ? n.input[1] : n.input[1] === t ? n.input[0] : null);
const attr = (n, name) => n.attribute.find((a) => a.name === name);
const only = (g, t) => (g.uses(t).length === 1 ? g.uses(t)[0] : null);

// Mul(u, v) with v a constant near c, u any: [u] or null (either operand order)
function mulConst(g, n, c) {
    if (!is(n, 'Mul')) return null;
    for (const k of [0, 1]) if (near(g.value(n.input[k]), c)) return n.input[1 - k];
    return null;
}

// The multiplications that finish a GELU from a = 1 + erf(...) (or 1 + tanh(...)): the
// leaves x, a and 0.5 in any order (x*a*0.5, (0.5*x)*a, x*(a*0.5), x*a/2).  { root, nodes }
function finish(g, a, x) {
    const m = only(g, a);
    if (!is(m, 'Mul')) return null;
    const o = other(m, a), r = only(g, m.output[0]);
    if (o === x && r && (mulConst(g, r, 0.5) === m.output[0] ||
                         (is(r, 'Div') && r.input[0] === m.output[0] && g.value(r.input[1]) === 2)))
        return { root: r, nodes: [m, r] };
    if (near(g.value(o), 0.5) && is(r, 'Mul') && other(r, m.output[0]) === x)
        return { root: r, nodes: [m, r] };
    const p = g.prod(o);
    if (p && mulConst(g, p, 0.5) === x && g.uses(o).length === 1)
        return { root: m, nodes: [p, m] };
    return null;
}

// 1 + t, where t is the output of node n (Add with the constant 1 either side): the Add
const plusOne = (g, t) => {
    const a = only(g, t);
    return is(a, 'Add') && near(g.value(other(a, t)), 1, 0) ? a : null;
};

function erfSite(g, e) {
    const u = e.input[0], pu = g.prod(u);
    let x = null;
    if (is(pu, 'Div') && near(g.value(pu.input[1]), SQRT2)) x = pu.input[0];
    else if (pu) x = mulConst(g, pu, 1 / SQRT2);
    const a = x && plusOne(g, e.output[0]), f = a && finish(g, a.output[0], x);
    if (!f) return null;
    return { kind: 'erf_chain', func: 'gelu', anchor: e, nodes: [pu, e, a, ...f.nodes], x,
             y: f.root.output[0] };
}

// x^3 as Pow(x, 3), x*(x*x), (x*x)*x: the nodes, or null
function cube(g, c, x) {
    const p = g.prod(c);
    if (is(p, 'Pow') && p.input[0] === x && g.value(p.input[1]) === 3) return [p];
    if (!is(p, 'Mul')) return null;
    for (const k of [0, 1]) {
        const q = g.prod(p.input[1 - k]);
        if (p.input[k] === x && is(q, 'Mul') && q.input[0] === x && q.input[1] === x)
            return [q, p];
    }
    return null;
}

function tanhSite(g, t) {
    const pz = g.prod(t.input[0]), s = pz && mulConst(g, pz, BETA), ps = s && g.prod(s);
    if (!is(ps, 'Add')) return null;
    for (const k of [0, 1]) {
        const x = ps.input[k], pk = g.prod(ps.input[1 - k]), c = pk && mulConst(g, pk, KAPPA);
        const cn = c && cube(g, c, x), a = cn && plusOne(g, t.output[0]);
        const f = a && finish(g, a.output[0], x);
        if (f) return { kind: 'tanh_chain', func: 'gelu_tanh', anchor: t,
                        nodes: [...cn, pk, ps, pz, t, a, ...f.nodes], x, y: f.root.output[0] };
    }
    return null;
}

const sigmoidFunc = (alpha) => (alpha === 1 ? 'silu' : near(alpha, QUICK, 1e-3) ? 'gelu_sigmoid'
                                                                                : 'swish');

function sigmoidSite(g, s) {
    const ps = g.prod(s.input[0]);
    const cands = [[s.input[0], 1, []]]; // x*sigmoid(x), then x*sigmoid(alpha*x)
    if (is(ps, 'Mul'))
        for (const k of [0, 1]) {
            const alpha = g.value(ps.input[k]);
            if (typeof alpha === 'number') cands.push([ps.input[1 - k], alpha, [ps]]);
        }
    for (const [x, alpha, pre] of cands) {
        const m = g.uses(s.output[0]).find((n) => is(n, 'Mul') && other(n, s.output[0]) === x);
        if (m) return { kind: 'sigmoid_chain', func: sigmoidFunc(alpha), alpha, anchor: s,
                        nodes: [...pre, s, m], x, y: m.output[0] };
    }
    return null;
}

// The fused operators, as the model holds them (ORT's own optimized models hold these too).
function opSite(g, n) {
    const base = { anchor: n, nodes: [n], x: n.input[0], y: n.output[0] };
    if (is(n, 'Gelu')) {
        const a = attr(n, 'approximate'), tanh = a && Buffer.from(a.s).toString() === 'tanh';
        return { ...base, kind: 'gelu_op', func: tanh ? 'gelu_tanh' : 'gelu' };
    }
    if (n.domain !== 'com.microsoft') return null;
    const bias = n.input[1] || null;
    switch (n.opType) {
    case 'Gelu': return { ...base, kind: 'ms_gelu', func: 'gelu' };
    case 'FastGelu': return { ...base, kind: 'ms_fastgelu', func: 'gelu_tanh', bias };
    case 'BiasGelu': return { ...base, kind: 'ms_biasgelu', func: 'gelu', bias };
    case 'QuickGelu': {
        const a = attr(n, 'alpha'), alpha = a ? a.f : QUICK; // contrib default 1.702
        return { ...base, kind: 'ms_quickgelu', func: sigmoidFunc(alpha), alpha };
    }
    default: return null;
    }
}

// Every site of graph, in graph order of its last node.
function findSites(graph) {
    const g = index(graph), sites = [];
    for (const n of graph.node) {
        const s = is(n, 'Erf') ? erfSite(g, n) : is(n, 'Tanh') ? tanhSite(g, n)
                : is(n, 'Sigmoid') ? sigmoidSite(g, n) : opSite(g, n);
        if (s) {
            s.nodes.sort((a, b) => g.order.get(a) - g.order.get(b));
            sites.push(s);
        }
    }
    sites.sort((a, b) => g.order.get(a.nodes[a.nodes.length - 1]) -
                         g.order.get(b.nodes[b.nodes.length - 1]));
    return { g, sites };
}

const FORMULA = {
    gelu: 'x*Phi(x) = 0.5*x*(1+erf(x/sqrt(2)))',
    gelu_tanh: '0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))',
    gelu_sigmoid: 'x*sigmoid(1.702*x)',
    silu: 'x*sigmoid(x) (SiLU, not a GELU)',
};
const formula = (s) => (s.func === 'swish' ? `x*sigmoid(${s.alpha}*x) (not a GELU)`
                                           : FORMULA[s.func]);

module.exports = { findSites, index, scalar, formula, num, DTYPE, isOnnx };
