#!/usr/bin/env bash
# The conversion audit of docs/conversion-audit.md, end to end:
#   docs/conversion-audit/run.sh OUTDIR [GELUCHECK]
# 1. module.py writes the block with nn.GELU() and nn.GELU(approximate='tanh') as TorchScript
#    (OUTDIR/models/A.pt) and as ONNX (OUTDIR/models/A.onnx, torch.onnx.export);
# 2. gelucheck runs each twice, as PyTorch runs it (the torch adapter's --module) and as ONNX
#    Runtime runs the export (onnx:), all six suites, into OUTDIR/torch-A.json and
#    OUTDIR/onnx-A.json;
# 3. gelucheck compare puts the four side by side: OUTDIR/compare/compare.md (and .html).
# GELUCHECK defaults to build/default/cli/gelucheck, else gelucheck on PATH.  Needs Debian's /usr/bin/python3 with
# python3-torch and the onnxruntime adapter (scripts/setup installs both).  Exit 0 when the
# comparison was written; a kernel failing the policy is a finding, not an error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if (($# < 1 || $# > 2)); then
    echo "usage: $0 OUTDIR [GELUCHECK]" >&2
    exit 2
fi
out=$1
default=$root/build/default/cli/gelucheck # in the source tree; else the gelucheck on PATH
[[ -x $default ]] || default=$(command -v gelucheck || echo "$default")
gelucheck=${2:-$default}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Runs gelucheck; exit 1 (a kernel fails its policy) is a finding, anything above is not.
check() {
    local rc=0
    "$gelucheck" "$@" || rc=$?
    if ((rc > 1)); then
        echo "run.sh: gelucheck $1 failed (exit $rc)" >&2
        exit "$rc"
    fi
}

/usr/bin/python3 "$here/module.py" "$out/models"
torch="exec:/usr/bin/python3 '$root/adapters/torch/torch_adapter.py'"
for a in gelu gelu_tanh; do
    echo "run.sh: $a as PyTorch runs it"
    check run --adapter "$torch --module '$out/models/$a.pt' --func $a" \
        --json "$out/torch-$a.json" --progress never
    echo "run.sh: $a as ONNX Runtime runs the export"
    check run --adapter "onnx:$out/models/$a.onnx" --func "$a" \
        --json "$out/onnx-$a.json" --progress never
done
check compare "$out"/torch-gelu.json "$out"/onnx-gelu.json "$out"/torch-gelu_tanh.json \
    "$out"/onnx-gelu_tanh.json --report "$out/compare"
echo "run.sh: wrote $out/compare/compare.md"
