#!/bin/bash
# copy every job's log files out of /home/user/jobsT/<name>/ into roundT/captures/<name>/ (layout kept)
H=$(dirname "$(readlink -f "$0")"); C="python3 $H/collect.py"
$C vc-execnet-popen-gateways-channel-joblog-hosttable-bucket-override-gloo-size-enforce-r1 'logs/*' launcher.stderr
$C vc-anyio-taskgroup-launcher-zmq-pubhandler-collector-stdio-files-fltmax-sentinel-shard-nan-guard-r2 zmqlog.txt launcher.log 'stdio/*'
$C vc-spawnvpe-raw-console-httphandler-collector-records-ckpt-bind-ro-remount-erofs-r0 console.txt records.log access.log
$C vc-qbatch-gridengine-style-oe-files-execd-messages-h-rt-terminate-method-torchrun-inside-walltime 'ddp_tr.*' 'spool/messages' 'spool/accounting' qsub.out
$C vc-healthy-qbatch-gridengine-style-oe-files-execd-messages-accounting-torchrun-inside 'ddp_tr.*' 'spool/messages' 'spool/accounting' qsub.out
$C vc-podrunner-pytorchjob-cri-containerd-logs-events-memcg-limit-typo-worker1-oomkilled-r2 'pods/**/0.log' events.log pods.txt
$C vc-healthy-podrunner-pytorchjob-cri-logs-master-pod-late-start-store-connect-retries 'pods/**/0.log' events.log pods.txt
$C vc-ctr-json-file-logdriver-2containers-as-nodes-torchrun-static-dataloader-workers-shm-4m-enospc-node-b 'containers/**/*-json.log' ctrd.log
$C vc-hydra-mpiexec-outfile-errfile-pattern-filestore-init-stale-file-from-killed-run 'out/*'
$C vc-bash-coproc-launcher-roundrobin-read-joblog-ckpt-agent-freezer-cgroup-rank1-frozen-peers-timeout-r1 job.log agent.log launcher.stderr
$C vc-inconclusive-gnu-sem-semaphore-launcher-fileconfig-ini-rankfiles-job-frozen-snapshot 'snapshot/**/*'
