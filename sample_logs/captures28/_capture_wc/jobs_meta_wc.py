"""Per-job metadata for the roundU wc-* captures: command, layout, set-up, what happened, truth."""
ENV = ("host `vm` (2 cores, CPU only, no GPU), Linux 6.18, Python 3.11.7, torch 2.13.0+cpu (gloo), nox 2026.10.20, "
       "trio 0.35.0, structlog 26.1.0 (with rich 15 installed), tornado 6.6.1, snakemake 9.27.1, dask/distributed "
       "2026.8.0, ClusterShell 1.10.1, concurrently 9.2.5 on Node.js 20, bubblewrap 0.8.0, libslack daemon 0.8, "
       "dtach 0.9, apache2-utils 2.4.71 (rotatelogs), util-linux 2.38.1 (unshare, nsenter, setpriv), bash 5.2, "
       "cgroup v1 memory controller")
CLOSED = "Connection closed by peer [127.0.0.1]:"


def T(status, kind=None, rank=None, node=None, cat=None, fd=None, fd_rank=None, coll=(), notes=""):
    return {"schema_version": 1, "status": status,
            "initiating": None if status in ("inconclusive", "healthy") else
            {"rank": rank, "node": node, "all_ranks": kind == "all_ranks", "kind": kind or "unknown"},
            "root_cause": None if status in ("inconclusive", "healthy") else {"category": cat, "rule_id": None},
            "first_deviating": None if fd is None else {"contains": fd, "rank": fd_rank},
            "collateral": [{"rank": r, "contains": c} for r, c in coll], "notes": notes}


JOBS = {}
JOBS["wc-nox-sessions-novenv-torchrun-inside-model-card-min-torch-refusal-all"] = dict(
    source="nox as the site's task runner (`noxfile.py`, sessions `prepare` and `train`, `venv_backend=\"none\"`), "
           "the `train` session running torchrun",
    cmd="`timeout -s TERM 120 nice nox -f noxfile.py -s prepare train -- cards/encoder-v5.json > nox.console 2>&1`; the "
        "session runs `torchrun --standalone --nnodes 1 --nproc-per-node 3 --max-restarts 0 wc_train.py --model-card "
        "cards/encoder-v5.json --epochs 1 --pg-timeout 20 --fmt '%(asctime)s [r{rank}] %(levelname)s %(message)s'`",
    layout="one console, `nox.console`: nox's `nox > ` lines (session start, the command it runs, `Command ... failed`, "
           "`Session train failed.`, the closing session summary) around everything torchrun and its three workers "
           "printed (ranks' records tagged `[rN]`, their tracebacks untagged, torchrun's ChildFailedError block).",
    planted="the model card pulled for this run (`cards/encoder-v5.json`) is format 5 and declares `min_torch 2.14.0`; "
            "the trainer checks it before joining the process group and refuses on torch 2.13.0+cpu.",
    happened="all three ranks log the card and raise `RuntimeError: model card cards/encoder-v5.json (format 5) needs "
             "torch>=2.14.0, this is torch 2.13.0+cpu` within half a second (rank 0 and 2 first, rank 1 0.5 s later); "
             "torchrun sends SIGTERM to the last one still running and reports rank 0 as the root cause; nox marks "
             "session `train` failed.",
    exits="nox 1; torchrun 1; ranks 0 and 2 exit 1, rank 1 exitcode -15 in torchrun's table (its error was logged "
          "before the SIGTERM arrived).",
    judgement="a job-wide deterministic refusal (every rank reads the same card, every rank raises), so kind all_ranks, "
              "category version_mismatch; first_deviating is the first RuntimeError line (rank 0's). Rank 1's SIGTERM "
              "in torchrun's table is the agent's cleanup, not a separate failure.",
    truth=T("failed", "all_ranks", cat="version_mismatch", fd="needs torch>=2.14.0, this is torch 2.13.0+cpu", fd_rank=0,
            notes="model card format 5 requires torch>=2.14; every rank refuses on torch 2.13.0+cpu before the process "
                  "group is formed."))

JOBS["wc-trio-nursery-launcher-sysloghandler-udp-receiver-hash012-stagein-fifo-never-written-hang-r2"] = dict(
    source="site launcher on trio (`wc_trio_launch.py`: a nursery with one `trio.lowlevel.open_process` task per env:// "
           "rank and a reaper task), ranks logging through `logging.handlers.SysLogHandler` (UDP, facility local3) to "
           "the site's syslog receiver (`wc_syslog_udp.py`)",
    cmd="`mkfifo stage/ready.fifo`; `python wc_syslog_udp.py 5514 syslog/messages &`; `timeout -s TERM 120 nice python "
        "wc_trio_launch.py --nproc 3 --port 29911 --grace 10 -- python wc_train.py --no-stdout --syslog 127.0.0.1:5514 "
        "--stage-fifo stage/ready.fifo --stage-rank 2 --epochs 1 --pg-timeout 20 --warn`",
    layout="`syslog/messages`: traditional syslog lines `Mmm dd HH:MM:SS vm local3.<severity> wc_train[pid]: rR/3 LEVEL "
           "wc.train: msg`, multi-line records (tracebacks) on one line with newlines escaped as `#012` (rsyslog "
           "style). `stdio/rank<R>.log`: each rank's stdout+stderr (c10d warnings, torch's `[rankR]:` tracebacks). "
           "`launcher.log`: the trio launcher's ISO-stamped records (`launcher[pid] LEVEL`).",
    planted="rank 2 is the data-loader host: after the process group comes up it waits for the stage-in copy agent's "
            "ready marker on the fifo `stage/ready.fifo`. The copy agent was never started for this run, so rank 2 "
            "blocks in open() forever. Process-group timeout 20 s.",
    happened="rank 2 logs `stage-in: waiting for the copy agent's ready marker on stage/ready.fifo` and goes silent. "
             "Ranks 0 and 1 build their DDP model; DDP's parameter-shape check (a collective) waits for rank 2 and times "
             "out after 20 s (rank 0: `unbound_buffer.cc:78] Timed out waiting 20000ms for recv operation`, rank 1: "
             "`...:129] ... for send operation`). Rank 0 exits 1 first; the launcher SIGTERMs ranks 2 and 1.",
    exits="launcher 1; rank 0 exit 1, ranks 1 and 2 SIGTERM (launcher).",
    judgement="category nccl_timeout_hang (a rank stuck outside any collective, peers time out in theirs), initiator "
              "rank 2. first_deviating is rank 2's last record (the wait that never returns): it is the only line "
              "naming the stuck rank's state. Ranks 0/1's gloo timeouts are collateral; rank 1's SIGTERM exit (the "
              "launcher's) and the launcher's order are not causal.",
    truth=T("failed", "rank", 2, cat="nccl_timeout_hang",
            fd="stage-in: waiting for the copy agent's ready marker on stage/ready.fifo", fd_rank=2,
            coll=[(0, "unbound_buffer.cc:78] Timed out waiting 20000ms for recv operation to complete"),
                  (1, "unbound_buffer.cc:129] Timed out waiting 20000ms for send operation to complete")],
            notes="rank 2 blocks opening a stage-in fifo nobody writes; ranks 0/1 time out in DDP's first collective."))

JOBS["wc-bwrap-sandbox-per-rank-setpriv-jobuser-structlog-console-ckpt-dir-left-root-owned-eacces-r0"] = dict(
    source="site sandbox launcher (`wc_bwrap_launch.sh`): one bubblewrap sandbox per env:// rank (read-only /, job dir "
           "bound read-write, private /tmp, /proc, PID namespace, `--die-with-parent`), dropped to the job user with "
           "`setpriv --reuid 1000 --regid 1000 --clear-groups`; the trainer logs through structlog's ConsoleRenderer",
    cmd="stage-in as root: `mkdir -p ckpt`; `timeout -s TERM 120 nice ./wc_bwrap_launch.sh 3 29912 1000:1000 -- python "
        "wc_train.py --structlog --epochs 2 --ckpt-every 20 --ckpt-dir ckpt --pg-timeout 20 > launch.out 2>&1`",
    layout="`sandbox/rank<R>/console.log`: each sandbox's stdout+stderr: structlog ConsoleRenderer lines "
           "(`<ISO>Z [info     ] msg [wc.train] rank=R`), exceptions rendered by structlog with rich (boxed traceback "
           "with local variables, long lines wrapped), then torch's `[rankR]:` traceback. `launch.out`: the launcher's "
           "`[sbx-launch <epoch.ms>]` lines (sandbox pids, exit statuses, the stop).",
    planted="the stage-in step, running as root, creates the checkpoint directory `ckpt/` (root:root 0755) instead of "
            "leaving it to the job user; the ranks run as uid 1000. Rank 0 writes a checkpoint every 20 steps.",
    happened="at step 20 rank 0's `torch.save('ckpt/step000020.pt')` fails: `RuntimeError: [enforce fail at "
             "inline_container.cc:747] . open file failed with strerror: Permission denied` (structlog/rich "
             "traceback, wrapped, then torch's one-line `[rank0]:` version). Ranks 1 and 2, in the next all_reduce, get "
             "`Connection closed by peer`. The launcher sees rank 0 exit 1, SIGTERMs the other sandboxes (exit 143).",
    exits="launcher 1; rank 0 exit 1; ranks 1 and 2 exit 143 (the launcher's SIGTERM, after their own error).",
    judgement="category storage_io (a permission error on the checkpoint directory), initiator rank 0. The clearest "
              "text is the enforce line; its first occurrence is the rich-wrapped `RuntimeError: [enforce fail at "
              "inline_container.cc:747] . open file failed with ` (the `strerror: Permission denied` tail wrapped onto "
              "the next line), which is the chosen substring. The ckpt path only appears in rich's locals boxes.",
    truth=T("failed", "rank", 0, cat="storage_io",
            fd="[enforce fail at inline_container.cc:747] . open file failed with", fd_rank=0,
            coll=[(1, CLOSED + "8585"), (2, CLOSED + "64649")],
            notes="ckpt/ created root-owned by the root stage-in step; rank 0 (uid 1000) cannot write its checkpoint; "
                  "peers lose the connection."))

JOBS["wc-concurrently-npm-kill-others-on-fail-time-name-prefix-memcg-cap-per-rank-manifest-rows-unit-oomkill-r1"] = dict(
    source="concurrently (npm) as the launcher, one command per env:// rank, each under the site's per-process memory "
           "cap `wc_memcg_exec.sh` (cgroup v1 memory controller)",
    cmd="`timeout -s TERM 150 nice concurrently --kill-others-on-fail -n r0,r1,r2 -p '[{time} {name}]' -t 'HH:mm:ss.SSS' "
        "\"RANK=0 ... MASTER_PORT=29913 ./wc_memcg_exec.sh 1536M rank0 -- python wc_train.py --manifest "
        "data/manifest-{rank}.json --epochs 2 --pg-timeout 20 --fmt '...'\" \"RANK=1 ...\" \"RANK=2 ...\" > console.log "
        "2>&1`",
    layout="one console, `console.log`: every line of every rank prefixed `[HH:mm:ss.SSS rN]` by concurrently, "
           "concurrently's own `<command> exited with code N` lines (prefixed with the rank's name) and `--> Sending "
           "SIGTERM to other processes..`; the memory cap's `memcap[rankR]: ...` report lines.",
    planted="the data export wrote rank 1's manifest with the shard's byte count in the `rows` field (40,000,000 "
            "instead of 1,600). The trainer preallocates its feature cache from the manifest (40M x 16 float64 = "
            "4.77 GiB, logged); every rank is capped at 1536M.",
    happened="rank 1 logs the 4.77 GiB preallocation; its peers reach DDP. About 8 s later the kernel OOM-kills "
             "rank 1's python (bash job message `... Killed`, then `memcap[rank1]: pid 32759 killed by the kernel OOM "
             "killer (oom_kill=1, limit 1536M, peak 1536 MiB), status 137`). Ranks 0 and 2 fail in DDP's parameter "
             "check with `Connection closed by peer`; concurrently sends SIGTERM to the others.",
    exits="concurrently 1; rank 1 137 (SIGKILL), ranks 0 and 2 143 after their own gloo errors.",
    judgement="category oom (memory cap OOM kill), initiator rank 1. first_deviating: the cap's report line, the first "
              "line that says OOM; the earlier preallocation record shows the cause (4.77 GiB) and the bash `Killed` "
              "job line the kill, without naming memory. Ranks 0/2's `Connection closed by peer` lines are collateral.",
    truth=T("failed", "rank", 1, cat="oom", fd="memcap[rank1]: pid 32759 killed by the kernel OOM killer", fd_rank=1,
            coll=[(0, CLOSED + "41688"), (2, CLOSED + "52944")],
            notes="rank 1's manifest rows field holds a byte count; the 4.77 GiB feature-cache preallocation exceeds "
                  "the 1536M memory cgroup; OOM kill; peers lose the connection."))

JOBS["wc-clush-exec-worker-nsenter-namespace-nodes-outdir-errdir-stale-site-pythonpath-model-pkg-nodeb"] = dict(
    source="ClusterShell `clush -R exec` fanning a torchrun agent out to two \"nodes\" (nodea, nodeb): persistent UTS + "
           "mount namespaces entered by the site's remote shell `wc_rsh.sh` (nsenter, then the node's login "
           "environment `nodes/<host>.env`: PYTHONPATH, PET_NODE_RANK)",
    cmd="`timeout -s TERM 120 nice clush -R exec -w nodea,nodeb -S --outdir out --errdir err ./wc_rsh.sh %h torchrun "
        "--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29914 wc_train.py --model-pkg --epochs 1 "
        "--pg-timeout 20 --fmt '%%(asctime)s %%(levelname)s [rank{rank}] %%(message)s' > clush.console 2>&1`",
    layout="`clush.console`: clush's line mode, every line `<host>: ` prefixed, stdout and stderr of both nodes "
           "interleaved, plus `clush: <host>: exited with exit code 1`. `out/<host>` and `err/<host>`: clush's "
           "--outdir/--errdir copies of each node's stdout and stderr (unprefixed). Static rendezvous, 2 nodes x 2 "
           "procs: nodea holds ranks 0-1, nodeb ranks 2-3.",
    planted="the site model package `wcmodel` is on each node's PYTHONPATH through the node's `/site` bind mount "
            "(`<job>/site`). nodea's mount has wcmodel 1.4.0; nodeb's still has 1.3.2, whose middle layer is hidden // 4 "
            "(32) wide instead of 64. The ranks log the version they import.",
    happened="all four ranks join; nodeb's ranks log `model from wcmodel 1.3.2`. DDP's parameter-shape check fails on "
             "nodeb's ranks: `RuntimeError: [2]: params[2] in this process with sizes [32, 128] appears not to match "
             "sizes of the same param in process 0.` (and `[3]: ...`); nodea's ranks get `Connection closed by peer`. "
             "Both agents report ChildFailedError; clush reports exit 1 for both nodes.",
    exits="clush 1; both torchrun agents 1.",
    judgement="a machine-level cause in a multi-node job (one node's stale software), so kind rank with node `nodeb` "
              "and rank null; category version_mismatch (an older package version on one node; the observable is a "
              "model-shape mismatch in DDP's check, which could also be read as collective_mismatch). first_deviating "
              "is rank 2's RuntimeError line (the earlier `model from wcmodel 1.3.2` info line names the version but "
              "does not show a fault).",
    truth=T("failed", "rank", None, node="nodeb", cat="version_mismatch",
            fd="params[2] in this process with sizes [32, 128] appears not to match sizes of the same param in process 0",
            fd_rank=2, coll=[(0, CLOSED + "44693"), (1, CLOSED + "412.")],
            notes="nodeb's /site mount still carries wcmodel 1.3.2 (narrower middle layer); its ranks fail DDP's "
                  "parameter-shape verification; nodea's ranks lose the connection."))

JOBS["wc-healthy-tornado-fork-processes-logformatter-smtphandler-alert-mails-smtpd-debugging-server-gateway-down"] = dict(
    source="pre-fork launcher on `tornado.process.fork_processes(3, max_restarts=0)` (`wc_tornado_fork.py`: task id = "
           "rank, the trainer run in-process), tornado's `LogFormatter`; ERROR records also mailed by "
           "`logging.handlers.SMTPHandler` to Python 3.11's `smtpd` DebuggingServer",
    cmd="`python -u -m smtpd -n -c DebuggingServer 127.0.0.1:8025 > smtpd.log 2>&1 &`; `timeout -s TERM 150 nice python "
        "wc_tornado_fork.py 3 29915 -- --tornado-log --smtp 127.0.0.1:8025 --metrics-push 127.0.0.1:9091 --epochs 2 "
        "--final-eval --warn --pg-timeout 30 > console.log 2>&1`",
    layout="`console.log`: tornado-format records `[L yymmdd HH:MM:SS module:line] msg` from the launcher (tornado's "
           "`Starting 3 processes`, `child N (pid P) exited normally`) and all ranks, every trainer record twice (the "
           "handler installed by tornado's enable_pretty_logging in the parent is inherited by the forked children, "
           "and the trainer adds its own); c10d warnings. `smtpd.log`: the DebuggingServer's `MESSAGE FOLLOWS` blocks "
           "(one mail per ERROR record, b'...' lines, quoted-printable) after smtpd's own DeprecationWarnings.",
    planted="the metrics gateway on 127.0.0.1:9091 is not running: every rank retries three times (WARNING), then logs "
            "one ERROR (mailed) and continues. No fault otherwise.",
    happened="three ranks train 2 epochs (100 steps), final eval `accuracy ... over 4800 samples`, `done:` lines; "
             "tornado logs each child `exited normally`; the launcher exits 0. smtpd.log holds three alert mails, one "
             "per rank.",
    exits="launcher 0; all children exited normally.",
    judgement="healthy: the ERROR records and alert mails are the gateway noise the run survives; the doubled console "
              "lines are a logging set-up quirk, not a fault. The records do not carry a rank except in `start` lines.",
    truth=T("healthy", notes="clean run with a metrics-gateway outage (warnings, ERROR alert mails) and doubled log "
                             "lines; all children exited normally."))

JOBS["wc-healthy-snakemake-cores3-rank-rules-rule-log-files-summary-rule"] = dict(
    source="Snakemake 9 workflow (`Snakefile`): rule `train_rank` with one job per env:// rank (wildcard r), run "
           "concurrently with `--cores 3`, a `summary` rule over the rank logs",
    cmd="`timeout -s TERM 150 nice snakemake --cores 3 --snakefile Snakefile --config port=29916 --printshellcmds > "
        "snakemake.console 2>&1`",
    layout="`snakemake.console`: Snakemake's console (banner, DAG job stats, `localrule train_rank:` blocks with "
           "wildcards and the shell command, `Finished jobid: N`, `k of 5 steps (..%) done`). "
           "`.snakemake/log/<stamp>.snakemake.log`: Snakemake's own run log. `logs/train_r<R>.log`: each rank's "
           "stdout+stderr (the rule's `log:` file).",
    planted="nothing: a normal run with the trainer's FutureWarning and c10d hostname warnings.",
    happened="the three rank jobs start together, train 2 epochs, final eval, finish within the same second; the summary "
             "rule runs; `5 of 5 steps (100%) done`.",
    exits="snakemake 0.",
    judgement="healthy (a final summary and done lines on all ranks).",
    truth=T("healthy", notes="three rank jobs and the summary rule completed; only warnings."))

JOBS["wc-inconclusive-dtach-detached-ranks-rotatelogs-10s-files-snapshot-while-running"] = dict(
    source="each env:// rank started detached with dtach (`dtach -n sock/rank<R> -Ez bash -c '... python wc_train.py "
           "... 2>&1 | rotatelogs -f logs/rank<R>.%Y%m%d-%H%M%S.log 10'`), no client attached",
    cmd="three `dtach -n` calls (MASTER_PORT 29917, `--epochs 6 --sleep 0.1 --pg-timeout 30 --warn --fmt '[%(asctime)s] "
        "{rank}/{world} %(levelname)s %(name)s %(message)s'`), then `sleep 27; cp -a logs snapshot`",
    layout="`snapshot/rank<R>.<YYYYmmdd-HHMMSS>.log`: Apache rotatelogs' time-based files, a new one every 10 s per "
           "rank (three per rank here), copied while the job was running.",
    planted="nothing in the job; the snapshot was taken 27 s after start while it trained (the collector ended the job "
            "afterwards, outside the snapshot).",
    happened="the files end mid-epoch 3 (step 180 of 300) on every rank, with no error and no final line.",
    exits="not part of the snapshot (the collector ended the ranks with SIGTERM afterwards).",
    judgement="inconclusive: the logs just stop without an error or an end-of-run line.",
    truth=T("inconclusive", notes="snapshot of a running job; logs stop mid-training without an error."))

JOBS["wc-dask-localcluster-nanny-worker-per-rank-pinned-tasks-sweep-override-lr-diverge-guard-all"] = dict(
    source="dask.distributed `LocalCluster` as the launcher (`wc_dask_launch.py`: one single-threaded nanny worker "
           "process per rank; each rank a task pinned to its worker with `client.submit(..., workers=[addr])`)",
    cmd="`timeout -s TERM 150 nice python wc_dask_launch.py 3 29918 -- --overrides sweep/point-07.yaml --no-stdout "
        "--logfile 'logs/rank{rank}.log' --loss-limit 1e4 --pg-timeout 20 --fmt '%(asctime)s %(process)d "
        "%(levelname)s [r{rank}] %(message)s' > console.log 2>&1`",
    layout="`console.log`: the client's `[dask-launch]` lines, distributed's records (`distributed.worker - ERROR - "
           "Compute Failed` blocks with Key / State / Task / Exception / Traceback repr), c10d warnings from the "
           "workers. `logs/rank<R>.log`: the trainer's FileHandler records per rank.",
    planted="a sweep point's override file `sweep/point-07.yaml` sets `lr: 80.0`: the grid generator wrote the "
            "1e-3-unit value (`lr_milli: 80`) into `lr` (meant 0.08). The trainer's divergence guard stops when the "
            "loss exceeds 1e4.",
    happened="every rank logs the overrides (`lr=80.0`) and `optimizer SGD lr 80`; at step 3 each rank's loss is "
             "3.7e4-7.8e4 and each logs `loss ... exceeds the divergence limit 1e+04 at epoch 0 step 3 (lr 80)` and "
             "raises FloatingPointError (all within 4 ms); dask reports Compute Failed for the three tasks; the client "
             "prints `3 of 3 ranks failed`.",
    exits="launcher 1; the three tasks failed with FloatingPointError.",
    judgement="category nan_divergence (training-code divergence detection; the cause is a bad hyper-parameter in a "
              "config every rank reads, so kind all_ranks). first_deviating is rank 0's divergence record (rank 0 and 2 "
              "log in the same millisecond).",
    truth=T("failed", "all_ranks", cat="nan_divergence",
            fd="loss 6.924e+04 exceeds the divergence limit 1e+04 at epoch 0 step 3 (lr 80)", fd_rank=0,
            notes="sweep override lr 80 (unit slip, meant 0.08); loss explodes on every rank at step 3; the divergence "
                  "guard stops all ranks."))

JOBS["wc-libslack-daemon-named-clients-pidfile-lock-held-by-previous-run-rank2-missing-rdzv-timeout"] = dict(
    source="site launcher on libslack `daemon` (`wc_daemon_launch.sh`): each env:// rank a named daemon client "
           "(`daemon -f --name=rank<R> --pidfiles=<job>/run --output=logs/rank<R>.log --errlog=logs/daemon.err "
           "--env=...`), kept in the foreground so that the launcher can wait for it",
    cmd="leftover of the previous submission: `daemon --name=rank2 --pidfiles=<job>/run ... -- /usr/bin/env python "
        "wc_train.py --pg-timeout 600` (still waiting in its own rendezvous); then `timeout -s TERM 120 nice "
        "./wc_daemon_launch.sh 3 29919 -- /usr/bin/env python wc_train.py --epochs 1 --pg-timeout 20 --fmt "
        "'%(asctime)s.%(msecs)03d|%(levelname)s|r{rank}|%(message)s' > launch.log`",
    layout="`launch.log`: the launcher's `YYYY-mm-dd HH:MM:SS launch: ...` lines, daemon's own stderr (the fatal "
           "line) and, because the daemons run with -f, a copy of the clients' output. `logs/rank<R>.log`: each "
           "client's stdout+stderr (--output). `logs/daemon.err`: daemon's own messages "
           "(`YYYYmmdd HH:MM:SS rankR: client (pid P) exited with 1 status, exiting`). The record format's "
           "`%(asctime)s.%(msecs)03d` prints the milliseconds twice (`44,969.969`), as configured.",
    planted="the previous submission's rank 2 was never cleaned up and still holds the lock on `run/rank2.pid`; this "
            "run reuses the same pid-file directory, so `daemon --name=rank2` cannot take its pid file.",
    happened="`rank2: fatal: failed to create pidfile for rank2: Resource temporarily unavailable` right at launch; "
             "rank 2 never starts. Ranks 0 and 1 wait in init_process_group: rank 1 (store client) `DistStoreError: "
             "wait timeout after 20000ms, keys: /default_pg/0//cpu//0/0`, rank 0 (store server) `DistStoreError: "
             "Timed out after 21 seconds waiting for clients. 2/3 clients joined.`",
    exits="launcher 1 (rank 2's daemon 1; ranks 0 and 1's daemons exit 0 although their clients exited 1, as "
          "daemon.err says).",
    judgement="category rendezvous (a rank missing from the rendezvous), initiator rank 2 (its daemon's fatal line "
              "names it). Ranks 0/1's store timeouts are collateral. The leftover process's output is not collected.",
    truth=T("failed", "rank", 2, cat="rendezvous",
            fd="rank2: fatal: failed to create pidfile for rank2: Resource temporarily unavailable", fd_rank=2,
            coll=[(0, "Timed out after 21 seconds waiting for clients. 2/3 clients joined."),
                  (1, "wait timeout after 20000ms, keys: /default_pg/0//cpu//0/0")],
            notes="rank 2's daemon cannot lock its pid file (held by the previous run's leftover rank 2); rank 2 never "
                  "starts; ranks 0/1 time out in the rendezvous."))

JOBS["wc-ssh-like-pty-session-bash-i-torchrun-redirect-no-nohup-connection-drop-sighup-ext"] = dict(
    source="an interactive login session (`wc_pty_session.py`: `bash -i` on a new pty standing in for an ssh login; "
           "the user's terminal scrollback kept) in which the user started torchrun in the background without nohup",
    cmd="typed in the session: `cd <job> && torchrun --standalone --nproc-per-node 3 wc_train.py --epochs 8 --sleep 0.1 "
        "--pg-timeout 30 --fmt '%(asctime)s {rank}/{world} %(levelname)s: %(message)s' > train.log 2>&1 & sleep 1; "
        "tail -n 3 -f train.log`; the connection dropped after 40 s (`timeout -s TERM 120 python wc_pty_session.py 40 "
        "session.typescript \"...\"`)",
    layout="`train.log`: torchrun's and the workers' combined output (records `{rank}/3 LEVEL: msg`, the agent's glog "
           "lines). `session.typescript`: what the user's terminal showed (prompt, echoed command, `tail -f` output, "
           "CR LF, terminal control sequences) until the drop.",
    planted="nothing in the job: the login connection dropped (the pty master closed without logout), so the session "
            "was hung up and bash passed SIGHUP on to its background job.",
    happened="training runs normally to epoch 5; then the agent logs `Received 1 death signal, shutting down workers`, "
             "sends SIGHUP to the three workers and exits with `SignalException: Process N got signal: 1`. The "
             "typescript ends with the last `tail -f` lines before the drop.",
    exits="not observable from the logs beyond the agent's SignalException (the session is gone).",
    judgement="a kill from outside the job (the user's session hang-up), so kind external; category "
              "killed_by_scheduler, the vocabulary's category for an external kill (no scheduler is involved; `other` "
              "would be the alternative). first_deviating is the agent's death-signal line. No rank failed on its own, "
              "so no collateral lines.",
    truth=T("failed", "external", cat="killed_by_scheduler", fd="Received 1 death signal, shutting down workers",
            notes="SIGHUP from the dropped login session reaches the torchrun agent (no nohup); it stops the workers."))
