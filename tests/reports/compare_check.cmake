# gelucheck compare A.json B.json --report DIR (cmake -P script): exit 0, DIR/compare.md with
# the tables, DIR/plots/compare.svg that parses as XML.
#   -DEXE -DA -DB -DDIR -DPY (/usr/bin/python3)
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${EXE}" compare "${A}" "${B}" --report "${DIR}/out"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(ctx "--- stdout:\n${out}--- stderr:\n${err}")
if(NOT rc EQUAL 0 OR NOT out MATCHES "^wrote [^\n]*/out/compare.md and [^\n]*/out/plots/compare.svg\n$")
    message(FATAL_ERROR "exit status ${rc}, want 0 and the files named: ${ctx}")
endif()
file(READ "${DIR}/out/compare.md" md)
foreach(want "\n## gelu f32\n" "\n## gelu_tanh f16\n" "\n[|] mutants [[]2[]] [|] nosqrt2.f32 [|]"
        "\n[|] libm [[]1[]] [|] erf1p.f16 [|]")
    string(REPLACE "_" "\\\\_" want "${want}")
    if(NOT md MATCHES "${want}")
        message(FATAL_ERROR "compare.md lacks '${want}':\n${md}")
    endif()
endforeach()
execute_process(COMMAND "${PY}" -c "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if r.tag.endswith('svg') else 1)"
    "${DIR}/out/plots/compare.svg" RESULT_VARIABLE rc ERROR_VARIABLE e)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "compare.svg is not SVG: ${e}")
endif()
