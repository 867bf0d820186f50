# CTest registrations of the trainer: layouts of Cora and PubMed from METIS partitions (and from
# the hypergraph model when this build has it), the numpy loader check, distributed training
# with --verify on 4 ranks, and a vertex-cut layout from HDRF.
set(GNNPART_PYTHON "")
foreach(candidate /usr/bin/python3 python3)
  find_program(python_candidate_path NAMES ${candidate} NO_CACHE)
  if(python_candidate_path)
    execute_process(COMMAND ${python_candidate_path} -c "import numpy"
                    RESULT_VARIABLE numpy_missing OUTPUT_QUIET ERROR_QUIET)
    if(numpy_missing EQUAL 0)
      set(GNNPART_PYTHON ${python_candidate_path})
      break()
    endif()
  endif()
  unset(python_candidate_path)
endforeach()

set(driver ${CMAKE_CURRENT_SOURCE_DIR}/test_driver.sh)
set(driver_env
  GNNPART=$<TARGET_FILE:gnnpart> TRAIN=$<TARGET_FILE:gnnpart-train> PYTHON=${GNNPART_PYTHON}
  SOURCE_DIR=${PROJECT_SOURCE_DIR} SHARED_DIR=${GNNPART_SHARED_DIR}
  WORK=${PROJECT_BINARY_DIR}/trainer_test)

function(trainer_test name)
  add_test(NAME trainer.${name} COMMAND ${driver} ${ARGN})
  set_tests_properties(trainer.${name} PROPERTIES ENVIRONMENT "${driver_env}" TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endfunction()

foreach(model graph hypergraph)
  foreach(dataset cora pubmed)
    trainer_test(${dataset}.${model}.layout layout ${dataset} 4 ${model})
    set_tests_properties(trainer.${dataset}.${model}.layout PROPERTIES
                         FIXTURES_SETUP ${dataset}_${model}_layout)
    if(GNNPART_PYTHON)
      trainer_test(${dataset}.${model}.loader loader ${dataset} 4 ${model})
      set_tests_properties(trainer.${dataset}.${model}.loader PROPERTIES
                           FIXTURES_REQUIRED ${dataset}_${model}_layout)
    endif()
  endforeach()
  # Cora with its real features: about Kipf & Welling's 0.81 after 200 epochs.
  trainer_test(cora.${model}.train train cora 4 0.75 --partition-model ${model} --epochs 200)
  # PubMed with random features: three layers so that both exchange orders and the transposed
  # exchange of a hidden layer are verified.
  trainer_test(pubmed.${model}.train train pubmed 4 0.0 --partition-model ${model} --epochs 3
               --layers 3 --feature-dim 8 --hidden 32)
  set_tests_properties(trainer.cora.${model}.train PROPERTIES
                       FIXTURES_REQUIRED cora_${model}_layout)
  set_tests_properties(trainer.pubmed.${model}.train PROPERTIES
                       FIXTURES_REQUIRED pubmed_${model}_layout)
endforeach()
if(GNNPART_PYTHON)
  trainer_test(cora.calibrate calibrate cora 2)
  set_tests_properties(trainer.cora.calibrate PROPERTIES FIXTURES_REQUIRED cora_graph_layout)
  trainer_test(cora.edge.loader edge cora 4)
  # Layerwise mini-batches: 4 ranks against 1 rank on the same seeds.
  trainer_test(cora.graph1.layout layout cora 1 graph)
  set_tests_properties(trainer.cora.graph1.layout PROPERTIES FIXTURES_SETUP cora_graph1_layout)
  trainer_test(cora.minibatch minibatch cora 4 --minibatch-mode layerwise --epochs 20
               --batch-size 32 --fanouts 10,25)
  set_tests_properties(trainer.cora.minibatch PROPERTIES
                       FIXTURES_REQUIRED "cora_graph_layout;cora_graph1_layout")
  # Fetch mini-batches (DistDGL's scheme): measured rows == recounted rows on identical
  # batches, determinism, the dump checker.
  trainer_test(cora.fetch fetch cora 4 0.6 --epochs 8 --lr 0.05 --batch-size 16 --fanouts 5,10)
  set_tests_properties(trainer.cora.fetch PROPERTIES FIXTURES_REQUIRED cora_graph_layout)
  # Three layers: remote frontier vertices are sampled by their owners at two layers.
  trainer_test(pubmed.fetch fetch pubmed 4 0.0 --epochs 3 --batch-size 16 --fanouts 3,4,5
               --hidden 8)
  set_tests_properties(trainer.pubmed.fetch PROPERTIES FIXTURES_REQUIRED pubmed_graph_layout)
endif()
