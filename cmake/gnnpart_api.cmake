# Embedding pieces (included from the top-level CMakeLists.txt after tests/):
#   gnnpart_metis  METIS_PartGraphKway shim (lib/api/metis_shim, outside gnnpart_api's glob)
#   gnnpart_python the package `gnnpart` (python/: the pybind11 extension gnnpart._core and the
#                  pure-Python modules), when pybind11 is installed
#   install rules, gnnpartConfig.cmake, gnnpart.pc, and the tests of all of these.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

target_include_directories(gnnpart_api PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

# The shim calls gnnpart through the C API; it defines METIS_PartGraphKway itself, so with
# --as-needed the linker drops libmetis from binaries that link the shim.
add_library(gnnpart_metis STATIC ${PROJECT_SOURCE_DIR}/lib/api/metis_shim/metis_shim.cpp)
add_library(gnnpart::metis ALIAS gnnpart_metis)
set_target_properties(gnnpart_metis PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_link_libraries(gnnpart_metis PUBLIC gnnpart_api)
target_link_options(gnnpart_metis INTERFACE "LINKER:--as-needed")

# One umbrella target: gnnpart::gnnpart (installed) links the whole library.
add_library(gnnpart_gnnpart INTERFACE)
target_link_libraries(gnnpart_gnnpart INTERFACE gnnpart_api)

# ---- Python module -------------------------------------------------------------------------
# Debian's python3 (numpy, pybind11), never a pyenv/venv one found first on PATH.
set(GNNPART_PYTHON "/usr/bin/python3" CACHE FILEPATH "Python with numpy, pybind11 and pytest")
if(EXISTS "${GNNPART_PYTHON}")
  set(PYTHON_EXECUTABLE "${GNNPART_PYTHON}" CACHE FILEPATH "" FORCE)
  set(Python3_EXECUTABLE "${GNNPART_PYTHON}")
  find_package(pybind11 CONFIG QUIET PATHS /usr/lib/cmake/pybind11)
endif()
if(pybind11_FOUND AND EXISTS "${GNNPART_PYTHON}")
  # The package gnnpart: python/gnnpart/*.py plus the extension gnnpart._core, assembled in
  # build/python/gnnpart (PYTHONPATH=build/python) and installed into the python3 site directory.
  pybind11_add_module(gnnpart_python ${PROJECT_SOURCE_DIR}/python/core_module.cc)
  target_link_libraries(gnnpart_python PRIVATE gnnpart_api gnnpart_export)
  set_target_properties(gnnpart_python PROPERTIES OUTPUT_NAME _core
                        LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/python/gnnpart)
  file(GLOB_RECURSE gnnpart_python_files CONFIGURE_DEPENDS
       RELATIVE ${PROJECT_SOURCE_DIR}/python/gnnpart ${PROJECT_SOURCE_DIR}/python/gnnpart/*.py)
  set(gnnpart_python_copies)
  foreach(file ${gnnpart_python_files})
    set(copy ${PROJECT_BINARY_DIR}/python/gnnpart/${file})
    add_custom_command(OUTPUT ${copy}
                       COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/python/gnnpart/${file} ${copy}
                       DEPENDS ${PROJECT_SOURCE_DIR}/python/gnnpart/${file} VERBATIM)
    list(APPEND gnnpart_python_copies ${copy})
  endforeach()
  add_custom_target(gnnpart_python_package ALL DEPENDS ${gnnpart_python_copies})
  add_dependencies(gnnpart_python gnnpart_python_package)

  # Debian's python3 reads /usr/lib/python3/dist-packages and, for other prefixes,
  # PREFIX/lib/python3.X/dist-packages (/usr/local's is on its sys.path).
  execute_process(COMMAND ${GNNPART_PYTHON} -c
                          "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"
                  OUTPUT_VARIABLE gnnpart_python_version OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
    set(gnnpart_site_default "lib/python3/dist-packages")
  else()
    set(gnnpart_site_default "lib/python${gnnpart_python_version}/dist-packages")
  endif()
  set(GNNPART_PYTHON_INSTALL_DIR "${gnnpart_site_default}" CACHE STRING
      "where cmake --install puts the package gnnpart, relative to the prefix")
  install(TARGETS gnnpart_python LIBRARY DESTINATION ${GNNPART_PYTHON_INSTALL_DIR}/gnnpart)
  # `gnnpart export --to pyg` runs this Python on the package beside the binary.
  target_compile_definitions(gnnpart PRIVATE GNNPART_PYTHON_EXECUTABLE="${GNNPART_PYTHON}"
                             GNNPART_PYTHON_SITE_DIR="${GNNPART_PYTHON_INSTALL_DIR}")
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/gnnpart DESTINATION ${GNNPART_PYTHON_INSTALL_DIR}
          FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
endif()

# ---- Install -------------------------------------------------------------------------------
set(gnnpart_export_targets gnnpart_flags gnnpart_core gnnpart_io gnnpart_cost gnnpart_layout gnnpart_partition
    gnnpart_hypergraph gnnpart_streaming gnnpart_api gnnpart_metis gnnpart_gnnpart)
foreach(target ${gnnpart_export_targets})
  string(REPLACE "gnnpart_" "" export_name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
endforeach()
install(TARGETS ${gnnpart_export_targets} EXPORT gnnpartTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS gnnpart RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/gnnpart/gnnpart.h
              ${PROJECT_SOURCE_DIR}/include/gnnpart/gnnpart.hpp
              ${PROJECT_SOURCE_DIR}/include/gnnpart/gnnpart_defaults.h
              ${PROJECT_SOURCE_DIR}/include/gnnpart/gnnpart_enums.hpp
              ${PROJECT_SOURCE_DIR}/include/gnnpart/gnnpart_metis.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gnnpart)
install(EXPORT gnnpartTargets NAMESPACE gnnpart::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gnnpart)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gnnpartConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/gnnpartConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gnnpart)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gnnpartConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gnnpartConfig.cmake
              ${PROJECT_BINARY_DIR}/gnnpartConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gnnpart)
configure_file(${PROJECT_SOURCE_DIR}/gnnpart.pc.in ${PROJECT_BINARY_DIR}/gnnpart.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gnnpart.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- Tests ---------------------------------------------------------------------------------
if(GNNPART_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
  if(TARGET api_test)
    target_link_libraries(api_test PRIVATE gnnpart_api)
  endif()

  # The shim alone: a METIS caller relinked against gnnpart, without libmetis in the binary.
  add_executable(metis_shim_test ${PROJECT_SOURCE_DIR}/tests/api/shim/metis_shim_test.cpp)
  target_link_libraries(metis_shim_test PRIVATE gnnpart_metis GTest::gtest_main)
  gtest_discover_tests(metis_shim_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)
  add_test(NAME metis_shim_without_libmetis
           COMMAND sh -c "! ldd \"$<TARGET_FILE:metis_shim_test>\" | grep -q libmetis")

  # Install into a staging dir, then build and run examples/embed against it.
  add_test(NAME install_and_embed
           COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR}
                   -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
                   "-DEXTRA_INSTALLED=$<$<TARGET_EXISTS:gnnpart-train>:bin/gnnpart-train>"
                   -P ${PROJECT_SOURCE_DIR}/cmake/run_embed_test.cmake)
  set_tests_properties(install_and_embed PROPERTIES TIMEOUT 300)

  if(TARGET gnnpart_python)
    # A sanitized extension loads into the uninstrumented python3 only with the runtimes first.
    set(gnnpart_python_sanitizer_env)
    if(GNNPART_SANITIZE)
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                      OUTPUT_VARIABLE asan OUTPUT_STRIP_TRAILING_WHITESPACE)
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libubsan.so
                      OUTPUT_VARIABLE ubsan OUTPUT_STRIP_TRAILING_WHITESPACE)
      set(gnnpart_python_sanitizer_env "LD_PRELOAD=${asan}:${ubsan}" "ASAN_OPTIONS=detect_leaks=0")
    endif()
    # pytest under Debian's python3 with the build tree's package (PYTHONPATH=build/python).
    add_test(NAME python_module
             COMMAND ${GNNPART_PYTHON} -m pytest -q -p no:cacheprovider
                     ${PROJECT_SOURCE_DIR}/tests/python
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(python_module PROPERTIES TIMEOUT 400
      ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python;GNNPART_BINARY=$<TARGET_FILE:gnnpart>;GNNPART_SOURCE_DIR=${PROJECT_SOURCE_DIR};GNNPART_SHARED_DIR=${GNNPART_SHARED_DIR};${gnnpart_python_sanitizer_env}")
    add_test(NAME python_install
             COMMAND bash ${PROJECT_SOURCE_DIR}/tests/python/install_test.sh ${PROJECT_BINARY_DIR}
                     ${GNNPART_PYTHON} ${GNNPART_PYTHON_INSTALL_DIR})
    set_tests_properties(python_install PROPERTIES TIMEOUT 120
                         ENVIRONMENT "${gnnpart_python_sanitizer_env}")
  endif()
endif()
