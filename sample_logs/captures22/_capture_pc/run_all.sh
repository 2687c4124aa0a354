#!/bin/bash
# run every capture job in turn (each re-execs itself in private network + mount namespaces), then collect and write meta
H=$(dirname "$(readlink -f "$0")")
for s in pc-makefile-torchrun-dictconfig-jsonl-cut-row-r1 pc-torchrun-jsonfiles-prefetch-lock-inversion-faulthandler-hang \
  pc-nohup-out-2node-uts-static-memwatch-sigkill-hardbatch-cache-r3 pc-torchrun-maxrestarts1-tmpfs-ckpt-tmpreaper \
  pc-healthy-nohup-out-2node-uts-static-memwatch-hardbatch-cache pc-runjob-xtrace-envfile-c10d-torchrun-dataroot-all \
  pc-accelerate-fsdp-cpu-yaml-sync-module-states-all pc-inconclusive-accelerate-fsdp-cpu-yaml-snapshot-running; do
  bash "$H/$s.sh"
done
bash "$H/collect_all.sh" && python3 "$H/gen_meta_pc.py"
