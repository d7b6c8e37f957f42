'use strict';
// The kernels of scan:MODEL.onnx: for each GELU site and optimization level, a model of one
// input that computes what ORT runs there at that level, run with optimizations disabled so
// that nothing changes it:
//   - a fused operator (Gelu, BiasGelu, FastGelu, QuickGelu): the operator itself, its
//     attributes as in the optimized model, its bias an initializer of -0.0 of the bias's
//     real shape (x + -0.0 = x for every x, -0 included; a one-element zero bias would be
//     removed by ORT's optimizer, and BiasGelu turn into Gelu);
//   - a chain of nodes: the nodes, with their own constants (initializers, Constant nodes);
//   - a chain whose last nodes ORT folded into a neighbour (a x0.5 taken by FusedMatMul as
//     alpha): the model's whole chain, the folded nodes run separately (the note says so).
// Identical computations (twelve equal layers, a site unchanged across levels) share one
// kernel, named after the first site and level, SITE.LEVEL.
const { onnx } = require('onnx-proto');
const { num, scalar } = require('./patterns');
const { ELEM, fusedGraph, modelBytes } = require('./fused');

const TYPE = { f32: 'float32', f16: 'float16', f64: 'float64' };

// One-element float constants written one way, whatever way the model wrote them (raw bytes
// or typed fields, a Constant node, a float16 constant ORT cast to float), so that equal
// constants encode equally; the value is exactly the model's.
const CANON = {
    1: (name, dims, v) => ({ name, dims, dataType: 1, floatData: [v] }),
    11: (name, dims, v) => ({ name, dims, dataType: 11, doubleData: [v] }),
};

// Attributes that change nothing left out, so that equal computations encode equally (ORT
// writes the default approximate="none" of ai.onnx Gelu out at some levels and not others)
const attrs = (n) => n.attribute.filter((a) => !(n.opType === 'Gelu' && (!n.domain ||
    n.domain === 'ai.onnx') && a.name === 'approximate' && Buffer.from(a.s).toString() === 'none'));

// The nodes and constants of a chain (nodes of index g), in a canonical order (depth first
// from y, inputs in order) and renamed canonically: x, y, t0..., c0...; null with a reason when
// an input is neither x, a node of the chain nor a constant.
function chainGraph(g, nodes, x, y) {
    const names = new Map([[x, 'x'], [y, 'y']]), inits = [], consts = [], out = [];
    const byOutput = new Map(nodes.flatMap((n) => n.output.map((o) => [o, n])));
    const done = new Set();
    let why = null;
    const fresh = (p) => `${p}${names.size}`;
    const visit = (t) => { // t: a tensor the chain reads; returns its canonical name
        if (t === '' || t === x) return t === x ? 'x' : '';
        const n = byOutput.get(t);
        if (n) {
            if (!done.has(n)) {
                done.add(n);
                const input = n.input.map(visit);
                for (const o of n.output) if (!names.has(o)) names.set(o, fresh('t'));
                out.push({ opType: n.opType, domain: n.domain, attribute: attrs(n), input,
                           output: n.output.map((o) => names.get(o)) });
            }
            return names.get(t);
        }
        if (names.has(t)) return names.get(t);
        const p = g.prod(t), init = !p && g.graph.initializer.find((i) => i.name === t);
        if (p && p.opType === 'Cast' && (g.consts.has(p.input[0]) || g.prod(p.input[0]) &&
                                         g.prod(p.input[0]).opType === 'Constant')) {
            const to = p.attribute.find((a) => a.name === 'to'), v = g.value(t);
            if (v !== undefined && to && CANON[num(to.i)]) { // a scalar: folded, it is exact
                names.set(t, fresh('c'));
                inits.push(CANON[num(to.i)](names.get(t), [], v));
                return names.get(t);
            }
            byOutput.set(t, p); // a constant cast to the chain's type: part of the chain
            return visit(t);
        }
        const value = p && p.opType === 'Constant' && p.attribute.find((a) => a.name === 'value');
        if (p && p.opType === 'Constant' && !value) { // value_float and the like: kept as is
            names.set(t, fresh('c'));
            consts.push({ opType: 'Constant', input: [], output: [names.get(t)],
                          attribute: p.attribute });
        } else if (init || value) { // a Constant's tensor as an initializer, as ORT keeps it
            names.set(t, fresh('c'));
            const tensor = init || value.t, v = scalar(tensor);
            if (v !== undefined && CANON[tensor.dataType]) {
                inits.push(CANON[tensor.dataType](names.get(t), tensor.dims.map(num), v));
            } else {
                const { name: _, ...rest } = onnx.TensorProto.toObject(tensor);
                inits.push({ ...rest, name: names.get(t) });
            }
        } else {
            why = why || `'${t}' is neither the site's input nor a constant`;
            names.set(t, '?');
        }
        return names.get(t);
    };
    if (!byOutput.has(y)) return { why: `no node of the chain writes '${y}'` };
    visit(y);
    if (why) return { why };
    return { nodes: [...consts, ...out], inits, shape: ['N'] };
}

// A fused operator on x with a -0.0 bias of the real bias's shape (fused.js)
function opGraph(g, n, dtype) {
    let dims = null;
    if (n.input[1]) {
        const p = g.prod(n.input[1]); // a constant ORT casts to float: the dims are its
        const b = g.consts.get(n.input[1]) || (p && p.opType === 'Cast' && g.consts.get(p.input[0]));
        if (!b) return { why: `its bias '${n.input[1]}' is computed, not a constant` };
        dims = b.dims.map(num);
    }
    return fusedGraph({ opType: n.opType, domain: n.domain, attribute: attrs(n) }, dtype, dims);
}

// A kernel of opGraph (a fused operator in float) between a Cast of x to float and a Cast of
// its result back to dtype, as ORT runs an operator that has no kernel of the model's type
function castWrap(k, dtype) {
    if (k.why) return k;
    const node = k.nodes[0], cast = (input, output, to) => ({ opType: 'Cast', domain: '',
        input: [input], output: [output], attribute: [{ name: 'to', type: 2, i: to }] });
    return { ...k, nodes: [cast('x', 'xf', 1),
                          { ...node, input: node.input.map((i) => (i === 'x' ? 'xf' : i)),
                            output: ['yf'] },
                          cast('yf', 'y', ELEM[dtype])] };
}

// The kernels of a scan (scan.js): { list: [kernel], bySiteLevel: Map('SITE.LEVEL' -> name),
// skipped: [reason] }.  kernel: { name, func, dtype, type, shape, bytes, level, operator, notes,
// covers: ['SITE.LEVEL'] }
function siteKernels(result) {
    const byKey = new Map(), bySiteLevel = new Map(), list = [], skipped = [];
    for (const r of result.sites) {
        if (!r.s.func.startsWith('gelu')) continue; // SiLU and other x*sigmoid(ax): no GELU
        if (!TYPE[r.dtype]) {
            const why = `dtype ${r.dtype || 'unknown'} cannot be served`;
            skipped.push(`site ${r.name}: ${why}`);
            for (const level of result.levels) r.levels[level].why = why;
            continue;
        }
        for (const level of result.levels) {
            const t = r.levels[level], o = result.graphs[level];
            let k, note = '';
            if (t.casts) {
                // the Casts around the site; where ORT feeds the site a float the model never
                // rounds to the site's type, or passes its float result on, one made here:
                // the kernel's input and output have the site's type
                const castIn = t.casts.in || { opType: 'Cast', domain: '', input: [' x'],
                    output: [t.site.x], attribute: [{ name: 'to', type: 2, i: 1 }] };
                const castOut = t.casts.out || { opType: 'Cast', domain: '', input: [t.site.y],
                    output: [' y'], attribute: [{ name: 'to', type: 2, i: ELEM[r.dtype] }] };
                k = t.site.kind.endsWith('_chain')
                    ? chainGraph(o.g, [castIn, ...t.site.nodes, castOut], castIn.input[0],
                                 castOut.output[0])
                    : castWrap(opGraph(o.g, t.site.nodes[0], 'f32'), r.dtype);
                const never = [t.casts.in ? null : 'input', t.casts.out ? null : 'output']
                    .filter((w) => w);
                if (never.length) // rounded here, where ORT keeps them in float
                    note = `the kernel rounds its ${never.join(' and ')} to ${r.dtype}`;
                if (t.site.bias) note += `${note ? '; ' : ''}its bias is -0.0 here (x + -0.0 = x)`;
            } else if (t.site && t.site.kind.endsWith('_chain')) {
                k = chainGraph(o.g, t.site.nodes, t.site.x, t.site.y);
            } else if (t.site) {
                k = opGraph(o.g, t.site.nodes[0], r.dtype);
                if (t.site.bias) note = 'its bias is -0.0 here (x + -0.0 = x)';
            } else if (t.partial) {
                k = chainGraph(result.g, r.s.nodes, r.s.x, r.s.y);
                note = 'the kernel runs the folded node(s) as separate nodes after the chain';
            } else {
                k = { why: t.operator };
            }
            t.note = note;
            if (k.why) {
                t.why = k.why;
                skipped.push(`site ${r.name} at ${level}: ${k.why}`);
                continue;
            }
            // the opsets of the domains the kernel uses, as the model they come from has them
            const src = t.partial ? result.model : o.model, used = new Set(k.nodes.map((n) =>
                (n.domain === 'ai.onnx' ? '' : n.domain || '')));
            const opsets = src.opsetImport.filter((x) => used.has(x.domain || '')).map((x) => ({
                domain: x.domain, version: x.version }));
            const bytes = modelBytes(k, opsets, r.dtype), key = bytes.toString('base64');
            if (!byKey.has(key)) {
                const kernel = { name: `${r.name}.${level}`, func: r.s.func, dtype: r.dtype,
                                 type: TYPE[r.dtype], shape: k.shape, bytes, level,
                                 operator: t.operator, notes: new Set(), covers: [] };
                byKey.set(key, kernel);
                list.push(kernel);
            }
            const kernel = byKey.get(key);
            kernel.covers.push(`${r.name}.${level}`);
            if (t.partial) kernel.notes.add(`at ${r.name}, ${t.operator}: ${note}`);
            bySiteLevel.set(`${r.name}.${level}`, kernel.name);
        }
    }
    return { list, bySiteLevel, skipped };
}

module.exports = { siteKernels };
