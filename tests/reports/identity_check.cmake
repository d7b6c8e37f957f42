# Kernel identity and honest baselines, end to end (cmake -P script), in a fresh folder DIR:
#   1. the plug-in "idk" (tests/adapters/fixtures/ident.c) gated on a compact baseline: its
#      regressed build fails however its path is spelled (./build/x.so, build/x.so, the
#      absolute path, plugin:...), against the compact baseline and the whole result alike;
#   2. a kernel removed from the table fails as missing (a failing JUnit testcase of its
#      own), unless --baseline-allow-missing; one filtered out by --kernel is not missing;
#   3. a baseline made with another seed compares only what does not depend on the inputs,
#      and says so;
#   4. a result of gelucheck 0.1 (no ids: tests/reports/fixtures_v0_1) serves as a baseline;
#   5. two exec adapters run by one interpreter get their programs' names; a banner's 'name'
#      line wins; two adapters with one name are a usage error naming both specs, and
#      --adapter-name tells them apart.
# -DEXE -DDIR -DGOOD -DREGRESS -DDROP (the three builds) -DEXAMPLE (libexample.so) -DSRC
# (the source tree) -DPY (/usr/bin/python3) -DVALIDATE -DSCHEMA -DBSCHEMA
include(${CMAKE_CURRENT_LIST_DIR}/../check_lib.cmake)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}/build")
set(common --policy lenient --samples 2000 --threads 2 --progress never)


function(expect what regex)
    if(NOT out MATCHES "${regex}")
        message(FATAL_ERROR "${what}: the output lacks /${regex}/: ${ctx}")
    endif()
endfunction()


# --- 1. the good build passes and makes the baseline; the regressed one fails, however reached
file(COPY_FILE "${GOOD}" "${DIR}/build/libidk.so")
check_run(good 0 run --adapter ./build/libidk.so ${common} --json good.json)
check_run(baseline 0 baseline good.json -o gate/idk.baseline.json)
check_validate("${BSCHEMA}" "${DIR}/gate/idk.baseline.json")
file(SIZE "${DIR}/gate/idk.baseline.json" bytes)
if(bytes GREATER 20000)
    message(FATAL_ERROR "the compact baseline is ${bytes} bytes: not compact")
endif()
check_run(same 0 run --adapter build/libidk.so ${common} --baseline gate/idk.baseline.json)
expect(same "\nbaseline: 2 kernels compared, 0 regressions, 0 improvements, 0 missing, 0 new\n")

file(COPY_FILE "${REGRESS}" "${DIR}/build/libidk.so")
foreach(spec ./build/libidk.so build/libidk.so "${DIR}/build/libidk.so" plugin:build/libidk.so)
    foreach(base gate/idk.baseline.json good.json)
        check_run("regressed ${spec} vs ${base}" 1 run --adapter ${spec} ${common} --baseline ${base}
            --json r.json --junit r.xml)
        expect("regressed ${spec}" "\nbaseline: 2 kernels compared, 1 regressions, ")
        expect("regressed ${spec}" "\nbaseline: regressed: idk/erf[.]f32 ")
        expect("regressed ${spec}" "baseline    max_ulp [0-9.e+]+ -> [0-9.e+]+ [(]worse[)]")
    endforeach()
endforeach()
check_validate("${SCHEMA}" "${DIR}/r.json")
file(READ "${DIR}/r.xml" xml)
if(NOT xml MATCHES "classname=\"idk/erf[.]f32\" name=\"baseline\"[^>]*>\n *<failure")
    message(FATAL_ERROR "the JUnit names the kernel by its identity and fails its baseline:\n${xml}")
endif()

# --- 2. a kernel removed from the table
file(COPY_FILE "${DROP}" "${DIR}/build/libidk.so")
check_run(dropped 1 run --adapter ./build/libidk.so ${common} --baseline gate/idk.baseline.json
    --json d.json --junit d.xml)
expect(dropped "\nbaseline: 1 kernels compared, 0 regressions, 0 improvements, 1 missing, 0 new\n")
expect(dropped "\nbaseline: missing: idk/tanh[.]f32 [(]in the baseline, selected by this run")
file(READ "${DIR}/d.xml" xml)
if(NOT xml MATCHES "classname=\"idk/tanh[.]f32\" name=\"baseline\"[^>]*>\n *<failure[^>]*type=\"missing\"")
    message(FATAL_ERROR "a missing kernel has a failing JUnit testcase of its own:\n${xml}")
endif()
check_validate("${SCHEMA}" "${DIR}/d.json")
check_run(allowed 0 run --adapter ./build/libidk.so ${common} --baseline gate/idk.baseline.json
    --baseline-allow-missing)
expect(allowed "1 missing, 0 new\n")
check_run(filtered 0 run --adapter ./build/libidk.so --kernel erf.f32 ${common}
    --baseline gate/idk.baseline.json)
expect(filtered "\nbaseline: 1 kernels compared, 0 regressions, 0 improvements, 0 missing, 0 new\n")
check_run(other_adapter 0 run --adapter mutants --kernel pos_zero.f32 ${common}
    --baseline gate/idk.baseline.json)
expect(other_adapter "0 kernels compared, 0 regressions, 0 improvements, 0 missing, 1 new\n")

# --- 3. another seed: the f32 sweeps are not compared, and the run says so
file(COPY_FILE "${GOOD}" "${DIR}/build/libidk.so")
check_run(seed 0 run --adapter ./build/libidk.so ${common} --seed 7 --baseline gate/idk.baseline.json
    --json s.json)
expect(seed "\nbaseline: the baseline measured other inputs [^\n]*only what does not depend on them was compared")
file(READ "${DIR}/s.json" doc)
string(JSON nc GET "${doc}" kernels 0 baseline not_compared)
string(JSON same GET "${doc}" baseline same_inputs)
if(NOT nc MATCHES "max_ulp" OR NOT nc MATCHES "flush_point" OR NOT same STREQUAL "OFF")
    message(FATAL_ERROR "another seed: the swept metrics should not be compared (${nc}, ${same})")
endif()
string(JSON n LENGTH "${doc}" kernels 0 baseline metrics)
string(JSON m0 GET "${doc}" kernels 0 baseline metrics 0 name)
if(NOT n EQUAL 1 OR NOT m0 STREQUAL "special_passed")
    message(FATAL_ERROR "another seed: only special_passed is compared, got ${n} metrics (${m0})")
endif()

# --- 4. a result of gelucheck 0.1, without ids, as the baseline of this version
# (the example plug-in is now called example-rename-me: --adapter-name gives it its old name)
check_run(v0_1 1 run --adapter "${EXAMPLE}" --adapter-name example --adapter libm --adapter
    "exec:/usr/bin/python3 ${SRC}/adapters/exec/example_adapter.py" --kernel erfc.f32
    --kernel tanh.f32 --kernel gelu_erf.f32 --samples 2000 --threads 2 --progress never
    --baseline "${SRC}/tests/reports/fixtures_v0_1/result.json")
expect(v0_1 "\nbaseline: 5 kernels compared, 0 regressions, 0 improvements, 0 missing, 0 new\n")

# --- 5. exec adapters: named by their programs, or by their banner
check_run(two_exec 0 list --json --adapter "exec:/usr/bin/python3 ${SRC}/adapters/exec/example_adapter.py"
    --adapter "exec:/usr/bin/python3 ${SRC}/tests/adapters/exec_fixtures/misbehave.py none")
string(JSON id0 GET "${out}" adapters 0 id)
string(JSON id1 GET "${out}" adapters 1 id)
if(NOT id0 STREQUAL "example_adapter" OR NOT id1 STREQUAL "misbehave")
    message(FATAL_ERROR "one interpreter, two programs: ids '${id0}', '${id1}': ${ctx}")
endif()
set(banner "exec:printf 'gelucheck-exec 1\\nname mine\\nkernel k gelu f64\\nready\\n' && cat >/dev/null")
check_run(banner_name 0 list --json --adapter "${banner}")
string(JSON id0 GET "${out}" adapters 0 id)
if(NOT id0 STREQUAL "mine")
    message(FATAL_ERROR "a banner's name line: id '${id0}': ${ctx}")
endif()
set(py "exec:/usr/bin/python3 ${SRC}/adapters/exec/example_adapter.py")
check_run(same_name 2 run --adapter "${py}" --adapter "${py} " --kernel gelu_erf.f64 --suite special
    --progress never)
if(NOT err MATCHES "^gelucheck: error: adapters '[^\n]*example_adapter[.]py' and '[^\n]*' both have the name 'example_adapter': tell them apart with --adapter-name")
    message(FATAL_ERROR "two adapters with one name: ${ctx}")
endif()
check_run(renamed 1 run --adapter "${py}" --adapter "${py} " --adapter-name second
    --kernel gelu_erf.f64 --suite special --progress never --json n.json)
file(READ "${DIR}/n.json" doc)
string(JSON id0 GET "${doc}" kernels 0 id)
string(JSON id1 GET "${doc}" kernels 1 id)
if(NOT id0 STREQUAL "example_adapter/gelu_erf.f64" OR NOT id1 STREQUAL "second/gelu_erf.f64")
    message(FATAL_ERROR "--adapter-name: ids '${id0}', '${id1}'")
endif()
check_run(name_first 2 run --adapter-name x --adapter libm)
check_run(name_bad 2 run --adapter libm --adapter-name "a b")
