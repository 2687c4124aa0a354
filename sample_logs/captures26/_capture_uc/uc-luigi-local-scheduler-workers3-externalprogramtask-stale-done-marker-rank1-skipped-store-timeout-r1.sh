#!/bin/bash
# luigi as the launcher: `python -m luigi --module uc_luigi_tasks TrainJob --workers 3 --local-scheduler`; one
# ExternalProgramTask per env:// rank (luigi forks a worker process per running task, captures the rank's
# stdout/stderr and logs them when the program ends); luigi's own log (default DEBUG console format) in luigi.log.
# A marker markers/train-rank1.done is left over from yesterday's run of the same job (killed during the upload after
# rank 1 had written its marker), so luigi considers TrainRank(rank=1) complete.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p markers; echo "rank 1 ok" > markers/train-rank1.done; touch -d '-1 day' markers/train-rank1.done
timeout -s TERM 200 nice $PY -m luigi --module uc_luigi_tasks TrainJob --workers 3 --local-scheduler > luigi.log 2>&1
rc luigi $?
