#!/bin/sh
# publish_usage.sh PUBLISH GELUCHECK DIR: scripts/publish's usage errors (exit 2, the message
# naming what was wrong), none of which may write anything into DIR.
set -u
pub=$1 dir=$3
export GELUCHECK_PUBLISH_GELUCHECK="$2" GELUCHECK_PUBLISH_DIR="$dir/published"
rm -rf "$dir"
mkdir -p "$dir/bin"
fail() {
    echo "publish_usage: FAIL: $*"
    exit 1
}
# expect WANT_MESSAGE ARG...: exit 2 with the message
expect() {
    want=$1
    shift
    out=$("$@" 2>&1)
    rc=$?
    echo "$* -> exit $rc: $out"
    [ "$rc" -eq 2 ] || fail "$*: exit $rc, want 2"
    case $out in *"$want"*) ;; *) fail "$*: the message does not say '$want'" ;; esac
}
expect "--slurm goes with --exhaustive" "$pub" --slurm libm
expect "bad --shards 'x'" "$pub" --exhaustive --slurm --shards x libm
expect "unknown option '--exhaustiv'" "$pub" --exhaustiv libm
expect "--shards goes with --exhaustive" "$pub" --shards 3 libm
expect "--max-shards goes with --shards" "$pub" --exhaustive --max-shards 1 libm
expect "--work goes with --shards" "$pub" --exhaustive --slurm --shards 3 --work w libm
expect "bad --max-shards '0'" "$pub" --exhaustive --shards 3 --max-shards 0 libm
# a PATH without sbatch: only what the script needs before it looks for sbatch
for t in bash env dirname; do
    ln -s "$(command -v "$t")" "$dir/bin/$t"
done
expect "no sbatch on PATH" env PATH="$dir/bin" "$pub" --exhaustive --slurm libm
[ ! -e "$dir/published" ] || fail "a usage error wrote $dir/published"
echo "publish_usage: OK"
