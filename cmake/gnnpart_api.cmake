# Embedding pieces (included from the top-level CMakeLists.txt after tests/):
#   gnnpart_metis  METIS_PartGraphKway shim (lib/api/metis_shim, outside gnnpart_api's glob)
#   gnnpart_python the pybind11 module `gnnpart` (python/), when pybind11 is installed
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
  file(GLOB python_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/python/*.cc)
  pybind11_add_module(gnnpart_python ${python_sources})
  target_link_libraries(gnnpart_python PRIVATE gnnpart_api)
  set_target_properties(gnnpart_python PROPERTIES OUTPUT_NAME gnnpart
                        LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/python)
endif()

# ---- Install -------------------------------------------------------------------------------
set(gnnpart_export_targets gnnpart_flags gnnpart_core gnnpart_io gnnpart_layout gnnpart_partition
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
                   -P ${PROJECT_SOURCE_DIR}/cmake/run_embed_test.cmake)
  set_tests_properties(install_and_embed PROPERTIES TIMEOUT 300)

  if(TARGET gnnpart_python)
    add_test(NAME python_module
             COMMAND ${GNNPART_PYTHON} -m pytest -q -p no:cacheprovider
                     ${PROJECT_SOURCE_DIR}/tests/python
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(python_module PROPERTIES TIMEOUT 120
      ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python;GNNPART_BINARY=$<TARGET_FILE:gnnpart>;GNNPART_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  endif()
endif()
