#!/bin/bash
# accelerate launch --use_fsdp (no config file; FSDP plugin from command-line flags: FULL_SHARD, size-based auto wrap,
# FULL_STATE_DICT, sync_module_states off as accelerate requires on CPU) --num_processes 2 by_acc.py: own accelerate loop on CPU (torchrun underneath, gloo), 3 epochs,
# gather_for_metrics eval each epoch, state dict saved at the end. by_acc.py builds Accelerator(cpu=True), so on
# this CPU box the state resolves to MULTI_CPU (gloo DDP) and the FSDP flags are not applied. No fault.
. "$(dirname "$(readlink -f "$0")")/common.sh"
$PY by_prep.py --out data --shards 2 --rows 1024 > prep.log
accelerate launch --use_fsdp --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no \
  --fsdp_sharding_strategy FULL_SHARD --fsdp_auto_wrap_policy SIZE_BASED_WRAP --fsdp_min_num_params 2000 \
  --fsdp_state_dict_type FULL_STATE_DICT --fsdp_cpu_ram_efficient_loading false --fsdp_sync_module_states false by_acc.py --epochs 3 > console.log 2>&1
rc accelerate $?
