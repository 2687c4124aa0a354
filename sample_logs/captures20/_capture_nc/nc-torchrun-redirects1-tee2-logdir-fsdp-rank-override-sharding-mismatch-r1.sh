#!/bin/bash
# `torchrun --standalone --nproc-per-node 2 --log-dir trlogs --redirects 1 --tee 2 nc_fsdp_cfg.py`: each rank's
# stdout only in trlogs/<run>/attempt_0/<R>/stdout.log, its stderr both there and on the console ([defaultN]: prefix);
# console.log = torchrun's console. FullyShardedDataParallel on CPU (gloo, pg timeout 30 s), conf/train.json.
# Planted: a debug override conf/override.rank1.json ({"sharding_strategy": "NO_SHARD"}) left from an earlier
# experiment, so rank 1 wraps with NO_SHARD while rank 0 uses FULL_SHARD (different collectives in forward/backward).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p conf
echo '{"sharding_strategy": "FULL_SHARD", "lr": 0.0003, "steps": 40, "pg_timeout_s": 30}' > conf/train.json
echo '{"sharding_strategy": "NO_SHARD"}' > conf/override.rank1.json
timeout -s TERM 150 nice $TR --standalone --nproc-per-node 2 --log-dir trlogs --redirects 1 --tee 2 nc_fsdp_cfg.py > console.log 2>&1
rc torchrun $?
