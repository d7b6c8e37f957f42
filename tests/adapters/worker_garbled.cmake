# The worker host against replies no worker sends (test_worker_garbled.c): GELUCHECK_WORKER
# points at fixtures/fake_worker.c, a stand-in that speaks the protocol of
# adapters/worker/worker_proto.h right up to the reply it garbles.  Included from
# tests/CMakeLists.txt.
add_executable(gcfx_fake_worker ${CMAKE_CURRENT_LIST_DIR}/fixtures/fake_worker.c)
target_include_directories(gcfx_fake_worker PRIVATE ${PROJECT_SOURCE_DIR}/adapters/core
                                                    ${PROJECT_SOURCE_DIR}/adapters/worker)
target_link_libraries(gcfx_fake_worker PRIVATE geluref gelucheck_plugin_abi gelucheck_warnings)

add_executable(test_adapters_worker_garbled ${CMAKE_CURRENT_LIST_DIR}/test_worker_garbled.c)
target_link_libraries(test_adapters_worker_garbled PRIVATE gc_adapters PkgConfig::CMOCKA
                                                           gelucheck_warnings)
target_compile_definitions(test_adapters_worker_garbled PRIVATE
    FX_FAKE_WORKER="$<TARGET_FILE:gcfx_fake_worker>")
add_dependencies(test_adapters_worker_garbled gcfx_fake_worker)
add_test(NAME adapters_worker_garbled COMMAND test_adapters_worker_garbled)
