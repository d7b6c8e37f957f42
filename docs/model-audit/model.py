#!/usr/bin/python3
"""A small transformer-like PyTorch model holding every GELU form a PyTorch user writes, and
three activations that are not GELUs, exported with torch.onnx.export (Debian's
python3-torch) at opset 14, torch 1.13's default, unless --opset says otherwise.
docs/model-audit/run.sh and the scan tests (tests/adapters/scan.cmake) use it.

    model.py OUT.onnx [--opset N] [--torchscript OUT.pt]

--torchscript also saves the same module (the same weights), traced (torch.jit.trace keeps
one method per submodule, which gelucheck scan --torch-module pairs by module path).

Input x: float [batch, seq, 32] (dynamic batch and seq); output: the same shape.  Sites, in
forward order (what the scan must find; the test's table names them by node):
  fc1 -> nn.GELU()                 erf GELU, exported as Div/Erf/Add/Mul/Mul
  fc2 -> nn.GELU('tanh')           tanh GELU, exported as Mul/Mul/Mul/Add/Mul/Tanh/Add/Mul/Mul
  fc3 -> erf_gelu (hand-written)   x * 0.5 * (1 + erf(x / sqrt2))
  fc4 -> QuickGELU                 x * sigmoid(1.702 x)
  fc5 -> SiLU                      x * sigmoid(x): a site, reported as SiLU, not GELU
  fc6 -> tanh, sigmoid gate        tanh(h) and h * sigmoid(g): not sites
  TransformerEncoderLayer(activation='gelu')  erf GELU inside the feed-forward block
"""
import math
import sys

import torch
from torch import nn


class QuickGELU(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(1.702 * x)


def erf_gelu(x):
    return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


class Net(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.fc4, self.fc5, self.fc6 = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, 2 * d)
        self.act1, self.act2 = nn.GELU(), nn.GELU(approximate='tanh')
        self.quick, self.silu = QuickGELU(), nn.SiLU()
        self.enc = nn.TransformerEncoderLayer(d, 4, dim_feedforward=64, dropout=0.0,
                                              activation='gelu', batch_first=True)

    def forward(self, x):
        x = self.act1(self.fc1(x))
        x = self.act2(self.fc2(x))
        x = erf_gelu(self.fc3(x))
        x = self.quick(self.fc4(x))
        x = self.silu(self.fc5(x))
        h, g = self.fc6(x).chunk(2, dim=-1)
        x = torch.tanh(h) + h * torch.sigmoid(g)
        return self.enc(x)


def main():
    args, opts = [], {}
    it = iter(sys.argv[1:])
    for a in it:
        if a in ('--opset', '--torchscript'):
            opts[a] = next(it, None)
        else:
            args.append(a)
    if len(args) != 1 or None in opts.values():
        sys.exit('usage: model.py OUT.onnx [--opset N] [--torchscript OUT.pt]')
    out, opset = args[0], int(opts.get('--opset', 14))
    torch.manual_seed(0)
    net = Net().eval()
    x = torch.randn(2, 3, 32)
    torch.onnx.export(net, (x,), out, input_names=['x'], output_names=['y'], opset_version=opset,
                      dynamic_axes={'x': {0: 'batch', 1: 'seq'}, 'y': {0: 'batch', 1: 'seq'}})
    if '--torchscript' in opts:
        # check_trace off: the encoder layer's eval fast path makes a second trace differ
        torch.jit.save(torch.jit.trace(net, (x,), check_trace=False), opts['--torchscript'])


if __name__ == '__main__':
    main()
