'use strict';
// gelucheck scan MODEL.onnx and the scan:MODEL.onnx adapter: the GELU-like sites of a model
// (patterns.js), what ONNX Runtime computes at each site at each graph optimization level (the
// optimized whole model, written out by ORT, read back, each site traced by its input and
// output tensors), and one kernel per distinct computation (sitekernel.js).
const fs = require('fs');
const { pairingJson, pairingText, siteJson, siteText } = require('./pairing');
const os = require('os');
const path = require('path');
const { onnx } = require('onnx-proto');
const { findSites, formula, num, DTYPE, isOnnx } = require('./patterns');
const { LEVELS, Failure, firstLine } = require('./session');

function readModel(file) {
    let bytes;
    try {
        bytes = fs.readFileSync(file);
    } catch (e) {
        throw new Failure(`cannot read model '${file}': ${e.code === 'ENOENT' ? 'no such file'
                                                                               : firstLine(e)}`);
    }
    try {
        const m = onnx.ModelProto.decode(bytes);
        if (!m.graph) throw new Error('no graph');
        return m;
    } catch (e) {
        throw new Failure(`cannot read model '${file}': not an ONNX model (${firstLine(e)})`);
    }
}

// The main graph with the nodes of every subgraph (the then/else branches of If, the bodies
// of Loop and Scan, at any depth) appended, as one graph: a site inside a subgraph is found,
// traced and made a kernel like any other (a subgraph reads the tensors of the graphs around
// it by name, and ONNX names each tensor once in a model).  where: Map(node -> 'the If node
// 'cond' (then_branch)') for the nodes of subgraphs; outer: Map(an If branch's output k -> the
// If's output k), the tensor it becomes when ORT inlines a branch whose condition is constant.
function flatGraph(graph) {
    const flat = { name: graph.name, node: [], initializer: [], input: [], valueInfo: [],
                   output: [] }, where = new Map(), outer = new Map();
    const visit = (gr, place) => {
        flat.initializer.push(...gr.initializer);
        flat.input.push(...gr.input);
        flat.valueInfo.push(...gr.valueInfo);
        flat.output.push(...gr.output);
        for (const n of gr.node) {
            flat.node.push(n);
            if (place) where.set(n, place);
            for (const a of n.attribute) {
                const subs = [...(a.g ? [a.g] : []), ...(a.graphs || [])];
                for (const sub of subs) {
                    if (n.opType === 'If' && isOnnx(n))
                        sub.output.forEach((o, k) => n.output[k] && outer.set(o.name, n.output[k]));
                    visit(sub, `${place ? `${place}, ` : ''}in the ${n.opType} node ` +
                          `'${n.name}' (${a.name})`);
                }
            }
        }
    };
    visit(graph, '');
    return { flat, where, outer };
}

// The optimized whole model at each level, as ORT writes it (SessionOptions
// optimizedModelFilePath), decoded; a level ORT cannot load gives { error }.
async function optimizedModels(ort, file, levels) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gelucheck-scan-')), out = {};
    try {
        for (const level of levels) {
            const f = path.join(dir, `${level}.onnx`);
            try {
                const s = await ort.InferenceSession.create(file, {
                    executionProviders: ['cpu'], graphOptimizationLevel: level,
                    intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 3,
                    optimizedModelFilePath: f });
                await s.release();
                out[level] = readModel(f);
            } catch (e) {
                out[level] = { error: e instanceof Failure ? e.message : firstLine(e) };
            }
        }
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
    return out;
}

// dtype of tensor t: its declared type, else a constant's of the site (Mul needs one type),
// else the type found walking back through first inputs
function dtypeOf(g, site, t) {
    const decl = new Map();
    for (const v of [...g.graph.input, ...g.graph.valueInfo, ...g.graph.output])
        if (v.type && v.type.tensorType) decl.set(v.name, v.type.tensorType);
    const known = (name) => (decl.has(name) ? DTYPE[decl.get(name).elemType]
        : g.consts.has(name) ? DTYPE[g.consts.get(name).dataType] : undefined);
    for (const n of [t, site.y, ...site.nodes.flatMap((n) => n.input)])
        if (known(n)) return known(n);
    for (let name = t, k = 0; name && k < 64; k++) {
        const p = g.prod(name);
        if (!p) break;
        if (p.opType === 'Cast') {
            const to = p.attribute.find((a) => a.name === 'to');
            return to ? DTYPE[num(to.i)] : undefined;
        }
        const typed = p.input.find(known);
        if (typed) return known(typed);
        name = p.input[0];
    }
    return undefined;
}

function shapeOf(g, t, bias) {
    const v = [...g.graph.input, ...g.graph.valueInfo, ...g.graph.output].find((x) => x.name === t);
    const dims = v && v.type && v.type.tensorType && v.type.tensorType.shape;
    if (dims) return `[${dims.dim.map((d) => (d.dimParam ? d.dimParam : num(d.dimValue)))
        .join(', ')}]`;
    const b = bias && g.consts.get(bias);
    return b ? `[..., ${b.dims.map(num).join(', ')}] (from the bias)` : null;
}

const OPNAME = { gelu_op: 'ai.onnx Gelu', ms_gelu: 'com.microsoft Gelu',
                 ms_fastgelu: 'com.microsoft FastGelu', ms_biasgelu: 'com.microsoft BiasGelu',
                 ms_quickgelu: 'com.microsoft QuickGelu' };

// What computes a site in one graph: the site found there, in words
function describe(t, x) {
    let op;
    if (OPNAME[t.kind]) {
        op = OPNAME[t.kind];
        if (t.kind === 'gelu_op') op += ` (approximate=${t.func === 'gelu' ? 'none' : 'tanh'})`;
        if (t.kind === 'ms_quickgelu') op += ` (alpha=${+t.alpha.toPrecision(7)})`;
    } else {
        op = `${t.kind.replace('_chain', '')} chain (${t.nodes.map((n) => n.opType).join(', ')})`;
    }
    if (t.bias && t.x !== x) op += ` taking the Add before it (input '${t.x}', bias '${t.bias}')`;
    else if (t.bias) op += ` (bias '${t.bias}')`;
    return op;
}

// y and the tensors Identity nodes copy it to (ORT removes an Identity and renames its input
// to the graph output it fed)
function aliases(g, y) {
    const out = [y];
    for (let k = 0; k < out.length; k++) {
        if (g.outer && g.outer.has(out[k]) && !out.includes(g.outer.get(out[k])))
            out.push(g.outer.get(out[k]));
        for (const n of g.uses(out[k]))
            if (n.opType === 'Identity' && (!n.domain || n.domain === 'ai.onnx')) out.push(n.output[0]);
    }
    return out;
}

// Traces site s of the original model (index g0) in the optimized graph o (its sites os): by
// its output tensor; when that is gone, by the last tensor of its chain that is left.
function trace(s, g0, o) {
    const ys = aliases(g0, s.y), t = o.sites.find((u) => ys.includes(u.y));
    if (t) return { operator: describe(t, s.x), nodes: t.nodes.map((n) => n.name), site: t };
    const p = ys.map((y) => o.g.prod(y)).find((n) => n);
    // float16 and bfloat16: with no kernels of that type, ORT runs the site in float between
    // two Casts, x -> Cast -> site -> Cast -> y
    const c = p && p.opType === 'Cast' && o.sites.find((u) => u.y === p.input[0]);
    if (c) {
        const ci = o.g.prod(c.x), inCast = ci && ci.opType === 'Cast' && ci.input[0] === s.x;
        return { operator: `${describe(c, s.x)}, in ${inCast ? '' : 'part '}float between Casts`,
                 nodes: [...(inCast ? [ci] : []), ...c.nodes, p].map((n) => n.name),
                 site: c, casts: { in: inCast ? ci : null, out: p } };
    }
    // float16: ORT inlines the function body of an operator that has no float16 kernel (a
    // com.microsoft Gelu becomes Mul, Erf, Add, Mul, Mul) and runs the node and its
    // neighbours in float, renaming each tensor T it made float InsertedPrecisionFreeCast_T
    // (its InsertCastTransformer): the site is there under that name, neither its input nor
    // its output rounded to the model's type
    const fl = o.sites.find((u) => ys.includes(u.y.replace(/^InsertedPrecisionFreeCast_/, '')));
    if (fl && fl.y !== s.y && fl.y.startsWith('InsertedPrecisionFreeCast_')) {
        return { operator: `${describe(fl, `InsertedPrecisionFreeCast_${s.x}`)}, run in ` +
                           'float with its neighbours (input and output never rounded to the ' +
                           'model\'s type)', nodes: fl.nodes.map((n) => n.name), site: fl,
                 casts: { in: null, out: null } };
    }
    if (p) return { operator: `${p.domain || 'ai.onnx'} ${p.opType} (no GELU pattern)`,
                    nodes: [p.name] };
    for (let k = s.nodes.length - 1; k >= 0; k--) {
        const m = s.nodes[k].output[0];
        if (!o.g.prod(m)) continue;
        const rest = s.nodes.slice(k + 1).map((n) => n.opType).join(', ');
        const users = o.g.uses(m).map((n) => {
            const a = n.attribute.find((x) => x.name === 'alpha');
            return `${n.domain || 'ai.onnx'} ${n.opType} '${n.name}'${a ? ` (alpha=${a.f})` : ''}`;
        });
        return { operator: `${describe(s, s.x).replace(/ \(.*/, '')} up to '${m}'; ` +
                 `its last ${s.nodes.length - k - 1} node(s) (${rest}) folded into ` +
                 `${users.join(', ') || 'nothing'}`,
                 nodes: s.nodes.slice(0, k + 1).map((n) => n.name), partial: { upTo: m, users } };
    }
    return { operator: 'not found in the optimized model', nodes: [] };
}

function cleanName(name, used) {
    let base = (name || 'site').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100);
    if (base[0] === '.') base = `_${base.slice(1)}`;
    let n = base;
    for (let k = 2; used.has(n); k++) n = `${base}_${k}`;
    used.add(n);
    return n;
}

// The scan: { model, sites: [{ name, site, g, dtype, shape, levels: {level: trace} }] }
async function scan(ort, file, levels = LEVELS) {
    const model = readModel(file), { flat, where, outer } = flatGraph(model.graph);
    const { g, sites } = findSites(flat);
    g.outer = outer;
    const opt = await optimizedModels(ort, file, levels), graphs = {};
    for (const level of levels)
        graphs[level] = opt[level].error ? opt[level] : { model: opt[level],
                                                          ...findSites(flatGraph(
                                                              opt[level].graph).flat) };
    const used = new Set();
    const out = sites.map((s, k) => {
        const name = cleanName(s.anchor.name || `${s.anchor.opType}_${k}`, used);
        const r = { name, s, dtype: dtypeOf(g, s, s.x), shape: shapeOf(g, s.x, s.bias),
                    where: where.get(s.anchor), levels: {} };
        for (const level of levels)
            r.levels[level] = graphs[level].error ? { operator: `ORT cannot load the model at ` +
                `this level: ${graphs[level].error}`, nodes: [] } : trace(s, g, graphs[level]);
        return r;
    });
    return { model, g, graphs, levels, sites: out };
}

// The scan as JSON (gelucheck-scan/1) and as text
// web: { runs, optimizer }: the kernels run on onnxruntime-web, the optimizer's choices are
// the native build's (the web build cannot write its optimized model in Node)
function toJson(file, version, result, kernels, web) {
    return {
        schema: 'gelucheck-scan/1', model: file, runtime: version,
        ...(web ? { kernels_runtime: web.runs, optimizer: web.optimizer } : {}),
        levels: result.levels,
        ...(result.torch ? { torch: pairingJson(result) } : {}),
        sites: result.sites.map((r) => ({
            site: r.name, kind: r.s.kind, func: r.s.func, formula: formula(r.s),
            ...(r.s.alpha !== undefined ? { alpha: r.s.alpha } : {}),
            nodes: r.s.nodes.map((n) => n.name), input: r.s.x, output: r.s.y,
            ...(r.where ? { subgraph: r.where } : {}),
            dtype: r.dtype || null, shape: r.shape,
            levels: Object.fromEntries(Object.entries(r.levels).map(([l, t]) => [l, {
                operator: t.operator, nodes: t.nodes, ...(t.note ? { note: t.note } : {}),
                ...(t.why && r.s.func.startsWith('gelu') ? { no_kernel: t.why } : {}),
                kernel: kernels ? kernels.bySiteLevel.get(`${r.name}.${l}`) || null : null }])),
            ...(result.torch ? { torch: siteJson(r) } : {}),
        })),
    };
}

function toText(file, version, result, kernels, web) {
    const n = result.sites.length, gelus = result.sites.filter((r) => r.s.func.startsWith('gelu'));
    const lines = [`model '${file}': ${n} GELU-like site${n === 1 ? '' : 's'} (` +
                   `${gelus.length} GELU, ${n - gelus.length} other); ${version}`];
    if (web) lines.push(`kernels run on ${web.runs}; ${web.optimizer}`);
    if (result.torch) lines.push(...pairingText(result));
    for (const r of result.sites) {
        const alpha = r.s.alpha !== undefined ? `, alpha ${+r.s.alpha.toPrecision(7)}` : '';
        lines.push('', `site ${r.name}: ${r.s.func}${alpha}, ${r.dtype || 'dtype unknown'} ` +
                   `${r.shape || 'shape unknown'}: ${formula(r.s)}`,
                   `  nodes: ${r.s.nodes.map((x) => `'${x.name}'`).join(', ')}` +
                   `${r.where ? `, ${r.where}` : ''}`,
                   `  input '${r.s.x}', output '${r.s.y}'`);
        for (const [level, t] of Object.entries(r.levels)) {
            const k = kernels && kernels.bySiteLevel.get(`${r.name}.${level}`);
            lines.push(`  ${level.padEnd(9)} ${t.operator}${k ? `  [kernel ${k}]` : ''}`);
            if (t.note && t.partial) lines.push(`  ${''.padEnd(9)} (${t.note})`);
        }
        if (result.torch) lines.push(siteText(r));
    }
    return `${lines.join('\n')}\n`;
}

module.exports = { scan, readModel, toJson, toText };
