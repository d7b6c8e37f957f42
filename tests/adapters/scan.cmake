# gelucheck scan and scan:MODEL (adapters/onnxruntime/scan.js; docs/model-audit.md), included
# from onnxruntime.cmake when python3-onnx is there.  Models built by the tests: python3-onnx's
# helper (scan/make_models.py: TF-style, hand-written, Pow and Constant-node forms, fused
# operators, non-sites) and, where python3-torch is installed, torch.onnx.export of
# docs/model-audit/model.py at opsets 14 and 17.  Scripts: tests/adapters/scan/.
set(scan_dir ${CMAKE_CURRENT_LIST_DIR}/scan)
set(scan_work ${CMAKE_CURRENT_BINARY_DIR}/scan)
set(scan_gc $<TARGET_FILE:gelucheck>)

add_test(NAME scan_models_setup COMMAND ${ort_python} ${scan_dir}/make_models.py ${scan_work})
set_tests_properties(scan_models_setup PROPERTIES FIXTURES_SETUP scan_models)
# the operator per site and level against the hand-written table; no false site
add_test(NAME scan_table
    COMMAND ${ort_python} ${scan_dir}/check_scan.py table ${scan_gc} ${scan_work}
            patterns_consts patterns_inits fused bias_gelu f16_erf f16_fused subgraph)
# x -> Add(b) -> Gelu: the site kernel at x + b gives the whole model's bits at every level
add_test(NAME scan_exact
    COMMAND ${ort_python} ${scan_dir}/check_scan.py exact ${GC_NODE_EXECUTABLE} ${ort_script}
            ${scan_work})
# --runtime onnxruntime-web: the same kernel names, known inputs right on both builds
add_test(NAME scan_web
    COMMAND ${ort_python} ${scan_dir}/check_scan.py web ${GC_NODE_EXECUTABLE} ${ort_script}
            ${scan_work})
set_tests_properties(scan_table scan_exact scan_web PROPERTIES FIXTURES_REQUIRED scan_models)
cli_test(scan_runtime_bad 2 "scan|x.onnx|--runtime|tfjs"
    ERR "^gelucheck: error: unknown --runtime 'tfjs' [(]expected onnxruntime or onnxruntime-web[)]\n$")
cli_test(run_runtime_bad 2 "run|--adapter|libm|--runtime|web"
    ERR "^gelucheck: error: unknown --runtime 'web' [(]expected onnxruntime or onnxruntime-web[)]\n")
# the scan says where the kernels run and whose optimizer's choices they are; the run names
# the adapter MODEL.web
cli_test(scan_web_text 0 "scan|bias_gelu.onnx?opt=all|--runtime|onnxruntime-web"
    OUT "\nkernels run on onnxruntime-web [0-9.]+ [^\n]*; the optimizer's choices at each level are those of onnxruntime-node [0-9.]+ [^\n]*[(]the web build cannot write its optimized model in Node[)]\n")
cli_test(scan_web_run 0 "run|--adapter|scan:bias_gelu.onnx?opt=all|--runtime|onnxruntime-web|--suite|special|--policy|lenient|--json|web.json"
    OUT "scan:bias_gelu[.]onnx[?]opt=all +gelu[.]all +gelu f32")
set_tests_properties(cli_scan_web_text cli_scan_web_run PROPERTIES FIXTURES_REQUIRED scan_models
                     WORKING_DIRECTORY ${scan_work})
# a whole suite on the wasm build (about 10 s alone): scan_web covers its kernels by default
set_tests_properties(cli_scan_web_run PROPERTIES LABELS slow)

cli_test(run_runtime_spec_bad 3 "run|--adapter|scan:x.onnx?runtime=web"
    ERR "gelucheck: error: cannot load adapter [^\n]*unknown runtime .web. [(]runtime=[)]: expected onnxruntime or onnxruntime-web")
cli_test(scan_help 0 "scan|--help" OUT "^usage: gelucheck scan MODEL[.]onnx[[][?]opt=LEVEL[]] [[]--json FILE[]]\n")
cli_test(scan_no_model 2 "scan" ERR "^gelucheck: error: no model given ")
cli_test(scan_nosuch 3 "scan|nosuch.onnx"
    ERR "^gelucheck: error: cannot read model 'nosuch[.]onnx': no such file\n$")
cli_test(scan_garbage 3 "scan|${CMAKE_CURRENT_LIST_DIR}/scan/check_scan.py"
    ERR "^gelucheck: error: cannot read model '[^']*check_scan[.]py': not an ONNX model ")

execute_process(COMMAND ${ort_python} -c "import torch" RESULT_VARIABLE scan_no_torch
                OUTPUT_QUIET ERROR_QUIET)
if(NOT scan_no_torch EQUAL 0)
    add_test(NAME scan_torch COMMAND ${CMAKE_CURRENT_LIST_DIR}/skipped.sh scan
        "the torch-exported models need python3-torch for ${ort_python} (scripts/setup)")
    set_tests_properties(scan_torch PROPERTIES SKIP_RETURN_CODE 77)
    return()
endif()
# torch14_f16: torch14 converted to float16 by docs/model-audit/to_float16.py
# torch14.pt: the same module traced and saved (scan --torch-module); torch14_swap: act1's
# erf chain edited to the tanh form (scan/swap_tanh.py)
add_test(NAME scan_torch_setup COMMAND sh -c "mkdir -p \"$2\" && \"$1\" \"$3\" \"$2/torch14.onnx\" --opset 14 --torchscript \"$2/torch14.pt\" && \"$1\" \"$3\" \"$2/torch17.onnx\" --opset 17 && \"$1\" \"$4\" \"$2/torch14.onnx\" \"$2/torch14_f16.onnx\" && \"$1\" \"$5\" \"$2/torch14.onnx\" \"$2/torch14_swap.onnx\""
         sh ${ort_python} ${scan_work}/torch ${PROJECT_SOURCE_DIR}/docs/model-audit/model.py
            ${PROJECT_SOURCE_DIR}/docs/model-audit/to_float16.py ${scan_dir}/swap_tanh.py)
set_tests_properties(scan_torch_setup PROPERTIES FIXTURES_SETUP scan_torch)
add_test(NAME scan_torch
    COMMAND ${ort_python} ${scan_dir}/check_scan.py table ${scan_gc} ${scan_work}/torch
            torch14 torch17 torch14_f16)
# the [batch, seq, 32] transformer's GELUs at level all, every suite: no adapter error
cli_test(scan_torch_run 1 "run|--adapter|scan:torch14.onnx?opt=all"
    OUT "FAIL +scan:torch14[.]onnx[?]opt=all +_act1_Erf[.]all +gelu f32 .*\nFAIL: 4 kernels, 0 pass, 4 fail, 0 error, 0 skip;")
# the float16 model at level all, every suite in f16: four kernels (the encoder's erf chain is
# fc1's), no adapter error
cli_test(scan_torch_f16_run 1 "run|--adapter|scan:torch14_f16.onnx?opt=all"
    OUT "FAIL +scan:torch14_f16[.]onnx[?]opt=all +_quick_Sigmoid[.]all +gelu_sigmoid f16 .*\nFAIL: 4 kernels, 0 pass, 4 fail, 0 error, 0 skip;")
cli_test(scan_torch_text 0 "scan|torch14.onnx"
    OUT "^model 'torch14[.]onnx': 6 GELU-like sites [(]5 GELU, 1 other[)]; onnxruntime-node 1[.]30[.]0 .*\n  extended  tanh chain up to '/act2/Mul_4_output_0'; its last 1 node[(]s[)] [(]Mul[)] folded into com[.]microsoft FusedMatMul ")
# scan --torch-module: every site paired (by module path and by order), the swap flagged
add_test(NAME scan_pair COMMAND ${ort_python} ${scan_dir}/check_scan.py pair ${scan_gc}
                                ${scan_work}/torch)
# the f16 export and the WebAssembly build diffed beside the module in one run (about 10 s
# of CPU: slow)
add_test(NAME scan_pair_runtimes COMMAND ${ort_python} ${scan_dir}/check_scan.py pair_runtimes
                                         ${scan_gc} ${scan_work}/torch)
set_tests_properties(scan_pair_runtimes PROPERTIES LABELS slow FIXTURES_REQUIRED scan_torch)
cli_test(scan_pair_nosuch 3 "scan|torch14.onnx|--torch-module|nosuch.pt"
    ERR "^gelucheck: error: cannot load TorchScript module 'nosuch[.]pt': ")
set_tests_properties(scan_torch scan_pair cli_scan_torch_run cli_scan_torch_f16_run
                     cli_scan_torch_text cli_scan_pair_nosuch
                     PROPERTIES FIXTURES_REQUIRED scan_torch)
set_tests_properties(cli_scan_torch_run cli_scan_torch_f16_run cli_scan_torch_text
                     cli_scan_pair_nosuch PROPERTIES WORKING_DIRECTORY ${scan_work}/torch)
