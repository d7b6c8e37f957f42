#!/usr/bin/env bash
# The example README's path: install gelucheck into a scratch prefix, build the example
# plug-in against the installed header only (CMake with CMAKE_PREFIX_PATH, and a plain cc
# line), and list both with the installed gelucheck.
# Usage: example_installed.sh BUILD_DIR EXAMPLE_SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
[ -f "$tmp/prefix/include/gelucheck/plugin.h" ] || { echo "plugin.h was not installed"; exit 1; }
gelucheck=$tmp/prefix/bin/gelucheck

cmake -S "$src" -B "$tmp/example" -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/configure.log"
cmake --build "$tmp/example" > "$tmp/build.log"
cc -std=c11 -O2 -fPIC -shared -I "$tmp/prefix/include" "$src/example.c" -o "$tmp/libexample.so" -lm

for lib in "$tmp/example/libexample.so" "$tmp/libexample.so"; do
    out=$(cd "$(dirname "$lib")" && "$gelucheck" list --adapter ./libexample.so)
    for want in "adapter example-rename-me (version 1.0; plug-in ./libexample.so)" "erfc.f64" "erfc.f32" \
                "tanh.f32  gelu_tanh"; do
        [[ $out == *"$want"* ]] || { printf 'missing "%s" in:\n%s\n' "$want" "$out"; exit 1; }
    done
done
# only gelucheck_plugin_entry is exported from the CMake build (hidden visibility)
if nm -D --defined-only "$tmp/example/libexample.so" | grep -v ' gelucheck_plugin_entry$' | grep ' T '; then
    echo "libexample.so exports more than gelucheck_plugin_entry"; exit 1
fi
echo "example plug-in: built against the installed header (cmake and cc), listed by gelucheck"
