#!/usr/bin/env bash
# Regenerates the result fixtures of the Markdown golden tests (tests/reports/fixtures/*.json)
# from real runs, then the golden report.md and report.html files from them (the latter with
# the plots linked, by the build's tests/test_html; tests/reports/README.md):
#
#   tests/reports/make_fixtures.sh build/default/cli/gelucheck            fixtures and goldens
#   tests/reports/make_fixtures.sh build/default/cli/gelucheck --goldens  goldens only
#
# The runs use the built-in mutants adapter, --samples 2000 --threads 1.  Its kernels call the
# host's libm, so a fixture made elsewhere may differ: that is why the fixtures are committed
# and the goldens are rendered from them, not from a fresh run.  "timing" and
# "environment" are replaced by fixed values so that a fixture does not depend on the machine
# or the moment.  Never edit a fixture or a golden by hand.
set -euo pipefail
gelucheck=$(realpath "${1:?usage: make_fixtures.sh PATH/TO/gelucheck [--goldens]}")
here=$(cd "$(dirname "$0")" && pwd)
fix=$here/fixtures
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name: the kernels of one fixture.  mutants: the tail flush (erf1p_float), a wrong formula
# (sigmoid_as_gelu), non-monotonic output (poly6), a vector defect (tail_mod8) and an
# approximation with NaN outputs and vs_exact (tanh_f16div.f16).
declare -A kernels=(
    [mutants]="erf1p_float.f32 sigmoid_as_gelu.f32 poly6.f32 tail_mod8.f32 tanh_f16div.f16"
)

if [[ ${2:-} != --goldens ]]; then
    for name in "${!kernels[@]}"; do
        args=()
        for k in ${kernels[$name]}; do args+=(--kernel "$k"); done
        rc=0
        (cd "$work" && "$gelucheck" run --adapter mutants "${args[@]}" --samples 2000 \
            --threads 1 --progress never --json result.json >/dev/null) || rc=$?
        # exit 1: a kernel fails, as every mutant should; anything else is a broken run
        if ((rc > 1)); then
            echo "make_fixtures: gelucheck run failed (exit $rc)" >&2
            exit 1
        fi
        /usr/bin/python3 - "$work/result.json" "$fix/$name.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["environment"] = {"cpu": "fixture", "cpu_flags": [], "libc": "fixture",
                      "os": "fixture", "compiler": "fixture"}
t = doc["timing"]
t["wall_s"] = 0.0
t["threads"] = 1
for k in t["kernels"]:
    k["wall_s"] = 0.0
# the ulp suite's per-binade statistics are most of a result's bytes and report.md does not
# show them (the plots do; tests/reports/plots.cmake makes its own results): left out
for k in doc["kernels"]:
    for s in k["suites"]:
        (s.get("metrics") or {}).pop("binades", None)
with open(sys.argv[2], "w") as f:
    json.dump(doc, f, indent=0)  # one member per line, unindented: diffable and small
    f.write("\n")
PY
        echo "make_fixtures: wrote $fix/$name.json"
    done
fi

for json in "$fix"/*.json; do
    name=$(basename "$json" .json)
    [[ $name == bad_* ]] && continue
    "$gelucheck" report "$json" --report "$work/$name" >/dev/null
    cp "$work/$name/report.md" "$fix/$name.report.md"
    # the HTML golden tests the Markdown conversion alone: the plots linked, not embedded as
    # in the report.html that `gelucheck report` writes (test_html of the same build)
    "$(dirname "$gelucheck")/../tests/test_html" render "$fix/$name.report.md" \
        "$fix/$name.report.html" "gelucheck report"
    echo "make_fixtures: wrote $fix/$name.report.md and $fix/$name.report.html"
done
