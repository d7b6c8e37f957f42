#!/usr/bin/env node
// gelucheck's tfjs adapter: TensorFlow.js's GELUs, the tfjs-layers activations 'gelu' and
// 'gelu_new', and tf.erf, on the cpu (pure JavaScript) and wasm (WebAssembly) backends, float32,
// from npm @tensorflow/tfjs and @tensorflow/tfjs-backend-wasm (pinned in package-lock.json),
// served over gelucheck's subprocess protocol (docs/design.md 5.2).
//
// What TensorFlow.js claims: formulas, no accuracy.  tfjs-layers 4.22.0 (src/activations.ts):
//   'gelu' (class Gelu):        "Gelu activation function"; x * (0.5 * (1 + erf(x / sqrt(2))))
//                               with Math.sqrt(2) as a scalar: the exact, erf GELU;
//   'gelu_new' (class GeluNew): 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))),
//                               sqrt(2/pi) itself computed by tensor ops, x^3 by tf.pow: the
//                               tanh approximation (HuggingFace's name for it).
// Each tensor op rounds its result to float32.  The cpu backend (tfjs-backend-cpu) computes
// every op in double in JavaScript (Math.tanh, Math.pow, Math.exp) and stores float32; its
// erf is Abramowitz & Stegun 7.1.26 (tfjs-core backend_util ERF_P = 0.3275911, ERF_A1..A5),
// whose published bound is an absolute 1.5e-7: no relative accuracy near 0, and none for
// 1 + erf(x/sqrt2) where x < 0.  The wasm backend runs C++ kernels compiled to WebAssembly
// (tfjs-backend-wasm src/cc/kernels/Erf.cc: the C library's erf on float, Emscripten's libc).
// The wasm backend is held to one thread (WASM_HAS_MULTITHREAD_SUPPORT false): the host runs
// its own threads, each with its own adapter process.
'use strict';
const util = require('util');
const { serve } = require('../onnxruntime/protocol');

const PROG = 'gelucheck_tfjs.js';
// stdout carries the protocol only: anything a library logs goes to stderr
for (const m of ['log', 'info', 'debug'])
    console[m] = (...a) => process.stderr.write(`${util.format(...a)}\n`);

class Failure extends Error {}
const firstLine = (e) => String((e && e.message) || e).split('\n')[0];

function load() {
    try {
        const tf = require('@tensorflow/tfjs');
        const wasm = require('@tensorflow/tfjs-backend-wasm');
        return { tf, wasm };
    } catch (e) {
        throw new Failure(`cannot load @tensorflow/tfjs and @tensorflow/tfjs-backend-wasm ` +
                          `(${firstLine(e)}): run scripts/setup (npm ci in ${__dirname})`);
    }
}

const OPS = 'each op rounds to float32';
const GRAPHS = [
    { name: 'gelu', func: 'gelu', text: "tf.layers activation 'gelu' (class Gelu): " +
      `x * (0.5 * (1 + erf(x / sqrt(2)))), ${OPS}`,
      make: (tf) => { const l = tf.layers.activation({ activation: 'gelu' });
                      return (x) => l.apply(x); } },
    { name: 'gelu_new', func: 'gelu_tanh', text: "tf.layers activation 'gelu_new' (class " +
      'GeluNew): 0.5 * (x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * pow(x, 3))))), sqrt(2/pi) ' +
      `by tensor ops, ${OPS}`,
      make: (tf) => { const l = tf.layers.activation({ activation: 'gelu_new' });
                      return (x) => l.apply(x); } },
    { name: 'erf', func: 'erf', text: 'tf.erf', make: (tf) => (x) => tf.erf(x) },
];

async function backends(tf, wasm) {
    const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
    const file = `tfjs-backend-wasm${simd ? '-simd' : ''}.wasm`;
    return [
        { name: 'cpu', text: `cpu backend (tfjs-backend-cpu ${tf.version['tfjs-backend-cpu']}: ` +
          'JavaScript, each op in double rounded to float32; erf by Abramowitz & Stegun 7.1.26, ' +
          '|error| <= 1.5e-7 absolute)' },
        { name: 'wasm', text: `wasm backend (tfjs-backend-wasm ${wasm.version_wasm}: ${file}, ` +
          'float32 C++ kernels and XNNPACK in WebAssembly, 1 thread; erf: the C erf on float ' +
          "of Emscripten's libc)" },
    ];
}

// Runs f on the backend: n float32 values in (little-endian bytes), n out.
async function evaluate(tf, backend, f, bytes, n) {
    if (tf.getBackend() !== backend && !(await tf.setBackend(backend)))
        throw new Error(`cannot switch to the ${backend} backend`);
    const x = new Float32Array(n);
    Buffer.from(x.buffer).set(bytes); // a copy: bytes need not be 4-aligned
    const y = tf.tidy(() => f(tf.tensor1d(x, 'float32')));
    try {
        if (y.dtype !== 'float32' || y.size !== n)
            throw new Error(`the result is ${y.dtype} of ${y.size} elements`);
        const out = await y.data();
        return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
    } finally {
        y.dispose();
    }
}

async function main(argv) {
    if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
        process.stdout.write(`usage: node ${PROG}\nServes TensorFlow.js's 'gelu', 'gelu_new' ` +
            'and tf.erf (f32) on the cpu and wasm backends over gelucheck\'s subprocess ' +
            'protocol (docs/design.md 5.2).\n');
        return 0;
    }
    if (argv.length !== 0) {
        process.stderr.write(`${PROG}: error: bad arguments '${argv.join(' ')}'\n` +
                             `usage: node ${PROG}\n`);
        return 2;
    }
    const { tf, wasm } = load();
    tf.env().set('PROD', true); // no "install tfjs-node" banner, no debug checks
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    const version = `@tensorflow/tfjs ${tf.version.tfjs}, @tensorflow/tfjs-backend-wasm ` +
                    `${wasm.version_wasm} (Node ${process.version})`;
    const kernels = new Map();
    for (const b of await backends(tf, wasm)) {
        if (!(await tf.setBackend(b.name)))
            throw new Failure(`TensorFlow.js cannot start its ${b.name} backend`);
        for (const g of GRAPHS) {
            const f = g.make(tf), ev = (bytes, n) => evaluate(tf, b.name, f, bytes, n);
            await ev(Buffer.alloc(12), 3); // the kernel runs, or start-up fails here
            kernels.set(`${g.name}.f32.${b.name}`, {
                func: g.func, dtype: 'f32', size: 4, eval: ev,
                description: `${g.text}; ${b.text}; @tensorflow/tfjs ${tf.version.tfjs}` });
        }
    }
    return serve(version, kernels, PROG);
}

main(process.argv.slice(2)).then((rc) => process.exit(rc), (e) => {
    process.stderr.write(`${PROG}: error: ${e instanceof Failure ? e.message : e.stack}\n`);
    process.exit(1);
});
