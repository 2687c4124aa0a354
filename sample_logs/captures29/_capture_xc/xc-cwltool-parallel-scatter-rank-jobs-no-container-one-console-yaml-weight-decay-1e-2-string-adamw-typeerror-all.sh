#!/bin/bash
# cwltool (the CWL reference runner) as the workflow runner: xc_ddp_scatter.cwl scatters the trainer tool
# (xc_train_rank.cwl) over the ranks [0, 1]; `cwltool --parallel --no-container` runs both scatter jobs at once, each
# in its own cwltool job dir with the env:// variables from EnvVarRequirement. The ranks log to stderr, which cwltool
# passes through: one console (cwltool's `INFO [job train_N]` lines, the ranks' records and tracebacks). The run
# config written for this sweep point says `weight_decay: 1e-2`; YAML 1.1 (PyYAML) reads a float without a dot as a
# string, and every rank's AdamW constructor refuses it.
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p cfg
cat > cfg/run-adamw-wd.yaml <<'Y'
# sweep point 3: AdamW, lr 1e-3 .. weight decay 1e-2
optim: adamw
lr: 0.001
weight_decay: 1e-2
epochs: 2
Y
cat > job.yml <<Y
ranks: [0, 1]
world: 2
port: 29927
config: {class: File, path: cfg/run-adamw-wd.yaml}
trainer: {class: File, path: xc_train.py}
extra: [--stderr, --pg-timeout, "30", --fmt, "%(asctime)s %(levelname)s [r{rank}] %(name)s: %(message)s"]
Y
timeout -s TERM 150 nice cwltool --parallel --no-container --outdir out xc_ddp_scatter.cwl job.yml > cwltool.console 2>&1
rc cwltool $?
