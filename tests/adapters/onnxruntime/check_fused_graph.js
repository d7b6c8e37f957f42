// The fused kernels hold the operator they claim to measure: for each fused graph of the
// onnxruntime adapter (graphs.js) and dtype, the model ONNX Runtime writes out at each
// optimization level (SessionOptions optimizedModelFilePath) must hold the com.microsoft
// operator, its bias still -0.0 in every element of shape [HIDDEN], wherever the adapter
// serves the kernel, and must not hold it where the adapter leaves the kernel out (nofused).
// QuickGelu in float16 at 'all' runs with alpha rounded to float16: checked bit for bit.
// Controls, which the check must reject: Add(x, b) + Gelu with a one-element -0.0 bias (ORT
// never fuses it into BiasGelu), and BiasGelu with a scalar bias (not the real shape).
//   node check_fused_graph.js ADAPTER_DIR        (onnxruntime-node, as the adapter pins it)
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const dir = path.resolve(process.argv[2]);
const ort = require(require.resolve('onnxruntime-node', { paths: [dir] }));
const { onnx } = require(require.resolve('onnx-proto', { paths: [dir] }));
const { GRAPHS, HIDDEN, buildModel } = require(path.join(dir, 'graphs.js'));
const { negZeros, fusedGraph, modelBytes } = require(path.join(dir, 'fused.js'));
const { LEVELS } = require(path.join(dir, 'session.js'));
const { toHalfBits } = require(path.join(dir, 'onnx_proto.js'));

const errors = [];
const check = (cond, what) => { if (!cond) errors.push(what); };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gelucheck-fused-'));
const MS = [{ domain: '', version: 17 }, { domain: 'com.microsoft', version: 1 }];

async function optimized(bytes, level) {
    const f = path.join(tmp, `${level}.onnx`);
    const s = await ort.InferenceSession.create(bytes, { graphOptimizationLevel: level,
        optimizedModelFilePath: f, logSeverityLevel: 3, intraOpNumThreads: 1 });
    await s.release();
    return onnx.ModelProto.decode(fs.readFileSync(f));
}

// every element of an initializer is -0.0 (float or float16, raw or typed)
function allNegZero(t) {
    if (t.rawData && t.rawData.length) {
        const size = t.dataType === 10 ? 2 : 4, r = Buffer.from(t.rawData);
        for (let k = 0; k < r.length; k += size)
            if ((size === 2 ? r.readUInt16LE(k) : r.readUInt32LE(k)) !== (size === 2 ? 0x8000 : 0x80000000))
                return false;
        return r.length > 0;
    }
    return t.floatData.length > 0 && t.floatData.every((v) => Object.is(v, -0));
}

// null when model m holds com.microsoft opType whose bias (when bias) is an initializer,
// perhaps behind Casts, of -0.0 in shape [HIDDEN]; else why not
function holds(m, opType, bias) {
    const n = m.graph.node.find((x) => x.opType === opType && x.domain === 'com.microsoft');
    if (!n) return `no com.microsoft ${opType} (${m.graph.node.map((x) => x.opType).join(' ')})`;
    if (!bias) return null;
    let t = n.input[1];
    for (;;) {
        const cast = m.graph.node.find((x) => x.opType === 'Cast' && x.output[0] === t);
        if (!cast) break;
        t = cast.input[0];
    }
    const init = m.graph.initializer.find((i) => i.name === t);
    if (!init) return `${opType}'s bias '${n.input[1]}' is not an initializer`;
    const dims = init.dims.map(Number);
    if (dims.length !== 1 || dims[0] !== HIDDEN) return `${opType}'s bias has shape [${dims}]`;
    return allNegZero(init) ? null : `${opType}'s bias is not -0.0 throughout`;
}

async function main() {
    const fused = GRAPHS.filter((g) => g.fused);
    check(fused.length === 3, `${fused.length} fused graphs`);
    for (const g of fused) {
        for (const dt of ['f32', 'f16']) {
            const row = [];
            for (const level of LEVELS) {
                const m = await optimized(buildModel(g, dt, 'test'), level);
                const why = holds(m, g.fused.opType, !!g.fused.bias);
                row.push(`${level} ${why ? 'no' : 'yes'}`);
                const suffix = { all: '', disabled: '.noopt' }[level];
                if (suffix === undefined) continue;
                const name = `${g.name}.${dt}${suffix}`, out = g.nofused && g.nofused[`${dt}${suffix}`];
                if (out) check(why, `${name} is left out, but ORT runs ${g.fused.opType} there`);
                else check(!why, `${name}: ${why}`);
                if (g.fused.opType === 'QuickGelu' && !why) {
                    const q = m.graph.node.find((x) => x.opType === 'QuickGelu');
                    const alpha = q.attribute.find((a) => a.name === 'alpha').f;
                    const want = dt === 'f16' ? 1.7021484375 : Math.fround(1.702);
                    check(alpha === want, `${name}: alpha ${alpha}, want ${want}`);
                }
            }
            console.log(`${g.name}.${dt}: ${g.fused.opType} at ${row.join(', ')}`);
        }
    }
    await quickGelu16();
    await controls();
}

// ms_quickgelu.f16 = RN16(float QuickGelu with alpha 1.7021484375) on every float16 input
async function quickGelu16() {
    const g = GRAPHS.find((x) => x.name === 'ms_quickgelu');
    const h = await ort.InferenceSession.create(buildModel(g, 'f16', 'test'),
                                                { graphOptimizationLevel: 'all' });
    const op = { ...g.fused, attribute: [{ name: 'alpha', type: 1, f: 1.7021484375 }] };
    const f = await ort.InferenceSession.create(modelBytes(fusedGraph(op, 'f32', null), MS, 'f32'),
                                                { graphOptimizationLevel: 'disabled' });
    const bits = new Uint16Array(65536).map((_, i) => i), xf = new Float32Array(65536);
    for (let i = 0; i < 65536; i++) { // float16 -> float, exact
        const e = (i >> 10) & 31, m = i & 1023, s = i & 0x8000 ? -1 : 1;
        xf[i] = e === 31 ? (m ? NaN : s * Infinity) : s * (e ? (1 + m / 1024) * 2 ** (e - 15) : m * 2 ** -24);
    }
    const yh = (await h.run({ x: new ort.Tensor('float16', bits, [65536]) })).y.data;
    const yf = (await f.run({ x: new ort.Tensor('float32', xf, [65536]) })).y.data;
    let bad = 0;
    for (let i = 0; i < 65536; i++) {
        const nan = Number.isNaN(yf[i]) && (yh[i] & 0x7c00) === 0x7c00 && (yh[i] & 1023);
        if (!nan && yh[i] !== toHalfBits(yf[i])) bad++;
    }
    check(bad === 0, `ms_quickgelu.f16 differs from RN16(QuickGelu alpha=1.7021484375) at ${bad} inputs`);
    console.log(`ms_quickgelu.f16 = RN16(float QuickGelu, alpha 1.7021484375): ${65536 - bad} of 65536`);
}

// what the check must reject: it finds no BiasGelu in Add + Gelu with a one-element bias at
// any level (and finds it with the real shape from 'extended' on), and rejects the bias of a
// BiasGelu given a scalar one
async function controls() {
    const addGelu = (dims) => modelBytes({
        nodes: [{ opType: 'Add', input: ['x', 'b'], output: ['t'] },
                { opType: 'Gelu', domain: 'com.microsoft', input: ['t'], output: ['y'] }],
        inits: [negZeros(dims, 'f32')], shape: ['N', HIDDEN] }, MS, 'f32');
    for (const dims of [[], [1], [HIDDEN]]) {
        const found = [];
        for (const level of LEVELS)
            if (!holds(await optimized(addGelu(dims), level), 'BiasGelu', true)) found.push(level);
        const want = dims.length && dims[0] === HIDDEN ? 'extended layout all' : '';
        check(found.join(' ') === want,
              `Add + Gelu, bias [${dims}]: BiasGelu found at '${found.join(' ')}', want '${want}'`);
        console.log(`control Add + Gelu, bias -0.0 of shape [${dims}]: BiasGelu at ` +
                    `${found.length ? found.join(', ') : 'no level'}`);
    }
    const scalar = modelBytes(fusedGraph({ opType: 'BiasGelu', domain: 'com.microsoft' }, 'f32', []),
                              MS, 'f32');
    const why = holds(await optimized(scalar, 'all'), 'BiasGelu', true);
    check(why === "BiasGelu's bias has shape []", `BiasGelu with a scalar bias: ${why}`);
    console.log(`control BiasGelu with a scalar bias: rejected (${why})`);
}

main().then(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
    for (const e of errors) console.log(`FAIL: ${e}`);
    process.exit(errors.length ? 1 : 0);
}, (e) => {
    fs.rmSync(tmp, { recursive: true, force: true });
    console.log(`FAIL: ${e.stack}`);
    process.exit(1);
});
