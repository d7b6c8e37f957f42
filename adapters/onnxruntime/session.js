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

// One intra-op thread (the host runs its own threads), sequential execution, CPU EP.
function sessionOptions(level) {
    return { executionProviders: ['cpu'], graphOptimizationLevel: level, intraOpNumThreads: 1,
             interOpNumThreads: 1, executionMode: 'sequential', logSeverityLevel: 3 };
}

// How a batch of n elements fills an input of shape `shape` (numbers fixed, strings dynamic):
// plan(n) -> { dims, runs } or { why }; unit: the smallest batch it takes.  The first dynamic
// dim takes n / P (P: the product of the fixed dims), the others 1; a shape with no dynamic
// dim runs n / P times.  Never padded: every run holds inputs of the batch only.
function shapePlan(shape) {
    const show = `[${shape.join(', ')}]`;
    if (shape.length === 0) // scalar or rank unknown (ORT shows both as []): ORT checks [n]
        return { show: '[] (fed as [n])', unit: 1, plan: (n) => ({ dims: [n], runs: 1 }) };
    const fixed = shape.filter((d) => typeof d === 'number').reduce((a, b) => a * b, 1);
    const dyn = shape.findIndex((d) => typeof d !== 'number');
    if (fixed === 0) throw new Failure(`input shape ${show} holds no elements`);
    const plan = (n) => {
        if (n % fixed !== 0) return { why: `a batch of ${n} does not fill input shape ${show}` };
        if (dyn < 0) return { dims: shape, runs: n / fixed };
        const dims = shape.map((d, k) => (typeof d === 'number' ? d : k === dyn ? n / fixed : 1));
        return { dims, runs: 1 };
    };
    return { show, unit: fixed, plan };
}

// (bytes, n) -> the n results as bytes, for a session with one input and one output.
function evaluator(ort, session, type, plan) {
    const t = TYPES[type], [inName] = session.inputNames, [outName] = session.outputNames;
    return async (bytes, n) => {
        const p = plan(n);
        if (p.why) throw new Error(p.why);
        const end = bytes.byteOffset + bytes.length; // copied: aligned, and ours
        const x = new t.Array(bytes.buffer.slice(bytes.byteOffset, end));
        const per = n / p.runs, parts = [];
        for (let r = 0; r < p.runs; r++) {
            const feed = new ort.Tensor(type, x.subarray(r * per, (r + 1) * per), p.dims);
            const y = (await session.run({ [inName]: feed }))[outName];
            if (y.type !== type) throw new Error(`output is ${y.type}, input ${type}`);
            if (y.data.length !== per)
                throw new Error(`${y.data.length} outputs for ${per} inputs`);
            parts.push(Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength));
        }
        return Buffer.concat(parts);
    };
}

async function loadSession(ort, file) {
    let bytes;
    try {
        bytes = fs.readFileSync(file);
    } catch (e) {
        const why = e.code === 'ENOENT' ? 'no such file' : firstLine(e);
        throw new Failure(`cannot read model '${file}': ${why}`);
    }
    try {
        return await ort.InferenceSession.create(bytes, sessionOptions('all'));
    } catch (e) {
        const bf16 = /data type: 16\b/.test(firstLine(e));
        const why = bf16 ? ' (bfloat16: onnxruntime-node has no bfloat16 tensors)' : '';
        throw new Failure(`cannot load model '${file}': ${firstLine(e)}${why}`);
    }
}

// A user's model as one kernel: one float, float16 or double input and one output of that
// type and shape; named after the file and the dtype; func from --func.
async function modelKernels(ort, file, func, version) {
    if (!FUNCS.includes(func))
        throw new Failure(`unknown func '${func}' (--func): expected one of ${FUNCS.join(', ')}`);
    const session = await loadSession(ort, file), m = `model '${file}'`;
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
    const base = path.basename(file).replace(/\.onnx$/i, '').replace(/[^A-Za-z0-9_.-]/g, '_');
    const description = `user model '${file}' (input '${i.name}' ${i.type} ${show}, output ` +
        `'${o.name}'), declared ${func}; graph optimizations 'all'; ${version}`;
    const kernel = { func, dtype: t.dtype, size: t.size, description, eval: ev };
    return new Map([[`${base.slice(0, 100) || 'model'}.${t.dtype}`, kernel]]);
}

module.exports = { TYPES, Failure, firstLine, sessionOptions, evaluator, modelKernels };
