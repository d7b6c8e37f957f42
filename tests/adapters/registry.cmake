# The adapter layer's core: the plug-in loader against fixture plug-ins, the registry, and
# `gelucheck list`.  Included from tests/CMakeLists.txt after parse_cli.cmake (cli_test);
# needs the targets gc_adapters, gelucheck, gelucheck_example_plugin and PkgConfig::CMOCKA.
set(gcfx_dir ${CMAKE_CURRENT_BINARY_DIR}/adapters)

# gcfx_module(TARGET OUTPUT_NAME SOURCE [DEFINITION]): a fixture plug-in, libOUTPUT_NAME.so
function(gcfx_module target output source)
    add_library(${target} MODULE ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/fixtures/${source})
    set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output}
                                              LIBRARY_OUTPUT_DIRECTORY ${gcfx_dir})
    target_link_libraries(${target} PRIVATE gelucheck_plugin_abi gelucheck_warnings m)
    if(ARGC GREATER 3)
        target_compile_definitions(${target} PRIVATE ${ARGV3})
    endif()
endfunction()

gcfx_module(gcfx_good good good.c)
gcfx_module(gcfx_abi2 abi2 abi2.c)
gcfx_module(gcfx_fail fail fail.c)
gcfx_module(gcfx_nosym nosym nosym.c)
# one plug-in "idk" in three builds (tests/reports/identity.cmake)
gcfx_module(gcfx_idk idk ident.c)
gcfx_module(gcfx_idk_regress idk_regress ident.c IDK_REGRESS=1)
gcfx_module(gcfx_idk_drop idk_drop ident.c IDK_DROP=1)
# one library per defect of bad.c
set(gcfx_defects entry_null abi0 struct_size kernel_size kernel_size_odd kernel_size_huge name_null
    version_null n_zero n_huge null_kernels kname_null kname_illegal dup func dtype eval_null)

add_executable(test_adapters_plugin_loader ${CMAKE_CURRENT_LIST_DIR}/test_plugin_loader.c)
target_link_libraries(test_adapters_plugin_loader PRIVATE gc_adapters PkgConfig::CMOCKA
                                                 gelucheck_warnings ${CMAKE_DL_LIBS} m)
target_compile_definitions(test_adapters_plugin_loader PRIVATE
    FX_GOOD="$<TARGET_FILE:gcfx_good>" FX_ABI2="$<TARGET_FILE:gcfx_abi2>"
    FX_FAIL="$<TARGET_FILE:gcfx_fail>" FX_NOSYM="$<TARGET_FILE:gcfx_nosym>")
foreach(d IN LISTS gcfx_defects)
    string(TOUPPER ${d} D)
    gcfx_module(gcfx_bad_${d} bad_${d} bad.c DEFECT_${D})
    target_compile_definitions(test_adapters_plugin_loader PRIVATE FX_BAD_${D}="$<TARGET_FILE:gcfx_bad_${d}>")
endforeach()
add_test(NAME adapters_plugin_loader COMMAND test_adapters_plugin_loader)

add_executable(test_adapters_registry ${CMAKE_CURRENT_LIST_DIR}/test_registry.c)
target_link_libraries(test_adapters_registry PRIVATE gc_adapters PkgConfig::CMOCKA gelucheck_warnings)
target_compile_definitions(test_adapters_registry PRIVATE FX_DIR="$<TARGET_FILE_DIR:gcfx_good>"
                                                 FX_GOOD_FILE="$<TARGET_FILE_NAME:gcfx_good>")
add_test(NAME adapters_registry COMMAND test_adapters_registry)

# --- gelucheck list (cli_test from parse_cli.cmake; ARGS '|' separated)
set(e "gelucheck: error: ")
set(list_example $<TARGET_FILE:gelucheck_example_plugin>)
set(list_unknown "unknown adapter 'nosuch' [(]built-in: libm, mutants, sleef, onednn, onnxruntime, onnxruntime-web, torch, musl, ggml, tfjs, gsl, boost, scipy; or plugin:PATH, PATH[.]so, exec:COMMAND, onnx:MODEL[.]onnx, scan:MODEL[.]onnx[)]")
cli_test(list_help 0 "list|--help" OUT "^usage: gelucheck list [[]--adapter SPEC[]]")
cli_test(list_help_cmd 0 "help|list" OUT "^usage: gelucheck list")
cli_test(list_in_usage 0 "--help" OUT "\n  list +list adapters and their kernels\n")
cli_test(list_builtins 0 "list"
    OUT "^adapter libm [(][^\n]*built-in[)]\n  kernel .*\n\nadapter mutants [(][^\n]*built-in[)]\n")
cli_test(list_example 0 "list|--adapter|${list_example}"
    OUT "^adapter example-rename-me [(]version 1[.]0; plug-in [^\n]*libexample[.]so[)]\n  kernel  +func  +dtype  description\n  erfc[.]f64  +gelu  +f64  +0[.]5[*]x[*]erfc[(]-x/sqrt2[)] in double .*\n  tanh[.]f32  +gelu_tanh  +f32  ")
cli_test(list_two 0 "list|--adapter|mutants|--adapter|plugin:${list_example}"
    OUT "^adapter mutants .*\n\nadapter example-rename-me ")
add_test(NAME cli_list_empty_spec
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/empty_spec.sh $<TARGET_FILE:gelucheck>)
set_tests_properties(cli_list_empty_spec PROPERTIES LABELS cli)
cli_test(list_bad_adapter 3 "list|--adapter|nosuch|--adapter|${list_example}"
    ERR "^${e}cannot load adapter 'nosuch': ${list_unknown}\n$" OUT "^adapter example-rename-me ")
cli_test(list_bad_plugin 3 "list|--adapter|$<TARGET_FILE:gcfx_bad_dtype>"
    ERR "^${e}cannot load adapter '[^']*libbad_dtype[.]so': plug-in '[^']*libbad_dtype[.]so': kernel 2 'erf[.]f32': dtype 7 is not one of f64=1, f32=2, f16=3, bf16=4\n$"
    EMPTY_OUT)
cli_test(list_missing_file 3 "list|--adapter|./nothing-here.so"
    ERR "^${e}cannot load adapter '[.]/nothing-here[.]so': plug-in '[.]/nothing-here[.]so': .*No such file")
cli_test(list_adapter_options 3 "list|--adapter|${list_example}|--adapter-options|fast=1"
    ERR "^${e}cannot load adapter .*: open failed [(]returned 2[)]: unknown options 'fast=1' [(]example takes none[)]\n$"
    EMPTY_OUT)
# exec: listed the same way (the C example adapter of adapters/exec); an adapter that dies
cli_test(list_exec 0 "list|--adapter|exec:$<TARGET_FILE:gelucheck_exec_example>"
    OUT "^adapter [^\n]*gelucheck_exec_example [(]version [^\n]*; exec[)]\n  kernel  +func  +dtype  +description\n  [A-Za-z0-9_.-]+ +gelu ")
cli_test(list_exec_dies 3 "list|--adapter|exec:false"
    ERR "^${e}cannot load adapter 'exec:false': " EMPTY_OUT)
cli_test(list_operand 2 "list|libm" ERR "^${e}list takes no operands: 'libm'" EMPTY_OUT)
cli_test(list_unknown_option 2 "list|--bogus" ERR "^${e}unknown option '--bogus'\n$" EMPTY_OUT)
cli_test(list_missing_value 2 "list|--adapter" ERR "^${e}option '--adapter' needs a value\n$"
    EMPTY_OUT)

# --json: the document parses (CMake's own JSON reader) and has the expected members
function(list_json_test name rc args)
    add_test(NAME cli_${name} COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck>
        "-DARGS=${args}" -DRC=${rc} ${ARGN} -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/list_json.cmake)
    set_tests_properties(cli_${name} PROPERTIES LABELS cli)
endfunction()
# every built-in this build has, in the table's order (the third-party ones as configured)
set(_list_builtins "libm|mutants")
foreach(a IN LISTS GC_THIRDPARTY_ADAPTERS)
    get_property(_st GLOBAL PROPERTY GC_ADAPTER_${a}_STATE)
    if(_st STREQUAL "found" OR _st STREQUAL "exec")
        string(APPEND _list_builtins "|${a}")
    endif()
endforeach()
list_json_test(list_json 0 "list|--json" "-DADAPTERS=${_list_builtins}" -DERRORS=0)
list_json_test(list_json_example 3 "list|--json|--adapter|${list_example}|--adapter|nosuch"
    "-DADAPTERS=example-rename-me" -DERRORS=1 "-DKERNELS=erfc.f64 gelu f64|erfc.f32 gelu f32|tanh.f32 gelu_tanh f32")

# the example README's path: install, build the example against the installed header only,
# list it with the installed gelucheck
add_test(NAME cli_list_example_installed
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/example_installed.sh ${PROJECT_BINARY_DIR}
            ${PROJECT_SOURCE_DIR}/adapters/plugin/example)
set_tests_properties(cli_list_example_installed PROPERTIES LABELS cli)

# gelucheck-worker against the hostile fixture (test_isolation.c).  Its crashes must reach the
# CPU (a real SIGSEGV, SIGFPE): the sanitizers (asan preset) are off for it, which would stop
# the NULL write or the division by zero first.
gcfx_module(gcfx_hostile hostile hostile.c)
gcfx_module(gcfx_hostile_entry hostile_entry hostile.c GCFX_CRASH_ENTRY)
foreach(t gcfx_hostile gcfx_hostile_entry)
    target_compile_options(${t} PRIVATE
        $<$<C_COMPILER_ID:GNU,Clang>:-fno-sanitize=all>)
endforeach()
add_executable(test_adapters_isolation ${CMAKE_CURRENT_LIST_DIR}/test_isolation.c)
target_link_libraries(test_adapters_isolation PRIVATE gc_adapters PkgConfig::CMOCKA
                                                      gelucheck_warnings)
target_compile_definitions(test_adapters_isolation PRIVATE
    FX_HOSTILE="$<TARGET_FILE:gcfx_hostile>" FX_HOSTILE_ENTRY="$<TARGET_FILE:gcfx_hostile_entry>")
add_dependencies(test_adapters_isolation gcfx_hostile gcfx_hostile_entry)
add_test(NAME adapters_isolation COMMAND test_adapters_isolation)
