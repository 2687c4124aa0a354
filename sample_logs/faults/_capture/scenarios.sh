# ---------------------------------------------------------------- single process
s_single_enoent_resume() { job single-enoent-resume
  python ft.py --resume-from outputs/checkpoint-500/model.pt > train.log 2>&1; keep train.log; }
s_single_enospc_metrics() { job single-enospc-metrics
  mkdir -p outputs; mount -t tmpfs -o size=64k tmpfs outputs
  python ft.py --save-step 10 --fault enospc_write > train.log 2>&1; umount outputs; keep train.log; }
s_single_eacces_output() { job single-eacces-output
  mkdir -p outputs; chmod 555 outputs   # root without CAP_DAC_OVERRIDE obeys the mode bits
  setpriv --bounding-set -dac_override,-dac_read_search --inh-caps -dac_override,-dac_read_search python ft.py --save-step 10 > train.log 2>&1; keep train.log; }
s_single_erofs_save() { job single-erofs-save
  mkdir -p outputs; mount -t tmpfs -o size=1m,ro tmpfs outputs
  python ft.py --save-step 10 > train.log 2>&1; umount outputs; keep train.log; }
s_single_cpu_alloc() { job single-cpu-alloc
  python ft.py --fault cpu_alloc --fail-step 7 > train.log 2>&1; keep train.log; }
s_single_memoryerror() { job single-memoryerror
  python ft.py --fault memoryerror --fail-step 12 > train.log 2>&1; keep train.log; }
s_single_anomaly_nan() { job single-anomaly-nan
  python ft.py --fault anomaly_nan --fail-step 8 > train.log 2>&1; keep train.log; }
s_single_collate_stack() { job single-collate-stack
  python ft.py --fault collate_stack --fail-step 9 > train.log 2>&1; keep train.log; }
s_single_getitem_keyerror() { job single-getitem-keyerror
  python ft.py --fault getitem_keyerror --fail-step 4 --num-workers 2 > train.log 2>&1; keep train.log; }
s_single_keyboard_interrupt() { job single-keyboard-interrupt
  # a background job of a script ignores SIGINT: env --default-signal gives python the default back
  env --default-signal=INT python ft.py --steps 400 > train.log 2>&1 & pid=$!; sleep 7; kill -INT $pid; wait $pid; keep train.log; }

# ---------------------------------------------------------------- HF single process
s_single_hf_unexpected_kwarg() { job single-hf-unexpected-kwarg
  python hf.py --ta '{"evaluation_strategy": "steps", "eval_steps": 4}' > train.log 2>&1; keep train.log; }
s_single_hf_import_adamw() { job single-hf-import-adamw
  python hf.py --legacy-optimizer > train.log 2>&1; keep train.log; }
s_single_hf_bad_scheduler() { job single-hf-bad-scheduler
  python hf.py --ta '{"lr_scheduler_type": "cosine_warm"}' > train.log 2>&1; keep train.log; }
s_single_hf_tokenizer_none() { job single-hf-tokenizer-none
  python hf.py --rows 96 --none-text-at 37 > train.log 2>&1; keep train.log; }
s_healthy_single_retry() { job healthy-single-retry
  python ft.py --fault retry_open --fail-step 6 > train.log 2>&1; keep train.log; }

# ---------------------------------------------------------------- torchrun
s_tr_cpu_alloc_rank1() { job tr-cpu-alloc-rank1
  perrank 4 ft.py --fault cpu_alloc --fail-rank 1 --fail-step 6; keep launcher.log rank{0,1,2,3}.log; }
s_tr_enospc_checkpoint_tee() { job tr-enospc-checkpoint-tee
  mkdir -p outputs; mount -t tmpfs -o size=64k tmpfs outputs
  tr4 --tee 3 ft.py --save-step 10 --fault enospc_write > console.log 2>&1; umount outputs; keep console.log; }
s_tr_eacces_checkpoint_logdir() { job tr-eacces-checkpoint-logdir
  mkdir -p outputs; chmod 555 outputs
  setpriv --bounding-set -dac_override,-dac_read_search --inh-caps -dac_override,-dac_read_search \
    "$PY" -m torch.distributed.run --nnodes 1 --nproc-per-node 3 --master-port 29612 --log-dir logs --redirects 3 \
    ft.py --save-step 10 > launcher.log 2>&1; keep launcher.log logs; }
s_tr_fileexists_outdir() { job tr-fileexists-outdir
  NP=3 tr4 --tee 3 ft.py --fault fileexists_outdir --fail-rank -1 > console.log 2>&1; keep console.log; }
s_tr_sigterm_agent() { job tr-sigterm-agent
  tr4 --tee 3 ft.py --steps 400 > console.log 2>&1 & sleep 9; kill -TERM $(pgrep -f -n "torch.distributed.run --nnodes 1 --nproc-per-node 4 --master-port 29611"); wait; keep console.log; }
s_tr_ctrl_c() { job tr-ctrl-c
  # Ctrl-C at a terminal: SIGINT to the whole foreground process group (agent + workers)
  setsid env --default-signal=INT "$PY" -m torch.distributed.run --nnodes 1 --nproc-per-node 2 --master-port 29613 --tee 3 \
    ft.py --steps 400 > console.log 2>&1 & sleep 9
  pg=$(pgrep -f -n "torch.distributed.run --nnodes 1 --nproc-per-node 2 --master-port 29613"); kill -INT -- -"$pg"; wait; keep console.log; }
s_tr_collate_stack_rank2() { job tr-collate-stack-rank2
  perrank 4 ft.py --fault collate_stack --fail-rank 2 --fail-step 11; keep launcher.log rank{0,1,2,3}.log; }
s_tr_getitem_keyerror_logdir() { job tr-getitem-keyerror-logdir
  torchrun --nnodes 1 --nproc-per-node 4 --master-port 29614 --log-dir logs --redirects 3 \
    ft.py --fault getitem_keyerror --fail-rank 3 --fail-step 7 --num-workers 1 > launcher.log 2>&1; keep launcher.log logs; }
s_tr_hf_load_best_mismatch() { job tr-hf-load-best-mismatch
  NP=2 tr4 --tee 3 hf.py --ta '{"load_best_model_at_end": true, "eval_strategy": "steps", "save_strategy": "epoch"}' > console.log 2>&1; keep console.log; }
s_elastic_restart_static_fails() { job elastic-restart-static-fails
  # meant as a healthy restart; with the default static rendezvous the restarted gloo group cannot connect
  NP=3 tr4 --tee 3 --max-restarts 1 ft.py --fault fail_attempt0 --fail-rank 1 --fail-step 8 > console.log 2>&1; keep console.log; }
s_healthy_elastic_restart() { job healthy-elastic-restart
  # rank 1 fails before init_process_group in attempt 0 (a restart after the gloo mesh formed does not reconnect)
  timeout 90 "$PY" -m torch.distributed.run --nnodes 1 --nproc-per-node 2 --master-port 29617 --tee 3 --max-restarts 1 \
    ft.py --fault fail_start_attempt0 --fail-rank 1 > console.log 2>&1; keep console.log; }
s_healthy_warning_spam() { job healthy-warning-spam
  NP=2 tr4 --tee 3 ft.py --fault warning_spam --fail-rank -1 > console.log 2>&1; keep console.log; }
s_healthy_caught_exception() { job healthy-caught-exception
  perrank 2 ft.py --fault caught_exception --fail-rank 0 --fail-step 10; keep launcher.log rank{0,1}.log; }
s_healthy_c10d_debug_warnings() { job healthy-c10d-debug-warnings
  TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=INFO NP=2 tr4 --tee 3 ft.py > console.log 2>&1; keep console.log; }

# ---------------------------------------------------------------- accelerate / deepspeed
s_acc_unexpected_kwarg() { job acc-unexpected-kwarg
  accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29615 \
    acc.py --accelerator '{"dispatch_batches": true}' > console.log 2>&1; keep console.log; }
s_acc_grad_accum_plugin_conflict() { job acc-grad-accum-plugin-conflict
  accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29616 \
    acc.py --accelerator '{"gradient_accumulation_steps": 4}' --plugin-steps 4 > console.log 2>&1; keep console.log; }
s_ds_zero_bad_key() { job ds-zero-bad-key
  NP=2 tr4 --tee 3 ds.py --deepspeed_config ds_zero_bad_key.json > console.log 2>&1; keep console.log; }

# ---------------------------------------------------------------- cut / unrelated
s_cut_tee_console() { job cut-tee-console
  # a healthy 4-rank --tee 3 run; the kept console.log is its first 60 lines (head -n 60)
  tr4 --tee 3 ft.py --steps 200 --log-every 10 > full-console.log 2>&1; head -n 60 full-console.log > console.log; keep console.log; }
s_unrelated_text() { job unrelated-text
  echo "meeting notes: move the weekly sync to Thursday 10:00, bring the Q3 budget draft" > notes.txt; keep notes.txt; }

# ---------------------------------------------------------------- more HF
s_tr_hf_compute_loss_signature() { job tr-hf-compute-loss-signature
  # no --tee: the workers write straight to the console
  HF_OLD_COMPUTE_LOSS=1 NP=2 tr4 hf.py > console.log 2>&1; keep console.log; }
s_tr_hf_tokenizer_none() { job tr-hf-tokenizer-none
  perrank 2 hf.py --rows 96 --none-text-at 37; keep launcher.log rank0.log rank1.log; }
s_healthy_single_hf() { job healthy-single-hf
  python hf.py > train.log 2>&1; keep train.log; }
s_cut_single_tee_killed() { job cut-single-tee-killed
  # python | tee train.log; the tee is killed after 4 s: the log stops mid-run, the trainer dies of SIGPIPE later
  python ft.py --steps 400 --log-every 10 2>&1 | tee train.log > /dev/null & sleep 4; kill $(pgrep -n -x tee); wait; keep train.log; }
s_single_truncated_checkpoint() { job single-truncated-checkpoint
  # a checkpoint whose copy was cut short: the first 1500 bytes of a real torch.save file
  python ft.py --steps 10 --save-step 10 > save.log 2>&1; head -c 1500 outputs/checkpoint-10/model.pt > model.pt.part
  mv model.pt.part outputs/checkpoint-10/model.pt
  python ft.py --resume-from outputs/checkpoint-10/model.pt > train.log 2>&1; keep train.log; }
s_tr_anomaly_nan_rank2() { job tr-anomaly-nan-rank2
  # set_detect_anomaly(True) on every rank; rank 2's forward makes NaN at step 9
  NP=3 tr4 --tee 3 ft.py --fault anomaly_nan --fail-rank 2 --fail-step 9 > console.log 2>&1; keep console.log; }
