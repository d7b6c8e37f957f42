# The onnxruntime adapter (adapters/onnxruntime; included by thirdparty.cmake when configure
# found it): its kernel list, the protocol and known values spoken to it directly, the suites'
# results against what ORT 1.30.0 was measured to do, the protobuf encoder against
# python3-onnx, and onnx:MODEL with good and bad models.  Scripts: tests/adapters/onnxruntime/.
set(ort_dir ${CMAKE_CURRENT_LIST_DIR}/onnxruntime)
set(ort_script ${PROJECT_SOURCE_DIR}/adapters/onnxruntime/gelucheck_ort.js)
set(ort_work ${CMAKE_CURRENT_BINARY_DIR}/onnxruntime)
file(MAKE_DIRECTORY ${ort_work})
set(ort_python /usr/bin/python3) # Debian's: the one python3-onnx and python3-torch are for
if(NOT EXISTS ${ort_python})
    find_program(ort_python NAMES python3 REQUIRED)
endif()
execute_process(COMMAND ${ort_python} -c "import onnx" RESULT_VARIABLE ort_no_onnx
                OUTPUT_QUIET ERROR_QUIET)

# list: every graph in f32 and f16, optimized and not, with its func
set(ort_list "")
foreach(g gelu20 gelu20_tanh ms_gelu ms_fastgelu erf_decomp tanh_decomp)
    set(func gelu)
    if(g MATCHES "tanh|fastgelu")
        set(func gelu_tanh)
    endif()
    foreach(v f32 f32[.]noopt f16 f16[.]noopt)
        string(APPEND ort_list ".*\n  ${g}[.]${v} +${func} +f[0-9][0-9] ")
    endforeach()
endforeach()
cli_test(onnxruntime_list 0 "list|--adapter|onnxruntime"
    OUT "^adapter onnxruntime [(]version onnxruntime-node 1[.]30[.]0 [(]ORT 1[.]30[.]0, CPU EP${ort_list}")

# the protocol, known values (docs/design.md), exact cases and single-input findings, spoken
# directly; standard library only
add_test(NAME onnxruntime_protocol
    COMMAND ${ort_python} ${ort_dir}/check_protocol.py builtin ${GC_NODE_EXECUTABLE} ${ort_script})

# the fused kernels: bit for bit against ms_gelu/ms_fastgelu and RN16 of the float kernel
# (check_fused.py), and ORT's optimized models still hold each fused operator
# (check_fused_graph.js; it also shows that the check rejects a one-element bias)
add_test(NAME onnxruntime_fused
    COMMAND ${ort_python} ${ort_dir}/check_fused.py ${GC_NODE_EXECUTABLE} ${ort_script})
add_test(NAME onnxruntime_fused_graph
    COMMAND ${GC_NODE_EXECUTABLE} ${ort_dir}/check_fused_graph.js
            ${PROJECT_SOURCE_DIR}/adapters/onnxruntime)

# the suites per graph family: bounds, specials, flush points, wrong signs (check_suites.py)
foreach(g gelu20 gelu20_tanh ms_gelu ms_fastgelu erf_decomp tanh_decomp)
    add_test(NAME onnxruntime_suites_${g}
        COMMAND ${ort_python} ${ort_dir}/check_suites.py $<TARGET_FILE:gelucheck> ${g} ${ort_work})
endforeach()

if(NOT ort_no_onnx EQUAL 0)
    add_test(NAME onnxruntime_models COMMAND ${CMAKE_CURRENT_LIST_DIR}/skipped.sh onnxruntime
        "the model and scan tests need python3-onnx for ${ort_python} (scripts/setup installs it)")
    set_tests_properties(onnxruntime_models PROPERTIES SKIP_RETURN_CODE 77)
    return()
endif()

# the encoder against python3-onnx (and torch's own export where python3-torch is installed)
add_test(NAME onnxruntime_proto
    COMMAND ${ort_python} ${ort_dir}/check_proto.py ${GC_NODE_EXECUTABLE} ${ort_script} ${ort_work})

# onnx:MODEL: models from the adapter (--write-model) and from python3-onnx (make_models.py)
set(ort_models ${ort_work}/models)
add_test(NAME onnxruntime_models_setup
    COMMAND sh -c "mkdir -p \"$1\" && \"$2\" \"$3\" \"$1\" && \"$4\" \"$5\" --write-model erf_decomp.f32 \"$1/erf_decomp.onnx\" && printf 'not a model\\n\\377\\377' >\"$1/garbage.onnx\""
            sh ${ort_models} ${ort_python} ${ort_dir}/make_models.py ${GC_NODE_EXECUTABLE} ${ort_script})
set_tests_properties(onnxruntime_models_setup PROPERTIES FIXTURES_SETUP ort_models)
add_test(NAME onnxruntime_models
    COMMAND ${ort_python} ${ort_dir}/check_protocol.py models ${GC_NODE_EXECUTABLE} ${ort_script}
            ${ort_models})
set(ort_model_tests onnxruntime_models)

# (run in the models folder: relative paths keep the messages short enough to quote whole)
set(nl "adapter 'onnx:")
# a model the adapter wrote runs (and fails: the NaN at -inf is its one special_value)
cli_test(onnxruntime_onnx_run 1 "run|--adapter|onnx:erf_decomp.onnx|--suite|special"
    OUT "FAIL +onnx:erf_decomp[.]onnx +erf_decomp[.]f32 +gelu f32  worst: [^\n]*\n.*findings: .*special_value 1")
# --func passes through to the kernel's declared func
cli_test(onnxruntime_onnx_func 0 "list|--adapter|onnx:erf_decomp.onnx|--func|gelu_tanh"
    OUT "\n  erf_decomp[.]f32 +gelu_tanh +f32 +user model 'erf_decomp[.]onnx' [(]input 'x' float32 [[]N[]]")
# what cannot be served: exit 3 before 'ready', with the adapter's one-line reason
foreach(bad "nosuch|cannot read model 'nosuch[.]onnx': no such file"
            "garbage|cannot load model 'garbage[.]onnx': Failed to load model because protobuf parsing failed[.]"
            "two_inputs|model 'two_inputs[.]onnx' has 2 inputs [(]'x', 'z'[)]: gelucheck needs exactly one"
            "two_outputs|model 'two_outputs[.]onnx' has 2 outputs [(]'y', 'z'[)]: gelucheck needs exactly one"
            "int_input|model 'int_input[.]onnx': input 'x' is int64: gelucheck needs float, float16 or double"
            "bf16|cannot load model 'bf16[.]onnx': Unsupported data type: 16 [(]bfloat16: onnxruntime-node has no bfloat16 tensors[)]")
    string(FIND "${bad}" "|" bar)
    string(SUBSTRING "${bad}" 0 ${bar} name)
    math(EXPR bar "${bar} + 1")
    string(SUBSTRING "${bad}" ${bar} -1 why)
    cli_test(onnxruntime_onnx_${name} 3 "run|--adapter|onnx:${name}.onnx|--suite|special"
        ERR "^gelucheck: error: cannot load ${nl}${name}[.]onnx'.*'gelucheck_ort[.]js: error: ${why}'\n$")
    list(APPEND ort_model_tests cli_onnxruntime_onnx_${name})
endforeach()
# a model that is not elementwise is refused at load, with the reason
cli_test(onnxruntime_onnx_centered 3 "list|--adapter|onnx:centered.onnx"
    ERR "'gelucheck_ort[.]js: error: model 'centered[.]onnx' is refused: it is not elementwise: output element 1 changes from [^ ]+ to [^ ]+ when input element 0 alone changes from -4 to -2[.]5'\n$")
# options per model: func and level, both in the adapter's name and the kernel's description
cli_test(onnxruntime_onnx_options 0 "list|--adapter|onnx:erf_decomp.onnx?func=gelu_tanh&opt=disabled"
    OUT "^adapter erf_decomp[.]gelu_tanh[.]disabled [^\n]*\n.*\n  erf_decomp[.]f32 +gelu_tanh +f32 +user model[^\n]*graph optimizations 'disabled'")
cli_test(onnxruntime_onnx_badopt 3 "list|--adapter|onnx:erf_decomp.onnx?opt=fast"
    ERR "unknown optimization level 'fast' [(]opt=[)]")
# [batch, seq, 32]: every suite measures it (whole rows, the last padded): no adapter error
cli_test(onnxruntime_onnx_bsh 1 "run|--adapter|onnx:batch_seq_hidden.onnx"
    OUT "\nFAIL: 1 kernel, 0 pass, 1 fail, 0 error, 0 skip;[^\n]*\nfindings: ")
list(APPEND ort_model_tests cli_onnxruntime_onnx_run cli_onnxruntime_onnx_func
     cli_onnxruntime_onnx_centered cli_onnxruntime_onnx_options cli_onnxruntime_onnx_badopt
     cli_onnxruntime_onnx_bsh)
set_tests_properties(${ort_model_tests} PROPERTIES FIXTURES_REQUIRED ort_models)
set_tests_properties(${ort_model_tests} PROPERTIES WORKING_DIRECTORY ${ort_models})

include(${CMAKE_CURRENT_LIST_DIR}/scan.cmake)
