#!/bin/bash
# multiprocessing.Pool launcher (rc_pool_launch.py, one task per rank, trainer run with runpy inside the pool worker);
# trainer logs through WatchedFileHandler into logs/rank<R>.log, tracebacks / warnings and the launcher's report in
# pool.out. All ranks torch.compile the DDP model (inductor on CPU); env/rank2.env (the per-rank env file of the
# slot that was moved from another host image) points CXX at a toolchain path that does not exist on this host.
# Planned as a compile failure on rank 2; the run finished on all ranks (no compiler error was printed), so it is kept
# as a healthy run. A rerun with an empty TORCHINDUCTOR_CACHE_DIR (not kept) also finished and left that dir empty.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p env logs
printf '# toolchain module for the new build image\nCXX=/opt/toolchain/gcc-13.2/bin/g++\n' > env/rank2.env
export TORCHINDUCTOR_COMPILE_THREADS=1
timeout -s TERM 200 nice $PY rc_pool_launch.py 3 rc_train.py --rows 600 --compile --pg-timeout 60 \
  --logto 'watched:logs/rank{rank}.log' > pool.out 2>&1
rc launcher $?
