# CTest registrations of gnnpart-mpi: shared graphs in every input format on 1 to 4 ranks,
# checked against evalpart; malformed input in the middle of a rank's slice.
if(TARGET evalpart AND EXISTS "${GNNPART_SHARED_DIR}/datasets")
  find_program(GNNPART_DIST_PYTHON NAMES python3 REQUIRED)
  set(dist_driver ${PROJECT_SOURCE_DIR}/tests/distributed/test_driver.sh)
  set(dist_env
    GNNPART=$<TARGET_FILE:gnnpart> GNNPART_MPI=$<TARGET_FILE:gnnpart-mpi>
    EVALPART=$<TARGET_FILE:evalpart> PYTHON=${GNNPART_DIST_PYTHON}
    SHARED_DIR=${GNNPART_SHARED_DIR} WORK=${PROJECT_BINARY_DIR}/distributed_test)
  function(distributed_test name)
    add_test(NAME distributed.${name} COMMAND ${dist_driver} ${ARGN})
    set_tests_properties(distributed.${name} PROPERTIES ENVIRONMENT "${dist_env}" TIMEOUT 300
                         RESOURCE_LOCK distributed_work)
  endfunction()
  distributed_test(cora.gz partition cora 8 gz 1 2 3 4)
  distributed_test(pubmed.plain partition pubmed 16 plain 2 4)
  distributed_test(citeseer.metis partition citeseer 4 metis 1 3)
  distributed_test(citeseer.metis.gz partition citeseer 4 metisgz 2 3)  # header before the scatter
  distributed_test(pubmed.pairs partition pubmed 4100 plain 2)  # sparse pair count, k > 4096
  distributed_test(rmat.bin partition rmat 8 bin 1 4)
  distributed_test(pubmed.balance balance pubmed 16 plain 1 3)  # the balancer forced to work
  distributed_test(pubmed.volume volume pubmed 16 plain 1 2)  # --objective volume
  distributed_test(citeseer.volume.metis volume citeseer 8 metis 3 4)  # a gain on some seed
  distributed_test(pubmed.jet jet pubmed 16 plain 1 3)  # the Jet pass lowers the cut
  distributed_test(cora.nojet nojet cora 8 plain 2)
  distributed_test(pubmed.gathered gathered pubmed 16 plain 1 3)  # levels refined as copies
  distributed_test(cora.layout layout cora 5 1 3 4)
  distributed_test(pubmed.chunks.plain chunks pubmed 8 plain 1 3)  # many pieces and rounds
  distributed_test(citeseer.chunks.metis chunks citeseer 4 metis 2)
  distributed_test(rmat.chunks.bin chunks rmat-small 8 bin 4)
  distributed_test(pubmed.keeplevels keeplevels pubmed 16 plain 1 3)  # levels spilled and read back
  distributed_test(rmat.keeplevels keeplevels rmat 8 bin 4)
  distributed_test(pubmed.spill spill pubmed 16 plain 1 4)  # adjacency in a scratch file
  distributed_test(citeseer.spill.metis spill citeseer 8 metis 3)
  distributed_test(malformed.plain malformed plain 1 2 3 4)
  distributed_test(malformed.metis malformed metis 2 4)
  distributed_test(malformed.gz malformed gz 3)
  distributed_test(citeseer.weights weights citeseer 8 1 3)  # 64-bit coarse edge weights
  distributed_test(textrules.plain textrules plain 1 2)  # BOM skipped, NUL = binary input
  distributed_test(textrules.metis textrules metis 2 3)
  distributed_test(textrules.gz textrules gz 1 2)
  distributed_test(usage usage 1 3)  # a mistyped command or flag, named once
endif()

# MPI programs on 3 ranks (tests/distributed/mpi, so not in the glob of distributed_test):
# SpilledLevel on coarse levels (a level read back from its scratch file must be the level), and
# the refinement's balance shares (the ranks' shares of a block's room add up to it; the
# balancer fills rooms smaller than the rank count).
find_package(GTest REQUIRED)
add_executable(distributed_mpi_test ${PROJECT_SOURCE_DIR}/tests/distributed/mpi/spilled_level_test.cc
               ${PROJECT_SOURCE_DIR}/tests/distributed/mpi/rebalance_test.cc)
target_link_libraries(distributed_mpi_test PRIVATE gnnpart::distributed GTest::gtest)
foreach(case spilled_level:SpilledLevel.* balance_shares:RoomShare.*:Rebalance.*)
  string(REPLACE ":" ";" parts "${case}")
  list(POP_FRONT parts name)
  list(JOIN parts ":" filter)
  add_test(NAME distributed.${name}
           COMMAND ${MPIEXEC_EXECUTABLE} -np 3 --oversubscribe $<TARGET_FILE:distributed_mpi_test>
                   --gtest_filter=${filter})
  set_tests_properties(distributed.${name} PROPERTIES TIMEOUT 120 ENVIRONMENT
    "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_mpi_yield_when_idle=1")
endforeach()
