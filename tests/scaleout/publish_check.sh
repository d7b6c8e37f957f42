#!/bin/sh
# publish_check.sh MODE SOURCE GELUCHECK DIR: scripts/publish --exhaustive on a tiny part of one
# kernel (libm's erfc.f32 over [-5.6, -5.5], about 210000 inputs: GELUCHECK_PUBLISH_RANGE and
# GELUCHECK_PUBLISH_KERNEL), written into DIR/MODE instead of reports/published.
#   MODE local: on this machine; checks the published folder's files.
#   MODE slurm: --slurm with 3 shards on scripts/slurm-demo's cluster (--exec); checks the same
#               files, and that its result equals the local one (DIR/local, written by the
#               local test) byte for byte outside "timing" and "shard" (scripts/same_result.py).
set -u
mode=$1 src=$2 gelucheck=$3 dir=$4
fail() {
    echo "publish_check: FAIL: $*"
    exit 1
}
rm -rf "$dir/$mode"
mkdir -p "$dir/$mode"
export GELUCHECK_PUBLISH_GELUCHECK="$gelucheck" GELUCHECK_PUBLISH_DIR="$dir/$mode" \
    GELUCHECK_PUBLISH_RANGE=-5.6:-5.5 GELUCHECK_PUBLISH_KERNEL=erfc.f32 GELUCHECK_PUBLISH_POLL=0.5
if [ "$mode" = local ]; then
    "$src/scripts/publish" --exhaustive libm || fail "scripts/publish --exhaustive: exit $?"
else
    "$src/scripts/slurm-demo" --exec "$src/scripts/publish" --exhaustive --slurm --shards 3 \
        --cpus 1 --timeout 300 libm
    rc=$?
    [ "$rc" -eq 77 ] && exit 77
    [ "$rc" -eq 0 ] || fail "scripts/publish --exhaustive --slurm: exit $rc"
fi
set -- "$dir/$mode"/*-exhaustive
[ $# -eq 1 ] && [ -d "$1" ] || fail "want one folder DATE-exhaustive in $dir/$mode, found: $*"
out=$1
ls -A "$dir/$mode"
for f in README.md report.md junit.xml result.json.xz; do
    [ -s "$out/$f" ] || fail "$out/$f is missing or empty"
done
for f in result.json .work report.html; do
    [ ! -e "$out/$f" ] || fail "$out/$f is left in the published folder"
done
[ "$(ls -A "$dir/$mode")" = "${out##*/}" ] || fail "more than the folder in $dir/$mode (a temporary one left?)"
# only the plots report.md shows, and every one it shows
n=0
for p in "$out"/plots/*; do
    [ -e "$p" ] || continue
    grep -qF "(plots/${p##*/})" "$out/report.md" || fail "$p is not shown in report.md"
    n=$((n + 1))
done
for p in $(grep -o '(plots/[^)]*)' "$out/report.md" | tr -d '()'); do
    [ -s "$out/$p" ] || fail "report.md shows $p, which is missing"
done
[ "$n" -ge 1 ] || fail "no plot in $out/plots"
grep -qF -- '--dtype f32 --exhaustive --range -5.6:-5.5 --kernel erfc.f32' "$out/README.md" ||
    fail "README.md does not give the exhaustive command"
grep -q 'memory: [0-9][0-9]* MiB' "$out/README.md" || fail "README.md does not give the peak memory"
xz -dc "$out/result.json.xz" >"$dir/$mode/result.json" || fail "result.json.xz does not decompress"
/usr/bin/python3 - "$dir/$mode/result.json" <<'PY' || fail "the result is not the exhaustive run"
import json, sys
r = json.load(open(sys.argv[1]))
ks = r["kernels"]
assert ks, "no kernel"
for k in ks:
    assert k["dtype"] == "f32", k["dtype"]
ulp = [s for k in ks for s in k["suites"] if s["name"] == "ulp"]
assert ulp and all(s["inputs"]["kind"] == "exhaustive" for s in ulp), ulp[0].get("inputs")
print("publish_check: %d f32 kernel(s), ulp suite exhaustive" % len(ks))
PY
if [ "$mode" = slurm ]; then
    grep -q 'as 3 Slurm shards' "$out/README.md" || fail "README.md does not say it ran on Slurm"
    [ -f "$dir/local/result.json" ] || fail "no $dir/local/result.json (the local test's)"
    /usr/bin/python3 "$src/scripts/same_result.py" "$dir/slurm/result.json" \
        "$dir/local/result.json" 3 || fail "the Slurm result is not the local one"
fi
echo "publish_check: $mode: OK"
