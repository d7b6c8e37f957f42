# Tests of the scipy adapter (adapters/scipy, an exec adapter in Python): included from
# tests/adapters/thirdparty.cmake when configure found scipy.  The check script runs with the
# adapter's own interpreter (GELUCHECK_SCIPY_PYTHON).  Each adapter process imports scipy
# (about half a second): the three tests take a few seconds together.
set(_scipy ${CMAKE_CURRENT_LIST_DIR}/scipy)

# list: the banner's version line and the twelve kernels
set(_k "\n  erf[.]f32 +erf +f32 +erf erf[(]x[)]; float32 arrays, erf's 'f->f' loop: ")
string(APPEND _k ".*\n  ndtr[.]f32 +normcdf +f32 +normcdf ndtr[(]x[)]")
string(APPEND _k ".*\n  gelu_erf[.]f32 +gelu +f32 +gelu 0[.]5 [*] x [*] [(]1 [+] erf[(]x / np[.]sqrt[(]2[)][)][)]; float32 arrays")
string(APPEND _k ".*\n  gelu_erfc[.]f64 +gelu +f64 +gelu 0[.]5 [*] x [*] erfc[(]-x / np[.]sqrt[(]2[)][)]; float64 arrays")
set(_head "^adapter scipy [(]version SciPy [0-9.]+, NumPy [0-9.]+ [(]Python 3[.][^)]*[)]; exec[)]\n")
string(APPEND _head "  kernel +func +dtype +description")
add_test(NAME adapter_scipy_list
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=list|--adapter|scipy"
            -DRC=0 "-DOUT=${_head}${_k}" -P ${PROJECT_SOURCE_DIR}/tests/cli_check.cmake)

# the protocol spoken directly: known values against `gelucheck ref` and Cephes' code
add_test(NAME adapter_scipy_protocol
    COMMAND ${GELUCHECK_SCIPY_PYTHON} ${_scipy}/check_protocol.py $<TARGET_FILE:gelucheck>
            ${GELUCHECK_SCIPY_PYTHON} ${PROJECT_SOURCE_DIR}/adapters/scipy/scipy_adapter.py)

# a short run: ndtr in float32 (float64 ndtr rounded to float32) passes the default policy;
# x * ndtr(x) in float64 gives NaN at -inf and flushes where ndtr's erfc underflows (x*x/2 >
# 709.78: x < -37.68), beside the last non-zero GELU at -38.58
add_test(NAME adapter_scipy_run
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck>
            "-DARGS=run|--adapter|scipy|--kernel|ndtr.f32|--kernel|gelu_ndtr.f64|--suite|ulp,special,tail|--samples|2048|--threads|1"
            -DRC=1 "-DOUT=^PASS +scipy +ndtr[.]f32 +normcdf f32\nFAIL +scipy +gelu_ndtr[.]f64 +gelu f64  worst: special_value at x = -inf [(]got nan, want -0[)].*\n +tail +flush point x = -37[.]677[0-9]*, last non-zero x = -38[.]58"
            -P ${PROJECT_SOURCE_DIR}/tests/cli_check.cmake)
set_tests_properties(adapter_scipy_list adapter_scipy_protocol adapter_scipy_run
                     PROPERTIES TIMEOUT 120)
