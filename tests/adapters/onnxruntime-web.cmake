# The onnxruntime-web adapter (adapters/onnxruntime-web: the onnxruntime adapter's script with
# --web; included by thirdparty.cmake when configure found it): its kernel list, the protocol
# and known values spoken to it directly, the fused kernels bit for bit, one family's suites
# held to the native build's bounds, and the comparison with onnxruntime (same kernel names;
# differing outputs counted).  Scripts: tests/adapters/onnxruntime/.
set(web_dir ${CMAKE_CURRENT_LIST_DIR}/onnxruntime)
set(web_script ${PROJECT_SOURCE_DIR}/adapters/onnxruntime/gelucheck_ort.js)
set(web_work ${CMAKE_CURRENT_BINARY_DIR}/onnxruntime-web)
file(MAKE_DIRECTORY ${web_work})
set(web_python /usr/bin/python3)
if(NOT EXISTS ${web_python})
    find_program(web_python NAMES python3 REQUIRED)
endif()

# list: the version with the execution provider, the same kernels as the native build
cli_test(onnxruntime-web_list 0 "list|--adapter|onnxruntime-web"
    OUT "^adapter onnxruntime-web [(]version onnxruntime-web 1[.]30[.]0 [(]ORT 1[.]30[.]0, WebAssembly [(]wasm[)] execution provider, [^\n]*left out: ms_quickgelu[.]f16[.]noopt.*\n  gelu20[.]f32 +gelu +f32 .*\n  ms_quickgelu[.]f32 +gelu_sigmoid +f32 +com[.]microsoft QuickGelu[^\n]*WebAssembly [(]wasm[)] execution provider")
add_test(NAME onnxruntime-web_protocol
    COMMAND ${web_python} ${web_dir}/check_protocol.py builtin ${GC_NODE_EXECUTABLE} ${web_script} --web)
add_test(NAME onnxruntime-web_fused
    COMMAND ${web_python} ${web_dir}/check_fused.py ${GC_NODE_EXECUTABLE} ${web_script} --web)
# a short suite run: the erf family (its bounds come from the formula, not from MLAS's kernels)
add_test(NAME onnxruntime-web_suites_ms_gelu
    COMMAND ${web_python} ${web_dir}/check_suites.py $<TARGET_FILE:gelucheck> ms_gelu ${web_work}
            onnxruntime-web)
# the two builds: the same names; how many outputs differ (printed, not judged)
add_test(NAME onnxruntime-web_vs_native
    COMMAND ${web_python} ${web_dir}/check_web.py ${GC_NODE_EXECUTABLE} ${web_script})
# Starting the WebAssembly build takes seconds, and each of these starts it more than once or
# runs every float16 input through several kernels (20 to 50 s each on 2 busy cores): slow.
# The list and the comparison with the native build stay in the default set.
set_tests_properties(onnxruntime-web_protocol onnxruntime-web_fused onnxruntime-web_suites_ms_gelu
                     PROPERTIES LABELS slow)
