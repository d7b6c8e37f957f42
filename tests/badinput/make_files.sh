#!/bin/sh
# Writes the hostile input files of tests/badinput/cli.cmake into folder $1 (printf only, so
# that every byte is visible here; NUL bytes cannot travel through CMake).  $2: a valid result
# (tests/reports/fixtures_r3/a.json) to cut short.
set -eu
d=$1
a=$2
mkdir -p "$d/dir.ini" "$d/dir.json"
cd "$d"
# policy INI files
printf '[gelu.f33]\nmax_ulp = 1\n' >unknown_section.ini
printf '[all]\nmax_ulp = 1\nmax_ulps = 2\n' >unknown_key.ini
printf '[all]\nmax_ulp = four\n' >bad_value.ini
printf '[f32]\nftz = warn\nftz = fail\n' >duplicate_key.ini
printf '[all]\nmax_ulp = 4\nftz\000 = warn\n' >nul.ini
{ printf '[all]\n; '; head -c 102400 /dev/zero | tr '\000' x; printf '\n'; } >long_line.ini
printf '\377\376\001\033[2J\200\n\000\377' >garbage.ini
: >empty.ini
# results and baselines
: >empty.json
head -c 1000 "$a" >truncated.json
printf '{"schema": "gelucheck-result/1",\000"kernels": []}' >nul.json
{ head -c 100000 /dev/zero | tr '\000' '['; head -c 100000 /dev/zero | tr '\000' ']'; } >deep.json
printf '{"schema": "gelucheck-result/1", "kernels": [], "seed": 99999999999999999999999}\n' \
    >huge_integer.json
printf '{"schema": "gelucheck-result/1", "kernels": [], "seed": 1e999}\n' >huge_real.json
printf '\377\376\001\033[2J\200\n' >garbage.json
printf '{"schema": "gelucheck-result/1", "kernels": {}}\n' >kernels_object.json
printf '{"schema": "gelucheck-result/1", "kernels": [17]}\n' >kernel_number.json
printf '{"schema": 1, "kernels": []}\n' >schema_number.json
k='"adapter": "libm", "kernel": "k", "func": "gelu"'
printf '{"schema": "gelucheck-result/1", "kernels": [{%s, "dtype": "f32", "verdict": "pass", %s}]}\n' \
    "$k" '"suites": [{"name": "ulp", "verdict": "pass", "metrics": [], "findings": []}]' \
    >metrics_array.json
printf '{"schema": "gelucheck-result/1", "kernels": [{%s, "dtype": 32, "verdict": "pass", %s}]}\n' \
    "$k" '"suites": []' >dtype_number.json
