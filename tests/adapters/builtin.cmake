# Tests of the built-in adapters (adapters/libm, adapters/mutants): included from
# tests/CMakeLists.txt.  Both are fast (a few seconds): no label.
set(_adapt ${CMAKE_CURRENT_LIST_DIR})

add_library(adapt_util STATIC ${_adapt}/adapt_util.c)
target_include_directories(adapt_util PUBLIC ${_adapt})
target_link_libraries(adapt_util PUBLIC geluref gelucheck_plugin_abi PkgConfig::CMOCKA m
                                 PRIVATE gelucheck_warnings)

add_executable(test_adapters_libm ${_adapt}/test_libm.c ${_adapt}/test_libm_half.c)
target_link_libraries(test_adapters_libm PRIVATE adapt_util gc_libm gelucheck_warnings)
add_test(NAME adapters_libm COMMAND test_adapters_libm)

add_executable(test_adapters_mutants ${_adapt}/test_mutants.c ${_adapt}/test_mutants_formula.c
                                     ${_adapt}/test_mutants_special.c
                                     ${_adapt}/test_mutants_vector.c)
target_link_libraries(test_adapters_mutants PRIVATE adapt_util gc_mutants gc_libm
                                            gelucheck_warnings)
add_test(NAME adapters_mutants COMMAND test_adapters_mutants)
