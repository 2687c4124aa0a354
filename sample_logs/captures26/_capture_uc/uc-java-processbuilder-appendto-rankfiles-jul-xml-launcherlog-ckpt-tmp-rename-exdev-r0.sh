#!/bin/bash
# Java site launcher (UcLaunch.java, run from source by `java`): ProcessBuilder per env:// rank, output appended to
# out/rank-<R>.log by the OS (Redirect.appendTo), launcher records in out/launcher.log.xml (java.util.logging
# FileHandler, XMLFormatter) and on its console (SimpleFormatter, kept as launcher.console). 3 ranks.
# Node layout: /tmp is a node-local tmpfs (mounted here in the job's private mount namespace), the job dir is on the
# shared disk. Rank 0 saves checkpoints "atomically": tempfile.mkstemp() (in $TMPDIR, i.e. /tmp) then os.rename()
# into ckpt/.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mount -t tmpfs -o size=256m,mode=1777 tmpfs /tmp
df -h /tmp . > node-fs.txt
timeout -s TERM 200 nice java UcLaunch.java --nproc 3 --port 29823 --outdir out --grace 10 -- \
  $PY uc_train.py --rows 1600 --epochs 2 --ckpt-every 20 --ckpt-dir ckpt --pg-timeout 60 \
  --fmt '[%(asctime)s] {rank} %(levelname)s %(name)s - %(message)s' 2> launcher.console
rc launcher $?
