# Makes the shard results the gelucheck merge error tests read (cmake -P script, shard.cmake;
# the setup of the CTest fixture shard_results):
#   -DEXE=gelucheck  -DDIR=folder (made afresh)
# in DIR: s0of2.json, s1of2.json (libm erf1p.f16, ulp suite, shards 0 and 1 of 2), s1of3.json
# (shard 1 of 3), seed2_s1of2.json (shard 1 of 2 of a run with another seed) and
# incomplete_s1of2.json (s1of2.json saying "complete": false, as an interrupted run will);
# t0of2.json, t1of2.json (libm erf1p.f16, tail suite, which splits in f16: its scan takes
# every input), s1of2_unknown.json and t1of2_unknown.json (s1of2.json and t1of2.json with a
# ulp and a tail metric merge does not know).
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
foreach(spec "s0of2:0/2:1:ulp" "s1of2:1/2:1:ulp" "s1of3:1/3:1:ulp" "seed2_s1of2:1/2:2:ulp"
        "t0of2:0/2:1:tail" "t1of2:1/2:1:tail")
    string(REPLACE ":" ";" spec "${spec}")
    list(GET spec 0 name)
    list(GET spec 1 shard)
    list(GET spec 2 seed)
    list(GET spec 3 suite)
    execute_process(COMMAND "${EXE}" run --adapter libm --kernel erf1p.f16 --suite ${suite}
        --threads 1 --seed ${seed} --shard ${shard} --json ${name}.json
        WORKING_DIRECTORY "${DIR}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(rc GREATER 1)
        message(FATAL_ERROR "gelucheck run --shard ${shard}: exit ${rc}\n${err}")
    endif()
endforeach()
# edited(FROM TO OLD NEW): DIR/TO is DIR/FROM with the text OLD replaced by NEW (which must
# then be there)
function(edited from to old new)
    file(READ "${DIR}/${from}" text)
    string(REPLACE "${old}" "${new}" text "${text}")
    string(FIND "${text}" "${new}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "${from} has no '${old}' to change")
    endif()
    file(WRITE "${DIR}/${to}" "${text}")
endfunction()
edited(s1of2.json incomplete_s1of2.json "\"complete\": true" "\"complete\": false")
edited(s1of2.json s1of2_unknown.json "\"overall\": " "\"spread\": 1, \"overall\": ")
edited(t1of2.json t1of2_unknown.json "\"zero_outputs_measured\": "
       "\"flush_count\": 1, \"zero_outputs_measured\": ")
