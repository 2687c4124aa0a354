#!/bin/bash
# `python mc_pl_jsonarg.py --config train.yaml`: Lightning Trainer with DDPStrategy (gloo, process-group timeout 30 s)
# on CPU, devices 3 (Lightning's subprocess launcher starts ranks 1 and 2), configured through jsonargparse.CLI;
# console.log = all ranks' output. A stand-in for the node's stage-in sidecar (stagein.sh) copies each rank's shard
# and writes data/ready-<rank> markers.
# Planted: the sidecar's copy list (stagein.list) lacks rank 2's shard (the list was generated for a 2-process run),
# so data/ready-2 never appears; rank 2 keeps polling in DataModule.setup (stage_in_timeout 600 s from the config)
# while ranks 0 and 1 wait for it in Lightning's post-setup barrier.
# The job runs in its own PID namespace (`unshare -p --fork --kill-child`, rank 0 = the namespace's init) so that,
# as under a container / job-step cleanup, processes left behind are killed when rank 0's process exits (a first
# attempt without it left rank 2 orphaned and polling).
. "$(dirname "$(readlink -f "$0")")/common.sh"
mkdir -p data src
for r in 0 1 2; do head -c 200000 /dev/urandom > src/shard-$r.bin; done
printf 'src/shard-0.bin 0\nsrc/shard-1.bin 1\n' > stagein.list
cat > train.yaml <<'EOC'
devices: 3
max_epochs: 2
lr: 0.05
batch_size: 64
ready_dir: data
stage_in_timeout: 600
pg_timeout_s: 30
EOC
cat > stagein.sh <<'EOS'
#!/bin/bash
# stand-in for the node's stage-in sidecar: copy each listed shard, then write its ready marker
sleep 3
while read f r; do cp "$f" data/ && echo "$(date '+%F %T') staged $f ($(stat -c %s "$f") bytes)" > data/ready-$r; done < stagein.list
EOS
bash stagein.sh > stagein.out 2>&1 &
timeout -s TERM 170 nice unshare -p --fork --kill-child $PY mc_pl_jsonarg.py --config train.yaml > console.log 2>&1
rc python $?
wait
