# The installed package as a kernel author gets it (tests/package/): included from
# tests/CMakeLists.txt.
#   package_install  cmake --install --strip into a scratch prefix, then check_installed.sh:
#                    share/, man page, completion, one version, no source or build path,
#                    and (trees hidden) every built-in and the example's ctest gate
#   package_deb      the same on the .deb (cpack, dpkg-deb -x into a staging root); slow:
#                    cpack compresses ONNX Runtime's 45 MB library (1.5 min here)
set(_pkg ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME package_install
    COMMAND ${_pkg}/install.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION})
set_tests_properties(package_install PROPERTIES LABELS "cli;install")
if(CMAKE_C_FLAGS MATCHES "-fsanitize") # their programs name their sources (check_installed.sh)
    set_tests_properties(package_install PROPERTIES ENVIRONMENT GC_SANITIZED=1)
endif()
find_program(GC_DPKG_DEB dpkg-deb)
find_program(GC_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(GC_DPKG_DEB AND GC_DPKG_SHLIBDEPS)
    add_test(NAME package_deb
        COMMAND ${_pkg}/deb.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} ${PROJECT_VERSION})
    set_tests_properties(package_deb PROPERTIES LABELS "slow;install" RUN_SERIAL ON)
else()
    message(STATUS "test package_deb: skipped (no dpkg-deb or dpkg-shlibdeps: install dpkg-dev)")
endif()
