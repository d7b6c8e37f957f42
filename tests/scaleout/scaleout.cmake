# scale-out on a real batch system (issue 24, docs/scale-out.md): scripts/slurm-demo brings up
# a single-node Slurm cluster (slurm-wlm, munge), runs an exhaustive sweep as a job array of
# shards, merges them and compares the result with the single-machine run; scripts/publish
# --exhaustive [--slurm] on a tiny part of one kernel.  Included from tests/CMakeLists.txt.
# When Slurm or munge cannot run here, the Slurm tests skip with the reason (exit 77), and
# fail in CI (skip_or_fail.sh).  No test creates or changes a cgroup: slurm-demo's slurm.conf
# uses proctrack/linuxproc and task/none, and the script checks /sys/fs/cgroup and its logs.
set(scaleout_dir ${CMAKE_CURRENT_LIST_DIR})
set(scaleout_out ${CMAKE_CURRENT_BINARY_DIR}/scaleout_results)

# libm's erfc.f32, ulp and tail suites, every input in [-6, -1] (about 2^24.3 bit patterns, in
# the negative tail, where the reference works hardest and erfc.f32 flushes), as 3 shards
add_test(NAME scaleout_slurm_demo
    COMMAND ${scaleout_dir}/skip_or_fail.sh ${PROJECT_SOURCE_DIR}/scripts/slurm-demo
            --gelucheck $<TARGET_FILE:gelucheck> --range -6:-1 --shards 3 --timeout 600)
set_tests_properties(scaleout_slurm_demo PROPERTIES LABELS "scaleout;sweep"
    SKIP_RETURN_CODE 77 TIMEOUT 900)

# the whole range: every binary32 input, 4 shards
add_test(NAME scaleout_slurm_demo_whole
    COMMAND ${scaleout_dir}/skip_or_fail.sh ${PROJECT_SOURCE_DIR}/scripts/slurm-demo
            --gelucheck $<TARGET_FILE:gelucheck> --shards 4 --timeout 3000)
set_tests_properties(scaleout_slurm_demo_whole PROPERTIES LABELS "scaleout;slow"
    SKIP_RETURN_CODE 77 TIMEOUT 3600)

# scripts/publish --exhaustive, on this machine and on the demo cluster (--slurm); the Slurm
# one compares its result with the local one's
add_test(NAME scaleout_publish_exhaustive
    COMMAND ${scaleout_dir}/publish_check.sh local ${PROJECT_SOURCE_DIR}
            $<TARGET_FILE:gelucheck> ${scaleout_out}/publish)
set_tests_properties(scaleout_publish_exhaustive PROPERTIES LABELS "scaleout;sweep"
    FIXTURES_SETUP scaleout_publish_local)
add_test(NAME scaleout_publish_exhaustive_shards
    COMMAND ${scaleout_dir}/publish_check.sh shards ${PROJECT_SOURCE_DIR}
            $<TARGET_FILE:gelucheck> ${scaleout_out}/publish)
set_tests_properties(scaleout_publish_exhaustive_shards PROPERTIES LABELS "scaleout;sweep"
    FIXTURES_REQUIRED scaleout_publish_local)
# --shards N interrupted by SIGTERM mid-shard: the shard's partial result is kept and the
# next run continues it with --resume; the published result is the uninterrupted run's
# (about 6 s of CPU; an exec adapter holds shard 1's first requests until gelucheck says it
# caught the signal: events, not sleeps, decide where the interruption lands)
add_test(NAME scaleout_publish_exhaustive_resume
    COMMAND /usr/bin/python3 ${scaleout_dir}/publish_resume.py ${PROJECT_SOURCE_DIR}
            $<TARGET_FILE:gelucheck> ${scaleout_out}/publish_resume)
set_tests_properties(scaleout_publish_exhaustive_resume PROPERTIES LABELS "scaleout;sweep")
add_test(NAME scaleout_publish_exhaustive_slurm
    COMMAND ${scaleout_dir}/skip_or_fail.sh ${scaleout_dir}/publish_check.sh slurm
            ${PROJECT_SOURCE_DIR} $<TARGET_FILE:gelucheck> ${scaleout_out}/publish)
set_tests_properties(scaleout_publish_exhaustive_slurm PROPERTIES LABELS "scaleout;sweep"
    FIXTURES_REQUIRED scaleout_publish_local SKIP_RETURN_CODE 77 TIMEOUT 600)

# usage errors: --slurm without --exhaustive, --slurm without sbatch on PATH (exit 2, named)
add_test(NAME scaleout_publish_usage
    COMMAND ${scaleout_dir}/publish_usage.sh ${PROJECT_SOURCE_DIR}/scripts/publish
            $<TARGET_FILE:gelucheck> ${scaleout_out}/publish_usage)
set_tests_properties(scaleout_publish_usage PROPERTIES LABELS "scaleout")

# slurm-demo interrupted (SIGINT) while its job array runs (the shards' first requests held
# by hold_adapter.py until then): nothing it started is left
add_test(NAME scaleout_slurm_demo_interrupt
    COMMAND ${scaleout_dir}/skip_or_fail.sh /usr/bin/python3 ${scaleout_dir}/interrupt_check.py
            ${PROJECT_SOURCE_DIR}/scripts/slurm-demo $<TARGET_FILE:gelucheck>)
set_tests_properties(scaleout_slurm_demo_interrupt PROPERTIES LABELS "scaleout;sweep"
    SKIP_RETURN_CODE 77 TIMEOUT 600)
