# tests of the suites module: the vector and fingerprint suites (suites/vector*.c,
# suites/fingerprint*.c).  Included from tests/CMakeLists.txt (paths relative to tests/).

# A test-only plug-in (suites/fixture_vf.c): x Phi(x/1.3) declared gelu (the fingerprint must
# call it scaled with s near 1.3), and a kernel that writes y[0] when n == 0.
add_library(gelucheck_fixture_vf MODULE suites/fixture_vf.c)
set_target_properties(gelucheck_fixture_vf PROPERTIES
    OUTPUT_NAME fixture_vf C_VISIBILITY_PRESET hidden)
target_link_libraries(gelucheck_fixture_vf PRIVATE gelucheck_plugin_abi gelucheck_warnings m)

foreach(t vector fingerprint)
    add_executable(test_suites_${t} suites/test_${t}.c suites/test_vf_common.c)
    target_compile_definitions(test_suites_${t} PRIVATE
        FIXTURE_VF="$<TARGET_FILE:gelucheck_fixture_vf>")
    target_include_directories(test_suites_${t} PRIVATE suites)
    target_link_libraries(test_suites_${t} PRIVATE gc_suites PkgConfig::CMOCKA
                                                    gelucheck_warnings m)
    add_dependencies(test_suites_${t} gelucheck_fixture_vf)
    add_test(NAME suites_${t} COMMAND test_suites_${t})
endforeach()
