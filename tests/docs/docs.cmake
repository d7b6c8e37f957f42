# The command blocks of README.md and docs/*.md run as written (tests/docs/run_blocks.py says
# how blocks are marked), and every file they cite exists.
#   docs_commands         the default set: the blocks not marked slow, against this build
#                         installed into a scratch $HOME/.local
#   docs_commands_slow    every block not marked not-run, in a scratch copy of the tree: the
#                         install from source and the CI job's fresh configure with
#                         -DGELUCHECK_TESTS=OFF included (label slow: several minutes)
#   docs_catches_*        the harness fails on a failing block, a bare fence, a missing file
#                         and an exit mark that does not hold
set(_docs ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME docs_commands
    COMMAND /usr/bin/python3 ${_docs}/run_blocks.py --src ${PROJECT_SOURCE_DIR}
            --work ${CMAKE_CURRENT_BINARY_DIR}/docs_commands --mode fast
            --build ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs)
set_tests_properties(docs_commands PROPERTIES LABELS docs RESOURCE_LOCK docs_scratch)
add_test(NAME docs_commands_slow
    COMMAND /usr/bin/python3 ${_docs}/run_blocks.py --src ${PROJECT_SOURCE_DIR}
            --work ${CMAKE_CURRENT_BINARY_DIR}/docs_commands_slow --mode slow
            ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs)
set_tests_properties(docs_commands_slow PROPERTIES LABELS "slow;docs")
set(_want_failing_block "the failing block: [^\n]*failing_block.md:3")
set(_want_bare_fence "bare_fence.md:3: a fence without a language")
set(_want_missing_file "no-such-page.md, which is not in the repository")
set(_want_wrong_exit "wrong_exit.md:4: no command exited 1")
foreach(bad failing_block bare_fence missing_file wrong_exit)
    add_test(NAME docs_catches_${bad}
        COMMAND /usr/bin/python3 ${_docs}/run_blocks.py --src ${PROJECT_SOURCE_DIR}
                --work ${CMAKE_CURRENT_BINARY_DIR}/docs_catches_${bad} --mode slow
                ${_docs}/fixtures/${bad}.md)
    set_tests_properties(docs_catches_${bad} PROPERTIES LABELS docs
                         PASS_REGULAR_EXPRESSION "${_want_${bad}}")
endforeach()
