# gelucheck_add_test(NAME name PLUGIN target [KERNELS kernel...] [POLICY name-or-file]
#                    [BASELINE file] [ARGS arg...])
#
# Registers the ctest test NAME that runs
#   gelucheck run --adapter $<TARGET_FILE:target> [--kernel K]... [--policy P]
#                 [--baseline FILE] --json NAME.json --junit NAME.junit.xml [ARGS...]
# and passes when gelucheck exits 0: a kernel that fails the policy (exit 1), a regression
# against the baseline (exit 1), a plug-in that cannot be loaded (3) or anything worse fails
# the test.  The result and the JUnit file are written to the current binary folder.
#   PLUGIN    a MODULE or SHARED library target exporting gelucheck_plugin_entry
#   KERNELS   kernel names of the plug-in to run (default: all of them)
#   POLICY    strict, faithful, default or lenient, or a policy file (INI; a relative
#             path is taken from the current source folder); default: default
#   BASELINE  a result or a compact baseline (gelucheck baseline); relative paths as POLICY's
#   ARGS      more options for gelucheck run (--samples, --suite, --dtype, ...)
# The test gets the label gelucheck.  gelucheck::gelucheck must exist: find_package(gelucheck)
# defines it (in gelucheck's own build, an alias of the program).
function(gelucheck_add_test)
    cmake_parse_arguments(PARSE_ARGV 0 GCT "" "NAME;PLUGIN;POLICY;BASELINE" "KERNELS;ARGS")
    if(GCT_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "gelucheck_add_test: unknown arguments: ${GCT_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT GCT_NAME)
        message(FATAL_ERROR "gelucheck_add_test: NAME is required")
    endif()
    if(NOT GCT_PLUGIN)
        message(FATAL_ERROR "gelucheck_add_test(${GCT_NAME}): PLUGIN is required")
    endif()
    if(NOT TARGET ${GCT_PLUGIN})
        message(FATAL_ERROR "gelucheck_add_test(${GCT_NAME}): PLUGIN '${GCT_PLUGIN}' is not a "
                            "target (add_library(${GCT_PLUGIN} MODULE ...) first)")
    endif()
    if(NOT TARGET gelucheck::gelucheck)
        message(FATAL_ERROR "gelucheck_add_test(${GCT_NAME}): no gelucheck::gelucheck: "
                            "find_package(gelucheck) first")
    endif()
    set(cmd run --adapter $<TARGET_FILE:${GCT_PLUGIN}>)
    foreach(k IN LISTS GCT_KERNELS)
        list(APPEND cmd --kernel ${k})
    endforeach()
    if(GCT_POLICY)
        if(GCT_POLICY MATCHES "^(strict|faithful|default|lenient)$")
            list(APPEND cmd --policy ${GCT_POLICY})
        else()
            get_filename_component(p "${GCT_POLICY}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
            if(NOT EXISTS "${p}")
                message(FATAL_ERROR "gelucheck_add_test(${GCT_NAME}): POLICY '${GCT_POLICY}' "
                                    "is neither a built-in policy nor a file (${p})")
            endif()
            list(APPEND cmd --policy ${p})
        endif()
    endif()
    if(GCT_BASELINE)
        get_filename_component(b "${GCT_BASELINE}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
        if(NOT EXISTS "${b}")
            message(FATAL_ERROR "gelucheck_add_test(${GCT_NAME}): BASELINE '${b}' not found")
        endif()
        list(APPEND cmd --baseline ${b})
    endif()
    list(APPEND cmd --json ${CMAKE_CURRENT_BINARY_DIR}/${GCT_NAME}.json
                    --junit ${CMAKE_CURRENT_BINARY_DIR}/${GCT_NAME}.junit.xml
                    --progress never ${GCT_ARGS})
    add_test(NAME ${GCT_NAME} COMMAND $<TARGET_FILE:gelucheck::gelucheck> ${cmd})
    set_property(TEST ${GCT_NAME} APPEND PROPERTY LABELS gelucheck)
endfunction()
