"""The server side of gelucheck's subprocess protocol (docs/design.md section 5.2), shared by
the built-in Python adapters (adapters/scipy/scipy_adapter.py, adapters/torch/torch_adapter.py).
An adapter makes its kernels (objects with name, func, dtype, description) and a function
evaluate(kernel, data) that maps the little-endian input bits of one batch to the output bits;
serve() does the rest: the greeting, the request loop, the errors.  Standard library only.

adapters/exec/example_adapter.py does the same on its own, as a template to copy: keep the two
in step when the protocol changes.

Installed as lib/gelucheck/adapters/python/gelucheck_exec.py; an adapter imports it from
../python relative to its own real path (so the build tree's links to the sources work too):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), '..', 'python'))
"""
import os
import sys

MAX_BATCH = 65536  # the most elements in one request (docs/design.md 5.2)
MAX_LINE = 4096    # the longest line, without its "\n"
SIZES = {'f64': 8, 'f32': 4, 'f16': 2, 'bf16': 2}  # bytes per element


def private_stdout():
    """The protocol's private copy of stdout.  fd 1 becomes stderr, so that what a library
    prints there (ONEDNN_VERBOSE=1, OpenMP warnings, NumPy's) cannot corrupt the stream."""
    out = os.fdopen(os.dup(1), 'wb')
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def send(out, data):
    out.write(data)
    out.flush()


def reply_error(out, message):
    send(out, b'error ' + message.encode('ascii', 'replace') + b'\n')


def skip(inp, size):
    """Reads and drops size bytes; False when stdin ends first."""
    while size > 0:
        chunk = inp.read(min(size, 1 << 16))
        if not chunk:
            return False
        size -= len(chunk)
    return True


def serve_request(kernels, evaluate, inp, out, line):
    """Answers one request line (without its newline) of kernels (name -> kernel).  Returns
    False when the stream cannot go on."""
    words = line.split(b' ')
    if len(words) != 3 or words[0] != b'eval' or not words[2].isdigit():
        reply_error(out, 'malformed request %r' % line[:80].decode('ascii', 'replace'))
        return True  # a bad line: the next one may be good again
    name, n = words[1].decode('ascii', 'replace'), int(words[2])
    k = kernels.get(name)
    if k is None:
        reply_error(out, 'unknown kernel %r' % name[:128])
        return False  # the size of its payload is unknown: the stream is lost
    size = SIZES[k.dtype]
    if n > MAX_BATCH:  # read the whole request first, then reply
        if not skip(inp, n * size):
            return False
        reply_error(out, 'batch of %d elements: at most %d' % (n, MAX_BATCH))
        return True
    data = inp.read(n * size)
    if len(data) != n * size:
        return False  # stdin closed in the middle of the payload
    if n == 0:
        send(out, b'ok 0\n')
        return True
    try:
        y = evaluate(k, data)
    except Exception as e:  # pylint: disable=broad-except -- report, and stay usable
        reply_error(out, '%s: %s' % (name, (str(e).splitlines() or [''])[0][:200]))
        return True
    send(out, b'ok %d\n' % n + y)
    return True


def serve(out, head, kernels, evaluate, log, inp=None):
    """Greets with the lines head ('gelucheck-exec 1', 'name ...', 'version ...'), one 'kernel'
    line per kernel and 'ready', then answers requests until the host closes stdin (0) or the
    stream is lost (1, said through log)."""
    inp = inp or sys.stdin.buffer
    lines = list(head)
    lines += ['kernel %s %s %s %s' % (k.name, k.func, k.dtype, k.description) for k in kernels]
    lines.append('ready')
    send(out, ''.join(line + '\n' for line in lines).encode('ascii', 'replace'))
    by_name = {k.name: k for k in kernels}
    while True:
        line = inp.readline(MAX_LINE + 2)
        if not line:
            return 0  # the host closed stdin: done
        if not line.endswith(b'\n'):
            log('request line too long or cut short')
            return 1
        if not serve_request(by_name, evaluate, inp, out, line.rstrip(b'\r\n')):
            return 1
