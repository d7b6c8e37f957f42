#!/bin/sh
# Rewrites the golden outputs of the JUnit and compare tests from the fixtures with the
# renderers as built in BUILD_DIR (target r3_render):
#   cmake --build build/NAME --target r3_render && tests/reports/fixtures_r3/update.sh build/NAME
# then review the diff (git diff tests/reports/fixtures_r3) before committing.  The fixtures
# themselves come from generate.sh, which runs this at its end.
set -eu
build=${1:?usage: update.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
render=$(cd "$build" && pwd)/tests/r3_render
cd "$here"
"$render" junit a.json >junit_a.xml
"$render" junit b.json >junit_b.xml
"$render" compare a.json b.json >compare.md
