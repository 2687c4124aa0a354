#!/bin/bash
# CTest as the launcher: a CMake project whose tests are the ranks (`add_test(NAME train_rank<R> ...)`, ENVIRONMENT
# MASTER_ADDR / MASTER_PORT, TIMEOUT 240), run with `ctest -j3 --output-on-failure` (ctest.console) next to CTest's
# own Testing/Temporary/LastTest.log; the ranks log pipe-separated records to stdout. The per-rank argument lists come
# from ranks.cmake; rank 2's entry was regenerated from the newer trainer's defaults and syncs the step metrics with
# all_gather (`--metric-sync gather`) while ranks 0/1 still use all_reduce, every 20 steps.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cat > ranks.cmake <<'C'
set(COMMON --world 3 --epochs 2 --pg-timeout 45 --metric-every 20 --fmt "%(asctime)s|%(levelname)s|r{rank}|%(name)s|%(message)s")
set(RANK0_ARGS --rank 0 ${COMMON})
set(RANK1_ARGS --rank 1 ${COMMON})
set(RANK2_ARGS --rank 2 ${COMMON} --metric-sync gather)
C
cat > CMakeLists.txt <<C
cmake_minimum_required(VERSION 3.20)
project(yc_ddp_ranks NONE)
enable_testing()
include(\${CMAKE_SOURCE_DIR}/ranks.cmake)
foreach(r 0 1 2)
  add_test(NAME train_rank\${r} COMMAND $PY \${CMAKE_SOURCE_DIR}/yc_train.py \${RANK\${r}_ARGS})
  set_tests_properties(train_rank\${r} PROPERTIES ENVIRONMENT "MASTER_ADDR=127.0.0.1;MASTER_PORT=29943" TIMEOUT 240)
endforeach()
C
cmake -S . -B build > cmake.console 2>&1
cd build
timeout -s TERM 300 nice ctest -j3 --output-on-failure > ../ctest.console 2>&1
rc ctest $?
