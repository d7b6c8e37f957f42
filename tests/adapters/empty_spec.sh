#!/bin/sh
# 'gelucheck list --adapter ""' is a usage error (exit 2) that says what is missing.
# (cli_check.cmake cannot pass an empty argument.)  Usage: empty_spec.sh GELUCHECK
out=$("$1" list --adapter '' 2>&1)
rc=$?
if [ "$rc" -ne 2 ] || ! printf '%s\n' "$out" | grep -q "^gelucheck: error: --adapter needs a spec"; then
    printf 'exit %s, output: %s\n' "$rc" "$out"
    exit 1
fi
