# The third-party adapters (issue 6).  An adapter this build has gets the tests in
# tests/adapters/NAME.cmake; one configure skipped gets a single test, adapter_NAME, that is
# skipped with the reason (and fails when CI=true: tests/adapters/skipped.sh).
foreach(a IN LISTS GC_THIRDPARTY_ADAPTERS)
    get_property(state GLOBAL PROPERTY GC_ADAPTER_${a}_STATE)
    get_property(reason GLOBAL PROPERTY GC_ADAPTER_${a}_REASON)
    if(state STREQUAL "skipped" OR NOT state)
        add_test(NAME adapter_${a} COMMAND ${CMAKE_CURRENT_LIST_DIR}/skipped.sh ${a} "${reason}")
        set_tests_properties(adapter_${a} PROPERTIES SKIP_RETURN_CODE 77)
    elseif(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${a}.cmake)
        include(${CMAKE_CURRENT_LIST_DIR}/${a}.cmake)
    else()
        message(FATAL_ERROR "adapter ${a} is built but has no tests/adapters/${a}.cmake")
    endif()
endforeach()
