# Bad-input tables (issue 8, docs/design.md section 10): every place outside input enters the
# command line, one row per hostile value, each asserting the exit status and the one-line
# message that names the source (option, file:line, file) and the problem.  Rows already in
# parse_cli.cmake, suites/run.cmake, suites/shard.cmake and reports/*.cmake are not repeated.
# Included from tests/CMakeLists.txt after those (cli_test).
set(e "gelucheck: error: ")
set(bd ${CMAKE_CURRENT_BINARY_DIR}/badinput)
add_test(NAME badinput_make_files
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/make_files.sh ${bd}
               ${CMAKE_CURRENT_LIST_DIR}/../reports/fixtures_r3/a.json)
set_tests_properties(badinput_make_files PROPERTIES FIXTURES_SETUP badinput_files LABELS cli)

# bad_test(NAME RC ARGS ERR): cli_test with nothing on stdout and the whole of stderr one
# line, the message ERR (a regex) after "gelucheck: error: "
function(bad_test name rc args err)
    cli_test(bad_${name} ${rc} "${args}" EMPTY_OUT ERR "^${e}${err}\n$")
    set_tests_properties(cli_bad_${name} PROPERTIES FIXTURES_REQUIRED badinput_files)
endfunction()

# bad_values(PREFIX ARGS OPT MESSAGE ROWS...): one bad_test per row "NAME=VALUE" of --OPT
# VALUE after ARGS; MESSAGE follows "bad --OPT 'VALUE': "
function(bad_values prefix args opt message)
    foreach(row IN LISTS ARGN)
        string(FIND "${row}" "=" eq)
        string(SUBSTRING "${row}" 0 ${eq} n)
        math(EXPR eq "${eq} + 1")
        string(SUBSTRING "${row}" ${eq} -1 v)
        string(REGEX REPLACE "([.+*?()^$])" "[\\1]" re "${v}")
        set(word "--${opt}|${v}")
        if(v STREQUAL "")
            set(word "--${opt}=") # an empty word would vanish from cli_check's argument list
        endif()
        bad_test(${prefix}_${n} 2 "${args}|${word}" "bad --${opt} '${re}': ${message}")
    endforeach()
endfunction()

# --- gelucheck run: values of options (exit 2, nothing run)
set(r "run|--adapter|libm")
string(REPEAT "1" 300 long)
# --range: the form, then each end (named LO or HI and quoted), then their order
bad_values(range "${r}" range "want LO:HI, finite numbers with LO <= HI"
    "no_colon=1" "three=1:2:3" "colons=::")
# bad_range(NAME VALUE MESSAGE): --range VALUE, MESSAGE (a regex) after "bad --range 'VALUE': "
function(bad_range name v message)
    string(REGEX REPLACE "([.+*?()^$])" "[\\1]" re "${v}")
    set(word "--range|${v}")
    if(v STREQUAL "")
        set(word "--range=")
    endif()
    bad_test(range_${name} 2 "run|--adapter|libm|${word}" "bad --range '${re}': ${message}")
endfunction()
bad_range(empty "" "want LO:HI, finite numbers with LO <= HI")
bad_range(no_hi "1:" "HI '' is empty")
bad_range(no_lo ":1" "LO '' is empty")
bad_range(colon ":" "LO '' is empty")
bad_range(nan_lo "nan:1" "LO 'nan' is NaN")
bad_range(nan_hi "1:-nan" "HI '-nan' is NaN")
bad_range(both_inf "-inf:inf" "LO '-inf' is not finite")
bad_range(hi_inf "0:infinity" "HI 'infinity' is not finite")
bad_range(huge "1e999:2" "LO '1e999' overflows binary64 [(]beyond [+]-1[.]7976931348623157e308[)]")
bad_range(huge_hi "0:1e400" "HI '1e400' overflows binary64 [(]beyond [+]-1[.]7976931348623157e308[)]")
bad_range(huge_hex "-0x1p99999:1"
    "LO '-0x1p99999' overflows binary64 [(]beyond [+]-1[.]7976931348623157e308[)]")
set(uf "underflows to 0 in binary64 [(]below the least subnormal, 2.-1074[)]")
bad_range(tiny_lo "1e-999:2" "LO '1e-999' ${uf}")
bad_range(tiny_hi "-1:-1e-400" "HI '-1e-400' ${uf}")
bad_range(tiny_hex "0x1p-1075:1" "LO '0x1p-1075' ${uf}")
bad_range(tiny_half "2.4e-324:1" "LO '2[.]4e-324' ${uf}")
bad_range(garbage_lo "1x:2" "LO '1x' is not a number")
bad_range(garbage_hi "1:2e" "HI '2e' is not a number")
bad_range(blank_lo " 1:2" "LO ' 1' is not a number")
bad_range(word "a:b" "LO 'a' is not a number")
bad_range(reversed "2:-2" "LO must not be above HI [(]LO = 2, HI = -2[)]")
# a 300-digit LO is a finite number (1.1e299), above HI
bad_range(long "${long}:2" "LO must not be above HI [(]LO = 1[.]1111111111111112e[+]299, HI = 2[)]")
# ... and what is accepted at the edges: a subnormal end is a value of binary64 (exit 0)
cli_test(range_subnormal_ok 0
    "run|--adapter|libm|--kernel|erf1p.f16|--suite|ulp|--range|-1e-310:4.9e-324|--progress|never")
bad_values(samples "${r}" samples "not an integer in 1[.][.]1099511627776"
    "two64=18446744073709551616" "max64=18446744073709551615" "exp=1e3" "garbage=10x"
    "hex=0x10" "blank= 10" "empty=" "zero=0" "neg=-1" "above=1099511627777" "e400=1e400"
    "plus=+10")
bad_values(threads "${r}" threads "not an integer in 1[.][.]1024"
    "neg=-1" "huge=99999" "word=two" "empty=" "frac=1.5" "zero=0" "above=1025"
    "two32=4294967297" "two64=18446744073709551616" "e400=1e400" "garbage=2x" "blank= 2")
bad_values(seed "${r}" seed "not an integer in 0[.][.]9223372036854775807"
    "neg=-1" "empty=" "frac=1.5" "two64=18446744073709551616" "hex=0x10"
    "two63=9223372036854775808" "e400=1e400" "garbage=1x")
foreach(opt timeout startup-timeout)
    bad_values(${opt} "${r}" ${opt} "not a number of seconds > 0"
        "zero=0" "neg=-1" "nan=nan" "inf=inf" "huge=1e999" "empty=" "word=ten")
endforeach()
bad_test(progress_empty 2 "${r}|--progress="
    "bad --progress '' [(]expected one of: auto, always, never[)]")
bad_test(progress_upper 2 "${r}|--progress|ALWAYS"
    "bad --progress 'ALWAYS' [(]expected one of: auto, always, never[)]")
# --memory-limit SIZE: bytes, or K, M, G (either case); 0 for none; at most 2^63 - 1 bytes
set(ml_want "[(]want bytes, or a number with K, M or G for KiB, MiB, GiB, or 0 for no limit[)]")
bad_values(memory_limit_empty "${r}" memory-limit "it is empty ${ml_want}" "empty=")
bad_values(memory_limit_neg "${r}" memory-limit "it is negative ${ml_want}" "neg=-1" "neg_g=-4G")
bad_values(memory_limit_nan "${r}" memory-limit "it is not a number ${ml_want}"
    "word=lots" "blank= 4G" "plus=+4G" "unit=G")
bad_values(memory_limit_huge "${r}" memory-limit
    "it is too large [(]at most 9223372036854775807 bytes[)] ${ml_want}"
    "two64=18446744073709551616" "two63=9223372036854775808" "giga=8589934592G"
    "huge=99999999999999999999999")
foreach(row "x=4X=X" "gb=4GB=GB" "tera=1T=T" "frac=1.5G=[.]5G" "blank=4 G= G" "kib=64KiB=KiB")
    string(REPLACE "=" ";" row "${row}")
    list(GET row 0 n)
    list(GET row 1 v)
    list(GET row 2 suffix)
    string(REGEX REPLACE "([.+*?()^$])" "[\\1]" re "${v}")
    bad_test(memory_limit_suffix_${n} 2 "${r}|--memory-limit|${v}"
        "bad --memory-limit '${re}': unknown suffix '${suffix}' ${ml_want}")
endforeach()
cli_test(memory_limit_missing 2 "run|--adapter|libm|--memory-limit" EMPTY_OUT
    ERR "^${e}option '--memory-limit' needs a value\n$")
# --isolation process|none, for run and list alike (exact words: no case folding)
foreach(cmd run list)
    set(a "${cmd}|--adapter|libm")
    foreach(row "empty=" "upper=PROCESS" "word=worker" "list=process,none" "prefix=proc")
        string(FIND "${row}" "=" eq)
        string(SUBSTRING "${row}" 0 ${eq} n)
        math(EXPR eq "${eq} + 1")
        string(SUBSTRING "${row}" ${eq} -1 v)
        set(word "--isolation|${v}")
        if(v STREQUAL "")
            set(word "--isolation=")
        endif()
        bad_test(isolation_${cmd}_${n} 2 "${a}|${word}"
            "bad --isolation '${v}' [(]expected one of: process, none[)]")
    endforeach()
    cli_test(isolation_${cmd}_missing 2 "${cmd}|--adapter|libm|--isolation" EMPTY_OUT
        ERR "^${e}option '--isolation' needs a value\n$")
endforeach()
bad_test(shard_zero_zero 2 "${r}|--shard|0/0" "bad --shard '0/0': N must be in 1[.][.]1000000")
bad_test(shard_k_above 2 "${r}|--shard|3/2"
    "bad --shard '3/2': K must be below N [(]the shards of 2 are 0/2 [.][.] 1/2[)]")
bad_test(shard_empty 2 "${r}|--shard="
    "bad --shard '': want K/N, shard K [(]counted from 0[)] of N, e[.]g[.] 0/4")
bad_values(shard_form "${r}" shard "want K/N, shard K [(]counted from 0[)] of N, e[.]g[.] 0/4"
    "neg=-1/4" "neg_n=0/-4" "no_n=1/" "no_k=/4" "slash=/" "frac=0.5/4" "e400=1e400/1e401"
    "garbage=0/4x" "blank= 0/4" "three=0/4/8" "plus=+0/4" "word=one/two" "hex=0x1/4")
bad_values(shard_n "${r}" shard "N must be in 1[.][.]1000000"
    "n_two64=0/18446744073709551616" "n_above=0/1000001" "n_two32=0/4294967296")
bad_test(shard_k_two64 2 "${r}|--shard|18446744073709551616/4"
    "bad --shard '18446744073709551616/4': K must be below N [(]the shards of 4 are 0/4 [.][.] 3/4[)]")
bad_test(shard_k_equal 2 "${r}|--shard|1000000/1000000"
    "bad --shard '1000000/1000000': K must be below N [(]the shards of 1000000 are 0/1000000 [.][.] 999999/1000000[)]")
bad_test(adapter_empty 2 "run|--adapter="
    "--adapter needs a spec: a built-in name, plugin:PATH, PATH[.]so or exec:COMMAND")
# output paths that cannot be files: caught before anything runs (not exit 4 after the run)
bad_test(json_empty 2 "${r}|--json=" "cannot write --json '': empty file name")
bad_test(json_folder 2 "${r}|--json|${bd}/dir.json"
    "cannot write --json '[^\n]*/dir[.]json': Is a directory")
bad_test(json_slash 2 "${r}|--json|${bd}/new/"
    "cannot write --json '[^\n]*/new/': Is a directory")
bad_test(junit_empty 2 "${r}|--junit=" "cannot write --junit '': empty file name")
bad_test(merge_json_empty 2 "merge|${bd}/empty.json|--json="
    "cannot write --json '': empty file name")

# --- policy INI files (--policy FILE): exit 2 with FILE:LINE and the problem
set(r "run|--adapter|libm|--kernel|erf1p.f16|--suite|special|--policy")
bad_test(policy_unknown_section 2 "${r}|${bd}/unknown_section.ini"
    "[^\n]*/unknown_section[.]ini:1: unknown section [[]gelu[.]f33[]] [(]expected [[]policy[]], [[]all[]], [[]DTYPE[]], [[]FUNC[]], [[]FUNC[.]DTYPE[]] or [[]kernel ADAPTER/KERNEL[]][)]")
bad_test(policy_unknown_key 2 "${r}|${bd}/unknown_key.ini"
    "[^\n]*/unknown_key[.]ini:3: unknown key 'max_ulps' in [[]all[]] [(]did you mean 'max_ulp'[?][)]")
bad_test(policy_bad_value 2 "${r}|${bd}/bad_value.ini"
    "[^\n]*/bad_value[.]ini:2: bad value 'four' for 'max_ulp' in [[]all[]]: expected a number >= 0 or inf")
bad_test(policy_duplicate_key 2 "${r}|${bd}/duplicate_key.ini"
    "[^\n]*/duplicate_key[.]ini:3: duplicate key 'ftz' in [[]f32[]] [(]first set on line 2[)]")
bad_test(policy_nul 2 "${r}|${bd}/nul.ini" "[^\n]*/nul[.]ini:3: nul byte in line")
bad_test(policy_long_line 2 "${r}|${bd}/long_line.ini"
    "[^\n]*/long_line[.]ini:2: line longer than 199 characters")
bad_test(policy_garbage 2 "${r}|${bd}/garbage.ini"
    "[^\n]*/garbage[.]ini:1: syntax error: expected [[]section[]] or key = value")
bad_test(policy_folder 2 "${r}|${bd}/dir.ini"
    "cannot read policy file '[^\n]*/dir[.]ini': Is a directory")
# an empty file is the default policy: erf1p.f16 fails it (NaN at -inf), exit 1 as without
cli_test(bad_policy_empty_ok 1 "${r}|${bd}/empty.ini")
set_tests_properties(cli_bad_policy_empty_ok PROPERTIES FIXTURES_REQUIRED badinput_files)

# (a lone '[' is written '.' in these regexes: an unbalanced bracket joins CMake list items)
# --- results read back: gelucheck report and run --baseline name the file and the problem;
# compare and merge share the reader (one row each for the NUL byte and the depth limit)
set(json_rows
    "empty=line 1, column 0: '.' or '{' expected near end of file"
    "truncated=line 52, column 3: string or '}' expected near end of file"
    "nul=NUL byte at offset 32"
    "deep=line 1, column 2049: maximum parsing depth reached near '.'"
    "huge_integer=line 1, column 79: too big integer"
    "huge_real=line 1, column 61: real number overflow near '1e999'"
    "garbage=line 1, column 0: unable to decode byte 0xff"
    "kernels_object='kernels' is not an array"
    "kernel_number=kernels[[]0[]]: not an object"
    "schema_number='schema' is not a string [(]want 'gelucheck-result/1'[)]"
    "metrics_array=kernels[[]0[]][.]suites[[]0[]]: 'metrics' is not an object"
    "dtype_number=kernels[[]0[]]: 'dtype' is not a string"
    "dir=cannot read: Is a directory")
foreach(row IN LISTS json_rows)
    string(FIND "${row}" "=" eq)
    string(SUBSTRING "${row}" 0 ${eq} n)
    math(EXPR eq "${eq} + 1")
    string(SUBSTRING "${row}" ${eq} -1 why)
    set(f ${bd}/${n}.json)
    bad_test(report_${n} 2 "report|${f}|--report|${bd}/out" "[^\n]*/${n}[.]json: ${why}")
    bad_test(baseline_${n} 2 "run|--adapter|libm|--kernel|erf1p.f16|--baseline|${f}"
        "[^\n]*/${n}[.]json: ${why}")
endforeach()
bad_test(compare_nul 2 "compare|${bd}/nul.json" "[^\n]*/nul[.]json: NUL byte at offset 32")
bad_test(compare_deep 2 "compare|${bd}/deep.json"
    "[^\n]*/deep[.]json: line 1, column 2049: maximum parsing depth reached near '.'")
bad_test(merge_nul 2 "merge|${bd}/nul.json|--json|${bd}/m.json"
    "[^\n]*/nul[.]json: NUL byte at offset 32")
bad_test(merge_deep 2 "merge|${bd}/deep.json|--json|${bd}/m.json"
    "[^\n]*/deep[.]json: line 1, column 2049: maximum parsing depth reached near '.'")

# --- --baseline-tolerance ULPS[,FRACTION] and --adapter-name (docs/ci.md)
bad_values(tolerance_ulps "run|--adapter|libm" baseline-tolerance "ULPS '[^']*' is not a finite number >= 0"
    "empty=" "word=many" "negative=-1" "inf=inf" "nan=nan,0.1" "comma_first=,0.5")
bad_values(tolerance_fraction "run|--adapter|libm" baseline-tolerance "FRACTION '[^']*' is not a number in [[]0, 1[]]"
    "above_one=1,1.5" "negative=1,-0.1" "empty=2," "word=2,half")
bad_test(adapter_name_first 2 "run|--adapter-name|x|--adapter|libm"
    "--adapter-name 'x' names the --adapter before it: give that first")
bad_test(adapter_name_twice 2 "run|--adapter|libm|--adapter-name|a|--adapter-name|b"
    "a second --adapter-name [(]'b'[)] for adapter 'libm', named 'a' already")
bad_test(adapter_name_chars 2 "run|--adapter|libm|--adapter-name|a/b"
    "bad --adapter-name 'a/b': a name is 1 to 128 of [[]A-Za-z0-9_.-[]]")
bad_test(adapter_name_dup 2 "run|--adapter|libm|--adapter|mutants|--adapter-name|libm"
    "adapters 'libm' and 'mutants' both have the name 'libm': tell them apart with --adapter-name NAME after one of them")
