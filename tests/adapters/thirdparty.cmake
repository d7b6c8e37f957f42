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

# The worked model audit (docs/model-audit.md): needs torch and onnxruntime too.  model_audit
# runs run.sh with the native build alone (about 30 s of CPU); model_audit_runtimes (slow)
# runs it as the page shows it, the WebAssembly build and the float16 export beside it (about
# 55 s), and needs onnxruntime-web and python3-onnx too.
get_property(_ortweb GLOBAL PROPERTY GC_ADAPTER_onnxruntime-web_STATE)
if(_torch STREQUAL "exec" AND _ort STREQUAL "exec")
    add_test(NAME model_audit
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/model_audit/check_model_audit.py
                     ${PROJECT_SOURCE_DIR}/docs/model-audit/run.sh $<TARGET_FILE:gelucheck>
                     ${PROJECT_SOURCE_DIR}/docs/model-audit.md
                     ${CMAKE_CURRENT_BINARY_DIR}/model_audit --native-only)
else()
    add_test(NAME model_audit COMMAND ${CMAKE_CURRENT_LIST_DIR}/skipped.sh
             model-audit "needs the torch and onnxruntime adapters")
    set_tests_properties(model_audit PROPERTIES SKIP_RETURN_CODE 77)
endif()
execute_process(COMMAND /usr/bin/python3 -c "import onnx" RESULT_VARIABLE _ma_no_onnx
                OUTPUT_QUIET ERROR_QUIET)
if(_torch STREQUAL "exec" AND _ort STREQUAL "exec" AND _ortweb STREQUAL "exec" AND
   _ma_no_onnx EQUAL 0)
    add_test(NAME model_audit_runtimes
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/model_audit/check_model_audit.py
                     ${PROJECT_SOURCE_DIR}/docs/model-audit/run.sh $<TARGET_FILE:gelucheck>
                     ${PROJECT_SOURCE_DIR}/docs/model-audit.md
                     ${CMAKE_CURRENT_BINARY_DIR}/model_audit_runtimes)
else()
    add_test(NAME model_audit_runtimes COMMAND ${CMAKE_CURRENT_LIST_DIR}/skipped.sh
             model-audit "needs the torch, onnxruntime and onnxruntime-web adapters and python3-onnx")
    set_tests_properties(model_audit_runtimes PROPERTIES SKIP_RETURN_CODE 77)
endif()
set_tests_properties(model_audit_runtimes PROPERTIES LABELS slow)
