#!/bin/bash
# A CI job's distributed unit tests: `python -m pytest -v -rfE -p no:cacheprovider oc_test_sharded_embedding.py` on a
# CPU runner; the tests use torch's DTensorTestBase / MultiProcessTestCase (4 ranks spawned per test, gloo, file://
# rendezvous); pytest's console output (per-test results, failure sections with each test's captured stdout/stderr
# and captured log, short summary) is console.log.
# Planted: the project's helper oc_shardutil.local_row_range clamps a shard's end row to n_rows - 1 (off by one), so
# the last rank's row range loses the table's final row.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export GLOO_SOCKET_IFNAME=lo
timeout -s TERM 170 nice $PY -m pytest -v -rfE -p no:cacheprovider oc_test_sharded_embedding.py > console.log 2>&1
rc pytest $?
