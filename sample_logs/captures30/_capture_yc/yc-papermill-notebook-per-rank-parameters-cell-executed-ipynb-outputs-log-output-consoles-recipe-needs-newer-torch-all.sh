#!/bin/bash
# papermill 2.7 as the launcher: the recipe notebook train.ipynb executed once per rank in parallel (`papermill
# train.ipynb out/rank<R>.ipynb -p rank R --log-output --cwd <job>`, python3 kernel of the venv), the executed
# notebooks (JSON .ipynb with the cells' stream outputs and error outputs) in out/, each papermill's console in
# papermill-rank<R>.log. The recipe was written for torch 2.14 and checks its requirements after the process group
# is up (`torch>=2.14`); the image has 2.13.0.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p out
$PY yc_make_nb.py train.ipynb
for r in 0 1 2; do
  timeout -s TERM 200 nice papermill train.ipynb out/rank$r.ipynb -p rank $r --log-output --cwd "$J" -k python3 \
    > papermill-rank$r.log 2>&1 &
  eval P$r=$!
done
wait $P0; rc papermill0 $?; wait $P1; rc papermill1 $?; wait $P2; rc papermill2 $?
