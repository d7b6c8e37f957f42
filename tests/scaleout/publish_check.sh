#!/bin/sh
# publish_check.sh MODE SOURCE GELUCHECK DIR: scripts/publish --exhaustive on a tiny part of one
# kernel (libm's erfc.f32 over [-5.6, -5.5], about 210000 inputs: GELUCHECK_PUBLISH_RANGE and
# GELUCHECK_PUBLISH_KERNEL), written into DIR/MODE instead of reports/published.
#   MODE local: on this machine; checks the published folder's files.
#   MODE shards: --shards 3 on this machine, stopped after one shard (--max-shards 1) and run
#               again: the second run must go on with the two shards left, not redo the
#               first; a run of another audit on the same --work folder must be refused;
#               then the same checks as slurm.
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
elif [ "$mode" = shards ]; then
    work=$dir/shards-work
    rm -rf "$work"
    "$src/scripts/publish" --exhaustive --shards 3 --max-shards 1 --work "$work" libm \
        >"$dir/first.out" 2>&1 || fail "first part: exit $?: $(cat "$dir/first.out")"
    cat "$dir/first.out"
    grep -q '1 shard(s) run, 2 left' "$dir/first.out" || fail "the first part does not say what is left"
    [ -z "$(ls -A "$dir/$mode")" ] || fail "the first part published something: $(ls -A "$dir/$mode")"
    [ "$(cat "$work/shard-0/rc")" -le 1 ] && [ -s "$work/shard-0/result.json" ] ||
        fail "shard 0 was not kept in $work"
    [ ! -e "$work/shard-1" ] || fail "shard 1 ran despite --max-shards 1"
    cp "$work/shard-0/result.json" "$dir/shard0.json"
    GELUCHECK_PUBLISH_RANGE=-5.6:-5.4 "$src/scripts/publish" --exhaustive --shards 3 \
        --work "$work" libm >"$dir/other.out" 2>&1
    rc=$?
    cat "$dir/other.out"
    [ "$rc" -eq 2 ] || fail "another audit on the same --work folder: exit $rc, want 2"
    grep -q 'holds the shards of another audit' "$dir/other.out" || fail "no message for another audit"
    "$src/scripts/publish" --exhaustive --shards 3 --work "$work" libm >"$dir/second.out" 2>&1 ||
        fail "second part: exit $?: $(cat "$dir/second.out")"
    cat "$dir/second.out"
    grep -q 'shard 0 of 3:' "$dir/second.out" && fail "the second part ran shard 0 again"
    grep -q 'shard 1 of 3:' "$dir/second.out" && grep -q 'shard 2 of 3:' "$dir/second.out" ||
        fail "the second part did not run shards 1 and 2"
    [ ! -e "$work" ] || fail "the shards' folder $work is left after publishing"
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
# the README's exact counts are the result's (read here independently of the summary script)
/usr/bin/python3 - "$dir/$mode/result.json" "$out/README.md" <<'PY' || fail "README.md's exact counts are not the result's"
import json, sys
r = json.load(open(sys.argv[1]))
readme = open(sys.argv[2]).read()
assert '## Exact counts over every input' in readme, 'no exact-count section'
assert 'every input in [-5.6, -5.5]' in readme, 'the section does not give the range'
for k in r["kernels"]:
    u = [s for s in k["suites"] if s["name"] == "ulp"][0]
    o = u["metrics"]["overall"]
    row = [l for l in readme.splitlines() if l.startswith('| %s `%s` | %s | %d | %d (' % (
        k["adapter"], k["kernel"], k["func"], o["points"], o["correctly_rounded"]))]
    assert len(row) == 1, 'no row with %d inputs, %d correctly rounded for %s' % (
        o["points"], o["correctly_rounded"], k["kernel"])
    assert o["points"] == u["inputs"]["count"] > 200000, o["points"]
print("publish_check: the README's exact counts are the result's")
PY
if [ "$mode" = shards ]; then
    grep -q 'as 3 shards run one after another on this machine' "$out/README.md" ||
        fail "README.md does not say how it ran"
    grep -q 'CPU time [0-9][0-9]* s' "$out/README.md" || fail "README.md does not give the CPU time"
fi
if [ "$mode" != local ]; then
    [ "$mode" = shards ] ||
    grep -q 'as 3 Slurm shards' "$out/README.md" || fail "README.md does not say it ran on Slurm"
    [ -f "$dir/local/result.json" ] || fail "no $dir/local/result.json (the local test's)"
    /usr/bin/python3 "$src/scripts/same_result.py" "$dir/$mode/result.json" \
        "$dir/local/result.json" 3 || fail "the $mode result is not the local one"
fi
echo "publish_check: $mode: OK"
