# tests of the suites module: the special and identity suites.
# Included from tests/CMakeLists.txt (paths relative to tests/).

# The fixture plug-in (tests/suites/run.cmake) returns correctly rounded bits: argv[1].
add_library(test_si_util STATIC suites/test_identity_util.c)
target_link_libraries(test_si_util PUBLIC gc_suites PkgConfig::CMOCKA PRIVATE gelucheck_warnings)
foreach(t special identity)
    add_executable(test_suites_${t} suites/test_${t}.c)
    target_link_libraries(test_suites_${t} PRIVATE test_si_util gelucheck_warnings m)
    add_dependencies(test_suites_${t} gelucheck_fixture_cr)
    add_test(NAME suites_${t}
             COMMAND test_suites_${t} plugin:$<TARGET_FILE:gelucheck_fixture_cr>)
endforeach()
