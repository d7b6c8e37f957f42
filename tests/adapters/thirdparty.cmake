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

# The worked conversion audit (docs/conversion-audit.md): needs torch and onnxruntime.
get_property(_torch GLOBAL PROPERTY GC_ADAPTER_torch_STATE)
get_property(_ort GLOBAL PROPERTY GC_ADAPTER_onnxruntime_STATE)
if(_torch STREQUAL "exec" AND _ort STREQUAL "exec")
    add_test(NAME conversion_audit
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/conversion/check_conversion.py
                     ${PROJECT_SOURCE_DIR}/docs/conversion-audit/run.sh $<TARGET_FILE:gelucheck>
                     ${CMAKE_CURRENT_BINARY_DIR}/conversion_audit)
else()
    add_test(NAME conversion_audit COMMAND ${CMAKE_CURRENT_LIST_DIR}/skipped.sh
             conversion-audit "needs the torch and onnxruntime adapters")
    set_tests_properties(conversion_audit PROPERTIES SKIP_RETURN_CODE 77)
endif()

# The worked model audit (docs/model-audit.md): needs torch and onnxruntime too; about 20 s.
if(_torch STREQUAL "exec" AND _ort STREQUAL "exec")
    add_test(NAME model_audit
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/model_audit/check_model_audit.py
                     ${PROJECT_SOURCE_DIR}/docs/model-audit/run.sh $<TARGET_FILE:gelucheck>
                     ${PROJECT_SOURCE_DIR}/docs/model-audit.md
                     ${CMAKE_CURRENT_BINARY_DIR}/model_audit)
else()
    add_test(NAME model_audit COMMAND ${CMAKE_CURRENT_LIST_DIR}/skipped.sh
             model-audit "needs the torch and onnxruntime adapters")
    set_tests_properties(model_audit PROPERTIES SKIP_RETURN_CODE 77)
endif()
