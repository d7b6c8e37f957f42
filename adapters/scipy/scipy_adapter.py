#!/usr/bin/python3
"""SciPy's error functions and normal CDF, and GELU written on them as NumPy code, served over
gelucheck's subprocess protocol (docs/design.md section 5.2).  Run it with the Python that has
scipy and numpy (Debian 12: /usr/bin/python3, python3-scipy 1.10.1, python3-numpy 1.24.2):
    gelucheck run --adapter scipy              (configure found it)
    gelucheck run --adapter 'exec:/usr/bin/python3 adapters/scipy/scipy_adapter.py'

The kernels, DT = f32 (float32 arrays) and f64 (float64 arrays), each one line of NumPy as
people write it, with `from scipy.special import erf, erfc, ndtr` and `import numpy as np`:
    erf.DT         erf(x)
    erfc.DT        erfc(x)
    ndtr.DT        ndtr(x)                                    (normcdf)
    gelu_ndtr.DT   x * ndtr(x)
    gelu_erf.DT    0.5 * x * (1 + erf(x / np.sqrt(2)))
    gelu_erfc.DT   0.5 * x * erfc(-x / np.sqrt(2))

What SciPy claims.  The scipy.special reference (1.10) documents erf, erfc and ndtr without an
accuracy bound; their float64 code is Cephes (scipy/special/cephes/ndtr.c), whose comments
give the peak relative error measured on a test range ("ACCURACY", 30000 trials each): erf
3.7e-16 on [0, 1], erfc 5.7e-14 on [0, 26.6417], ndtr 3.4e-14 on [-13, 0].  The code: ndtr(x)
= 0.5 + 0.5*erf(x*M_SQRT1_2) for |x| < 1, else 0.5*erfc(|x|*M_SQRT1_2) (1 minus it for x > 0);
erfc(x) = 0 once x*x > MAXLOG (709.78; "erfc underflow", x > 26.64, where erfc is still a
subnormal) and 1 - erf(x) for |x| < 1; erf(x) = 1 - erfc(x) for |x| > 1.
float32 arrays run the ufuncs' 'f->f' loops; the start-up probe checks whether
they give the double function's result rounded to float32 (SciPy's generated loops cast to
double and back) and the descriptions say what it found.

What NumPy does with the scalars.  NumPy 1.24 promotes by value: a Python float (0.5), a Python
int (1) or a NumPy float64 scalar (np.sqrt(2)) combined with a float32 array gives float32, so
the float32 forms compute every step in float32 (x / np.sqrt(2) divides by float32(sqrt 2)).
NumPy 2 (NEP 50) would make x / np.sqrt(2) float64.  The start-up probe reads the result dtype
of each form on a float32 array and the descriptions say it; a result that is not of the input's
dtype is cast back with astype (and the description says so).  Floating-point warnings are
silenced (np.seterr(all='ignore')): -inf * 0 gives NaN quietly, as in most user code.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), '..', 'python'))
import gelucheck_exec as gx  # pylint: disable=wrong-import-position -- the protocol (5.2)
PROBE = [-40.0, -38.5, -9.0, -5.5, -3.0, -1.0, -0.75, -0.5, -1e-3, -0.0, 0.0, 1e-3, 0.5, 1.0,
         3.0, 6.0, 27.0, 1e-30, -1e-30]  # start-up probe: dtypes and what the loops compute

# name -> (func, the NumPy expression on x as people write it)
FORMS = [
    ('erf', 'erf', 'erf(x)'),
    ('erfc', 'erfc', 'erfc(x)'),
    ('ndtr', 'normcdf', 'ndtr(x)'),
    ('gelu_ndtr', 'gelu', 'x * ndtr(x)'),
    ('gelu_erf', 'gelu', '0.5 * x * (1 + erf(x / np.sqrt(2)))'),
    ('gelu_erfc', 'gelu', '0.5 * x * erfc(-x / np.sqrt(2))'),
]
DTYPES = {'f32': ('<f4', 'float32'), 'f64': ('<f8', 'float64')}


def log(message):
    print('scipy_adapter.py: ' + message, file=sys.stderr, flush=True)


class Kernel:
    def __init__(self, name, func, dtype, fn, description):
        self.name, self.func, self.dtype, self.fn = name, func, dtype, fn
        self.description = description
        self.cast = False  # the expression's result is not of the input's dtype: astype


def make_kernels():
    import numpy as np
    import scipy
    import scipy.special
    from scipy.special import erf, erfc, ndtr
    np.seterr(all='ignore')
    env = {'np': np, 'erf': erf, 'erfc': erfc, 'ndtr': ndtr}
    where = 'SciPy %s, NumPy %s (Python %s), CPU' % (scipy.__version__, np.__version__,
                                                     sys.version.split()[0])
    kernels = []
    for dtype, (_, npname) in DTYPES.items():
        x = np.array(PROBE, dtype=npname)
        for name, func, expr in FORMS:
            fn = eval('lambda x: ' + expr, env)  # pylint: disable=eval-used -- our own table
            y = fn(x)
            notes = ['%s arrays' % npname]
            if dtype == 'f32':
                if y.dtype != x.dtype:
                    notes.append('NumPy %s makes the result %s: cast to float32 at the end'
                                 % (np.__version__, y.dtype))
                elif '/ np.sqrt(2)' in expr:
                    notes.append('computed in float32 throughout: NumPy %s keeps float32 for '
                                 'the Python scalars and for np.sqrt(2) (a float64 scalar, '
                                 'cast to float32 first)' % np.__version__)
                elif 'x *' in expr:
                    notes.append('computed in float32 throughout')
                for f in {'erf': erf, 'erfc': erfc, 'ndtr': ndtr}.items():
                    if f[0] + '(' in expr:
                        notes.append(loop_note(np, f[0], f[1], x))
            k = Kernel('%s.%s' % (name, dtype), func, dtype, fn,
                       '%s %s; %s; %s' % (func, expr, ', '.join(notes), where))
            k.cast = y.dtype != x.dtype
            kernels.append(k)
    return kernels, where.replace(', CPU', '')


def loop_note(np, fname, f, x32):
    """What SciPy's float32 loop of f computes, read off the probe: the double function
    rounded to float32, or something else."""
    with np.errstate(all='ignore'):
        a = f(x32)
        b = f(x32.astype(np.float64)).astype(np.float32)
    same = bool(np.array_equal(a.view(np.int32), b.view(np.int32)))
    return "%s's 'f->f' loop: %s" % (
        fname, 'the float64 function rounded to float32 (same bits on the start-up probe)'
        if same else 'not the float64 function rounded to float32 (bits differ on the probe)')


def eval_bits(k, data):
    """y bytes (little-endian) for x bytes (little-endian) of k's dtype."""
    import numpy as np
    le, npname = DTYPES[k.dtype]
    x = np.frombuffer(data, dtype=le).astype(npname)
    y = k.fn(x)
    if k.cast:
        y = y.astype(npname)
    return np.ascontiguousarray(y, dtype=le).tobytes()


def main():
    out = gx.private_stdout()
    if len(sys.argv) > 1:
        log('error: no options (usage: scipy_adapter.py)')
        return 1
    for var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS'):
        os.environ.setdefault(var, '1')  # elementwise ufuncs need no thread pool
    try:
        kernels, version = make_kernels()
    except ImportError as e:
        log('cannot import scipy or numpy: %s' % e)
        return 1
    return gx.serve(out, ['gelucheck-exec 1', 'name scipy', 'version ' + version], kernels,
                    eval_bits, log)


if __name__ == '__main__':
    sys.exit(main())
