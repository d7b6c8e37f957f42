#!/usr/bin/env bash
# The .deb: cpack -G DEB from the build, its control fields checked, unpacked with dpkg-deb
# into a staging root (not installed: nothing outside the root changes), then
# check_installed.sh on the staging root's /usr.
# Usage: deb.sh BUILD_DIR SOURCE_DIR VERSION
set -euo pipefail
build=$1 src=$2 version=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpack -G DEB -B "$tmp/pkg" --config "$build/CPackConfig.cmake" > "$tmp/cpack.log" ||
    { cat "$tmp/cpack.log"; exit 1; }
deb=$(find "$tmp/pkg" -maxdepth 1 -name "gelucheck_${version}_*.deb")
[[ -n $deb ]] || { echo "no gelucheck_${version}_*.deb"; ls "$tmp/pkg"; exit 1; }
info=$(dpkg-deb -f "$deb" Package Version Depends)
[[ $info == *"Version: $version"* && $info == *"libmpfr"* ]] ||
    { echo "unexpected control fields: $info"; exit 1; }
dpkg-deb -x "$deb" "$tmp/root"
bash "$(dirname "$0")/check_installed.sh" "$tmp/root/usr" "$src" "$build" "$version"
echo "deb: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
