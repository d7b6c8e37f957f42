# The HTML pages of the report folders (cmake -P script, html.cmake).  MODE:
#   golden   RENDER (test_html) renders MD into DIR/golden.html, compared byte for byte with
#            GOLDEN (update with tests/reports/make_fixtures.sh GELUCHECK --goldens)
#   report   `gelucheck report A --report DIR/out`: DIR/out/report.html
#   compare  `gelucheck compare A B --report DIR/out`: DIR/out/compare.html
# For report and compare the page must pass check_html.py (well-formed, self-contained: each
# plot the Markdown links embedded with exactly the file's bytes, ids unique) and equal what
# RENDER makes of the Markdown beside it with the folder's plots (the Markdown is the one
# source).
#   -DEXE -DRENDER -DPY -DCHECK -DDIR and -DMD -DGOLDEN or -DA [-DB]
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")

function(same got want hint)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${got}" "${want}"
        RESULT_VARIABLE diff)
    if(NOT diff EQUAL 0)
        execute_process(COMMAND diff -u "${want}" "${got}" OUTPUT_VARIABLE d)
        string(SUBSTRING "${d}" 0 4000 d)
        message(FATAL_ERROR "${got} differs from ${want}${hint}:\n${d}")
    endif()
endfunction()

function(render md out title) # ARGN: the folder of the plots to embed
    execute_process(COMMAND "${RENDER}" render "${md}" "${out}" "${title}" ${ARGN}
        RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "test_html render ${md}: exit status ${rc}\n${err}")
    endif()
endfunction()

if(MODE STREQUAL "golden")
    render("${MD}" "${DIR}/golden.html" "gelucheck report")
    same("${DIR}/golden.html" "${GOLDEN}"
         " (if the change is meant, update with tests/reports/make_fixtures.sh GELUCHECK --goldens)")
    return()
endif()

if(MODE STREQUAL "report")
    set(args report "${A}")
    set(name report)
    set(title "gelucheck report")
    set(images 6) # the plots mutants.report.md links
else()
    set(args compare "${A}" "${B}")
    set(name compare)
    set(title "gelucheck compare")
    set(images 1) # plots/compare.svg
endif()
execute_process(COMMAND "${EXE}" ${args} --report "${DIR}/out"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "/out/${name}[.]html")
    message(FATAL_ERROR "gelucheck ${name}: exit status ${rc}, want 0 and ${name}.html named\n"
                        "--- stdout:\n${out}--- stderr:\n${err}")
endif()
execute_process(COMMAND "${PY}" "${CHECK}" "${DIR}/out/${name}.html" ${images}
                        "${DIR}/out/${name}.md"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_html.py ${DIR}/out/${name}.html: exit status ${rc}\n${out}${err}")
endif()
render("${DIR}/out/${name}.md" "${DIR}/again.html" "${title}" "${DIR}/out")
same("${DIR}/out/${name}.html" "${DIR}/again.html" " (the page is not its Markdown rendered)")
