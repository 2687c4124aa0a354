#!/bin/bash
# ipyparallel as the launcher: `ipcluster start -n 3 --profile xc --daemonize` (controller + 3 engines, IPYTHONDIR in
# the job dir, their logs under ipython/profile_xc/log/), then the driver (xc_ipp_run.py) runs rank i on engine i
# with a DirectView apply_async and prints each engine's captured stdout/stderr (`[stdout:i]` / `[stderr:i]` blocks) after the
# ranks return. A normal run with a final eval (FutureWarning, c10d warnings). Healthy.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export IPYTHONDIR=$J/ipython
$V/ipython profile create xc > /dev/null 2>&1
$V/ipcluster start -n 3 --profile xc --daemonize > ipcluster-start.console 2>&1
sleep 5
timeout -s TERM 200 nice $PY xc_ipp_run.py 3 29931 -- --epochs 3 --final-eval --warn --pg-timeout 60 \
  --fmt '%(asctime)s %(levelname)s rank{rank} %(module)s: %(message)s' > driver.console 2>&1
rc driver $?
$V/ipcluster stop --profile xc > ipcluster-stop.console 2>&1; sleep 3
