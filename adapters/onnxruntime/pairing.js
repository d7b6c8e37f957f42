// The ONNX sites of a scan paired with the activations of the PyTorch module they were
// exported from (gelucheck scan --torch-module FILE.pt; docs/model-audit.md).  The module's
// activations come from the torch adapter (torch_adapter.py --activations, torch_sites.py):
// in evaluation order, each with its module path ('act1', 'enc', '' for the top module).
// torch.onnx.export names its nodes after that path ('/act1/Erf', '/enc/Erf', '/Erf'), so:
//   module path       the site's node is in the path of a named activation module (nn.GELU,
//                     a QuickGELU class), the only activation and the only site there
//   order in module   a functional call (F.gelu inside TransformerEncoderLayer, a written-out
//                     formula): the k-th site of the path with the k-th activation of it
//   order             a site whose node name has no module path (another exporter, an edited
//                     model): the k-th such site with the k-th activation left over
// Shapes are not compared: a saved TorchScript module keeps none.  What pairs with nothing
// is flagged; a pair whose formulas differ (the exact GELU exported as the tanh form) says so.
'use strict';
const { execSync } = require('child_process');
const { Failure, firstLine } = require('./session');

// runs cmd (a /bin/sh command that prints the activations' JSON), the document
function loadActivations(cmd, file) {
    let text;
    try {
        text = execSync(cmd, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
                               maxBuffer: 1 << 24 });
    } catch (e) {
        const err = String(e.stderr || ''), m = /error: (.*)/.exec(err);
        throw new Failure(m ? m[1] : `cannot list the activations of '${file}': ` +
                          `${firstLine(err || e)}`);
    }
    try {
        const doc = JSON.parse(text);
        if (!Array.isArray(doc.activations)) throw new Error('no activations');
        return doc;
    } catch (e) {
        throw new Failure(`the activations of '${file}' are not JSON: ${firstLine(e)}`);
    }
}

// '/act1/Erf' -> 'act1', '/enc/linear1/Mul' -> 'enc.linear1', '/Erf' -> '', 'Erf_3' -> null
function scopeOf(name) {
    if (!name || !name.startsWith('/')) return null;
    return name.split('/').slice(1, -1).join('.');
}

// sites: the scan's (result.sites); acts: the module's activations.  Each site gets
// r.torch = { act, by, changed } or null; returns { unpaired: [acts], counts }
function pairSites(sites, acts) {
    const used = new Set(), scoped = new Map();
    for (const r of sites) {
        r.torch = null;
        const sc = scopeOf(r.s.anchor.name);
        if (sc === null) continue;
        if (!scoped.has(sc)) scoped.set(sc, []);
        scoped.get(sc).push(r);
    }
    for (const [sc, rs] of scoped) {
        const as = acts.filter((a) => a.path === sc);
        const named = rs.length === 1 && as.length === 1 && as[0].named;
        for (let k = 0; k < Math.min(rs.length, as.length); k++) {
            rs[k].torch = { act: as[k], by: named ? 'module path' : 'order in module' };
            used.add(as[k].index);
        }
    }
    const rest = acts.filter((a) => !used.has(a.index));
    const bare = sites.filter((r) => scopeOf(r.s.anchor.name) === null);
    for (let k = 0; k < Math.min(bare.length, rest.length); k++) {
        bare[k].torch = { act: rest[k], by: 'order' };
        used.add(rest[k].index);
    }
    const counts = { 'module path': 0, 'order in module': 0, order: 0 };
    for (const r of sites) {
        if (!r.torch) continue;
        counts[r.torch.by]++;
        r.torch.changed = r.torch.act.func !== r.s.func;
    }
    return { unpaired: acts.filter((a) => !used.has(a.index)), counts };
}

function pairingText(result) {
    const t = result.torch, paired = result.sites.filter((r) => r.torch).length;
    const by = Object.entries(t.pairing.counts).filter(([, n]) => n)
        .map(([how, n]) => `${n} by ${how}`).join(', ');
    const changed = result.sites.filter((r) => r.torch && r.torch.changed).length;
    const lines = [`torch module '${t.doc.module}' (torch ${t.doc.torch}): ` +
        `${t.doc.activations.length} activation(s); ${paired} paired${by ? ` (${by})` : ''}; ` +
        `${result.sites.length - paired} site(s) and ${t.pairing.unpaired.length} ` +
        `activation(s) not paired; ${changed} formula(s) changed by the export`];
    for (const a of t.pairing.unpaired)
        lines.push(`  not paired: activation #${a.index} in '${a.path}' (${a.formula})`);
    return lines;
}

function siteText(r) {
    if (!r.torch) return '  torch     NOT PAIRED: no activation of the module matches this site';
    const a = r.torch.act;
    return `  torch     #${a.index} '${a.path}'${a.module_type ? ` (${a.module_type})` : ''}: ` +
        `${a.formula} [paired by ${r.torch.by}]` +
        `${r.torch.changed ? `; FORMULA CHANGED: ${a.func} in torch, ${r.s.func} in ONNX` : ''}`;
}

function siteJson(r) {
    if (!r.torch) return null;
    const a = r.torch.act;
    return { activation: a.index, path: a.path, module_type: a.module_type, op: a.op,
             func: a.func, formula: a.formula, paired_by: r.torch.by,
             formula_changed: r.torch.changed };
}

function pairingJson(result) {
    const t = result.torch, site = new Map();
    for (const r of result.sites) if (r.torch) site.set(r.torch.act.index, r.name);
    return { module: t.doc.module, version: t.doc.torch,
             activations: t.doc.activations.map((a) => ({ ...a, site: site.get(a.index) ||
                                                              null })),
             unpaired_sites: result.sites.filter((r) => !r.torch).map((r) => r.name),
             unpaired_activations: t.pairing.unpaired.map((a) => a.index) };
}

module.exports = { loadActivations, pairSites, scopeOf, pairingText, siteText, siteJson,
                   pairingJson };
