#!/bin/sh
# Regenerates the result fixtures of the JUnit, compare and baseline tests (a.json, b.json)
# and then their golden outputs (update.sh).  Never edit the fixtures by hand: rerun this.
#   cmake --build build/NAME --target gelucheck r3_render
#   tests/reports/fixtures_r3/generate.sh build/NAME [GELUCHECK]
# (GELUCHECK: another gelucheck to run, by default BUILD_DIR/cli/gelucheck)
# a.json: libm, policy default: f16, bf16 and f32 kernels that fail (NaN at -inf, flushes),
#   and an exec adapter whose spec holds & < > " (not loaded: exit 3), for the escaping.
# b.json: mutants, policy lenient: a pass (nan_neginf.f32), wrong zero signs (pos_zero.f32),
#   another formula (nosqrt2.f32), NaN outputs (tanh_f16div.f16), a skipped suite
#   (grad_no_xphi.f32: no fingerprint for gelu_grad).
# The ulp suite's per-binade statistics and the plot curves are left out (trim.py): nothing
# here reads them and they are most of the bytes.
set -eu
build=$(cd "${1:?usage: generate.sh BUILD_DIR [GELUCHECK]}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
exe=$(cd "$(dirname "${2:-$build/cli/gelucheck}")" && pwd)/$(basename "${2:-$build/cli/gelucheck}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$exe" run --adapter libm --adapter 'exec:/nonexistent/<&"x>' --kernel erf1p.f16 \
    --kernel tanh.f16 --kernel erfc.bf16 --kernel erfc_via_f64.f32 --samples 2000 \
    --threads 2 --progress never --json a.json >/dev/null 2>&1 || test $? -eq 3
"$exe" run --adapter mutants --policy lenient --kernel nan_neginf.f32 --kernel pos_zero.f32 \
    --kernel nosqrt2.f32 --kernel tanh_f16div.f16 --kernel grad_no_xphi.f32 --samples 2000 \
    --threads 2 --progress never --json b.json >/dev/null 2>&1 || test $? -eq 1
for f in a b; do
    /usr/bin/python3 "$here/trim.py" "$f.json" "$here/$f.json"
done
"$here/update.sh" "$build"
