# geluref_parse / geluref_format_* unit tests (cmocka) and the gelucheck command line.
# Included from tests/CMakeLists.txt; needs the targets geluref, gelucheck, gelucheck_warnings
# and PkgConfig::CMOCKA.
add_executable(test_parse_format
    ${CMAKE_CURRENT_LIST_DIR}/test_parse_format.c
    ${CMAKE_CURRENT_LIST_DIR}/test_format.c)
target_link_libraries(test_parse_format PRIVATE geluref PkgConfig::CMOCKA gelucheck_warnings)
add_test(NAME parse_format COMMAND test_parse_format)

# cli_test(NAME RC ARGS [OUT regex] [ERR regex] [EMPTY_OUT] [EMPTY_ERR]): runs gelucheck ARGS ('|'
# separated) through cli_check.cmake.  Regexes: write [.] [(] [+] rather than backslashes.
function(cli_test name rc args)
    cmake_parse_arguments(PARSE_ARGV 3 T "EMPTY_OUT;EMPTY_ERR" "OUT;ERR" "")
    set(defs -DEXE=$<TARGET_FILE:gelucheck> "-DARGS=${args}" -DRC=${rc})
    if(DEFINED T_OUT)
        list(APPEND defs "-DOUT=${T_OUT}")
    endif()
    if(DEFINED T_ERR)
        list(APPEND defs "-DERR=${T_ERR}")
    endif()
    if(T_EMPTY_OUT)
        list(APPEND defs -DEMPTY_OUT=1)
    endif()
    if(T_EMPTY_ERR)
        list(APPEND defs -DEMPTY_ERR=1)
    endif()
    add_test(NAME cli_${name}
        COMMAND ${CMAKE_COMMAND} ${defs} -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/cli_check.cmake)
    set_tests_properties(cli_${name} PROPERTIES LABELS cli)
endfunction()

set(e "gelucheck: error: ")
cli_test(help 0 "--help" OUT "^usage: gelucheck COMMAND.*\n  ref ")
cli_test(help_h 0 "-h" OUT "^usage: gelucheck")
cli_test(help_cmd 0 "help" OUT "^usage: gelucheck")
cli_test(help_ref 0 "help|ref" OUT "^usage: gelucheck ref FUNC")
# one version, project(VERSION), for the tool and the reference (CMakeLists.txt)
string(REPLACE "." "[.]" _v "${PROJECT_VERSION}")
cli_test(version 0 "--version"
    OUT "^gelucheck ${_v} [(]geluref ${_v}, MPFR [0-9]+[.][0-9]+[.][0-9]+[^)]*[)]\n$")
cli_test(no_command 2 "" ERR "^${e}no command given\n" EMPTY_OUT)
cli_test(unknown_command 2 "foo" ERR "^${e}unknown command 'foo'\n" EMPTY_OUT)
cli_test(unknown_top_option 2 "--bogus" ERR "^${e}unknown option '--bogus'\n" EMPTY_OUT)

cli_test(ref_help 0 "ref|--help"
    OUT "^usage: gelucheck ref FUNC.*gelu_tanh_grad.*f32, f16 or bf16.*rz, ru, rd.*Example:")
cli_test(ref_bad_func 2 "ref|gleu|--dtype|f32|1" EMPTY_OUT
    ERR "^${e}unknown function 'gleu' [(]expected one of: gelu, gelu_tanh, .*, gelu_scaled[)]\n$")
cli_test(ref_no_func 2 "ref|--dtype|f32" ERR "^${e}no function given" EMPTY_OUT)
cli_test(ref_bad_dtype 2 "ref|gelu|--dtype|f8|1" EMPTY_OUT
    ERR "^${e}unknown dtype 'f8' [(]expected one of: f64, f32, f16, bf16[)]\n$")
cli_test(ref_no_dtype 2 "ref|gelu|1" ERR "^${e}--dtype is required" EMPTY_OUT)
cli_test(ref_bad_rounding 2 "ref|gelu|--dtype|f32|--rounding|up|1" EMPTY_OUT
    ERR "^${e}unknown rounding mode 'up' [(]expected one of: rn, rz, ru, rd[)]\n$")
cli_test(ref_bad_number 2 "ref|gelu|--dtype|f32|1|abc" EMPTY_OUT
    ERR "^${e}bad number 'abc' for f32: not a number")
cli_test(ref_bad_hex 2 "ref|gelu|--dtype|f32|0x1.8" EMPTY_OUT
    ERR "^${e}bad number '0x1[.]8' for f32: hex float needs a 'p' exponent\n$")
cli_test(ref_bad_bits 2 "ref|gelu|--dtype|f16|0x3f800000" EMPTY_OUT
    ERR "for f16: hex float needs a 'p' exponent, or give exactly 4 hex digits for f16 bits\n$")
cli_test(ref_no_input 2 "ref|gelu|--dtype|f32" ERR "^${e}no input given" EMPTY_OUT)
cli_test(ref_missing_value 2 "ref|gelu|--dtype" ERR "^${e}option '--dtype' needs a value\n$")
cli_test(ref_unknown_option 2 "ref|gelu|--dtype|f32|--bogus|1"
    ERR "^${e}unknown option '--bogus'\n$")
cli_test(ref_bad_scale 2 "ref|gelu_scaled|--dtype|f32|--scale|-2|1" EMPTY_OUT
    ERR "^${e}bad scale '-2': not finite or not > 0\n$")
cli_test(ref_bad_scale_inf 2 "ref|gelu_scaled|--dtype|f32|--scale|inf|1" ERR "bad scale 'inf'")
cli_test(ref_scale_other_func 2 "ref|gelu|--dtype|f32|--scale|2|1"
    ERR "^${e}--scale applies to gelu_scaled only")

# GELU(-5.6f) = -6.0018537443e-08 (mpmath, 300 bits) -> RN f32 -0x1.01c714p-24
set(x "x = -5[.]6 +-0x1[.]666666p[+]2 +0xc0b33333")
set(y "gelu[(]x[)] = -6[.]0018536e-08 +-0x1[.]01c714p-24 +0xb380e38a")
cli_test(ref_gelu_f32 0 "ref|gelu|--dtype|f32|--|-5.6" OUT "^gelu f32 rn +${x} +${y}\n$")
# negative X after FUNC without '--', options after the operands
set(inf "x = -inf +-inf +0xff800000 +gelu[(]x[)] = -0 +-0x0p[+]0 +0x80000000")
cli_test(ref_negative_operands 0 "ref|gelu|-5.6|--dtype|f32|-inf|-0x1p-149|-NaN|--rounding|rn"
    OUT "x = -5[.]6 .*\n.*${inf}\n.*x = -1e-45 .*\n.*x = nan ")
# GELU(-1) = -0.15865525393145705 (docs/design.md section 2); in bf16 162.46 ulps of 2^-10: RD -> 163
cli_test(ref_gelu_f64 0 "ref|gelu|--dtype|f64|-1"
    OUT "gelu[(]x[)] = -0[.]15865525393145705 +-0x1[.]44ed0bb7cb20bp-3 +0xbfc44ed0bb7cb20b\n$")
cli_test(ref_gelu_bf16_rd 0 "ref|gelu|--dtype|bf16|--rounding|rd|-1"
    OUT "^gelu bf16 rd +x = -1 .* = -0[.]159 +-0x1[.]46p-3 +0xbe23\n$")
cli_test(ref_gelu_scaled_label 0 "ref|gelu_scaled|--dtype|f32|1" OUT "gelu_scaled[(]x;s=1[)] = ")
# the precision cap reached: an error naming the input, exit 4, no value printed
cli_test(ref_prec_cap 4 "ref|gelu|--dtype|f32|--prec-cap|16|--|-1"
    ERR "gelucheck: error: .*-1.*precision cap" EMPTY_OUT)
cli_test(ref_bad_prec_cap 2 "ref|gelu|--dtype|f32|--prec-cap|12|1"
    ERR "^${e}bad precision cap '12'" EMPTY_OUT)
