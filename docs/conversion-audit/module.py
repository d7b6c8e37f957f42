#!/usr/bin/python3
"""The module of the conversion audit (docs/conversion-audit.md): a small PyTorch block with
nn.GELU() and nn.GELU(approximate='tanh'), saved the two ways a model leaves PyTorch.

    module.py OUTDIR     writes, for each activation A in gelu and gelu_tanh:
                           OUTDIR/A.pt     the block as TorchScript (torch.jit.script), which
                                           the torch adapter runs: --module OUTDIR/A.pt
                           OUTDIR/A.onnx   the block exported by torch.onnx.export at the
                                           exporter's default opset, run by onnx:OUTDIR/A.onnx

Run with Debian's /usr/bin/python3 (python3-torch).  The export needs no network.
"""
import os
import sys

import torch


class Block(torch.nn.Module):
    """What a transformer's MLP does between its two linear layers: the activation, on a
    tensor of any shape (here 1-D, so that gelucheck can feed it inputs directly)."""

    def __init__(self, approximate):
        super().__init__()
        self.act = torch.nn.GELU(approximate=approximate)

    def forward(self, x):
        return self.act(x)


def main(argv):
    if len(argv) != 2 or argv[1].startswith('-'):
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    example = torch.linspace(-3.0, 3.0, 16)
    for name, approximate in (('gelu', 'none'), ('gelu_tanh', 'tanh')):
        block = Block(approximate).eval()
        torch.jit.script(block).save(os.path.join(out, name + '.pt'))
        torch.onnx.export(block, (example,), os.path.join(out, name + '.onnx'),
                          input_names=['x'], output_names=['y'],
                          dynamic_axes={'x': {0: 'n'}, 'y': {0: 'n'}})
        print('module.py: wrote %s/%s.pt and %s.onnx (torch %s)'
              % (out, name, name, torch.__version__))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
