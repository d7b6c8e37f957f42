#!/bin/sh
# Writes tests/data/hard-FUNC-DTYPE.txt with find_hard (see tests/data/README.md).
# Usage: tests/data/generate.sh BUILD_DIR     (e.g. build/default; about 20 minutes)
set -eu
build=${1:?usage: generate.sh BUILD_DIR}
here=$(dirname "$0")
funcs="gelu gelu_tanh gelu_sigmoid gelu_grad gelu_tanh_grad normcdf normpdf erf erfc gelu_grad2"
for f in $funcs; do
    for dt in f16 bf16; do
        "$build/tests/find_hard" "$f" "$dt" all 64 > "$here/hard-$f-$dt.txt"
    done
    if [ "$f" = gelu ]; then
        # one pass over every binary32 input: about 15 minutes on two cores
        "$build/tests/find_hard" gelu f32 all 64 > "$here/hard-gelu-f32.txt"
    else
        "$build/tests/find_hard" "$f" f32 random 20000000 7 64 > "$here/hard-$f-f32.txt"
    fi
    "$build/tests/find_hard" "$f" f64 random 2000000 7 64 > "$here/hard-$f-f64.txt"
done
