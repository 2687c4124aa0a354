#!/bin/bash
# Lightning Fabric's own CLI as the launcher (`fabric run --accelerator cpu --strategy ddp --devices 3`, which starts
# the ranks through torchrun's machinery), the console kept by e2fsprogs' `logsave -a` (header `Log of ...`, trailer
# with the exit status). Stage 1 (pretrain, tc_stage1.yaml) runs first and is not part of the capture; the captured
# stage 2 (finetune, tc_stage2.yaml) freezes the embedding layer and resumes the full state (model + optimizer) from
# stage 1's checkpoint.
. "$(dirname "$(readlink -f "$0")")/common.sh"
export MASTER_PORT=29775
timeout -s TERM 200 nice fabric run --accelerator cpu --strategy ddp --devices 3 tc_fabric_resume.py \
  --config tc_stage1.yaml > stage1.out 2>&1
rc stage1 $?
export MASTER_PORT=29776
timeout -s TERM 200 nice logsave -a finetune-console.log fabric run --accelerator cpu --strategy ddp --devices 3 \
  tc_fabric_resume.py --config tc_stage2.yaml > /dev/null 2>&1
rc stage2 $?
