# tests of the reports module: the SVG plots (reports/svg.c, svg_fig.c, plots*.c, slug.c).
# Included from tests/CMakeLists.txt (paths relative to tests/).

# --- unit tests: scales, ticks, number formatting, escaping, marker placement
add_executable(test_plots reports/test_plots.c)
target_include_directories(test_plots PRIVATE ${PROJECT_SOURCE_DIR}/reports)
target_link_libraries(test_plots PRIVATE gc_reports PkgConfig::CMOCKA gelucheck_warnings m)
add_test(NAME reports_plots_unit COMMAND test_plots)

# --- plot file names (slug.c): unique, visible, short for any adapter spec
add_executable(test_slug reports/test_slug.c)
target_link_libraries(test_slug PRIVATE gc_reports PkgConfig::CMOCKA gelucheck_warnings)
add_test(NAME reports_slug_unit COMMAND test_slug)

# --- the plots of real results: gelucheck run, every kernel's plots and the combined plot,
# checked by check_plots.py (XML, axes, labels, legend, data, the flush markers' pixels, the
# plot data in the result).  The kernels: a flush (erf1p.f32), an approximation in f32 and f16
# (tanh), an underflow side x > 0 (erfc_c99.f64) and none at all (erf_c99.f32).
if(NOT run_no_jsonschema)
    set(plots_validate -DVALIDATE=${run_validate} -DSCHEMA=${run_schema})
endif()
add_test(NAME reports_plots_run
    COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:gelucheck> -DPLOTS=$<TARGET_FILE:test_plots>
        -DPY=/usr/bin/python3 -DCHECK=${CMAKE_CURRENT_LIST_DIR}/check_plots.py
        -DDIR=${CMAKE_CURRENT_BINARY_DIR}/plots_run ${plots_validate}
        "-DARGS=run|--adapter|libm|--kernel|erf1p.f32|--kernel|tanh.f32|--kernel|tanh.f16|--kernel|erfc_c99.f64|--kernel|erf_c99.f32|--samples|5000|--threads|2"
        -P ${CMAKE_CURRENT_LIST_DIR}/plots_check.cmake)
set_tests_properties(reports_plots_run PROPERTIES LABELS cli)
