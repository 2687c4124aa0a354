#!/bin/bash
# POSIX-sh launcher run by dash (uc_launch_debug.sh) starting every env:// rank under `gdb -batch -ex run -ex 'thread
# apply all bt'` (the site's debug launch), one file per rank gdb/rank<R>.txt (gdb's own lines + the rank's
# stdout/stderr), launcher lines in launch.txt. 3 ranks read their parquet part data/part-0000<R>.parquet; part 2 was
# re-exported from a labelling tool's CSV dump and its label column is text.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY uc_make_parquet.py data > make_parquet.txt
timeout -s TERM 200 nice dash uc_launch_debug.sh 3 29855 -- $PY uc_train.py --parquet-dir data --epochs 2 \
  --pg-timeout 60 --fmt '%(asctime)s | %(levelname)s | rank {rank} | %(name)s | %(message)s' > launch.txt 2>&1
rc launcher $?
