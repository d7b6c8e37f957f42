#!/usr/bin/env bash
# Install test: install the build into a scratch prefix, then build and run a consumer
# against it twice: with pkg-config and with CMake's find_package(GeluRef).
# Usage: run.sh BUILD_DIR SOURCE_DIR [CFLAGS]  (CFLAGS: the build's own, e.g. sanitizers)
set -euo pipefail
build=$1 src=$2 flags=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
libdir=$(find "$tmp/prefix" -name geluref.pc -printf '%h\n' | head -n 1)
[ -n "$libdir" ] || { echo "geluref.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH=$libdir
# shellcheck disable=SC2046,SC2086 # word splitting of the flags is wanted
cc -std=c11 $flags -o "$tmp/consumer-pc" "$src/consumer.c" $(pkg-config --cflags --libs geluref) \
    -Wl,-rpath,"$(pkg-config --variable=libdir geluref)"
"$tmp/consumer-pc"
cmake -S "$src" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" > "$tmp/configure.log"
cmake --build "$tmp/consumer" > "$tmp/build.log"
"$tmp/consumer/consumer"
echo "install test: pkg-config and find_package(GeluRef) consumers both passed"
