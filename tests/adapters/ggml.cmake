# Tests of the ggml adapter (adapters/ggml: gelucheck_ggml, a C exec adapter over ggml's prebuilt
# libraries), included by thirdparty.cmake when configure found it.  About 2 s together.
set(_ggml_dir ${CMAKE_CURRENT_LIST_DIR}/ggml)
set(_ggml_libs ${CMAKE_BINARY_DIR}/${GC_PKGLIBDIR}/ggml)

# ggml_cli(NAME RC ARGS OUT [ERR]): gelucheck ARGS ('|' separated) exits RC, stdout matches OUT
# (and stderr ERR) (tests/cli_check.cmake; regexes write [.] [(] rather than backslashes)
function(ggml_cli name rc args out)
    set(err "")
    if(ARGN)
        set(err "-DERR=${ARGN}")
    endif()
    add_test(NAME adapter_ggml_${name}
        COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=${rc}
                "-DOUT=${out}" ${err} -P ${PROJECT_SOURCE_DIR}/tests/cli_check.cmake)
endfunction()

# list: the version line, the generic x64 variant's three kernels, and the best variant this
# CPU runs (whichever it is) named as such
set(_v "ggml 0[.]19[.]0 [(]commit [0-9a-f]+; llama[.]cpp b[0-9]+, npm @node-llama-cpp/linux-x64 ")
set(_k "\n  kernel +func +dtype +description\n  gelu[.]f32[.]x64 +gelu_tanh +f32 +ggml_gelu: the tanh GELU [^\n]*answered from an f16 table")
string(APPEND _k "[^\n]*CPU variant x64 [(]libggml-cpu-x64[.]so, ggml_backend_score 1[):]")
string(APPEND _k "[^\n]*\n  gelu_quick[.]f32[.]x64 +gelu_sigmoid +f32 [^\n]*GGML_GELU_QUICK_FP16")
string(APPEND _k "[^\n]*\n  gelu_erf[.]f32[.]x64 +gelu +f32 +ggml_gelu_erf: 0[.]5f[*]x[*][(]1[+]erff")
string(APPEND _k "[^\n]*computed in float; erff of glibc ")
string(APPEND _k ".*the best this CPU runs, what llama[.]cpp loads here")
ggml_cli(list 0 "list|--adapter|ggml" "^adapter ggml [(]version ${_v}[0-9.]+[)]; exec[)]${_k}")

# every kernel bit for bit against its formula evaluated by hand, and the tables against MPFR
add_test(NAME adapter_ggml_values
    COMMAND /usr/bin/python3 ${_ggml_dir}/check_values.py $<TARGET_FILE:gelucheck>
            $<TARGET_FILE:gelucheck_ggml> ${_ggml_libs})

# a short run of the special and tail suites on the x64 kernels: what the source says they do.
# ggml_gelu returns +0.0f for x <= -10 (a zero of the wrong sign there and at -inf); the f16
# table of ggml_gelu_quick overflows from 65520 (f16 inf: inf there, NaN at -inf and below
# -65520); ggml_gelu_erf cancels in 1 + erff (0 from x = -5.5426, NaN at -inf)
set(_r "FAIL +ggml +gelu[.]f32[.]x64 +gelu_tanh f32 [^\n]*\n.*signed_zero +[0-9]+ +tail x<-10 +x = -10[.]770868 +got 0 +want -0")
string(APPEND _r ".*FAIL +ggml +gelu_quick[.]f32[.]x64 .*nan_output .*inf_output +[0-9]+ +tail x>=1 +x = 65535[.]97 +got inf")
string(APPEND _r ".*special x<-10 +x = -inf +got nan")
string(APPEND _r ".*FAIL +ggml +gelu_erf[.]f32[.]x64 .*special x<-10 +x = -inf +got nan")
string(APPEND _r ".*flush point x = -5[.]5425944, last non-zero x = -14[.]356068")
string(APPEND _r ".*FAIL: 3 kernels, 0 pass, 3 fail, 0 error")
ggml_cli(run 1 "run|--adapter|ggml|--kernel|gelu.f32.x64|--kernel|gelu_quick.f32.x64|--kernel|gelu_erf.f32.x64|--suite|special,tail|--samples|4096|--threads|1" "${_r}")

# Where ggml cannot be served, the adapter stops before 'ready' with the reason and gelucheck
# exits 3 quoting it: no libraries in the folder, or a libggml-base.so of another version (a
# stand-in that exports ggml_version() "0.18.0"), refused before anything else is looked up.
add_library(gc_test_fake_ggml_base SHARED ${_ggml_dir}/fake_ggml_base.c)
set_target_properties(gc_test_fake_ggml_base PROPERTIES OUTPUT_NAME ggml-base
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/ggml_fake)
target_link_libraries(gc_test_fake_ggml_base PRIVATE gelucheck_warnings)
set(_e "gelucheck: error: cannot load adapter ")
ggml_cli(missing 3 "list|--adapter|exec:$<TARGET_FILE:gelucheck_ggml> ${CMAKE_CURRENT_BINARY_DIR}/ggml_none" ""
    "^${_e}.*gelucheck_ggml: error: cannot load [^\n]*/ggml_none/libggml-base[.]so: ")
ggml_cli(version_mismatch 3 "list|--adapter|exec:$<TARGET_FILE:gelucheck_ggml> $<TARGET_FILE_DIR:gc_test_fake_ggml_base>" ""
    "^${_e}.*libggml-base[.]so is ggml 0[.]18[.]0 [(]commit 0000000[)], not the 0[.]19[.]0 whose API this adapter declares by hand: run scripts/setup")
set_tests_properties(adapter_ggml_version_mismatch PROPERTIES REQUIRED_FILES
                     $<TARGET_FILE:gc_test_fake_ggml_base>)
