# Tests of the tfjs adapter (adapters/tfjs: gelucheck_tfjs.js, a Node.js exec adapter over
# TensorFlow.js), included by thirdparty.cmake when configure found it.  Each adapter process
# loads TensorFlow.js and compiles the wasm module (about 1 s): about 6 s together.
set(_tfjs_dir ${CMAKE_CURRENT_LIST_DIR}/tfjs)
set(_tfjs_js ${CMAKE_BINARY_DIR}/${GC_PKGLIBDIR}/adapters/tfjs/gelucheck_tfjs.js)

function(tfjs_cli name rc args out)
    set(err "")
    if(ARGN)
        set(err "-DERR=${ARGN}")
    endif()
    add_test(NAME adapter_tfjs_${name}
        COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=${rc}
                "-DOUT=${out}" ${err} -P ${PROJECT_SOURCE_DIR}/tests/cli_check.cmake)
    set_tests_properties(adapter_tfjs_${name} PROPERTIES TIMEOUT 120)
endfunction()

# list: the version line and the six kernels, each with its backend
set(_h "^adapter tfjs [(]version @tensorflow/tfjs 4[.]22[.]0, @tensorflow/tfjs-backend-wasm 4[.]22[.]0 [(]Node v[0-9.]+[)]; exec[)]\n")
string(APPEND _h "  kernel +func +dtype +description\n")
set(_k "  gelu[.]f32[.]cpu +gelu +f32 +tf[.]layers activation 'gelu' [(]class Gelu[)]: x [*] [(]0[.]5 [*] [(]1 [+] erf[(]x / sqrt[(]2[)][)][)][)][^\n]*cpu backend [(]tfjs-backend-cpu 4[.]22[.]0: JavaScript[^\n]*Abramowitz & Stegun[^\n]*\n")
string(APPEND _k "  gelu_new[.]f32[.]cpu +gelu_tanh +f32 +tf[.]layers activation 'gelu_new' [(]class GeluNew[)]: 0[.]5 [*] [(]x [*] [(]1 [+] tanh[(]sqrt[(]2 / pi[)] [*] [(]x [+] 0[.]044715 [*] pow[(]x, 3[)][)][)][)][)][^\n]*\n")
string(APPEND _k "  erf[.]f32[.]cpu +erf +f32 +tf[.]erf; cpu backend[^\n]*\n")
string(APPEND _k "  gelu[.]f32[.]wasm +gelu +f32 [^\n]*wasm backend [(]tfjs-backend-wasm 4[.]22[.]0: tfjs-backend-wasm(-simd)?[.]wasm, [^\n]*1 thread[^\n]*\n")
string(APPEND _k "  gelu_new[.]f32[.]wasm +gelu_tanh +f32 [^\n]*\n  erf[.]f32[.]wasm +erf +f32 ")
tfjs_cli(list 0 "list|--adapter|tfjs" "${_h}${_k}")

# every kernel bit for bit against the formulas of tfjs 4.22.0 evaluated by hand
add_test(NAME adapter_tfjs_values
    COMMAND /usr/bin/python3 ${_tfjs_dir}/check_values.py $<TARGET_FILE:gelucheck>
            ${GC_NODE_EXECUTABLE} ${_tfjs_js})
set_tests_properties(adapter_tfjs_values PROPERTIES TIMEOUT 120)

# a short ulp and special run of the two erfs: the wasm one (musl's erff, < 1 ulp) passes the
# default policy; the cpu one (A&S 7.1.26, absolute error <= 1.5e-7) returns about 1e-9 for
# every tiny x > 0, 1 - (a1 + ... + a5) (ERF_A1..A5 sum to 0.999999999)
set(_r "^FAIL +tfjs +erf[.]f32[.]cpu +erf f32 +worst: ulp_exceeded at x = [^\n]*[(]got 1e-09, want [^\n]*\n")
string(APPEND _r ".*PASS +tfjs +erf[.]f32[.]wasm +erf f32\n.*FAIL: 2 kernels, 1 pass, 1 fail, 0 error")
tfjs_cli(run 1 "run|--adapter|tfjs|--kernel|erf.f32.cpu|--kernel|erf.f32.wasm|--suite|ulp,special|--samples|2048|--threads|1" "${_r}")

# Without TensorFlow.js the adapter stops before 'ready' with the reason and gelucheck exits 3
# quoting it: the script and the protocol.js it requires, copied where no node_modules is found
configure_file(${PROJECT_SOURCE_DIR}/adapters/tfjs/gelucheck_tfjs.js
               ${CMAKE_CURRENT_BINARY_DIR}/tfjs_bare/tfjs/gelucheck_tfjs.js COPYONLY)
configure_file(${PROJECT_SOURCE_DIR}/adapters/onnxruntime/protocol.js
               ${CMAKE_CURRENT_BINARY_DIR}/tfjs_bare/onnxruntime/protocol.js COPYONLY)
tfjs_cli(missing 3 "list|--adapter|exec:${GC_NODE_EXECUTABLE} ${CMAKE_CURRENT_BINARY_DIR}/tfjs_bare/tfjs/gelucheck_tfjs.js" ""
    "^gelucheck: error: cannot load adapter .*gelucheck_tfjs[.]js: error: cannot load @tensorflow/tfjs and @tensorflow/tfjs-backend-wasm [(]Cannot find module '@tensorflow/tfjs'[^\n]*[)]: run scripts/setup")
set_tests_properties(adapter_tfjs_missing PROPERTIES ENVIRONMENT NODE_PATH=)
