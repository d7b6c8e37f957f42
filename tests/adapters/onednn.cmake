# Tests of the onednn adapter (adapters/onednn), included by thirdparty.cmake when configure
# found libdnnl.  Fast (a few seconds): no label.
#   adapters_onednn        the cmocka group as the CPU is
#   adapters_onednn_avx2   the same with DNNL_MAX_CPU_ISA=AVX2: no bf16, oneDNN's AVX2 code
#   cli_onednn_*           gelucheck list / run on the adapter
add_executable(test_adapters_onednn ${CMAKE_CURRENT_LIST_DIR}/test_onednn.c
                                    ${CMAKE_CURRENT_LIST_DIR}/test_onednn_values.c
                                    ${CMAKE_CURRENT_LIST_DIR}/test_onednn_epilogue.c)
target_link_libraries(test_adapters_onednn PRIVATE adapt_util gc_onednn gelucheck_warnings)
add_test(NAME adapters_onednn COMMAND test_adapters_onednn)
add_test(NAME adapters_onednn_avx2 COMMAND test_adapters_onednn)
set_tests_properties(adapters_onednn_avx2 PROPERTIES ENVIRONMENT DNNL_MAX_CPU_ISA=AVX2)

cli_test(onednn_list 0 "list|--adapter|onednn"
    OUT "adapter onednn [(]version oneDNN 2[.][0-9]+[.][0-9]+[^\n]*[)].*\n  gelu_erf[.]fwd[.]f32 +gelu +f32 +gelu y = 0[.]5 x [(]1 [+] erf[(]x/sqrt2[)][)].*impl [a-z]+:[^ ]+ on CPU ISA .*\n  gelu_tanh[.]bwd[.]f32 +gelu_tanh_grad +f32 ")
# oneDNN's erf GELU computes 1 + erf(x/sqrt2) in f32: it cancels to 0 near x = -5.54, far
# above the last x whose GELU is non-zero (-14.36), and S + S erf is -inf + inf = NaN at -inf.
cli_test(onednn_run_erf_fwd 1
    "run|--adapter|onednn|--kernel|gelu_erf.fwd.f32|--suite|ulp,special|--samples|4096"
    OUT "^FAIL +onednn +gelu_erf[.]fwd[.]f32 +gelu f32  worst: premature_flush at x = [^\n]*\n +premature_flush +[0-9]+  ulp [^\n]*\n +why: 1 [+] erf[(]x/sqrt2[)] cancels[^\n]*\n[^\n]*\n +fix: compute Phi[(]x[)] = erfc[(]-x/sqrt2[)]/2.*\n +special_value +1  special x<-10  x = -inf  got nan ")
# the tanh backward's 0.5 (1 + T)(1 + G2 (1 - T)): G2 overflows to inf while 1 - T = 0
cli_test(onednn_run_tanh_bwd 1
    "run|--adapter|onednn|--kernel|gelu_tanh.bwd.f32|--suite|ulp,special|--samples|4096"
    OUT "^FAIL +onednn +gelu_tanh[.]bwd[.]f32 +gelu_tanh_grad f32  worst: nan_output at x = [^\n]*\n.*\n +nan_output +[0-9]+  ")
