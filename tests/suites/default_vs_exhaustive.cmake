# Does the default (sampled) run see the worst input?  scripts/default_vs_exhaustive runs
# kernels as they are and with --exhaustive (suites ulp and tail) and fails when the default's
# maximum ulp error is below half the exhaustive one or a finding kind is missing from it.
# Here two kernels that cancel at the zero of gelu_grad, glibc's erfc form and oneDNN's
# gelu_erf backward when this build has oneDNN (docs/suites.md has the table of every f32
# kernel of libm and oneDNN); two exhaustive f32 sweeps, 398 s measured on 2 shared cores: slow.
set(dve_kernels libm/grad_erfc.f32)
get_property(_dve_onednn GLOBAL PROPERTY GC_ADAPTER_onednn_STATE)
if(_dve_onednn STREQUAL "found")
    list(APPEND dve_kernels onednn/gelu_erf.bwd.f32)
endif()
add_test(NAME suites_default_vs_exhaustive
    COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/scripts/default_vs_exhaustive
            --gelucheck $<TARGET_FILE:gelucheck> ${dve_kernels})
set_tests_properties(suites_default_vs_exhaustive PROPERTIES LABELS slow TIMEOUT 1800)
