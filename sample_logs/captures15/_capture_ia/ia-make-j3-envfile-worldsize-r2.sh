#!/bin/bash
# `make -j3 train`: a Makefile with one target per rank (rank0 rank1 rank2), each sourcing env/rank<R>.env and running
# python ia_train.py (print-style logging to stdout: `rank R | LEVEL | msg`); make's own `make: ***` lines for failed
# targets. console.log = make's stdout + stderr (interleaved, no output sync). pg timeout 25 s.
# Planted: env/rank2.env was copied from the 4-process setup and still says WORLD_SIZE=4 (ranks 0 and 1: 3).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p env
for r in 0 1 2; do
  ws=3; [ $r = 2 ] && ws=4
  printf 'export MASTER_ADDR=127.0.0.1\nexport MASTER_PORT=29745\nexport WORLD_SIZE=%s\nexport RANK=%s\nexport LOCAL_RANK=%s\n' $ws $r $r > env/rank$r.env
done
{ printf '.PHONY: train rank0 rank1 rank2\ntrain: rank0 rank1 rank2\n'
  for r in 0 1 2; do printf 'rank%s:\n\t. env/$@.env && python ia_train.py --log-style plain --steps 10 --pg-timeout 25\n' $r; done
} > Makefile
timeout -s TERM 120 nice make -j3 train > console.log 2>&1
rc make $?
