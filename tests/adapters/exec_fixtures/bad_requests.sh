#!/bin/sh
# Feeds an example exec adapter (adapters/exec) requests that break the protocol, and checks
# that it answers each with 'error ...', still serves a good request in between, and exits 1
# at the unknown kernel (whose payload size it cannot know).
# Usage: bad_requests.sh COMMAND [ARG...]      (the tests adapters_exec_example_errors_*)
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
    printf 'bogus line\n'
    printf 'eval gelu_erf.f64 70000\n'
    head -c 560000 /dev/zero
    printf 'eval gelu_erf.f64 1\n'
    printf '\000\000\000\000\000\000\360\077' # 1.0, little-endian
    printf 'eval nope 1\n'
    printf '\000\000\000\000\000\000\360\077'
} >"$tmp/in"
"$@" <"$tmp/in" >"$tmp/out"
rc=$?
fail=0
for want in "error malformed request 'bogus line'" \
    "error batch of 70000 elements: at most 65536" "ok 1" "error unknown kernel 'nope'"; do
    grep -a -q -F -- "$want" "$tmp/out" || { echo "bad_requests: no reply '$want'" >&2; fail=1; }
done
[ "$rc" -eq 1 ] || { echo "bad_requests: exit status $rc, want 1" >&2; fail=1; }
exit $fail
