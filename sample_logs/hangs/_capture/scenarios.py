"""Write truth.json, README.md and .correlatorignore of every scenario in sample_logs/hangs/.

The verdicts below were written by hand after reading each capture (the quoted
strings are copied from the logs); rerun after a recapture only once they are checked.
    python3 sample_logs/hangs/_capture/scenarios.py
"""
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
TORCH = "torch 2.13.0+cpu, Python 3.11.7, gloo backend, torchrun (torch.distributed.run), host `vm`"
LAYOUT = {
    "a": "one `console.log` from `torchrun --tee 3 ... 2>&1 | tee console.log` (`[defaultN]:` prefixes)",
    "b": "`torchrun --log-dir logs --redirects 3` tree `logs/<run_id>_<rand>/attempt_0/<local_rank>/{stdout,stderr}.log` + the launcher's own output `launcher.log`",
    "c": "`rank<N>.log` written by the trainer's `logging.FileHandler` (asctime stamps) + `launcher.log` (torchrun's output, which also carries the workers' uncaught tracebacks from stderr, `[rankN]:`-prefixed)",
    "d": "`worker-<N>.log` (each worker's stdout+stderr redirected by `worker.sh` under `torchrun --no-python`) + `launcher.log`",
    "e": "both copies of each stream: `console.log` from `torchrun --log-dir logs --tee 3 ... 2>&1 | tee console.log` (`[defaultN]:` prefixes) and the `logs/<run_id>_<rand>/attempt_0/<local_rank>/{stdout,stderr}.log` tree; the trainer logs to stdout (`--log-stream stdout`), tracebacks go to stderr",
    "n": "`node-0/console.log`, `node-1/console.log` (one torchrun agent per node, `--tee 3`)",
}
TIMEOUT = "Timed out waiting 10000ms for"
CLOSED = "Connection closed by peer"
SIGTERM = "Signal 15 (SIGTERM) received by PID"
STORE = "DistStoreError: wait timeout after 10000ms"


def hang(culprit, contains=None, category="nccl_timeout_hang", kind="rank"):
    return dict(rank=culprit, kind=kind, category=category, contains=contains)


S = {}


def add(slug, wait, layout, behaviour, init, collateral, notes, command, captured="2026-12-01"):
    S[slug] = dict(wait=wait, layout=layout, behaviour=behaviour, init=init, collateral=collateral, notes=notes,
                   command=command, captured=captured)

RUN = "sample_logs/hangs/_capture/capture.sh sample_logs/hangs {slug}"

# ---- gloo all_reduce timeout
add("allreduce-stall-same-step-tee", "gloo all_reduce recv/send timeout", "a",
    "(1) rank 1 logs `step 5` like its peers, then stalls (sleep) before the step's all_reduce; prints nothing more",
    hang(1), [(TIMEOUT, [0, 2])],
    "rank 1 stalled after logging step 5, the same step its peers logged last (no step lag); ranks 0 and 2 hit the 10 s gloo timeout in all_reduce; torchrun SIGTERMs rank 1 and its table names the first timed-out rank as Root Cause.",
    "--mode stall_same --culprit 1 --fail-step 5")
add("allreduce-stall-behind-logdir", "gloo all_reduce recv/send timeout", "b",
    "(2) rank 2 stalls before logging `step 4` (its last line is `step 3`)",
    hang(2), [(TIMEOUT, [0, 1])],
    "rank 2 stalled before step 4 (last line 'step 3 | rank 2'), ranks 0 and 1 logged step 4 and timed out in all_reduce after 10 s; rank 2 was SIGTERMed by torchrun.",
    "--mode stall_behind --culprit 2 --fail-step 4")
add("allreduce-busy-printing-rankfiles", "gloo all_reduce recv/send timeout", "c",
    "(3) rank 0 logs `step 4`, then prints `still loading shard N/64 ... (N s)` every second while its peers wait",
    hang(0, "still loading shard 1/64"), [(TIMEOUT, [1, 2])],
    "rank 0 (the store host) keeps printing 'still loading shard' progress lines after step 4 instead of joining the all_reduce; ranks 1 and 2 time out after 10 s; rank 0 is the most recent writer when the job dies. first_deviating cites its first 'still loading' line.",
    "--mode busy --culprit 0 --fail-step 4")
add("allreduce-short-shard-workers", "gloo all_reduce, peer gone (Connection closed by peer)", "d",
    "(4) rank 1's shard has 4 batches (the others 8): it logs `training finished after 4 steps` and exits 0",
    hang(1, "training finished after 4 steps", category="data_error"), [(CLOSED, [0, 2])],
    "rank 1's data shard was short: it finished after 4 steps and exited 0 (no error); ranks 0 and 2 entered step 5's all_reduce and got 'Connection closed by peer' within a second. The only failed exits are the victims'. first_deviating cites rank 1's 'training finished' line (it also logged 'shard has 4 batches for this rank (others: 8)' at startup).",
    "--mode short_shard --culprit 1 --fail-step 5")
add("allreduce-thread-error-tee", "gloo all_reduce recv/send timeout", "a",
    "(5) rank 2's prefetch thread raises `OSError: [Errno 5] Input/output error` (traceback printed), its main thread waits on the empty queue",
    hang(2, "OSError: [Errno 5] Input/output error", category="storage_io"), [(TIMEOUT, [0, 1])],
    "negative control for 'silent rank': rank 2 printed its own error ('Exception in thread prefetch' ... OSError EIO on its shard) right after step 3, then hung; ranks 0 and 1 timed out 10 s later in step 4's all_reduce.",
    "--mode thread_error --culprit 2 --fail-step 4")
add("allreduce-stall-behind-workers", "gloo all_reduce recv/send timeout", "d",
    "(2) 4 ranks; rank 3 stalls before logging `step 3` (last line `step 2`)",
    hang(3), [(TIMEOUT, [0, 1, 2])],
    "world size 4: rank 3 stalled before step 3 and printed nothing more; ranks 0-2 logged step 3 and timed out in all_reduce.",
    "--mode stall_behind --culprit 3 --fail-step 3 --step-time 0.1 (4 processes)")
add("allreduce-short-shard-tee", "gloo all_reduce, peer gone (Connection closed by peer)", "a",
    "(4) rank 2's shard ends after 3 steps: `training finished after 3 steps`, exit 0",
    hang(2, "training finished after 3 steps", category="data_error"), [(CLOSED, [0, 1])],
    "rank 2 ran out of data after 3 steps, logged 'training finished' and exited 0; ranks 0 and 1 got 'Connection closed by peer' in step 4's all_reduce.",
    "--mode short_shard --culprit 2 --fail-step 4")
add("allreduce-thread-error-rankfiles", "gloo all_reduce recv/send timeout", "c",
    "(5) rank 1's prefetch thread raises OSError EIO; the traceback goes to stderr (launcher.log), not to rank1.log",
    hang(1, "OSError: [Errno 5] Input/output error", category="storage_io"), [(TIMEOUT, [0, 2])],
    "rank 1's error is an uncaught exception in a thread, printed to stderr, so it appears only in launcher.log (unprefixed), while rank1.log just stops after step 4; ranks 0 and 2 time out in step 5's all_reduce ([rankN]: tracebacks in launcher.log).",
    "--mode thread_error --culprit 1 --fail-step 5")
# ---- gloo barrier timeout
add("barrier-stall-same-step-rankfiles", "gloo barrier timeout", "c",
    "(1) rank 2 logs `step 4` like its peers, then stalls before the `barrier before checkpoint`",
    hang(2), [(TIMEOUT, [0, 1])],
    "ranks 0 and 1 logged 'step 4: barrier before checkpoint' and timed out in dist.barrier(); rank 2 logged step 4 and nothing more.",
    "--wait barrier --mode stall_same --culprit 2 --fail-step 4")
add("barrier-stall-behind-workers", "gloo barrier timeout", "d",
    "(2) rank 1 stalls before logging `step 4`",
    hang(1), [(TIMEOUT, [0, 2])],
    "rank 1's last line is step 3; ranks 0 and 2 logged step 4 and the barrier line and timed out in dist.barrier().",
    "--wait barrier --mode stall_behind --culprit 1 --fail-step 4")
add("barrier-busy-printing-tee", "gloo barrier timeout", "a",
    "(3) rank 1 logs `step 3`, then `still loading shard N/64` every second",
    hang(1, "still loading shard 1/64"), [(TIMEOUT, [0, 2])],
    "rank 1 prints progress lines while ranks 0 and 2 wait in the step-3 barrier and time out.",
    "--wait barrier --mode busy --culprit 1 --fail-step 3")
add("barrier-short-shard-logdir", "gloo barrier, peer gone (Connection closed by peer)", "b",
    "(4) rank 0's shard ends after 3 steps: `training finished after 3 steps`, exit 0",
    hang(0, "training finished after 3 steps", category="data_error"), [(CLOSED, [1, 2])],
    "rank 0 (store host) finished early and exited 0; ranks 1 and 2 got 'Connection closed by peer' in the barrier; torchrun's table has no failure for rank 0.",
    "--wait barrier --mode short_shard --culprit 0 --fail-step 4")
# ---- monitored_barrier
add("mbarrier-stall-same-step-tee", "dist.monitored_barrier timeout", "a",
    "(1) rank 2 logs `step 4` then stalls before `monitored_barrier`",
    hang(2, "Rank 2 failed to pass monitoredBarrier in 10000 ms"), [("received errors while waiting for send/recv from rank 0", [1])],
    "rank 0's monitored_barrier names rank 2 ('Rank 2 failed to pass monitoredBarrier in 10000 ms'); rank 1 'successfully reached monitoredBarrier, but received errors ... from rank 0' (it points at rank 0); rank 2 silent. first_deviating is rank 0's naming line, attributed to rank 2 as in monitored-barrier-timeout.",
    "--wait monitored_barrier --mode stall_same --culprit 2 --fail-step 4")
add("mbarrier-busy-printing-workers", "dist.monitored_barrier timeout", "d",
    "(3) rank 1 logs `step 3` then `still loading shard N/64` every second",
    hang(1, "Rank 1 failed to pass monitoredBarrier in 10000 ms"), [("received errors while waiting for send/recv from rank 0", [2])],
    "rank 0 names rank 1 as failing monitoredBarrier while rank 1 keeps printing 'still loading shard'; rank 2 points at rank 0.",
    "--wait monitored_barrier --mode busy --culprit 1 --fail-step 3")
add("mbarrier-thread-error-logdir", "dist.monitored_barrier timeout", "b",
    "(5) rank 1's prefetch thread raises OSError EIO before step 4; main thread waits",
    hang(1, "OSError: [Errno 5] Input/output error", category="storage_io"), [("received errors while waiting for send/recv from rank 0", [2]), ("Rank 1 failed to pass monitoredBarrier", [0])],
    "rank 1 printed its own OSError (prefetch thread) after step 3; rank 0's monitored_barrier then names rank 1, rank 2 points at rank 0. The root cause is rank 1's I/O error, the monitoredBarrier lines are echoes.",
    "--wait monitored_barrier --mode thread_error --culprit 1 --fail-step 4")
# ---- store key wait at init
add("store-never-init-tee", "TCPStore key wait in init_process_group (DistStoreError)", "a",
    "(1) rank 2 logs `starting:` and never calls init_process_group (silent)",
    hang(2, category="rendezvous"), [(STORE, [0, 1])],
    "ranks 0 and 1 wait for rank 2's store key in init_process_group: 'DistStoreError: wait timeout after 10000ms, keys: /default_pg/0//cpu//0/2' (the key's last component is the missing rank); rank 2 printed only its 'starting' line.",
    "--mode never_init --culprit 2")
add("store-late-init-rankfiles", "TCPStore key wait in init_process_group (DistStoreError)", "c",
    "(3) rank 1 is late: `preparing dataset index` + `still loading index shard N/64` every second before init_process_group",
    hang(1, "preparing dataset index before joining the process group", category="rendezvous"), [(STORE, [0, 2])],
    "rank 1 spends >10 s preparing its index (progress lines in rank1.log) before init_process_group; ranks 0 and 2 fail with DistStoreError for key /default_pg/0//cpu//0/1, their tracebacks only in launcher.log.",
    "--mode late_init --culprit 1 --stall 25")
add("store-never-init-logdir", "TCPStore key wait in init_process_group (DistStoreError)", "b",
    "(1) rank 1 never calls init_process_group (silent after `starting:`)",
    hang(1, category="rendezvous"), [(STORE, [0, 2])],
    "ranks 0 and 2: DistStoreError wait timeout, keys /default_pg/0//cpu//0/1; rank 1 silent.",
    "--mode never_init --culprit 1")
add("store-late-init-workers", "TCPStore key wait in init_process_group (DistStoreError)", "d",
    "(3) rank 0 is late (progress lines) before init_process_group",
    hang(0, "preparing dataset index before joining the process group", category="rendezvous"), [(STORE, [1, 2])],
    "rank 0 is the late one: ranks 1 and 2 wait for key /default_pg/0//cpu//0/0 and fail with DistStoreError; rank 0's worker-0.log shows it still loading.",
    "--mode late_init --culprit 0 --stall 25")
# ---- elastic rendezvous
add("rdzv-node-late-tee", "elastic agent c10d rendezvous (RendezvousTimeoutError)", "n",
    "node-1's agent starts 25 s after node-0's (join_timeout=15 s): node-0 times out waiting, then node-1 times out alone",
    dict(rank=None, node="node-1", kind="external", category="rendezvous", contains=None), [],
    "two torchrun agents, --nnodes 2, c10d rendezvous, join_timeout=15: node-0 gave up (RendezvousTimeoutError) before node-1 started; node-1 then waited alone and raised the same error. No worker ever started. The initiator is node-1's late start (visible only from the agents' timestamps: node-1's first line is 25 s after node-0's).",
    "two agents; see capture.sh rdzv-node-late-tee")
add("rdzv-never-joined-logdir", "elastic agent c10d rendezvous (RendezvousTimeoutError)", "b",
    "node-1 never starts; node-0's agent (with --log-dir) waits 15 s and raises RendezvousTimeoutError",
    dict(rank=None, node=None, kind="unknown", category="rendezvous", contains="RendezvousTimeoutError"), [],
    "only node-0's launcher.log exists (no worker ever started, so no log-dir tree); the missing node left no log. Like rendezvous-node-never-joined, in the log-dir layout.",
    "--nnodes 2 --node-rank 0 --rdzv-backend c10d --rdzv-conf join_timeout=15 --log-dir logs --redirects 3")
# ---- the same config error on all ranks
for slug, lay in (("config-error-all-ranks-rankfiles", "c"), ("config-error-all-ranks-workers", "d")):
    add(slug, "none (startup error)", lay,
        "(6) every rank raises the same `ValueError: global_batch_size (64) must be divisible by ...` right after its first log line",
        dict(rank=None, all_ranks=True, kind="all_ranks", category="config_error",
             contains="ValueError: global_batch_size (64) must be divisible by micro_batch_size * grad_accum * world_size (8 * 4 * 3)"),
        [],
        "all three ranks raise the identical config ValueError before init_process_group; torchrun names one of them Root Cause (whichever exit it saw first), which is arbitrary.",
        "--mode config_error")
# ---- external kill
add("external-sigterm-tee", "none (killed from outside)", "a",
    "(7) healthy 200-step run; `timeout -s TERM 9 torchrun ...` sends SIGTERM to the agent after 9 s",
    dict(rank=None, all_ranks=False, kind="external", category="killed_by_scheduler",
         contains="Received 15 death signal, shutting down workers"), [],
    "nothing failed inside the job: the agent got SIGTERM from outside ('Received 15 death signal, shutting down workers'), SIGTERMed its 3 healthy workers (which print nothing) and died with SignalException. No rank is to blame.",
    "timeout -s TERM 9 torchrun --standalone --nproc-per-node 3 --tee 3 train.py --steps 200")
add("external-sigterm-logdir", "none (killed from outside)", "b",
    "(7) healthy run; `kill -TERM <torchrun pid>` after 10 s",
    dict(rank=None, all_ranks=False, kind="external", category="killed_by_scheduler",
         contains="Received 15 death signal, shutting down workers"), [],
    "as external-sigterm-tee in the --log-dir layout: the workers' stderr.log files just stop mid-run; only launcher.log says the agent got signal 15.",
    "torchrun ... --log-dir logs --redirects 3 train.py --steps 200 & sleep 10; kill -TERM $!")
add("config-error-all-ranks-tee", "none (startup error)", "a",
    "(6) every rank raises the same `ValueError: global_batch_size (64) ...` before init_process_group",
    dict(rank=None, all_ranks=True, kind="all_ranks", category="config_error",
         contains="ValueError: global_batch_size (64) must be divisible by micro_batch_size * grad_accum * world_size (8 * 4 * 3)"),
    [], "the same config ValueError on all three ranks, in the --tee console; torchrun's Root Cause is arbitrary.", "--mode config_error")
add("external-sigterm-rankfiles", "none (killed from outside)", "c",
    "(7) healthy run; `kill -TERM <torchrun pid>` after 10 s",
    dict(rank=None, all_ranks=False, kind="external", category="killed_by_scheduler",
         contains="Received 15 death signal, shutting down workers"), [],
    "rank*.log just stop mid-run with step lines; launcher.log has the agent's 'Received 15 death signal' and SignalException.",
    "torchrun ... train.py --log-file rank%d.log --steps 200 & sleep 10; kill -TERM $!")
# ---- Flight Recorder dump sets
FRNOTE = " FR dumps in fr_dump/rank_<N> (pickle, written by the trainer with torch._C._distributed_c10d._dump_fr_trace()); fr_trace.txt is the official analyser's output (README)."
add("fr-hang-stall-rankfiles", "gloo all_reduce recv/send timeout + FR dumps", "c",
    "(1) rank 1 logs `step 4` then stalls before the all_reduce; every rank dumps FR (rank 1 from a timer 8 s into the stall)",
    hang(1), [(TIMEOUT, [0, 2])],
    "rank 1 never enqueued the step-4 all_reduce: in the FR dumps ranks 0 and 2 have last_enqueued_collective 17 (all_reduce [32, 16], not completed) and rank 1 has 16; the re-keyed fr_trace says 'Not all ranks joining collective, sequence number: 17 ... missing ranks: {1}'." + FRNOTE,
    "TORCH_FR_BUFFER_SIZE=2000 ... --mode stall_same --culprit 1 --fail-step 4 --fr-dir fr_dump")
add("fr-mismatch-allgather-tee", "gloo timeout (all_gather vs all_reduce) + FR dumps", "a",
    "rank 2 calls all_gather where ranks 0, 1 call all_reduce at step 4; all three time out alike (no DETAIL debug)",
    hang(2, "in all_gather", category="collective_mismatch"), [(TIMEOUT, [0, 1])],
    "all ranks print the same gloo timeout; only rank 2's traceback goes through all_gather (first_deviating cites that frame line), and in the FR dumps rank 2's seq 17 is gloo:all_gather vs gloo:all_reduce on 0 and 1. The re-keyed fr_trace reports COLLECTIVE_TYPE_MISMATCH but calls ranks 1 and 0 the 'Culprit' (it takes rank 2's entry as the expected one)." + FRNOTE,
    "TORCH_FR_BUFFER_SIZE=2000 ... --mode mismatch_gather --culprit 2 --fail-step 4 --fr-dir fr_dump")
add("fr-mismatch-size-workers", "gloo size mismatch abort + FR dumps (one missing)", "d",
    "rank 0 all_reduces a tensor 3 elements larger at step 4; rank 2 aborts (gloo enforce `Received data size doesn't match expected size`, exit -6, no FR dump); rank 0 `Connection reset by peer`, rank 1 `Connection closed by peer`",
    hang(0, category="collective_mismatch"), [("Received data size doesn't match expected size", [2]), (CLOSED, [1])],
    "the initiator (rank 0, larger buffer) prints only a 'Connection reset by peer' echo like a victim; the rank that crashes (2, SIGABRT) is the one that detected the size mismatch, so torchrun's Root Cause (rank 2) is wrong. Rank 2's FR dump is missing (abort); rank 0's dump shows its seq-17 all_reduce with input_sizes [[515]] (completed) vs [[32, 16]] (512 elements, not completed) on rank 1. Note gloo FR marks a timed-out or failed collective as completed/retired too." + FRNOTE,
    "TORCH_FR_BUFFER_SIZE=2000 ... --mode mismatch_size --culprit 0 --fail-step 4 --fr-dir fr_dump")
add("fr-missing-rank-sigkill-logdir", "process killed (SIGKILL) + FR dumps (culprit's missing)", "b",
    "rank 2 SIGKILLs itself at the start of step 4 (OOM-killer signature, prints nothing); torchrun SIGTERMs ranks 0, 1, which dump FR in their SIGTERM handler",
    hang(2, "failed (exitcode: -9) local_rank: 2", category="oom"), [(SIGTERM, [0, 1])],
    "the dump set lacks rank_2 (SIGKILL leaves no dump); ranks 0 and 1 were SIGTERMed before any collective timed out (their dumps: 16 entries, last_enqueued = last_completed = 16, nothing pending: they were still computing step 4). Only launcher.log names rank 2 (exitcode -9)." + FRNOTE,
    "TORCH_FR_BUFFER_SIZE=2000 ... --mode sigkill --culprit 2 --fail-step 4 --fr-dir fr_dump")

add("fr-mismatch-size-tee", "gloo size mismatch abort + FR dumps (one missing)", "a",
    "rank 1 all_reduces a tensor 3 elements larger at step 3 and is then SIGTERMed without printing anything odd; rank 0 aborts with the gloo size enforce (exit -6, no FR dump), rank 2 `Connection reset by peer`",
    hang(1, category="collective_mismatch"), [("Received data size doesn't match expected size", [0]), ("Connection reset by peer", [2])],
    "as fr-mismatch-size-workers with the culprit silent: rank 1 sent the larger buffer, rank 0 (the store host) detected it and aborted, so torchrun's Root Cause is rank 0; rank 1's only trace is its FR dump (seq 13 all_reduce input_sizes [[515]]). The dump set lacks rank_0." + FRNOTE,
    "TORCH_FR_BUFFER_SIZE=2000 ... --mode mismatch_size --culprit 1 --fail-step 3 --fr-dir fr_dump")

# ---- Flight Recorder, third round (issue 21 section 5): the rank's side decided from the dumps
add("fr-uneven-batch-rankfiles", "gloo size mismatch abort in all_gather + FR dumps (one missing)", "c",
    "every rank all_gathers its per-sample predictions at step 4; rank 2's batch there has 10 rows where its peers' have 8; rank 0 aborts on the gloo size enforce (exit -6, no FR dump), ranks 1 and 2 get `Connection reset by peer`",
    hang(2, category="data_error"), [("Received data size doesn't match expected size", [0]), ("Connection reset by peer", [1])],
    "an uneven split of the data, not a code path: rank 2's step-4 batch is 10 rows, its peers' 8, and all ranks gather per-sample predictions. The FR dumps show seq 17 gloo:all_gather input_sizes [[10, 1]] on rank 2 and [[8, 1]] on rank 1 (only the batch dimension differs); rank 0 received rank 2's larger chunk and aborted ('20 vs 16. Received data size doesn't match expected size', in launcher.log without a rank prefix; SIGABRT leaves no dump), so it held 8 rows like rank 1. The re-keyed fr_trace cannot decide (rank 0's dump is missing). Captured with PYENV=/home/user/venv-fr (the same torch 2.13.0+cpu)." + FRNOTE,
    "TORCH_FR_BUFFER_SIZE=2000 ... --mode uneven_batch --culprit 2 --fail-step 4 --fr-dir fr_dump")
add("fr-mismatch-allgather-2rank-tee", "gloo timeout (all_gather vs all_reduce, 2 ranks) + FR dumps", "a",
    "2 ranks: rank 1 calls all_gather where rank 0 calls all_reduce at step 4; rank 1 times out (send) and exits 1, rank 0 then gets `Connection closed by peer`",
    dict(rank=None, all_ranks=False, kind="unknown", category="collective_mismatch", contains=None), [(CLOSED, [0])],
    "one against one: the FR dumps show seq 17 gloo:all_reduce on rank 0 and gloo:all_gather on rank 1, and nothing in them or in the logs says which is the intended collective: both tracebacks run from the same function (train.py main, lines 168 and 172) into their own collective, and rank 1's send timeout (followed by rank 0's 'Connection closed by peer') says only which side gave up first. The fault was injected into rank 1, but that is the trainer's design, not a fact of the logs: by issue 21 section 3 the verdict is a tie (kind unknown, no rank), and the truth says so; a tie has no one first deviating line, so that field is not scored; the re-keyed fr_trace names rank 1 'Culprit' because it takes the first rank it reads (rank 0) as the expected collective (in fr-mismatch-allgather-tee the same rule names the majority). Captured with PYENV=/home/user/venv-fr (the same torch 2.13.0+cpu)." + FRNOTE,
    "TORCH_FR_BUFFER_SIZE=2000 ... --mode mismatch_gather --culprit 1 --fail-step 4 --fr-dir fr_dump (2 processes)")

# ---- one stream, two copies (layout e): the --tee console and the --log-dir tree
add("allreduce-thread-error-both", "gloo all_reduce recv/send timeout", "e",
    "(5) rank 1's prefetch thread raises OSError EIO at batch 5; its main thread waits",
    hang(1, "OSError: [Errno 5] Input/output error", category="storage_io"), [(TIMEOUT, [0, 2])],
    "rank 1's thread traceback is in its stderr.log (no stamp anywhere in that file) and in console.log; in the console it sits right after rank 1's start-up lines and before its 'step 1' line although it was raised after step 4: torchrun's --tee tails stdout.log and stderr.log separately, and the trainer's stdout (a file, so block-buffered) is flushed later than its unbuffered stderr. Ranks 0 and 2 time out in step 5's all_reduce.",
    "--log-stream stdout --mode thread_error --culprit 1 --fail-step 5", captured="2026-12-02")
add("allreduce-stall-same-step-both", "gloo all_reduce recv/send timeout", "e",
    "(1) rank 2 logs `step 4` like its peers, then stalls before the step's all_reduce",
    hang(2), [(TIMEOUT, [0, 1])],
    "rank 2 stalled after logging step 4 (no step lag); ranks 0 and 1 time out in step 4's all_reduce after 10 s; their tracebacks are unstamped in stderr.log and in the console; torchrun SIGTERMs rank 2.",
    "--log-stream stdout --mode stall_same --culprit 2 --fail-step 4", captured="2026-12-02")
add("barrier-stall-behind-both", "gloo barrier timeout", "e",
    "(2) rank 0 stalls before logging `step 5` (its last line is `step 4`)",
    hang(0), [(TIMEOUT, [1, 2])],
    "rank 0 (the store host) stalled before step 5; ranks 1 and 2 logged step 5 and timed out in dist.barrier() after 10 s; torchrun SIGTERMs rank 0.",
    "--log-stream stdout --wait barrier --mode stall_behind --culprit 0 --fail-step 5", captured="2026-12-02")
add("allreduce-thread-error-late-both", "gloo all_reduce recv/send timeout", "e",
    "(5) rank 2's prefetch thread raises OSError EIO at batch 40 (8 s into the run); its main thread waits",
    hang(2, "OSError: [Errno 5] Input/output error", category="storage_io"), [(TIMEOUT, [0, 1])],
    "as allreduce-thread-error-both, 40 steps in: in console.log rank 2's EIO traceback comes before all 39 of its step lines (stdout flushed at exit), so its neighbours there say nothing of when it was raised. Ranks 0 and 1 log 'rank N failed at step 40' (stdout) and re-raise; in the console each rank's gloo traceback (stderr) is cut in two by its own 'failed at step 40' line, the two files' tails racing.",
    "--log-stream stdout --mode thread_error --culprit 2 --fail-step 40 --steps 60", captured="2026-12-02")

# ---- added in the second capture round
add("mbarrier-stall-behind-rankfiles", "dist.monitored_barrier timeout", "c",
    "(2) rank 2 stalls before logging `step 5` (last line `step 4`)",
    hang(2, "Rank 2 failed to pass monitoredBarrier in 10000 ms"), [("received errors while waiting for send/recv from rank 0", [1])],
    "rank 0 names rank 2 in its monitoredBarrier error; rank 1 points at rank 0; both errors are only in launcher.log ([rankN]: prefixed, the C++ E-lines too), the rank*.log files only have 'rank N failed at step 5'. rank2.log stops at step 4.",
    "--wait monitored_barrier --mode stall_behind --culprit 2 --fail-step 5")
add("mbarrier-short-shard-tee", "dist.monitored_barrier, peer gone", "a",
    "(4) rank 1's shard ends after 3 steps: `training finished after 3 steps`, exit 0, while 0 and 2 enter the step-4 monitored_barrier",
    hang(1, "training finished after 3 steps", category="data_error"),
    [("Rank 1 failed to pass monitoredBarrier", [0]), ("received errors while waiting for send/recv from rank 0", [2])],
    "rank 1 exited 0 after 3 steps; rank 0's monitored_barrier reports 'Rank 1 failed to pass monitoredBarrier in 10000 ms' within a second (the underlying error is Connection closed by peer), rank 2 points at rank 0. Here the monitoredBarrier line is an echo: the initiating line is rank 1's 'training finished'.",
    "--wait monitored_barrier --mode short_shard --culprit 1 --fail-step 4")
add("barrier-thread-error-workers", "gloo barrier timeout", "d",
    "(5) rank 0's prefetch thread raises OSError EIO after step 3; its main thread waits",
    hang(0, "OSError: [Errno 5] Input/output error", category="storage_io"), [(TIMEOUT, [1, 2])],
    "rank 0 (the store host) printed its own thread traceback in worker-0.log; ranks 1 and 2 logged step 4 and the barrier line and timed out in dist.barrier().",
    "--wait barrier --mode thread_error --culprit 0 --fail-step 4")
add("config-error-all-ranks-logdir", "none (startup error)", "b",
    "(6) every rank raises the same `ValueError: global_batch_size (64) ...` at startup",
    dict(rank=None, all_ranks=True, kind="all_ranks", category="config_error",
         contains="ValueError: global_batch_size (64) must be divisible by micro_batch_size * grad_accum * world_size (8 * 4 * 3)"),
    [], "the same ValueError in each local rank's stderr.log; torchrun's Root Cause is arbitrary.", "--mode config_error")

add("external-sigterm-workers", "none (killed from outside)", "d",
    "(7) healthy run under `torchrun --no-python sh worker.sh`; `kill -TERM <torchrun pid>` after 10 s",
    dict(rank=None, all_ranks=False, kind="external", category="killed_by_scheduler",
         contains="Received 15 death signal, shutting down workers"), [],
    "worker-*.log stop mid-run at step 22; launcher.log: 'Received 15 death signal, shutting down workers' and the agent's SignalException.",
    "torchrun ... --no-python sh worker.sh --steps 200 & sleep 10; kill -TERM $!")
add("allreduce-short-shard-first-step-rankfiles", "gloo all_reduce, peer gone (Connection closed by peer)", "c",
    "(4) rank 2's shard is empty: `shard has 0 batches`, `training finished after 0 steps`, exit 0 before its peers even log step 1",
    hang(2, "training finished after 0 steps", category="data_error"), [(CLOSED, [0, 1])],
    "rank 2 had nothing to train on and exited 0 right after init and the weight broadcast; ranks 0 and 1 got 'Connection closed by peer' in step 1's all_reduce (tracebacks only in launcher.log, [rankN]: prefixed). The culprit's lines are the earliest 'finished' line of the job.",
    "--mode short_shard --culprit 2 --fail-step 1")

add("store-exit-before-init-logdir", "TCPStore key wait in init_process_group (DistStoreError)", "b",
    "(4) rank 2 logs `no shards assigned to rank 2, nothing to do` and exits 0 before init_process_group",
    hang(2, "no shards assigned to rank 2, nothing to do", category="rendezvous"), [(STORE, [0, 1])],
    "rank 2 returned (exit 0) before joining the process group; ranks 0 and 1 waited 10 s for its store key and failed with 'DistStoreError: wait timeout after 10000ms, keys: /default_pg/0//cpu//0/2'; torchrun's table has no entry for rank 2's clean exit.",
    "--mode exit_before_init --culprit 2")


def truth(s):
    i = s["init"]
    return {
        "schema_version": 1,
        "status": "failed",
        "initiating": {"rank": i.get("rank"), "node": i.get("node"), "all_ranks": bool(i.get("all_ranks")), "kind": i["kind"]},
        "root_cause": {"category": i["category"], "rule_id": None},
        "first_deviating": {"contains": i.get("contains"), "rank": i.get("rank")},
        "collateral": [{"contains": c, "ranks": r} for c, r in s["collateral"]],
        "notes": s["notes"] + (EXTERNAL_NOTE if i["kind"] == "external" and i.get("node") is None else ""),
    }


# verdict schema 2: a job killed from outside is kind "external", never "all ranks alike"
EXTERNAL_NOTE = " (verdict schema 2: killed from outside is initiating.kind 'external', not 'all ranks alike')"


LAUNCH = {
    "a": "timeout 90 torchrun --standalone --nproc-per-node {n} --tee 3 train.py {args} 2>&1 | tee console.log",
    "b": "timeout 90 torchrun --standalone --nproc-per-node {n} --log-dir logs --redirects 3 train.py {args} > launcher.log 2>&1",
    "c": "timeout 90 torchrun --standalone --nproc-per-node {n} train.py --log-file 'rank%d.log' {args} > launcher.log 2>&1",
    "d": "PYTHON=/home/user/venv/bin/python timeout 90 torchrun --standalone --nproc-per-node {n} --no-python sh worker.sh {args} > launcher.log 2>&1",
}
KEY = re.compile(r"step \d+ \||Error|Timed out|failed|closed|reset|finished|still loading|Exception|monitoredBarrier|death signal|SignalException|exitcode|what\(\)")


def printed(d):
    """Per rank: its last step line and its first few notable lines, straight from the logs."""
    per = {}
    for f in sorted(d.rglob("*.log")):
        rel = str(f.relative_to(d))
        for line in f.read_text(errors="replace").splitlines():
            m = re.match(r"\[default(\d+)\]:", line) or re.search(r"\[rank(\d+)\]:", line)
            if not m:
                m = re.match(r"(?:rank|worker-)(\d+)\.log", f.name) or re.search(r"attempt_\d+/(\d+)/", rel)
            key = f"rank {m[1]}" if m else rel
            if KEY.search(line) and 'File "' not in line:
                per.setdefault(key, []).append(line.strip())
    out = []
    for key in sorted(per):
        lines = per[key]
        steps = [x for x in lines if re.search(r"step \d+ \|", x)]
        other = [x for x in lines if not re.search(r"step \d+ \|", x)]
        shown = ([steps[-1]] if steps else []) + other[:4]
        out.append(f"* {key}:" + "".join(f"\n  `{x[:200]}`" for x in shown))
    return "\n".join(out)


def readme(slug, s):
    t = truth(s)
    i = t["initiating"]
    fd = t["first_deviating"]
    col = "; ".join(f"ranks {c['ranks']}: `{c['contains']}`" for c in t["collateral"]) or "none"
    cite = (f"`{fd['contains']}`" if fd["contains"] else
            "null — the culprit printed nothing odd (its deviation is silence; not scored)")
    cmd = s["command"]
    if cmd.startswith("--") and s["layout"] in LAUNCH:
        n = 4 if "(4 processes)" in cmd else 3
        cmd = LAUNCH[s["layout"]].format(n=n, args=cmd.replace(" (4 processes)", ""))
    elif cmd.startswith("TORCH_FR_BUFFER_SIZE=2000 ... "):
        n = 2 if "(2 processes)" in cmd else 3
        args = cmd.split(" ... ", 1)[1].replace(" (2 processes)", "")
        cmd = "TORCH_FR_BUFFER_SIZE=2000 " + LAUNCH[s["layout"]].format(n=n, args=args)
    return f"""# {slug}

{s['notes']}

* **wait kind:** {s['wait']}
* **layout:** {LAYOUT[s['layout']]}
* **culprit:** {'rank ' + str(i['rank']) if i['rank'] is not None else (i['node'] or 'none')} (kind `{i['kind']}`) — {s['behaviour']}
* **root cause:** `{t['root_cause']['category']}`
* **first deviating line (truth):** {cite}
* **collateral:** {col}
* **versions:** {TORCH}, {s['captured']}

Command (in `/home/user/job/{slug}/`, torchrun = `/home/user/venv/bin/torchrun`): `{cmd}`

What each rank printed (its last step line and its first notable lines, from the logs;
launcher/table lines are under the file name):
{printed(ROOT / slug)}

Recreate: `{RUN.format(slug=slug)}` (the trainer is `_capture/hang_train.py`, copied there as `train.py`). Log files are copied unchanged.
A recapture differs in pids, ports and timestamps, and sometimes in which victims print
before torchrun's SIGTERM: check truth.json against the new logs.
"""


if __name__ == "__main__":
    for slug, s in S.items():
        d = ROOT / slug
        if not d.is_dir():
            print("missing capture:", slug)
            continue
        (d / "truth.json").write_text(json.dumps(truth(s), indent=2) + "\n")
        (d / "README.md").write_text(readme(slug, s))
        (d / ".correlatorignore").write_text("# scenario documentation, not logs\nREADME.md\ntruth.json\nfr_trace.txt\n")
    print(len(S), "scenarios")
