#!/usr/bin/env bash
# The model audit of docs/model-audit.md, end to end:
#   docs/model-audit/run.sh OUTDIR [GELUCHECK] [--update]
# 1. model.py exports the transformer-like example to OUTDIR/model.onnx (torch.onnx.export)
#    and saves the same module traced as OUTDIR/model.pt (torch.jit.trace, torch.jit.save);
# 2. gelucheck scan --torch-module model.pt lists its GELU-like sites, what ONNX Runtime runs
#    at each one at each optimization level, and the PyTorch activation each site came from
#    (OUTDIR/scan.txt, OUTDIR/scan.json);
# 3. gelucheck run --adapter scan:model.onnx --torch-module model.pt measures one kernel per
#    distinct computation, all six suites (OUTDIR/result.json, OUTDIR/report/; report.md
#    pairs the sites with the module's activations);
# 4. site_table.py puts the scan's table of operators per level beside report.md's table of
#    the sites (OUTDIR/tables.md); --update also writes them into docs/model-audit.md.
# GELUCHECK defaults to build/default/cli/gelucheck.  Needs Debian's /usr/bin/python3 with
# python3-torch, and the onnxruntime adapter (scripts/setup installs both).  Exit 0 when the
# tables were written; a kernel failing the policy is a finding, not an error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
update=()
if (($# == 3)) && [[ $3 == --update ]]; then
    update=(--splice "$root/docs/model-audit.md")
elif (($# < 1 || $# > 2)); then
    echo "usage: $0 OUTDIR [GELUCHECK] [--update]" >&2
    exit 2
fi
gelucheck=${2:-$root/build/default/cli/gelucheck}
[[ $gelucheck == */* ]] && gelucheck=$(cd "$(dirname "$gelucheck")" && pwd)/${gelucheck##*/}
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$out" # relative model paths keep the names in the tables short

/usr/bin/python3 "$here/model.py" model.onnx --torchscript model.pt
"$gelucheck" scan model.onnx --torch-module model.pt --json scan.json >scan.txt
rc=0
"$gelucheck" run --adapter scan:model.onnx --torch-module model.pt --json result.json \
    --report report \
    --progress never >run.txt || rc=$?
if ((rc > 1)); then
    echo "run.sh: gelucheck run failed (exit $rc); see $out/run.txt" >&2
    exit "$rc"
fi
/usr/bin/python3 "$here/site_table.py" scan.json report/report.md "${update[@]}" >tables.md
echo "run.sh: wrote $out/tables.md"
