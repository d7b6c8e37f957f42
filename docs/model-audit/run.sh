#!/usr/bin/env bash
# The model audit of docs/model-audit.md, end to end:
#   docs/model-audit/run.sh OUTDIR [GELUCHECK] [--update | --native-only]
# 1. model.py exports the transformer-like example to OUTDIR/model.onnx (torch.onnx.export)
#    and saves the same module traced as OUTDIR/model.pt (torch.jit.trace, torch.jit.save);
#    to_float16.py converts the export to float16 (OUTDIR/model16.onnx);
# 2. gelucheck scan --torch-module model.pt lists its GELU-like sites, what ONNX Runtime runs
#    at each one at each optimization level, and the PyTorch activation each site came from
#    (OUTDIR/scan.txt, OUTDIR/scan.json);
# 3. one gelucheck run measures, beside the module's activations (--torch-module model.pt),
#    the export natively (scan:model.onnx, every level), on ONNX Runtime's WebAssembly build
#    (scan:model.onnx?opt=all&runtime=onnxruntime-web) and the float16 export natively
#    (scan:model16.onnx?opt=all): one kernel per distinct computation, all six suites
#    (OUTDIR/result.json, OUTDIR/report/; report.md pairs the sites with the module's
#    activations, diffs each pair and puts every activation in one table, a column per
#    runtime);
#    --native-only leaves the WebAssembly and float16 adapters out (about half the CPU time:
#    the test model_audit; model_audit_runtimes runs it all);
# 4. site_table.py puts the scan's table of operators per level beside report.md's tables
#    (OUTDIR/tables.md); --update also writes them into docs/model-audit.md.
# GELUCHECK defaults to build/default/cli/gelucheck.  Needs Debian's /usr/bin/python3 with
# python3-torch and python3-onnx, and the onnxruntime adapter with its web build
# (scripts/setup installs them).  Exit 0 when the tables were written; a kernel failing the
# policy is a finding, not an error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
update=()
runtimes=(--adapter 'scan:model.onnx?opt=all&runtime=onnxruntime-web'
          --adapter 'scan:model16.onnx?opt=all')
if (($# == 3)) && [[ $3 == --update ]]; then
    update=(--splice "$root/docs/model-audit.md")
elif (($# == 3)) && [[ $3 == --native-only ]]; then
    runtimes=()
elif (($# < 1 || $# > 2)); then
    echo "usage: $0 OUTDIR [GELUCHECK] [--update | --native-only]" >&2
    exit 2
fi
gelucheck=${2:-$root/build/default/cli/gelucheck}
[[ $gelucheck == */* ]] && gelucheck=$(cd "$(dirname "$gelucheck")" && pwd)/${gelucheck##*/}
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$out" # relative model paths keep the names in the tables short

/usr/bin/python3 "$here/model.py" model.onnx --torchscript model.pt
/usr/bin/python3 "$here/to_float16.py" model.onnx model16.onnx
"$gelucheck" scan model.onnx --torch-module model.pt --json scan.json >scan.txt
rc=0
"$gelucheck" run --adapter scan:model.onnx "${runtimes[@]}" \
    --torch-module model.pt --json result.json --report report \
    --progress never >run.txt || rc=$?
if ((rc > 1)); then
    echo "run.sh: gelucheck run failed (exit $rc); see $out/run.txt" >&2
    exit "$rc"
fi
/usr/bin/python3 "$here/site_table.py" scan.json report/report.md "${update[@]}" >tables.md
echo "run.sh: wrote $out/tables.md"
