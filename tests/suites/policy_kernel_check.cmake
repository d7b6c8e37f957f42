# [kernel ADAPTER/KERNEL] policy sections end to end (cmake -P script), in a fresh folder DIR:
#   1. a section judges its kernel alone: libm erfc.f32 under max_ulp = 0 fails with
#      ulp_exceeded findings while erf1p.f32, under the file's [gelu.f32] max_ulp = inf, has
#      none; the result records the section's values under "policy"."kernel_values" for that
#      kernel only, and validates;
#   2. it follows the identity, not the spec: under --adapter-name other, the section names
#      no adapter of the run (a warning saying so) and erfc.f32 has no ulp_exceeded;
#   3. a section naming an adapter of the run but no kernel of it is a usage error (exit 2)
#      naming the policy, the line and the kernel;
#   4. --resume refuses a result judged under another kernel section.
# -DEXE -DDIR -DPY (/usr/bin/python3) -DVALIDATE ("" to skip validation) -DSCHEMA
include(${CMAKE_CURRENT_LIST_DIR}/../check_lib.cmake)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
set(common run --adapter libm --kernel erfc.f32 --kernel erf1p.f32 --suite ulp
    --samples 3000 --threads 1 --progress never)


# ulp_exceeded findings of the kernel with identity id in result file f
function(ulp_exceeded f id var)
    file(READ "${DIR}/${f}" doc)
    string(JSON nk LENGTH "${doc}" kernels)
    math(EXPR last "${nk} - 1")
    set(n "")
    foreach(i RANGE ${last})
        string(JSON kid GET "${doc}" kernels ${i} id)
        if(kid STREQUAL id)
            set(n 0)
            string(JSON fc GET "${doc}" kernels ${i} suites 0 finding_counts)
            string(JSON nc LENGTH "${fc}")
            if(nc GREATER 0)
                math(EXPR lc "${nc} - 1")
                foreach(j RANGE ${lc})
                    string(JSON kind GET "${fc}" ${j} kind)
                    if(kind STREQUAL "ulp_exceeded")
                        string(JSON n GET "${fc}" ${j} count)
                    endif()
                endforeach()
            endif()
        endif()
    endforeach()
    if(n STREQUAL "")
        message(FATAL_ERROR "${f}: no kernel '${id}'")
    endif()
    set(${var} ${n} PARENT_SCOPE)
endfunction()

file(WRITE "${DIR}/p.ini" "[policy]\nbase = default\n[gelu.f32]\nmax_ulp = inf\n"
    "[kernel libm/erfc.f32]\nmax_ulp = 0\n")

# --- 1. the section judges its kernel alone
check_run(section 1 ${common} --policy p.ini --json r1.json)
ulp_exceeded(r1.json libm/erfc.f32 n_erfc)
ulp_exceeded(r1.json libm/erf1p.f32 n_erf1p)
if(n_erfc LESS 10 OR NOT n_erf1p EQUAL 0)
    message(FATAL_ERROR "ulp_exceeded: erfc.f32 ${n_erfc} (want >= 10, under max_ulp = 0), "
        "erf1p.f32 ${n_erf1p} (want 0, under max_ulp = inf)")
endif()
file(READ "${DIR}/r1.json" doc)
string(JSON kv GET "${doc}" policy kernel_values)
string(JSON n LENGTH "${kv}")
string(JSON name MEMBER "${kv}" 0)
string(JSON mu GET "${kv}" libm/erfc.f32 max_ulp)
string(JSON gu GET "${doc}" policy values gelu.f32 max_ulp)
if(NOT n EQUAL 1 OR NOT name STREQUAL "libm/erfc.f32" OR NOT mu EQUAL 0 OR
   NOT gu STREQUAL "inf")
    message(FATAL_ERROR "policy.kernel_values ${kv}, gelu.f32 max_ulp ${gu}: want only "
        "libm/erfc.f32 with max_ulp 0, and inf for gelu.f32")
endif()
check_validate("${SCHEMA}" "${DIR}/r1.json")

# --- 2. by identity: another adapter name, the section applies to nothing and says so
check_run(renamed 1 ${common} --adapter-name other --policy p.ini --json r2.json)
ulp_exceeded(r2.json other/erfc.f32 n2)
if(NOT n2 EQUAL 0)
    message(FATAL_ERROR "other/erfc.f32 has ${n2} ulp_exceeded: the section matched it")
endif()
if(NOT err MATCHES "warning: policy 'p[.]ini' line 5: [[]kernel libm/erfc[.]f32[]]: no adapter of this run is named 'libm'; the section applies to nothing")
    message(FATAL_ERROR "no warning for the section matching nothing: ${ctx}")
endif()
file(READ "${DIR}/r2.json" doc)
string(JSON kv ERROR_VARIABLE none GET "${doc}" policy kernel_values)
if(NOT none)
    message(FATAL_ERROR "r2.json has policy.kernel_values ${kv}: no section applied")
endif()

# --- 3. a misspelt kernel of an adapter of the run: a usage error
file(WRITE "${DIR}/typo.ini" "[gelu.f32]\nmax_ulp = 8\n[kernel libm/erfc.f23]\nmax_ulp = 1\n")
check_run(typo 2 ${common} --policy typo.ini)
if(NOT err MATCHES "^gelucheck: error: policy 'typo[.]ini' line 3: [[]kernel libm/erfc[.]f23[]]: adapter 'libm' has no kernel 'erfc[.]f23' [(]'gelucheck list --adapter libm' lists them[)]\n$")
    message(FATAL_ERROR "typo: ${ctx}")
endif()

# --- 4. --resume: the kernel section changed since the interrupted run
file(READ "${DIR}/r1.json" doc)
string(JSON doc SET "${doc}" complete false)
file(WRITE "${DIR}/r1_cut.json" "${doc}")
file(WRITE "${DIR}/p.ini" "[policy]\nbase = default\n[gelu.f32]\nmax_ulp = inf\n"
    "[kernel libm/erfc.f32]\nmax_ulp = 2\n")
check_run(resume 2 ${common} --policy p.ini --json r1.json --resume r1_cut.json)
if(NOT err MATCHES "--resume 'r1_cut[.]json': a result of another policy: the values for kernel 'libm/erfc[.]f32' differ from this run's")
    message(FATAL_ERROR "resume: ${ctx}")
endif()
