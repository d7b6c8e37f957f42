#!/usr/bin/env bash
# Install test: install the build into a scratch prefix, then build and run a consumer
# against it twice: with pkg-config and with CMake's find_package(GeluRef).
# Usage: run.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
libdir=$(find "$tmp/prefix" -name geluref.pc -printf '%h\n' | head -n 1)
[ -n "$libdir" ] || { echo "geluref.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH=$libdir
cc -std=c11 -o "$tmp/consumer-pc" "$src/consumer.c" $(pkg-config --cflags --libs geluref) \
    -Wl,-rpath,"$(pkg-config --variable=libdir geluref)"
"$tmp/consumer-pc"
cmake -S "$src" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/configure.log"
cmake --build "$tmp/consumer" > "$tmp/build.log"
"$tmp/consumer/consumer"
echo "install test: pkg-config and find_package(GeluRef) consumers both passed"
