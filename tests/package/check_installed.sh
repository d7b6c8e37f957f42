#!/usr/bin/env bash
# Checks an installed gelucheck as a kernel author gets it (cmake --install, or the .deb
# unpacked into a staging root): the files under share/, the man page (groff -ww), the
# bash completion, one version everywhere, no path into the source or build tree in any
# installed file; then, with the source and build trees hidden (a mount namespace with an
# empty tmpfs over each, when unshare -m is allowed: root), `gelucheck list` loads every
# built-in this build has from the install, and the example plug-in, built from share/ with
# find_package(gelucheck) and gated with gelucheck_add_test, passes its ctest, and fails it
# when built regressed (-DEXAMPLE_REGRESSED=ON).
# Usage: check_installed.sh PREFIX SOURCE_DIR BUILD_DIR VERSION
set -euo pipefail
prefix=$1 src=$2 build=$3 version=$4
fail() { echo "check_installed: $*" >&2; exit 1; }

for f in bin/gelucheck libexec/gelucheck/gelucheck-worker include/gelucheck/plugin.h \
         share/man/man1/gelucheck.1 share/bash-completion/completions/gelucheck \
         share/gelucheck/schema/gelucheck-result-1.schema.json \
         share/gelucheck/schema/gelucheck-baseline-1.schema.json \
         share/gelucheck/exec/gelucheck_exec.h share/gelucheck/exec/gelucheck_exec.c \
         share/gelucheck/exec/example_adapter.py share/gelucheck/examples/plugin/example.c \
         share/gelucheck/examples/plugin/CMakeLists.txt \
         share/gelucheck/examples/policies/example.ini; do
    [[ -e $prefix/$f ]] || fail "$f was not installed"
done
config=$(find "$prefix" -name gelucheckConfig.cmake | head -n 1)
pc=$(find "$prefix" -name gelucheck.pc | head -n 1)
[[ -n $config && -n $pc ]] || fail "gelucheckConfig.cmake or gelucheck.pc was not installed"

# the man page: no warning from groff (-ww: all of them)
warnings=$(groff -ww -z -man "$prefix/share/man/man1/gelucheck.1" 2>&1)
[[ -z $warnings ]] || fail "groff -ww -z -man gelucheck.1 warns: $warnings"
grep -q "gelucheck $version" "$prefix/share/man/man1/gelucheck.1" || fail "man page lacks $version"
# the completion: valid bash that completes gelucheck's commands
out=$(bash -c 'source "$1"; COMP_WORDS=(gelucheck r); COMP_CWORD=1; _gelucheck
               printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix/share/bash-completion/completions/gelucheck")
[[ $out == *run* && $out == *report* ]] || fail "bash completion of 'gelucheck r' gave: $out"

# one version: --version, pkg-config (gelucheck and geluref) and the CMake package
v=$("$prefix/bin/gelucheck" --version)
[[ $v == "gelucheck $version (geluref $version,"* ]] || fail "--version says '$v', want $version"
for m in gelucheck geluref; do
    got=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --modversion $m)
    [[ $got == "$version" ]] || fail "pkg-config $m says $got, want $version"
done
grep -q "PACKAGE_VERSION \"$version\"" "$(dirname "$config")/gelucheckConfigVersion.cmake" ||
    fail "gelucheckConfigVersion.cmake is not $version"

# nothing installed names the source or build tree (strings in the programs included; a
# sanitizer build's programs carry their source paths for the reports: text files only then)
binary=-a
if [[ ${GC_SANITIZED:-0} == 1 ]]; then
    binary=-I
    echo "sanitizer build: the programs' bytes are not searched for source paths"
fi
hits=$(grep -rlF $binary -e "$src/" -e "$build/" "$prefix" || true)
[[ -z $hits ]] || fail "installed files name the source or build tree: $hits"
for exe in "$prefix/bin/gelucheck" "$prefix/libexec/gelucheck/gelucheck-worker"; do
    if ldd "$exe" | grep -e "not found" -e "$src"; then
        fail "$exe: a library is missing or comes from the source or build tree"
    fi
done

# The built-ins this build has (its own list, outside the namespace), to be found again.
want=$("$build/cli/gelucheck" list | grep '^adapter ' | sort)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$prefix/share/gelucheck/examples/plugin" "$tmp/example-src"
cat > "$tmp/inside.sh" <<'INSIDE'
set -euo pipefail
prefix=$1 tmp=$2; shift 2
fail() { echo "check_installed (hidden trees): $*" >&2; exit 1; }
cd "$tmp"
export PATH=$prefix/bin:/usr/bin:/bin
list=$(gelucheck list 2>&1) || fail "gelucheck list from the install failed: $(printf "%s\n" "$list" | grep error)"
printf '%s\n' "$list" | grep '^adapter ' | sort > got.txt
diff want.txt got.txt || fail "gelucheck list from the install differs from the build's (above)"
# gelucheck scan starts the onnxruntime adapter's scripts itself: they load from the install
scan=$(gelucheck scan nosuch.onnx 2>&1 || true)
[[ $scan == *"cannot read model 'nosuch.onnx'"* || $scan == *"not in this build"* ]] ||
    fail "gelucheck scan from the install: $scan"
gelucheck list --adapter "exec:python3 $prefix/share/gelucheck/exec/example_adapter.py" > /dev/null ||
    fail "the installed exec example does not load"
cmake -S example-src -B example -DCMAKE_PREFIX_PATH="$prefix" > configure.log ||
    { cat configure.log; fail "the example does not configure with find_package(gelucheck)"; }
cmake --build example > build.log || { cat build.log; fail "the example does not build"; }
ctest --test-dir example --output-on-failure > ctest.log ||
    { cat ctest.log; fail "the example's gate (gelucheck_add_test) fails on the good build"; }
cmake -S example-src -B example -DEXAMPLE_REGRESSED=ON > /dev/null
cmake --build example > /dev/null
if ctest --test-dir example --output-on-failure > regressed.log; then
    cat regressed.log; fail "the example's gate passes the regressed build"
fi
grep -q '^FAIL: 3 kernels, .* 2 fail, 0 error' regressed.log ||
    { cat regressed.log; fail "the regressed build did not fail by its kernels"; }
echo "from the install: $(wc -l < got.txt) built-ins listed; the example's gate passed the good build and failed the regressed one"
INSIDE
printf '%s\n' "$want" > "$tmp/want.txt"
hide=("$build" "$src") # the build tree first: it may lie inside the source tree
mkdir "$tmp/probe"
if unshare -m mount -t tmpfs gelucheck-probe "$tmp/probe" 2>/dev/null; then
    # shellcheck disable=SC2016 # expanded by the inner shell
    unshare -m bash -c 'for d in "${@:3}"; do mount -t tmpfs gelucheck-hidden "$d"; done
                        for d in "${@:3}"; do [[ -z $(ls -A "$d" 2>/dev/null) ]] || exit 9; done
                        bash "$2/inside.sh" "$1" "$2"' _ "$prefix" "$tmp" "${hide[@]}"
    echo "source and build trees hidden (mount namespace): ${hide[*]}"
else
    echo "no mount namespace here (unshare -m and mount need root and no seccomp filter):" \
         "the trees stay visible (the path checks above still hold)"
    bash "$tmp/inside.sh" "$prefix" "$tmp"
fi
