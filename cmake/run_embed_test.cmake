# ctest install_and_embed: cmake --install into BUILD_DIR/stage, then configure, build and run
# examples/embed (a separate project using find_package(gnnpart CONFIG)) against the stage,
# run the installed gnnpart and gnnpart-train, and build examples/embed_c/embed.c with `cc` and
# the flags of `pkg-config --cflags --libs gnnpart` alone.
set(stage "${BUILD_DIR}/stage")
set(embed_build "${BUILD_DIR}/embed-build")
file(REMOVE_RECURSE "${stage}" "${embed_build}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${stage}")
foreach(file include/gnnpart/gnnpart.h include/gnnpart/gnnpart.hpp
             include/gnnpart/gnnpart_defaults.h include/gnnpart/gnnpart_enums.hpp lib/cmake/gnnpart/gnnpartConfig.cmake
             lib/pkgconfig/gnnpart.pc bin/gnnpart ${EXTRA_INSTALLED})
  if(NOT EXISTS "${stage}/${file}")
    message(FATAL_ERROR "install did not put ${file} in place")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/embed" -B "${embed_build}"
    -DCMAKE_PREFIX_PATH=${stage} -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
run(${CMAKE_COMMAND} --build "${embed_build}" -j2)
run("${embed_build}/embed" 4)
message(STATUS "${last_output}")
if(NOT last_output MATCHES "PASS")
  message(FATAL_ERROR "embed did not verify its partition:\n${last_output}")
endif()

# The installed programs run from the prefix.
run("${stage}/bin/gnnpart" --version)
if(EXTRA_INSTALLED MATCHES "gnnpart-train")
  run("${stage}/bin/gnnpart-train" --help)
endif()

# The same program built with the flags of gnnpart.pc alone (plus -std=c++20 for C++), and a
# plain C program built by `cc` with nothing but those flags.
find_program(PKG_CONFIG pkg-config)
find_program(CXX_COMPILER c++)
find_program(C_COMPILER cc)
if(NOT PKG_CONFIG OR NOT CXX_COMPILER OR NOT C_COMPILER)
  message(FATAL_ERROR "pkg-config, c++ and cc are needed to check gnnpart.pc")
endif()
set(ENV{PKG_CONFIG_PATH} "${stage}/lib/pkgconfig")
run(${PKG_CONFIG} --cflags --libs gnnpart)
separate_arguments(pc_flags UNIX_COMMAND "${last_output}")
run(${C_COMPILER} -std=c99 -Wall -Werror "${SOURCE_DIR}/examples/embed_c/embed.c"
    -o "${embed_build}/embed_c" ${pc_flags})
run("${embed_build}/embed_c" 4)
message(STATUS "${last_output}")
if(NOT last_output MATCHES "PASS")
  message(FATAL_ERROR "the C program (pkg-config build) failed:\n${last_output}")
endif()
run(${CXX_COMPILER} -std=c++20 -O1 "${SOURCE_DIR}/examples/embed/embed.cc"
    -o "${embed_build}/embed_pc" ${pc_flags})
run("${embed_build}/embed_pc" 3)
if(NOT last_output MATCHES "PASS")
  message(FATAL_ERROR "embed (pkg-config build) failed:\n${last_output}")
endif()

# The trainer-side snippet also builds and runs against the installed package.
run("${embed_build}/trainer_snippet")
if(NOT last_output MATCHES "PASS")
  message(FATAL_ERROR "trainer_snippet failed:\n${last_output}")
endif()
