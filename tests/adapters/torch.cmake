# Tests of the torch adapter (adapters/torch, an exec adapter in Python): included from
# tests/adapters/thirdparty.cmake when configure found torch.  The scripts need only the
# standard library; they run with the adapter's own interpreter (GELUCHECK_TORCH_PYTHON).
# Each adapter process imports torch (about 1.5 s): the three tests take about 15 s together.
set(_torch ${CMAKE_CURRENT_LIST_DIR}/torch)

# list: the banner's version line and the twelve kernels of Debian's torch 1.13 (f16 raises
# in 1.13 and is left out; the tanh form has no .nomkldnn twin: oneDNN never serves it)
set(_k "\n  gelu[.]f32 +gelu +f32 +F[.]gelu[(]x, approximate='none'[)] = x[*]Phi[(]x[)]")
string(APPEND _k ".*mkldnn enabled [(]default[)]: oneDNN v[0-9.]+ eltwise_gelu_erf")
string(APPEND _k ".*\n  gelu[.]f32[.]nomkldnn +gelu +f32 .*enabled=False[)]: ATen GeluKernel")
string(APPEND _k ".*\n  gelu_tanh[.]f32 +gelu_tanh +f32 .*oneDNN not used for this form")
string(APPEND _k ".*\n  gelu_grad[.]f32 +gelu_grad +f32 .*autograd")
string(APPEND _k ".*\n  gelu_grad[.]f32[.]nomkldnn +gelu_grad +f32 ")
string(APPEND _k ".*\n  gelu_tanh_grad[.]f32 +gelu_tanh_grad +f32 ")
string(APPEND _k ".*\n  gelu[.]bf16 +gelu +bf16 .*bfloat16")
string(APPEND _k ".*\n  gelu_tanh_grad[.]bf16 +gelu_tanh_grad +bf16 ")
set(_head "^adapter torch [(]version torch [^ ]+ [(].*Python 3[.].*; exec[)]\n")
string(APPEND _head "  kernel +func +dtype +description")
add_test(NAME adapter_torch_list
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=list|--adapter|torch"
            -DRC=0 "-DOUT=${_head}${_k}" -P ${PROJECT_SOURCE_DIR}/tests/cli_check.cmake)

# a run of gelu.f32 and gelu.f32.nomkldnn (ulp, special), with assertions on the JSON
add_test(NAME adapter_torch_run
    COMMAND ${GELUCHECK_TORCH_PYTHON} ${_torch}/check_run.py $<TARGET_FILE:gelucheck>
            ${CMAKE_CURRENT_BINARY_DIR}/adapter_torch_run.json)

# the protocol spoken directly: values against `gelucheck ref`, bf16 bits, zero signs, the
# numel > 1 gate of oneDNN, ONEDNN_VERBOSE kept off the protocol, error replies
add_test(NAME adapter_torch_protocol
    COMMAND ${GELUCHECK_TORCH_PYTHON} ${_torch}/check_protocol.py $<TARGET_FILE:gelucheck>
            ${GELUCHECK_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/adapters/torch/torch_adapter.py)
set_tests_properties(adapter_torch_list adapter_torch_run adapter_torch_protocol
                     PROPERTIES TIMEOUT 120)

# --module FILE.pt: a user's TorchScript module as one kernel (docs/conversion-audit.md runs a
# good one); the bad ones stop before 'ready' with the reason, and gelucheck exits 3
set(_tx "exec:${GELUCHECK_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/adapters/torch/torch_adapter.py")
set(_e "gelucheck: error: cannot load adapter ")
foreach(bad "nosuch@--module|/nonexistent/m.pt@cannot load TorchScript module '/nonexistent/m[.]pt'"
            "func@--module|m.pt|--func|gleu@unknown --func 'gleu'"
            "dtype@--module|m.pt|--dtype|f64@unknown --dtype 'f64' [(]one of: f32, bf16[)]"
            "usage@--modul|m.pt@usage: torch_adapter.py [[]--module FILE.pt")
    string(REPLACE "@" ";" bad "${bad}")
    list(GET bad 0 name)
    list(GET bad 1 args)
    list(GET bad 2 want)
    string(REPLACE "|" " " args "${args}")
    add_test(NAME adapter_torch_module_${name}
        COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck>
                "-DARGS=list|--adapter|${_tx} ${args}" -DRC=3
                "-DERR=^${_e}.*torch_adapter[.]py: error: ${want}" -P
                ${PROJECT_SOURCE_DIR}/tests/cli_check.cmake)
    set_tests_properties(adapter_torch_module_${name} PROPERTIES TIMEOUT 120)
endforeach()
