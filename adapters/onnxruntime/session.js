'use strict';
// ONNX Runtime sessions as gelucheck kernels: the session options, the batch evaluator, and
// the checks on a user's model (onnx:MODEL.onnx).
const fs = require('fs');
const path = require('path');

const FUNCS = ['gelu', 'gelu_tanh', 'gelu_sigmoid', 'gelu_grad', 'gelu_tanh_grad', 'normcdf',
               'normpdf', 'erf', 'erfc'];
// ORT tensor type -> gelucheck dtype, bytes per element, typed array.  No bfloat16:
// onnxruntime-node 1.30 has no bfloat16 tensor type (dist/backend.js rejects type 16).
const TYPES = {
    float32: { dtype: 'f32', size: 4, Array: Float32Array },
    float16: { dtype: 'f16', size: 2, Array: Uint16Array },
    float64: { dtype: 'f64', size: 8, Array: Float64Array },
};
const MAX_BATCH = 65536;

class Failure extends Error {} // a one-line message for stderr, before 'ready'
const firstLine = (e) => String((e && e.message) || e).split('\n')[0].trim();

// One intra-op thread (the host runs its own threads), sequential execution, the CPU EP (or
// ep: 'wasm' on onnxruntime-web).
function sessionOptions(level, ep = 'cpu') {
    return { executionProviders: [ep], graphOptimizationLevel: level, intraOpNumThreads: 1,
             interOpNumThreads: 1, executionMode: 'sequential', logSeverityLevel: 3 };
}

// How a batch of n elements fills an input of shape `shape` (numbers fixed, strings dynamic):
// plan(n) -> { dims, runs, per } (each of the `runs` runs takes `per` elements; the last run
// is padded with zeros up to `per` and the outputs of the padding are dropped); unit: the
// elements of one row, the product P of the fixed dims.  With a dynamic dim, the first takes
// ceil(n / P) rows and the others 1, in one run; with fixed dims only, ceil(n / P) runs of that
// shape.  Padding is sound because the model was checked to be elementwise at load.
function shapePlan(shape) {
    const show = `[${shape.join(', ')}]`;
    if (shape.length === 0) // scalar or rank unknown (ORT shows both as []): ORT checks [n]
        return { show: '[] (fed as [n])', unit: 1,
                 plan: (n) => ({ dims: [n], runs: 1, per: n }) };
    const fixed = shape.filter((d) => typeof d === 'number').reduce((a, b) => a * b, 1);
    const dyn = shape.findIndex((d) => typeof d !== 'number');
    if (fixed === 0) throw new Failure(`input shape ${show} holds no elements`);
    const plan = (n) => {
        const rows = Math.ceil(n / fixed);
        if (dyn < 0) return { dims: shape, runs: rows, per: fixed };
        const dims = shape.map((d, k) => (typeof d === 'number' ? d : k === dyn ? rows : 1));
        return { dims, runs: 1, per: rows * fixed };
    };
    return { show, unit: fixed, plan };
}

// (bytes, n) -> the n results as bytes, for a session with one input and one output.
function evaluator(ort, session, type, plan) {
    const t = TYPES[type], [inName] = session.inputNames, [outName] = session.outputNames;
    return async (bytes, n) => {
        if (n === 0) return Buffer.alloc(0);
        const p = plan(n), x = new t.Array(p.runs * p.per); // zeros: the padding
        x.set(new t.Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));
        const parts = [];
        for (let r = 0; r < p.runs; r++) {
            const feed = new ort.Tensor(type, x.subarray(r * p.per, (r + 1) * p.per), p.dims);
            const y = (await session.run({ [inName]: feed }))[outName];
            if (y.type !== type) throw new Error(`output is ${y.type}, input ${type}`);
            if (y.data.length !== p.per)
                throw new Error(`${y.data.length} outputs for ${p.per} inputs`);
            const keep = Math.min(p.per, n - r * p.per);
            parts.push(Buffer.from(y.data.buffer, y.data.byteOffset, keep * t.size));
        }
        return Buffer.concat(parts);
    };
}

// Refuses a model that is not elementwise: on a batch of two rows of probe values, it
// changes one input element at a time (the first, the middle and the last of a row) and
// requires every other output to stay what it was (within 2^-10 relative, so that a
// vector kernel's lane-to-lane rounding cannot trip it; LayerNorm, Softmax or a MatMul move
// them by far more).  Returns the reason, or null.
async function notElementwise(ev, t, unit) {
    const n = 2 * unit <= MAX_BATCH ? 2 * unit : unit, x = new t.Array(n);
    const f32 = new Float32Array(1);
    const enc = t.dtype === 'f16' ? (v) => { f32[0] = v; return toHalf(f32[0]); } : (v) => v;
    const dec = t.dtype === 'f16' ? fromHalf : (v) => v;
    for (let k = 0; k < n; k++) x[k] = enc(((k * 37) % 101) / 12.5 - 4); // in [-4, 4]
    const run = async (xs) => new t.Array(new Uint8Array(await ev(
        Buffer.from(xs.buffer.slice(0)), n)).buffer);
    const y0 = await run(x);
    for (const j of new Set([0, n >> 1, unit - 1, n - 1])) {
        const x1 = x.slice();
        x1[j] = enc(dec(x[j]) + 1.5);
        const y1 = await run(x1);
        for (let i = 0; i < n; i++) {
            const a = dec(y0[i]), b = dec(y1[i]);
            if (i === j || a === b || (Number.isNaN(a) && Number.isNaN(b))) continue;
            if (!(Math.abs(a - b) <= Math.abs(a) * 2 ** -10))
                return `it is not elementwise: output element ${i} changes from ${a} to ${b} ` +
                       `when input element ${j} alone changes from ${dec(x[j])} to ${dec(x1[j])}`;
        }
    }
    return null;
}

// binary16 bits <-> number (the probe's values only: normal, no rounding subtleties needed)
function toHalf(v) {
    if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
    const s = v < 0 ? 0x8000 : 0, a = Math.abs(v), e = Math.floor(Math.log2(a));
    const m = Math.round((a / 2 ** e - 1) * 1024);
    return s | ((e + 15 + (m >> 10)) << 10) | (m & 1023);
}
function fromHalf(b) {
    const s = b & 0x8000 ? -1 : 1, e = (b >> 10) & 31, m = b & 1023;
    if (e === 31) return m ? NaN : s * Infinity;
    return s * (e ? (1 + m / 1024) * 2 ** (e - 15) : m * 2 ** -24);
}

async function loadSession(ort, file, level, ep = 'cpu') {
    let bytes;
    try {
        bytes = fs.readFileSync(file);
    } catch (e) {
        const why = e.code === 'ENOENT' ? 'no such file' : firstLine(e);
        throw new Failure(`cannot read model '${file}': ${why}`);
    }
    try {
        return await ort.InferenceSession.create(bytes, sessionOptions(level, ep));
    } catch (e) {
        const bf16 = /data type: 16\b/.test(firstLine(e));
        const why = bf16 ? ' (bfloat16: onnxruntime-node has no bfloat16 tensors)' : '';
        throw new Failure(`cannot load model '${file}': ${firstLine(e)}${why}`);
    }
}

const LEVELS = ['disabled', 'basic', 'extended', 'layout', 'all']; // ORT's, in order

// A user's model as one kernel: one float, float16 or double input and one output of that
// type and shape, elementwise; named after the file and the dtype; func from --func (or the
// spec's ?func=), graph optimization level from --opt (or ?opt=).
async function modelKernels(ort, file, func, level, version, ep = 'cpu') {
    if (!FUNCS.includes(func))
        throw new Failure(`unknown func '${func}': expected one of ${FUNCS.join(', ')}`);
    if (!LEVELS.includes(level))
        throw new Failure(`unknown optimization level '${level}': expected one of ` +
                          LEVELS.join(', '));
    const session = await loadSession(ort, file, level, ep), m = `model '${file}'`;
    const [ins, outs] = [session.inputMetadata, session.outputMetadata];
    const count = (list, what) => `${m} has ${list.length} ${what} (` +
        `${list.map((v) => `'${v.name}'`).join(', ')}): gelucheck needs exactly one`;
    if (ins.length !== 1) throw new Failure(count(ins, 'inputs'));
    if (outs.length !== 1) throw new Failure(count(outs, 'outputs'));
    const [i, o] = [ins[0], outs[0]], what = (v) => (v.isTensor ? v.type : 'not a tensor');
    if (!i.isTensor || !TYPES[i.type]) {
        const need = 'gelucheck needs float, float16 or double';
        throw new Failure(`${m}: input '${i.name}' is ${what(i)}: ${need}`);
    }
    if (!o.isTensor || o.type !== i.type) {
        const input = `input '${i.name}' ${i.type}`;
        throw new Failure(`${m}: output '${o.name}' is ${what(o)}, ${input}: they must match`);
    }
    const fixedDiffer = (d, k) => typeof d === 'number' && typeof o.shape[k] === 'number' &&
                                  d !== o.shape[k];
    if (i.shape.length && o.shape.length &&
        (i.shape.length !== o.shape.length || i.shape.some(fixedDiffer)))
        throw new Failure(`${m}: output shape [${o.shape}] differs from input shape [${i.shape}]`);
    const { show, unit, plan } = shapePlan(i.shape), t = TYPES[i.type];
    if (unit > MAX_BATCH)
        throw new Failure(`${m}: input shape ${show} takes batches of ${unit} (max ${MAX_BATCH})`);
    const ev = evaluator(ort, session, i.type, plan);
    try {
        await ev(Buffer.alloc(unit * t.size), unit);
    } catch (e) {
        throw new Failure(`${m} fails on a batch of ${unit} zeros: ${firstLine(e)}`);
    }
    const why = await notElementwise(ev, t, unit);
    if (why) throw new Failure(`${m} is refused: ${why}`);
    const base = path.basename(file).replace(/\.onnx$/i, '').replace(/[^A-Za-z0-9_.-]/g, '_');
    const description = `user model '${file}' (input '${i.name}' ${i.type} ${show}, output ` +
        `'${o.name}'), declared ${func}; graph optimizations '${level}'; ${version}`;
    const kernel = { func, dtype: t.dtype, size: t.size, description, eval: ev };
    return new Map([[`${base.slice(0, 100) || 'model'}.${t.dtype}`, kernel]]);
}

module.exports = { TYPES, LEVELS, MAX_BATCH, Failure, firstLine, sessionOptions, shapePlan,
                   evaluator, notElementwise, modelKernels };
