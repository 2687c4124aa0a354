#!/bin/bash
# pytest-xdist as the launcher of a distributed test suite: `pytest -n 3 --dist each` (every worker runs every test;
# worker gwN is gloo rank N through a session fixture), console with -v -rA, per-worker log files
# logs/tests_gw<N>.log (the pytest-xdist docs' pytest_configure recipe). One test skips itself on a rank whose shard is
# smaller than the batch - after the other ranks have entered its all_reduce.
. "$(dirname "$(readlink -f "$0")")/common.sh"
cp -r "$HERE"/uc_xdist_suite/. .
DDP_SUITE_TIMEOUT=30 timeout -s TERM 240 nice $PY -m pytest -n 3 --dist each -v -rA -p no:cacheprovider \
  test_ddp_suite.py > pytest-console.txt 2>&1
rc pytest $?
