#!/usr/bin/python3
"""PyTorch's GELU (torch.nn.functional.gelu) and its autograd backward on the CPU, served over
gelucheck's subprocess protocol (docs/design.md section 5.2).  Run it with the Python that has torch
(Debian 12: /usr/bin/python3, python3-torch 1.13.1):
    gelucheck run --adapter torch              (configure found it)
    gelucheck run --adapter 'exec:/usr/bin/python3 adapters/torch/torch_adapter.py'
A user's module saved as TorchScript (torch.jit.save), forward(x) elementwise, as one kernel
(docs/conversion-audit.md):
    gelucheck run --adapter 'exec:/usr/bin/python3 adapters/torch/torch_adapter.py
                             --module m.pt --func gelu [--dtype f32|bf16]'

What PyTorch claims (docs 1.13, torch.nn.functional.gelu and torch.nn.GELU):
    approximate='none': GELU(x) = x * Phi(x), Phi the CDF of the standard normal distribution;
    approximate='tanh': GELU(x) = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).
No accuracy bound is documented.  The "Numerical accuracy" note (docs/notes/numerical_accuracy)
says bitwise identical results are not guaranteed across releases or platforms, and that a
batched or sliced computation need not give the bits of the same computation on one element.

What torch 1.13 does on the CPU (aten/src/ATen/native/Activation.cpp, gelu_out_cpu and
gelu_backward_out_cpu; confirmed with ONEDNN_VERBOSE=1): with approximate='none', a float32
tensor, or a bfloat16 one on a CPU with avx512bw/vl/dq (mkldnn_bf16_device_check), that is
contiguous with numel > 1 goes to oneDNN's eltwise_gelu_erf (forward and backward) unless
torch.backends.mkldnn is disabled; everything else goes to ATen's GeluKernel: x * 0.5 *
(1 + erf(x * M_SQRT1_2)) with the vectorized erf of Abramowitz-Stegun 7.1.26
(aten/src/ATen/cpu/vec/vec256/vec256_float.h) on whole vectors and std::erf / std::tanh on the
scalar tail, so bits depend on the batch length.  oneDNN 2.x (src/cpu/x64/injectors/
jit_uni_eltwise_injector.cpp) uses the same A&S erf = 1 - r*t*exp(-x^2) but returns S + S*erf
with S = (x/sqrt2)/sqrt2 (so -0 and the negative tail give +0) and differentiates as
0.5 + x/sqrt(2pi)*exp(-x^2/2) + 0.5*erf.  bfloat16 in ATen rounds each intermediate to
bfloat16 (x = 1 gives 0x3f58, one position above RN(GELU(1)) = 0x3f57); oneDNN computes in
float and rounds once.  float16 raises "GeluKernelImpl not implemented for 'Half'": left out.
Hence the kernels NAME.DTYPE (default flags) and NAME.DTYPE.nomkldnn (oneDNN off) for the erf
form; the tanh form never reaches oneDNN (checked at start-up: same bits), so one kernel each.

The host starts one process per thread, and importing torch takes about 1.5 s: torch runs
with one thread here (torch.set_num_threads(1)), the host parallelises.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), '..', 'python'))
import gelucheck_exec as gx  # pylint: disable=wrong-import-position -- the protocol (5.2)
PROBE = [-40.0, -9.0, -6.0, -5.5, -3.0, -2.25, -1.0, -0.75, -0.5, -1e-3, 0.0, 1e-3, 0.5, 1.0,
         3.0, 6.0]  # start-up probe: does the dtype run, do the mkldnn flags change bits?

# func -> (F.gelu approximate, backward?, formula for the description)
FUNCS = {
    'gelu': ('none', False, "F.gelu(x, approximate='none') = x*Phi(x) = 0.5*x*(1+erf(x/sqrt2))"),
    'gelu_tanh': ('tanh', False, "F.gelu(x, approximate='tanh') = "
                  "0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))"),
    'gelu_grad': ('none', True, "d/dx of F.gelu(x, approximate='none') by autograd "
                  "(grad_output = ones) = Phi(x) + x*phi(x)"),
    'gelu_tanh_grad': ('tanh', True, "d/dx of F.gelu(x, approximate='tanh') by autograd "
                       "(grad_output = ones)"),
}
TORCH_NAMES = {'f32': 'float32', 'bf16': 'bfloat16', 'f16': 'float16'}


def log(message):
    print('torch_adapter.py: ' + message, file=sys.stderr, flush=True)


class Kernel:
    def __init__(self, name, func, dtype, approximate, grad, mkldnn, description, module=None):
        self.name, self.func, self.dtype = name, func, dtype
        self.approximate, self.grad, self.mkldnn = approximate, grad, mkldnn
        self.description = description
        self.module = module  # --module: a TorchScript module whose forward is the kernel


class Torch:
    """torch, imported once; the dtype table and the evaluation of one kernel on x bits."""

    def __init__(self):
        import numpy
        import torch
        import torch.nn.functional
        self.np, self.torch, self.F = numpy, torch, torch.nn.functional
        torch.set_num_threads(1)
        # gelucheck dtype -> (torch dtype, numpy little-endian bits type, integer view dtype)
        self.dtypes = {'f32': (torch.float32, '<i4', torch.int32),
                       'bf16': (torch.bfloat16, '<i2', torch.int16),
                       'f16': (torch.float16, '<i2', torch.int16)}

    def apply(self, x, k):
        """F.gelu (or its autograd derivative) of tensor x under k's mkldnn setting."""
        torch = self.torch
        with torch.backends.mkldnn.flags(enabled=k.mkldnn):
            if k.module is not None:
                with torch.no_grad():
                    y = k.module(x)
                if not isinstance(y, torch.Tensor) or y.shape != x.shape or \
                        y.dtype != x.dtype:
                    raise RuntimeError('the module returned %s, not a tensor of the input\'s '
                                       'shape and dtype' % (
                                           '%s %s' % (tuple(y.shape), y.dtype)
                                           if isinstance(y, torch.Tensor) else type(y).__name__))
                return y
            if not k.grad:
                with torch.no_grad():
                    return self.F.gelu(x, approximate=k.approximate)
            x = x.detach().requires_grad_(True)
            y = self.F.gelu(x, approximate=k.approximate)
            g, = torch.autograd.grad(y, x, torch.ones_like(y))
            return g

    def eval_bits(self, k, data):
        """y bits (little-endian bytes) for x bits (little-endian bytes) of k's dtype.  The bits
        travel through integer views: bf16/f16 are never rounded through float."""
        tdt, bits, idt = self.dtypes[k.dtype]
        np = self.np
        x = self.torch.from_numpy(np.frombuffer(data, dtype=bits).astype(bits[1:])).view(idt)
        y = self.apply(x.view(tdt), k)
        return y.contiguous().view(idt).numpy().astype(bits).tobytes()

    def tensor(self, values, dtype):
        return self.torch.tensor(values, dtype=self.dtypes[dtype][0])

    def same_bits(self, a, b, dtype):
        idt = self.dtypes[dtype][2]
        return bool(self.torch.equal(a.view(idt), b.view(idt)))


def debian_version(torch):
    """The Debian package's version (its torch.__version__ says 1.13.0a0), else ''."""
    if not torch.__file__.startswith('/usr/lib/python3/dist-packages/'):
        return ''
    try:
        import gzip
        with gzip.open('/usr/share/doc/python3-torch/changelog.Debian.gz', 'rt') as f:
            first = f.readline()  # "pytorch (1.13.1+dfsg-4) unstable; urgency=medium"
        return first.split('(', 1)[1].split(')', 1)[0]
    except (OSError, IndexError, EOFError):
        return ''


def cpu_capability(torch):
    """ATen's vector ISA: 1.13 has no torch.backends.cpu.get_cpu_capability()."""
    get = getattr(getattr(torch.backends, 'cpu', None), 'get_cpu_capability', None)
    if get is not None:
        return get()
    for line in torch.__config__.show().splitlines():
        if 'CPU capability usage:' in line:
            return line.split(':', 1)[1].strip()
    return 'unknown'


def onednn_version(torch):
    for line in torch.__config__.show().splitlines():
        if 'MKL-DNN' in line or 'oneDNN' in line:  # "Intel(R) MKL-DNN v2.6.3 (Git Hash N/A)"
            version = line.split('DNN', 1)[1].split('(')[0].strip()
            return 'oneDNN ' + version
    return 'oneDNN'


def make_kernels(t):
    """The kernels this torch runs, each found by trying it on PROBE; what raises is left out
    (noted on stderr)."""
    torch = t.torch
    debian = debian_version(torch)
    where = 'torch %s%s, CPU, ATen capability %s, 1 thread' % (
        torch.__version__, ' (Debian %s)' % debian if debian else '', cpu_capability(torch))
    has_mkldnn = torch.backends.mkldnn.is_available()
    dnnl = onednn_version(torch)
    kernels = []
    for dtype in ('f32', 'bf16', 'f16'):
        for func, (approximate, grad, formula) in FUNCS.items():
            name = '%s.%s' % (func, dtype)
            on = Kernel(name, func, dtype, approximate, grad, True, '')
            off = Kernel(name + '.nomkldnn', func, dtype, approximate, grad, False, '')
            x = t.tensor(PROBE, dtype)
            try:
                y_on, y_off = t.apply(x, on), t.apply(x, off)
            except RuntimeError as e:
                log('%s left out: %s' % (name, str(e).splitlines()[0]))
                continue
            head = '%s, %s; %s' % (formula, TORCH_NAMES[dtype], where)
            differ = not t.same_bits(y_on, y_off, dtype)
            if approximate == 'none' and has_mkldnn:
                on.description = '%s; mkldnn enabled (default): %s when contiguous with ' \
                    'numel > 1, else ATen GeluKernel%s' % (
                        head, dnnl + ' eltwise_gelu_erf',
                        '' if differ else ' (on this CPU the bits equal .nomkldnn: oneDNN '
                        'not used for this dtype)')
                off.description = '%s; torch.backends.mkldnn.flags(enabled=False): ATen ' \
                    'GeluKernel (vectorized erf on whole vectors, std::erf on the tail%s)' % (
                        head, '; bfloat16 intermediates' if dtype != 'f32' else '')
                kernels += [on, off]
            else:
                if differ:  # torch 1.13 never sends the tanh form to oneDNN: report a change
                    log('%s: mkldnn flags change the bits; serving the default' % name)
                on.description = '%s; ATen GeluKernel (oneDNN %s)' % (
                    head, 'not used for this form' if has_mkldnn else 'not built in')
                kernels.append(on)
    return kernels, version_line(torch)


def version_line(torch):
    debian = debian_version(torch)
    return 'torch %s (%sPython %s)' % (torch.__version__, 'Debian %s, ' % debian if debian else '',
                                       sys.version.split()[0])


MODULE_USAGE = 'usage: torch_adapter.py [--module FILE.pt --func F [--dtype f32|bf16]]'
MODULE_FUNCS = ('gelu', 'gelu_tanh', 'gelu_sigmoid', 'gelu_grad', 'gelu_tanh_grad', 'normcdf',
                'normpdf', 'erf', 'erfc')


def module_options(argv):
    """(path, func, dtype) of --module, None without it; ValueError on a bad command line."""
    if not argv:
        return None
    opts = dict(zip(argv[::2], argv[1::2]))
    if len(argv) % 2 or set(opts) - {'--module', '--func', '--dtype'} or \
            '--module' not in opts or len(opts) != len(argv) // 2:
        raise ValueError(MODULE_USAGE)
    func, dtype = opts.get('--func', 'gelu'), opts.get('--dtype', 'f32')
    if func not in MODULE_FUNCS:
        raise ValueError('unknown --func %r (one of: %s)' % (func, ', '.join(MODULE_FUNCS)))
    if dtype not in ('f32', 'bf16'):
        raise ValueError('unknown --dtype %r (one of: f32, bf16)' % dtype)
    return opts['--module'], func, dtype


def module_kernel(t, path, func, dtype):
    """The one kernel of --module: the TorchScript module at path, its forward(x)."""
    torch = t.torch
    try:
        module = torch.jit.load(path, map_location='cpu').eval()
    except (RuntimeError, OSError, ValueError) as e:
        raise ValueError('cannot load TorchScript module %r: %s'
                         % (path, str(e).strip().splitlines()[0][:200])) from e
    base = os.path.basename(path)
    stem = ''.join(c if c.isalnum() or c in '_.-' else '_' for c in base.rsplit('.', 1)[0])
    k = Kernel('%s.%s' % (stem or 'module', dtype), func, dtype, None, False, True, '', module)
    try:
        t.apply(t.tensor(PROBE, dtype), k)
    except RuntimeError as e:
        raise ValueError('module %r fails on a %s vector: %s'
                         % (path, TORCH_NAMES[dtype], str(e).strip().splitlines()[0][:200]))
    k.description = 'TorchScript module %s, forward(x), %s; torch %s, CPU, 1 thread' % (
        base, TORCH_NAMES[dtype], torch.__version__)
    return k


def pair_kernels(t, path):
    """--pairs FILE.pt: one kernel per GELU activation of the module (torch_sites.py), computing
    what PyTorch computes there, for gelucheck run --torch-module (docs/model-audit.md): a named
    activation module (nn.GELU, a QuickGELU class) is called itself, its own traced forward; an
    inlined F.gelu is the same aten::gelu with the same approximate; a formula written out
    inside a bigger module is written out again here in its usual order (the module's own
    order of operations is not extracted from the graph).  Named a<INDEX>.<PATH> ('top' for the
    top module), dtype the module's (its first floating parameter's; f32 without one)."""
    import math
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch_sites  # pylint: disable=import-outside-toplevel
    torch, F = t.torch, t.F
    try:
        module = torch.jit.load(path, map_location='cpu').eval()
    except (RuntimeError, OSError, ValueError) as e:
        raise ValueError('cannot load TorchScript module %r: %s'
                         % (path, str(e).strip().splitlines()[0][:200])) from e
    tdt = next((p.dtype for p in module.parameters() if p.is_floating_point()), torch.float32)
    dtype = {torch.float32: 'f32', torch.bfloat16: 'bf16', torch.float16: 'f16'}.get(tdt)
    if dtype is None:
        raise ValueError('module %r: its parameters are %s, not float32, bfloat16 or float16'
                         % (path, tdt))
    base, kernels = os.path.basename(path), []
    for a in torch_sites.activations(module):
        if not a['func'].startswith('gelu'):
            continue
        where = "'%s'" % a['path'] if a['path'] else 'the top module'
        fwd = "'%s'.forward" % a['path'] if a['path'] else "the top module's forward"
        clean = ''.join(c if c.isalnum() or c in '_.-' else '_' for c in a['path'])
        name = 'a%d.%s' % (a['index'], clean or 'top')
        if a['named']:
            fn = torch_sites.submodule(module, a['path'])
            how = 'the submodule %s (%s) of %s called directly (its own traced forward)' % (
                where, a['module_type'], base)
        elif a['op'] == 'aten::gelu':
            fn = (lambda ap: lambda x: F.gelu(x, approximate=ap))(a['approximate'])
            how = "F.gelu(x, approximate='%s'): the aten::gelu call inlined in %s of " \
                  '%s, with its arguments' % (a['approximate'], fwd, base)
        elif a['func'] == 'gelu':
            fn = lambda x: x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))
            how = 'x*0.5*(1+erf(x/sqrt(2))) written out again in that order (the module %s ' \
                  'writes it out in %s; its own order is not extracted)' % (base, fwd)
        elif a['func'] == 'gelu_tanh':
            c = math.sqrt(2.0 / math.pi)
            fn = lambda x: 0.5 * x * (1.0 + torch.tanh(c * (x + 0.044715 * x * x * x)))
            how = '0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x*x*x))) written out again in that ' \
                  'order (written out in %s of %s; its own order is not extracted)' % (
                      fwd, base)
        else:
            al = a.get('alpha', 1.702)
            fn = (lambda al: lambda x: x * torch.sigmoid(al * x))(al)
            how = 'x*sigmoid(%.7g*x) written out again (written out in %s of %s)' % (
                al, fwd, base)
        k = Kernel(name, a['func'], dtype, None, False, True, '', fn)
        try:
            t.apply(t.tensor(PROBE, dtype), k)
        except RuntimeError as e:
            log('note: activation #%d (%s) left out: it fails on a %s vector: %s' % (
                a['index'], where, TORCH_NAMES[dtype], str(e).strip().splitlines()[0][:200]))
            continue
        k.description = 'PyTorch activation #%d in %s: %s; %s; torch %s, CPU, 1 thread' % (
            a['index'], where, a['formula'], how, torch.__version__)
        kernels.append(k)
    if not kernels:
        raise ValueError('module %r has no GELU activation to measure' % path)
    stem = ''.join(c if c.isalnum() or c in '_.-' else '_' for c in base.rsplit('.', 1)[0])
    return kernels, stem.lstrip('.') or 'module'


def print_activations(out, path):
    """--activations FILE.pt: the module's GELU activations as JSON (torch_sites.py), for
    gelucheck scan --torch-module; 1 with 'error: WHY' on stderr when it cannot be read."""
    try:
        import torch  # pylint: disable=import-outside-toplevel
        sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
        import torch_sites  # pylint: disable=import-outside-toplevel
        doc = torch_sites.describe(torch, path)
    except ImportError as e:
        log('error: cannot import torch: %s' % e)
        return 1
    except (RuntimeError, OSError, ValueError) as e:
        log('error: cannot load TorchScript module %r: %s'
            % (path, (str(e).strip().splitlines() or [''])[0][:200]))
        return 1
    gx.send(out, (json.dumps(doc) + '\n').encode('ascii', 'replace'))
    return 0


def main():
    out = gx.private_stdout()
    os.environ.setdefault('OMP_NUM_THREADS', '1')  # before the import starts OpenMP's pool
    if len(sys.argv) == 3 and sys.argv[1] == '--activations':
        return print_activations(out, sys.argv[2])
    name = None
    try:
        if len(sys.argv) == 3 and sys.argv[1] == '--pairs':
            t = Torch()
            kernels, name = pair_kernels(t, sys.argv[2])
            version = version_line(t.torch)
            module = ()
        else:
            module = module_options(sys.argv[1:])
            t = Torch()
        if module == ():
            pass
        elif module is None:
            kernels, version = make_kernels(t)
        else:
            kernels, version = [module_kernel(t, *module)], version_line(t.torch)
    except ImportError as e:
        log('cannot import torch: %s' % e)
        return 1
    except ValueError as e:
        log('error: %s' % e)
        return 1
    head = ['gelucheck-exec 1', 'version ' + version]
    if name:  # --pairs: the adapter is the module's activations, STEM.torch
        head.append('name %s.torch' % name)
    return gx.serve(out, head, kernels, t.eval_bits, log)


if __name__ == '__main__':
    sys.exit(main())
