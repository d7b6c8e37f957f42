#!/usr/bin/env bash
# cmake --install --strip into a scratch prefix, then check_installed.sh on it.
# Usage: install.sh BUILD_DIR SOURCE_DIR VERSION
set -euo pipefail
build=$1 src=$2 version=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/root/usr" --strip > "$tmp/install.log"
bash "$(dirname "$0")/check_installed.sh" "$tmp/root/usr" "$src" "$build" "$version"
