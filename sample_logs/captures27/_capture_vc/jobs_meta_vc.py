"""Per-job metadata for the roundT vc-* captures: command, layout, set-up, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), execnet 2.1.2, "
       "pyzmq 27.3.0, anyio 4.16.0, MPICH Hydra (mpiexec.hydra), GNU parallel (sem), bash 5, cgroup v1 "
       "(memory, freezer), util-linux unshare")
G = "[/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/"
CLOSED = G + "pair.cc:553] Connection closed by peer"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}
JOBS["vc-execnet-popen-gateways-channel-joblog-hosttable-bucket-override-gloo-size-enforce-r1"] = dict(
    source="site launcher on execnet (`vc_execnet_launch.py`): one `popen` gateway per env:// rank, trainer run by "
           "remote_exec with a logging handler that sends records over the channel",
    cmd="`timeout -s TERM 150 nice python vc_execnet_launch.py --hosts hosts.json --port 29901 --grace 10 -- "
        "--grad-sync manual --bucket-kb 16 --pg-timeout 30 --rows 960 --epochs 2 --warn 2> launcher.stderr`",
    layout="`logs/execnet-job.log`: launcher stamp `HH:MM:SS.mmm` + `[gwR]` / `[launcher]` tag + the rank's record "
           "(`LEVEL vc.train rR/3: msg`), RemoteError tracebacks as the launcher received them. `logs/gw<R>.stderr`: "
           "each gateway's fd 2 (c10d warnings, C++ aborts). `launcher.stderr`: the launcher's stderr (empty here).",
    planted="hand-rolled data parallelism (gradients flattened into buckets, one all_reduce per bucket). The host table "
            "gives rank 1 a leftover override `--bucket-kb 64` while ranks 0 and 2 use 16 KiB, so rank 1's all_reduce "
            "sizes differ from its peers'.",
    happened="in the first step's bucket all_reduce, rank 0's gloo pair receives more bytes than it expects and the "
             "process aborts: `terminate called after throwing an instance of 'gloo::EnforceNotMet'` / `... "
             "op.preamble.length <= op.nbytes. 7128 vs 6912. Received data size doesn't match expected size. Is there "
             "a distributed collective mismatch in your code?` (gw0.stderr). Gateway 0's channel is lost; ranks 1 and 2 "
             "get `Connection reset by peer` and return execnet RemoteErrors.",
    exits="launcher 1; rank 0 channel lost (process aborted), ranks 1 and 2 RemoteError.",
    judgement="category collective_mismatch; initiator rank 1 (its bucket override makes its collective sizes differ; "
              "the launcher logs `rank 1: host-table overrides --bucket-kb 64`). The first line carrying the failure "
              "is the gloo enforce text printed by rank 0's process (gw0.stderr), so first_deviating.rank is 0 while "
              "initiating.rank is 1. Ranks 1 and 2's `Connection reset by peer` are collateral.",
    truth=T("failed", "rank", 1, cat="collective_mismatch",
            fd="Received data size doesn't match expected size. Is there a distributed collective mismatch", fd_rank=0,
            coll=[(1, "pair.cc:537] Read error [127.0.0.1]:16805: Connection reset by peer"),
                  (2, "pair.cc:537] Read error [127.0.0.1]:16805: Connection reset by peer")],
            notes="rank 1's host-table override --bucket-kb 64 makes its flat gradient all_reduce larger than ranks 0/2's; "
                  "gloo on rank 0 aborts on the size mismatch; the others lose the connection."))

JOBS["vc-anyio-taskgroup-launcher-zmq-pubhandler-collector-stdio-files-fltmax-sentinel-shard-nan-guard-r2"] = dict(
    source="anyio task-group launcher (`vc_anyio_launch.py`), ranks logging only through pyzmq's `PUBHandler` to a SUB "
           "collector (`vc_zmq_collector.py`)",
    cmd="`python vc_make_shards.py data 3 1200 --sentinel 2 4`; collector `python vc_zmq_collector.py "
        "tcp://127.0.0.1:5599 zmqlog.txt &`; `timeout -s TERM 150 nice python vc_anyio_launch.py --nproc 3 --port 29902 "
        "--grace 8 -- python vc_train.py --shard-dir data --nan-guard --epochs 2 --pg-timeout 30 --zmq-log "
        "tcp://127.0.0.1:5599 --fmt '...'`",
    layout="`zmqlog.txt`: collector receive time (ISO, ms) + zmq topic `train.r<R>.<LEVEL>` + ` | ` + the rank's "
           "formatted record (its own asctime; tracebacks as multi-line messages). `launcher.log`: syslog-style stamps "
           "`Mon DD HH:MM:SS.mmm anyio-launch[pid] LEVEL: msg`. `stdio/rank<R>.out|.err`: each rank's stdout (empty) "
           "and stderr (c10d warnings, torch's `[rankR]:` traceback).",
    planted="rank 2's .npy shard has 4 rows whose features 5, 9, 11 hold FLT_MAX (3.4e38), an upstream exporter's "
            "missing-value sentinel never masked. The trainer's guard raises FloatingPointError on a non-finite loss.",
    happened="at step 3 rank 2 logs `non-finite loss nan at epoch 0 step 3 (batch 3), input abs max 3.4e+38` and raises; "
             "the NaN had already gone through DDP's gradient all_reduce, so ranks 0 and 1 (inputs max 2.68 / 2.81) "
             "report NaN at the same step 1-8 ms later. The launcher sees rank 1 exit first, then 2 and 0.",
    exits="launcher 1; ranks 0, 1, 2 exit 1.",
    judgement="category nan_divergence (what the training code detects and stops on; the cause behind it is bad data "
              "in rank 2's shard, which could also be read as data_error). Initiator rank 2: its record is first and "
              "its batch carries the 3.4e+38 input. Ranks 0/1's NaN reports are collateral (their inputs are normal). "
              "The launcher's exit order (rank 1 first) is not the causal order.",
    truth=T("failed", "rank", 2, cat="nan_divergence",
            fd="non-finite loss nan at epoch 0 step 3 (batch 3), input abs max 3.4e+38", fd_rank=2,
            coll=[(0, "non-finite loss nan at epoch 0 step 3 (batch 3), input abs max 2.68"),
                  (1, "non-finite loss nan at epoch 0 step 3 (batch 3), input abs max 2.81")],
            notes="FLT_MAX sentinel rows in rank 2's shard overflow the forward pass; NaN loss on rank 2, spread to the "
                  "others through the gradient all_reduce."))

JOBS["vc-spawnvpe-raw-console-httphandler-collector-records-ckpt-bind-ro-remount-erofs-r0"] = dict(
    source="minimal launcher on `os.spawnvpe(P_NOWAIT)` (`vc_spawn_launch.py`), ranks logging through "
           "`logging.handlers.HTTPHandler` to an http.server collector (`vc_http_collector.py`)",
    cmd="in the job's mount namespace `mount --bind ckpt ckpt; mount -o remount,bind,ro ckpt`; collector `python "
        "vc_http_collector.py 8519 records.log 2> access.log &`; `timeout -s TERM 150 nice python vc_spawn_launch.py 3 "
        "29903 10 -- python vc_train.py --http-log 127.0.0.1:8519 --epochs 2 --ckpt-every 20 --ckpt-dir ckpt "
        "--pg-timeout 30 > console.txt 2>&1`",
    layout="`console.txt`: the launcher's `launch: ...` lines and every rank's raw stderr, unprefixed and interleaved "
           "(torch's `[rankR]:` tracebacks carry the rank). `records.log`: `<date time,ms> <logger> <LEVEL> rank=<R> "
           "pid=<pid> msg`, exceptions only as `exc_info=(...)` reprs (HTTPHandler sends no formatted traceback). "
           "`access.log`: http.server's access lines.",
    planted="the shared checkpoint directory ckpt/ was bind-remounted read-only (a storage snapshot); rank 0 writes a "
            "checkpoint every 20 steps.",
    happened="at step 20 rank 0's torch.save fails: `RuntimeError: [enforce fail at inline_container.cc:747] . open "
             "file failed with strerror: Read-only file system`; ranks 1 and 2 get `Connection closed by peer` in the "
             "next all_reduce.",
    exits="launcher 1; all ranks 1.",
    judgement="category storage_io, initiator rank 0 (the only checkpoint writer). Ranks 1/2's gloo errors collateral.",
    truth=T("failed", "rank", 0, cat="storage_io",
            fd="open file failed with strerror: Read-only file system", fd_rank=0,
            coll=[(1, "[rank1]: RuntimeError: " + CLOSED), (2, "[rank2]: RuntimeError: " + CLOSED)],
            notes="checkpoint dir remounted read-only; rank 0's torch.save fails; peers lose their connection."))

QB_SRC = ("Grid-Engine-style single-host batch runner (`vc_qbatch.py`, the site's \"qbatch\") running job script "
          "train.sh (`#$ -N ddp_tr`, `#$ -l h_rt=...`) which runs torchrun (c10d endpoint 127.0.0.1:29904, 3 workers)")
QB_LAYOUT = ("`ddp_tr.o4711`: the job's stdout (job script echo lines, the ranks' records `[date time,ms][rank R][LEVEL] "
             "msg`); `ddp_tr.e4711`: stderr (c10d warnings, torchrun's messages and tracebacks); `spool/messages`: "
             "execd-style `MM/DD/YYYY HH:MM:SS|execd|vm|L|text`; `spool/accounting`: one colon-separated record; "
             "`qsub.out`: the submit line.")
JOBS["vc-qbatch-gridengine-style-oe-files-execd-messages-h-rt-terminate-method-torchrun-inside-walltime"] = dict(
    source=QB_SRC, cmd="`timeout -s KILL 150 nice python vc_qbatch.py submit train.sh > qsub.out` (h_rt=40, 14 epochs)",
    layout=QB_LAYOUT,
    planted="the job asks for 14 epochs (about 60 s) with h_rt=40.",
    happened="at 40 s execd logs `job 4711.1 exceeded hard wallclock time - initiate terminate method` and SIGTERMs the "
             "job's process group; the ranks' output stops mid-epoch 7; torchrun raises `SignalException: Process ... got "
             "signal: 15`. messages records exit_status 143.",
    exits="qbatch runner 0; job exit_status 143.",
    judgement="category killed_by_scheduler, initiating kind external. First deviating line: the execd wall-clock line "
              "(spool/messages); torchrun's SignalException is collateral of the kill (agent, no rank).",
    truth=T("failed", "external", cat="killed_by_scheduler",
            fd="exceeded hard wallclock time - initiate terminate method", fd_rank=None,
            notes="walltime limit h_rt=40 s reached; the batch runner's terminate method SIGTERMs the job."))
JOBS["vc-healthy-qbatch-gridengine-style-oe-files-execd-messages-accounting-torchrun-inside"] = dict(
    source=QB_SRC, cmd="`timeout -s KILL 150 nice python vc_qbatch.py submit train.sh > qsub.out` (h_rt=90, 6 epochs)",
    layout=QB_LAYOUT, planted="nothing; noise: c10d `hostname of the client socket cannot be retrieved` warnings.",
    happened="450 steps, every rank logs `done:`, `torchrun exited with 0`, messages `exit_status 0`.",
    exits="job exit_status 0.", judgement="healthy: final done lines, clean torchrun exit, exit_status 0.",
    truth=T("healthy", notes="clean run inside h_rt."))

POD_SRC = ("kubelet-like pod runner (`vc_podrun.py`) for a PyTorchJob-shaped job: pods pytorchjob-master-0, "
           "pytorchjob-worker-0, pytorchjob-worker-1 (RANK 0, 1, 2, MASTER_ADDR=pytorchjob-master-0 via /etc/hosts), "
           "each in its own UTS namespace and cgroup-v1 memory cgroup")
POD_LAYOUT = ("`pods/ml-train_<pod>_<uid>/pytorch/0.log`: CRI (containerd) format `<RFC3339Nano UTC> stdout|stderr F "
              "<line>` (the trainer's records `date time,ms [LEVEL] vc.train: msg` carry no rank; the pod name and "
              "`host=<pod>` in the start line tell it); `events.log`: tab-separated `time type reason pod/<name> "
              "message`; `pods.txt`: final status table.")
JOBS["vc-podrunner-pytorchjob-cri-containerd-logs-events-memcg-limit-typo-worker1-oomkilled-r2"] = dict(
    source=POD_SRC, cmd="`timeout -s TERM 150 nice python vc_podrun.py pytorchjob.json` (spec from "
                        "`vc_make_podspec.py pytorchjob.json python 23456 300Mi 0 --rows 2500000 --bs 4096 ...`)",
    layout=POD_LAYOUT,
    planted="worker-1's memory limit is 300Mi (meant 3000Mi; the others have 3Gi); every rank materialises a 2.5M-row "
            "synthetic shard in memory.",
    happened="worker-1 (rank 2) is killed by the memory cgroup while building its data (its log ends after `process "
             "group up`); the runner records `OOMKilled ... exit code 137`; ranks 0 and 1 fail in DDP's parameter "
             "verification with `Connection closed by peer`.",
    exits="runner 1; master-0 1, worker-0 1, worker-1 137 (OOMKilled).",
    judgement="category oom, initiator rank 2 (pod pytorchjob-worker-1, RANK=2 in the spec; its log shows "
              "`host=pytorchjob-worker-1 rank=2`). First deviating line: the runner's OOMKilled event (the rank itself "
              "prints nothing). Peers' gloo errors collateral.",
    truth=T("failed", "rank", 2, cat="oom",
            fd="Container pytorch was OOM-killed: memory limit 300Mi reached", fd_rank=2,
            coll=[(0, "[rank0]: RuntimeError: " + CLOSED), (1, "[rank1]: RuntimeError: " + CLOSED)],
            notes="pod memory limit typo (300Mi) on worker-1 = rank 2; cgroup OOM kill; peers lose the connection."))
JOBS["vc-healthy-podrunner-pytorchjob-cri-logs-master-pod-late-start-store-connect-retries"] = dict(
    source=POD_SRC, cmd="`timeout -s TERM 150 nice python vc_podrun.py pytorchjob.json` (spec from "
                        "`vc_make_podspec.py pytorchjob.json python 23456 3Gi 6 --warn --final-eval ...`)",
    layout=POD_LAYOUT,
    planted="nothing wrong: the master pod starts 6 s after the workers (startDelaySeconds), so the workers wait on the "
            "store; noise: FutureWarning from the trainer, c10d hostname warnings.",
    happened="all three pods train 100 steps, log `final eval` and `done:`, events `Completed`, table all exit 0.",
    exits="runner 0; all pods 0.", judgement="healthy (final eval + done lines, Completed events).",
    truth=T("healthy", notes="clean run; late master start only delays rendezvous."))

JOBS["vc-ctr-json-file-logdriver-2containers-as-nodes-torchrun-static-dataloader-workers-shm-4m-enospc-node-b"] = dict(
    source="two \"containers\" as two nodes (`vc_ctr.py run`: UTS + PID + mount namespaces with a private /dev/shm "
           "tmpfs of --shm-size), each running a torchrun agent (static rendezvous, --nnodes 2, 2 workers per node)",
    cmd="`vc_ctr.py run --name trainer-a --hostname train-node-a --shm-size 256m -- torchrun --nnodes 2 "
        "--nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29905 --node-rank 0 vc_train.py --rows 120000 --bs "
        "16384 --workers 2 ...` and the same with `--name trainer-b --hostname train-node-b --shm-size 4m ... "
        "--node-rank 1`",
    layout="`containers/<id>/<id>-json.log`: docker json-file log driver records `{\"log\": line, \"stream\": "
           "stdout|stderr, \"time\": RFC3339Nano}` (one per container = node; hostname only inside the records, "
           "`host=train-node-a|b`); `ctrd.log`: the runtime's logrus-style lines (`time=... level=... msg=... "
           "container=<id12>`).",
    planted="train-node-b's container has a 4 MiB /dev/shm (train-node-a 256 MiB); the DataLoader's 2 worker "
            "processes hand 1 MiB batches back through shared memory.",
    happened="on train-node-b rank 2's loader worker fails: `RuntimeError: unable to allocate shared memory(shm) for file "
             "</torch_15_...>: No space left on device (28)`; rank 3 and node-a's ranks 0, 1 get `Connection closed by "
             "peer`; both torchrun agents end with ChildFailedError.",
    exits="both containers exit 1.",
    judgement="machine-level cause on one node (its container's shm size): initiating kind rank, node `train-node-b`, "
              "rank null. Category oom (shared memory is memory; the ENOSPC comes from the shm tmpfs limit, which could "
              "also be read as storage_io).",
    truth=T("failed", "rank", None, node="train-node-b", cat="oom",
            fd="unable to allocate shared memory(shm) for file", fd_rank=2,
            coll=[(0, "[rank0]: RuntimeError: " + CLOSED), (1, "[rank1]: RuntimeError: " + CLOSED)],
            notes="4 MiB /dev/shm in node b's container; DataLoader worker shm allocation fails on rank 2."))

JOBS["vc-hydra-mpiexec-outfile-errfile-pattern-filestore-init-stale-file-from-killed-run"] = dict(
    source="MPICH Hydra `mpiexec.hydra -launcher fork` with `-outfile-pattern` / `-errfile-pattern`, launching a non-MPI "
           "gloo job (`vc_pmi_rank.sh` maps PMI_RANK / PMI_SIZE to RANK / WORLD_SIZE), file:// rendezvous",
    cmd="`timeout -s TERM 120 nice mpiexec.hydra -launcher fork -n 3 -outfile-pattern out/rank-%r.out -errfile-pattern "
        "out/rank-%r.err ./vc_pmi_rank.sh python vc_train.py --init-method file://$J/shared/ddp_init --epochs 2 "
        "--pg-timeout 30 --fmt ...`",
    layout="`out/rank-<R>.out` / `.err`: Hydra's per-rank files (records `date time,ms|LEVEL|rank<R>|msg`; Hydra appends "
           "`$<R>` to the last line of each file).",
    planted="an earlier run of the same job was SIGKILLed (all ranks) right after its process group came up, leaving "
            "the FileStore file shared/ddp_init (681 bytes) with its keys; the resubmission reuses the path.",
    happened="every rank reads the stale peer addresses from the file and times out connecting: `RuntimeError: Gloo "
             "connectFullMesh failed with ... timed out connecting: SO_ERROR: Connection refused, remote=[127.0.0.1]:...`.",
    exits="mpiexec 1; all ranks 1.",
    judgement="category rendezvous, job-wide (all_ranks): the stale rendezvous file affects every rank. First deviating: "
              "rank 0's connectFullMesh error.",
    truth=T("failed", "all_ranks", cat="rendezvous",
            fd="Gloo connectFullMesh failed with", fd_rank=0,
            notes="stale FileStore rendezvous file from a killed earlier run; every rank connects to dead addresses."))

JOBS["vc-bash-coproc-launcher-roundrobin-read-joblog-ckpt-agent-freezer-cgroup-rank1-frozen-peers-timeout-r1"] = dict(
    source="bash launcher with one `coproc` per env:// rank (`vc_coproc_launch.sh`) next to the node's "
           "checkpoint/preemption agent (`vc_ckpt_agent.sh`)",
    cmd="`timeout -s TERM 150 nice ./vc_coproc_launch.sh 3 29907 -- python vc_train.py --epochs 6 --sleep 0.1 "
        "--pg-timeout 20 --fmt '%(levelname).1s %(asctime)s.%(msecs)03d %(name)s] %(message)s' > job.log 2> "
        "launcher.stderr`",
    layout="`job.log`: `HH:MM:SS r<R>| <rank line>` and `HH:MM:SS launch| ...` (the format doubles the milliseconds: "
           "`04:08:07,605.605`); `agent.log`: `ISO time ckpt-agent[pid]: msg`; `launcher.stderr`: bash's coproc "
           "warnings.",
    planted="when rank 1 logs step 30 the agent moves rank 1's process into a cgroup-v1 freezer cgroup and freezes it "
            "for a dump that never completes (thawed after 60 s).",
    happened="after step 30 rank 1 goes silent; 20 s later ranks 0 and 2 fail with `Timed out waiting 20000ms for "
             "recv/send operation to complete`; when the agent thaws rank 1 at 60 s it gets `Connection closed by "
             "peer`.",
    exits="launcher 0 (it does not propagate rank statuses); ranks 0, 2 exit 1 at 04:08:36, rank 1 exits 1 at 04:09:15.",
    judgement="category nccl_timeout_hang (gloo timeout of the peers of a stuck rank), initiator rank 1. First "
              "deviating line: the agent's freeze line (agent.log) naming rank 1's pid (the `start pid=` line of r1). "
              "Peers' timeouts and rank 1's later connection error are collateral.",
    truth=T("failed", "rank", 1, cat="nccl_timeout_hang",
            fd="freezing cgroup /sys/fs/cgroup/freezer/ckpt-1372 for dump", fd_rank=1,
            coll=[(0, "unbound_buffer.cc:78] Timed out waiting 20000ms for recv operation to complete"),
                  (2, "unbound_buffer.cc:129] Timed out waiting 20000ms for send operation to complete")],
            notes="rank 1 frozen by the node's checkpoint agent (freezer cgroup); peers time out in the all_reduce."))

JOBS["vc-inconclusive-gnu-sem-semaphore-launcher-fileconfig-ini-rankfiles-job-frozen-snapshot"] = dict(
    source="GNU parallel's semaphore mode (`sem --id vcjob -j 3`, then `sem --wait`) as launcher; the trainer's logging "
           "from `logging.config.fileConfig(vc_log.ini)`",
    cmd="for r in 0 1 2: `RANK=$r ... sem --id vcjob -j 3 --will-cite nice python vc_train.py --logcfg vc_log.ini "
        "--epochs 20 --pg-timeout 120 --warn`; `sem --id vcjob --wait`",
    layout="`snapshot/logs/train.<R>.log`: FileHandler records `YYYYmmdd HHMMSS pid LEVEL    vc.train msg` (no rank "
           "field; the file name gives it); `snapshot/sem.console`: the ranks' stderr via sem (c10d warnings, "
           "`WARNING:py.warnings:` lines).",
    planted="15 s into training the whole job's processes were frozen from outside (cgroup-v1 freezer, nothing "
            "logged); the logs were copied 30 s later as they stood, then the job was thawed and SIGTERMed (that part "
            "not kept).",
    happened="the rank files stop at epoch 8 step 420 on all ranks, no error anywhere.",
    exits="not meaningful (snapshot).",
    judgement="inconclusive: the logs just stop without an error.",
    truth=T("inconclusive", notes="logs stop mid-training with no error (job frozen, snapshot)."))
