"""The GELU activations of a TorchScript module, in evaluation order, with the module path
each runs in: what `gelucheck scan MODEL.onnx --torch-module FILE.pt` pairs the ONNX sites
with (docs/model-audit.md).  torch_adapter.py --activations FILE.pt prints them as JSON.

What is found, walking forward() and the forward() of every submodule it calls (a traced
module, torch.jit.trace, keeps one method per submodule; its path is the attribute chain,
e.g. 'act1' or 'enc', the module path torch.onnx.export puts in its node names, '/act1/Erf'):
  aten::gelu                          F.gelu / nn.GELU, with its approximate ('none', 'tanh')
  aten::erf                           an erf decomposition, x*0.5*(1+erf(x/sqrt2)) written out
  aten::tanh near a 0.044715 constant the tanh decomposition written out
  aten::sigmoid(aten::mul(x, a))      x*sigmoid(a*x): QuickGELU (a = 1.702)
  aten::silu, x*sigmoid(x)            SiLU: listed (the scan lists it), not a GELU
No shapes: a saved TorchScript graph keeps none (the trace's example input is not stored).
"""

TANH_C = 0.044715

def _const(v):
    """The constant value of v (a prim::Constant's), else None."""
    n = v.node()
    if n.kind() != 'prim::Constant':
        return None
    try:
        c = v.toIValue()
    except RuntimeError:
        return None
    if hasattr(c, 'numel'):  # a traced scalar is a one-element tensor constant
        return float(c.reshape(-1)[0]) if c.numel() == 1 and c.is_floating_point() else None
    return c

def _ancestors(v, depth):
    """The nodes producing v, up to depth steps back."""
    seen, todo, out = set(), [(v, 0)], []
    while todo:
        w, d = todo.pop()
        n = w.node()
        if id(n) in seen or d > depth:
            continue
        seen.add(id(n))
        out.append(n)
        todo.extend((i, d + 1) for i in n.inputs())
    return out

def _classify(n):
    """(func, formula, extra) for a node that is an activation, else None."""
    k = n.kind()
    if k == 'aten::gelu':
        ins = list(n.inputs())
        approx = _const(ins[1]) if len(ins) > 1 else 'none'
        approx = approx if isinstance(approx, str) else 'none'
        if approx == 'tanh':
            return 'gelu_tanh', "F.gelu(x, approximate='tanh')", {'approximate': 'tanh'}
        return 'gelu', "F.gelu(x) (approximate='none')", {'approximate': 'none'}
    if k == 'aten::erf':
        return 'gelu', 'x*0.5*(1+erf(x/sqrt(2))) written out (aten::erf)', {}
    if k == 'aten::tanh':
        for a in _ancestors(n.input(), 6):
            if a.kind() == 'aten::pow' or (a.kind() == 'prim::Constant' and isinstance(
                    _const(a.output()), float) and abs(_const(a.output()) - TANH_C) < 1e-6):
                return 'gelu_tanh', '0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3))) written ' \
                                    'out (aten::tanh)', {}
        return None
    if k == 'aten::silu':
        return 'silu', 'F.silu(x) (aten::silu)', {}
    if k == 'aten::sigmoid':
        src = n.input().node()
        if src.kind() == 'aten::mul':
            for i in src.inputs():
                c = _const(i)
                if isinstance(c, (int, float)) and not isinstance(c, bool):
                    alpha = float('%.7g' % c)
                    func = 'silu' if alpha == 1.0 else 'gelu_sigmoid'
                    return func, 'x*sigmoid(%.7g*x) written out (aten::sigmoid)' % alpha, \
                        {'alpha': alpha}
            return None
        # x*sigmoid(x): its input is also a factor of a mul of its output
        for use in n.output().uses():
            u = use.user
            if u.kind() == 'aten::mul' and any(i is n.input() or i.debugName() ==
                                               n.input().debugName() for i in u.inputs()):
                return 'silu', 'x*sigmoid(x) written out (aten::sigmoid)', {'alpha': 1.0}
    return None

def submodule(root, path):
    """The submodule of root at path ('enc.linear1'; '' the root)."""
    m = root
    for p in path.split('.') if path else []:
        m = getattr(m, p)
    return m

def _type_name(m):
    """The Python class of a scripted submodule, e.g. 'torch.nn.modules.activation.GELU'."""
    try:
        name = m._c._type().name()  # pylint: disable=protected-access
    except (AttributeError, RuntimeError):
        return ''
    return name.replace('__torch__.', '').split('___torch_mangle')[0].rstrip('.')

def _walk(root, graph, path, out):
    where = {}  # debugName of a module-valued value -> its path
    ins = list(graph.inputs())
    if ins:
        where[ins[0].debugName()] = path
    for n in graph.nodes():
        k = n.kind()
        if k == 'prim::GetAttr':
            base = where.get(n.input().debugName())
            if base is not None and n.output().type().kind() == 'ClassType':
                name = n.s('name')
                where[n.output().debugName()] = '%s.%s' % (base, name) if base else name
        elif k == 'prim::CallMethod':
            sub = where.get(next(n.inputs()).debugName())
            if sub is not None:
                m = submodule(root, sub)
                _walk(root, getattr(m, n.s('name')).graph, sub, out)
        else:
            c = _classify(n)
            if c:
                func, formula, extra = c
                m = submodule(root, path)
                ty = _type_name(m)
                own = k in ('aten::gelu', 'aten::silu') and ty.split('.')[-1] in (
                    'GELU', 'SiLU') or (path and len([x for x in m.graph.nodes() if
                                                       _classify(x)]) == 1 and
                                        not list(m.children()))
                out.append(dict(index=len(out), path=path, module_type=ty.split('.')[-1],
                                op=k, func=func, formula=formula,
                                # a module that is the activation (nn.GELU, a QuickGELU
                                # class): named; a call inside a bigger module: functional
                                named=bool(own), **extra))

def activations(module):
    """The activations of a loaded TorchScript module, in evaluation order."""
    out = []
    _walk(module, module.graph, '', out)
    return out

def describe(torch, path):
    """The JSON document torch_adapter.py --activations prints."""
    module = torch.jit.load(path, map_location='cpu').eval()
    acts = activations(module)
    return {'module': path, 'torch': torch.__version__,
            'gelus': sum(1 for a in acts if a['func'].startswith('gelu')),
            'activations': acts}
