# Tests of the `musl` adapter (adapters/musl), included by thirdparty.cmake when configure
# built it.  test_adapters_musl (cmocka): its table, known values against the reference,
# exact IEEE results, and the comparison with glibc's libm adapter; then the command line.
add_executable(test_adapters_musl ${CMAKE_CURRENT_LIST_DIR}/musl/test_musl.c
                                  ${CMAKE_CURRENT_LIST_DIR}/musl/test_musl_compare.c)
get_property(musl_version GLOBAL PROPERTY GC_MUSL_VERSION) # adapters/musl found it
target_compile_definitions(test_adapters_musl PRIVATE MUSL_VERSION="${musl_version}")
target_link_libraries(test_adapters_musl PRIVATE gc_adapters adapt_util gc_libm geluref
                                                 PkgConfig::CMOCKA gelucheck_warnings m)
add_dependencies(test_adapters_musl gc_musl_adapter)
add_test(NAME adapter_musl COMMAND test_adapters_musl musl)
add_test(NAME adapter_musl_compare COMMAND test_adapters_musl compare)

# musl_cli(NAME RC ARGS OUT): gelucheck ARGS ('|' separated) exits RC, stdout matches OUT
# (tests/cli_check.cmake; regexes write [.] [(] rather than backslashes).
function(musl_cli name rc args out)
    add_test(NAME adapter_musl_${name}
        COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=${rc}
                "-DOUT=${out}" -P ${PROJECT_SOURCE_DIR}/tests/cli_check.cmake)
endfunction()

string(REPLACE "." "[.]" v "${musl_version}")
set(lib "musl ${v} libm [(]static, musl-gcc[)]")
musl_cli(list 0 "list|--adapter|musl"
    "^adapter musl [(]version ${lib}; exec[)]\n.*\n  erf1p[.]f32 +gelu +f32 +gelu 0[.]5f[*]x[*][(]1[+]erff[(]x[*][(]float[)]M_SQRT1_2[)][)], all in float; ${lib}\n.*  tanh[.]bf16 +gelu_tanh +bf16 ")
# the float erf form fails the default policy: it flushes to 0 below -5.5426 (1 + erff(x/sqrt2)
# rounds to 0; the last x with a non-zero GELU is -14.356) and gives NaN at -inf (-inf * 0)
musl_cli(run_erf1p 1
    "run|--adapter|musl|--kernel|erf1p.f32|--suite|ulp,special,tail|--samples|4096|--threads|2"
    "^FAIL +musl +erf1p[.]f32 +gelu f32  worst: premature_flush at x = [^\n]*\n.*flush point x = -5[.]542594[0-9]*, last non-zero x = -14[.]356068.*\nFAIL: 1 kernel, 0 pass, 1 fail, .*special_value 1")
# musl's erff and erf (< 1 ulp claimed) meet the default policy (4 ulp, exact specials)
musl_cli(run_erf 0
    "run|--adapter|musl|--kernel|erf_c99.f32|--kernel|erf_c99.f64|--suite|ulp,special,tail|--samples|4096|--threads|2"
    "PASS +musl +erf_c99[.]f32 .*PASS +musl +erf_c99[.]f64 .*\nPASS: 2 kernels, 2 pass, 0 fail")
