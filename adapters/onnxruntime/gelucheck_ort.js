#!/usr/bin/env node
// gelucheck's onnxruntime adapter: GELU graphs run by ONNX Runtime's CPU execution provider
// (npm onnxruntime-node, pinned in package-lock.json), served over the subprocess protocol.
//
// What the library claims: formulas only, no accuracy.  The ONNX spec (Operators.md, Gelu-20:
// y = 0.5*x*(1+erf(x/sqrt(2))), or with approximate="tanh" 0.5*x*(1+tanh(sqrt(2/pi)*(x+
// 0.044715*x^3)))) and ORT's ContribOperators.md (com.microsoft Gelu, FastGelu) say what is
// computed, not how well.  The CPU kernels use MLAS: onnxruntime/core/mlas/lib/erf.cpp says
// its erf "uses the same polynomial coefficients and algorithm as" the Stack Overflow answer
// "efficient faithfully rounded implementation of error function erff" (question 35148198),
// a faithful erf - which says nothing about 1+erf(x/sqrt2) for x < 0, where it cancels.
// float16 graphs have no CPU kernels: ORT runs them in float between Casts (README.md).
// With --web the same graphs run on npm onnxruntime-web (gelucheck: onnxruntime-web): ORT
// compiled to WebAssembly, its wasm execution provider, in Node, one thread; it claims no
// more than the native build (its kernels are the CPU EP's, MLAS built for wasm SIMD).
//
//   node gelucheck_ort.js                          the built-in kernels (gelucheck: onnxruntime)
//   node gelucheck_ort.js --web                    the same on onnxruntime-web (onnxruntime-web)
//   node gelucheck_ort.js --model M.onnx --func F  a user's model (gelucheck: onnx:M.onnx)
//   node gelucheck_ort.js --write-model NAME PATH  writes a built-in graph (e.g. erf_decomp.f32)
'use strict';
const fs = require('fs');
const os = require('os');
const { GRAPHS, DTYPES, buildModel, shapeOf } = require('./graphs');
const { serve } = require('./protocol');
const { TYPES, LEVELS, Failure, firstLine, sessionOptions, shapePlan, evaluator,
        modelKernels } = require('./session');

const PROG = 'gelucheck_ort.js';
const BUILTIN_LEVELS = [['all', ''], ['disabled', '.noopt']]; // graph optimization level, name suffix
const ORT_TYPE = { f32: 'float32', f16: 'float16' };

// the two builds: the npm package and its execution provider
const BACKENDS = { node: { pkg: 'onnxruntime-node', ep: 'cpu' },
                   web: { pkg: 'onnxruntime-web', ep: 'wasm' } };

function loadOrt(backend = 'node') {
    if (os.endianness() !== 'LE') throw new Failure('big-endian host: payloads are little-endian');
    const { pkg } = BACKENDS[backend];
    try {
        const ort = require(pkg);
        ort.env.logLevel = 'error';
        if (backend === 'web') { // one thread, in this thread: no worker, no proxy
            ort.env.wasm.numThreads = 1;
            ort.env.wasm.proxy = false;
        }
        return ort;
    } catch (e) {
        throw new Failure(`cannot load ${pkg} (${firstLine(e)}): run scripts/setup ` +
                          `(npm ci in ${__dirname})`);
    }
}

// The JS API shows the package version only; the package bundles the ORT build of its own
// version (onnxruntime-node: bin/napi-v6/*/libonnxruntime.so.1, whose GetVersionString() it
// does not expose; onnxruntime-web: dist/ort-wasm-simd-threaded.wasm, the one build it ships
// for Node, SIMD).
function versions(ort, backend = 'node') {
    if (backend === 'web') {
        const v = ort.env.versions.web;
        const short = `onnxruntime-web ${v} (ORT ${v}, WebAssembly (wasm) execution provider)`;
        return { short, banner: `${short.slice(0, -1)}, ort-wasm-simd-threaded.wasm, 1 thread; ` +
                                `Node ${process.version})` };
    }
    const v = ort.env.versions.node, short = `onnxruntime-node ${v} (ORT ${v}, CPU EP)`;
    return { short, banner: `${short.slice(0, -1)}, 1 thread; Node ${process.version})` };
}

// Every graph in float and float16, optimized and not, on either build (the same names).
// A fused graph whose optimized model would not hold its operator (graphs.js, nofused) and a
// combination ORT rejects (creating the session or a first run) are left out: stderr says
// why, and left (a list of 'NAME (why)') takes them into the version line that list shows.
async function builtinKernels(ort, backend, left) {
    const kernels = new Map(), v = versions(ort, backend).short, { ep } = BACKENDS[backend];
    for (const g of GRAPHS) {
        for (const dt of Object.keys(DTYPES)) {
            for (const [level, suffix] of BUILTIN_LEVELS) {
                const name = `${g.name}.${dt}${suffix}`, type = ORT_TYPE[dt];
                const size = TYPES[type].size, { show, unit, plan } = shapePlan(shapeOf(g, dt));
                const leave = (why) => {
                    process.stderr.write(`${PROG}: left out ${name}: ${why}\n`);
                    left.push(`${name} (${why})`);
                };
                if (g.nofused && g.nofused[`${dt}${suffix}`]) {
                    leave(g.nofused[`${dt}${suffix}`]);
                    continue;
                }
                try {
                    const model = buildModel(g, dt, v);
                    const options = sessionOptions(level, ep);
                    const session = await ort.InferenceSession.create(model, options);
                    const ev = evaluator(ort, session, type, plan);
                    await ev(Buffer.alloc(3 * size), 3);
                    const rows = unit > 1 ? `${show}: whole rows, the last padded with zeros`
                                          : '1-D, dynamic N';
                    const note = g.dtnote && g.dtnote[dt] && level === 'all' ? g.dtnote[dt] : '';
                    // a fused operator with a bias: the operator without it is its companion
                    // (report.md splits the findings: docs/adapters.md, companion kernels)
                    const mate = g.companion ? `the operator without the bias is its ` +
                        `companion kernel ${g.companion}.${dt}${suffix}; ` : '';
                    const description = `${g.text}; ${dt === 'f32' ? 'float' : 'float16'} in ` +
                        `and out (${rows}); graph optimizations '${level}'; ` +
                        `${note ? `${note}; ` : ''}${mate}${v}`;
                    kernels.set(name, { func: g.func, dtype: dt, size, description, eval: ev });
                } catch (e) {
                    leave(`ORT rejects it: ${firstLine(e)}`);
                }
            }
        }
    }
    if (kernels.size === 0) throw new Failure('ORT runs none of the built-in graphs');
    return kernels;
}

// the banner's version line, with what was left out (the line is at most 4096 bytes)
function withLeft(banner, left) {
    if (left.length === 0) return banner;
    const all = `${banner}; left out: ${left.join('; ')}`;
    return all.length <= 3900 ? all : `${all.slice(0, 3890)} [...]`;
}

// the scan's modules, which need npm onnx-proto (installed with onnxruntime-node)
function loadScan() {
    try {
        return { ...require('./scan'), ...require('./sitekernel'), ...require('./pairing') };
    } catch (e) {
        if (e.code !== 'MODULE_NOT_FOUND') throw e;
        throw new Failure(`cannot load the scan (${firstLine(e)}): run scripts/setup ` +
                          `(npm ci in ${__dirname})`);
    }
}

// The runtime of onnx: and scan: models: the native build, or with --web onnxruntime-web
// (gelucheck --runtime onnxruntime-web).  A scan always reads the optimizer's choices from
// the native build (scan.js writes each level's optimized model with optimizedModelFilePath,
// which the web build cannot do in Node): with --web, of the same version, and says so.
function runtimeOf(web) {
    const native = loadOrt('node'), nv = versions(native, 'node');
    if (!web) return { native, ort: native, ep: 'cpu', v: nv, web: null };
    const ort = loadOrt('web'), v = versions(ort, 'web');
    if (native.env.versions.node !== ort.env.versions.web)
        throw new Failure(`onnxruntime-web ${ort.env.versions.web} and onnxruntime-node ` +
                          `${native.env.versions.node} differ: the optimizer's choices must ` +
                          `come from the same version (run scripts/setup)`);
    const optimizer = `the optimizer's choices at each level are those of ${nv.short} ` +
        `(the web build cannot write its optimized model in Node)`;
    return { native, ort, ep: BACKENDS.web.ep, v, web: { runs: v.short, optimizer } };
}

// scan:MODEL: one kernel per distinct computation at a GELU site (scan.js, sitekernel.js), on
// the runtime rt (runtimeOf); a kernel the web build rejects is left out, on stderr
async function scanKernels(rt, file, levels) {
    const { scan, siteKernels } = loadScan();
    const result = await scan(rt.native, file, levels), ks = siteKernels(result);
    for (const why of ks.skipped) process.stderr.write(`${PROG}: no kernel for ${why}\n`);
    if (ks.list.length === 0)
        throw new Failure(`model '${file}' has no GELU site that can be served (` +
                          `${result.sites.length} GELU-like sites; run gelucheck scan)`);
    const kernels = new Map(), names = new Map(result.sites.map((r) => [r.name, r]));
    const tail = rt.web ? `runs on ${rt.v.short}; ${rt.web.optimizer}` : rt.v.short;
    for (const k of ks.list) {
        let ev;
        try {
            const options = sessionOptions('disabled', rt.ep);
            const session = await rt.ort.InferenceSession.create(k.bytes, options);
            const { plan } = shapePlan(k.shape);
            ev = evaluator(rt.ort, session, k.type, plan);
            if (rt.web) await ev(Buffer.alloc(3 * TYPES[k.type].size), 3);
        } catch (e) {
            if (!rt.web) throw e;
            process.stderr.write(`${PROG}: left out ${k.name}: onnxruntime-web rejects it: ` +
                                 `${firstLine(e)}\n`);
            continue;
        }
        const bySite = new Map(); // site -> its levels, in order
        for (const c of k.covers) {
            const dot = c.lastIndexOf('.'), site = c.slice(0, dot);
            if (!bySite.has(site)) bySite.set(site, []);
            bySite.get(site).push(c.slice(dot + 1));
        }
        const covers = [...bySite].map(([site, levels]) =>
            `${site} (node '${names.get(site).s.anchor.name}') at ${levels.join(', ')}`);
        let description = `${k.operator}; as ORT runs it at ${covers.join('; ')}; ` +
            `${[...k.notes].map((n) => `${n}; `).join('')}${tail}`;
        if (description.length > 3500) description = `${description.slice(0, 3490)} [...]`;
        kernels.set(k.name, { func: k.func, dtype: k.dtype, size: TYPES[k.type].size,
                              description, eval: ev });
    }
    if (kernels.size === 0)
        throw new Failure(`onnxruntime-web runs none of the site kernels of model '${file}'`);
    return kernels;
}

// The scan of a model as text, and as JSON into file json; at one level (the levels of
// scan:MODEL?opt=LEVEL, whose kernels are named after that level) or all; the runtime's
// version (with --web: where the kernels run and whose optimizer's choices they are)
async function scanReport(rt, file, json, levels, torch) {
    const { scan, toJson, toText, siteKernels, loadActivations, pairSites } = loadScan();
    const result = await scan(rt.native, file, levels), ks = siteKernels(result);
    if (torch) { // --torch CMD: the module's activations, paired with the sites (pairing.js)
        const doc = loadActivations(torch, file);
        result.torch = { doc, pairing: pairSites(result.sites, doc.activations) };
    }
    const v = versions(rt.native, 'node').short;
    process.stdout.write(toText(file, v, result, ks, rt.web));
    if (json) {
        try {
            fs.writeFileSync(json, `${JSON.stringify(toJson(file, v, result, ks, rt.web),
                                                     null, 1)}\n`);
        } catch (e) {
            throw new Failure(`cannot write '${json}': ${firstLine(e)}`);
        }
    }
    return 0;
}

function writeModel(name, file) {
    const [gname, dt, extra] = name.split('.'), g = GRAPHS.find((x) => x.name === gname);
    if (!g || !DTYPES[dt] || extra !== undefined) {
        const all = GRAPHS.flatMap((x) => Object.keys(DTYPES).map((d) => `${x.name}.${d}`));
        throw new Failure(`unknown model '${name}': expected one of ${all.join(', ')}`);
    }
    try {
        fs.writeFileSync(file, buildModel(g, dt, PROG));
    } catch (e) {
        throw new Failure(`cannot write '${file}': ${firstLine(e)}`);
    }
}

const USAGE = `usage: node ${PROG}                        serve the built-in kernels
       node ${PROG} --model M.onnx --func F [--opt LEVEL]
                                          serve a model (one float input, one output,
                                          elementwise; LEVEL: disabled ... all)
       node ${PROG} --scan M.onnx [--opt LEVEL] serve a kernel per GELU site and level
       node ${PROG} --scan-report M.onnx [--opt LEVEL] [--json FILE] [--torch CMD]
                                          list the GELU sites of a model; CMD prints the
                                          activations of its PyTorch module (pairing.js)
       node ${PROG} --web                  serve the built-in kernels on onnxruntime-web
       --web after --model, --scan, --scan-report: its kernels run on onnxruntime-web (a
                                          scan's optimizer choices: onnxruntime-node's)
       node ${PROG} --write-model NAME PATH   write a built-in graph (NAME: e.g. erf_decomp.f32)
Speaks gelucheck's subprocess protocol on stdin/stdout (docs/design.md 5.2).\n`;

// --scan M / --scan-report M, then [--opt LEVEL] [--json FILE] in any order: { levels, json },
// or null when argv is not of that form
function scanFlags(argv) {
    if (!['--scan', '--scan-report'].includes(argv[0]) || argv.length < 2 || argv.length % 2)
        return null;
    const out = { levels: LEVELS, json: undefined }, seen = new Set();
    for (let k = 2; k < argv.length; k += 2) {
        if (!['--opt', '--json', '--torch'].includes(argv[k]) || seen.has(argv[k])) return null;
        seen.add(argv[k]);
        if (argv[k] === '--json') out.json = argv[k + 1];
        else if (argv[k] === '--torch') out.torch = argv[k + 1];
        else if (!LEVELS.includes(argv[k + 1]))
            throw new Failure(`unknown optimization level '${argv[k + 1]}'`);
        else out.levels = [argv[k + 1]];
    }
    return out;
}

async function main(argv) {
    const webAt = argv.indexOf('--web'), web = webAt > 0; // --web after a mode: on the web build
    if (web) {
        argv = argv.filter((a, k) => k !== webAt);
        if (!['--model', '--scan', '--scan-report'].includes(argv[0])) {
            process.stderr.write(`${PROG}: error: bad arguments: --web follows --model, ` +
                                 `--scan or --scan-report, or comes alone\n${USAGE}`);
            return 2;
        }
    }
    if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
        process.stdout.write(USAGE);
        return 0;
    }
    if (argv.length === 3 && argv[0] === '--write-model') {
        writeModel(argv[1], argv[2]);
        return 0;
    }
    const flags = scanFlags(argv);
    if (flags && argv[0] === '--scan-report')
        return scanReport(runtimeOf(web), argv[1], flags.json, flags.levels, flags.torch);
    if (flags && argv[0] === '--scan' && !flags.json && !flags.torch) {
        const rt = runtimeOf(web), kernels = await scanKernels(rt, argv[1], flags.levels);
        return serve(rt.web ? `${rt.v.banner}; ${rt.web.optimizer}` : rt.v.banner, kernels, PROG);
    }
    if (argv.length === 1 && argv[0] === '--web') {
        const ort = loadOrt('web'), v = versions(ort, 'web'), left = [];
        const kernels = await builtinKernels(ort, 'web', left);
        return serve(withLeft(v.banner, left), kernels, PROG);
    }
    const model = (argv.length === 4 || (argv.length === 6 && argv[4] === '--opt')) &&
                  argv[0] === '--model' && argv[2] === '--func';
    if (argv.length !== 0 && !model) {
        process.stderr.write(`${PROG}: error: bad arguments '${argv.join(' ')}'\n${USAGE}`);
        return 2;
    }
    const backend = web ? 'web' : 'node', ort = loadOrt(backend), v = versions(ort, backend);
    const left = [];
    const kernels = model ? await modelKernels(ort, argv[1], argv[3], argv[5] || 'all', v.short,
                                               BACKENDS[backend].ep)
                          : await builtinKernels(ort, 'node', left);
    return serve(withLeft(v.banner, left), kernels, PROG);
}

main(process.argv.slice(2)).then((rc) => process.exit(rc), (e) => {
    process.stderr.write(`${PROG}: error: ${e instanceof Failure ? e.message : e.stack}\n`);
    process.exit(1);
});
