"""Compact gloo/CPU trainer for the hang captures of sample_logs/hangs/.

Each step: synthetic batch -> tiny MLP -> loss, a per-rank log line
("step K | rank R | loss ...") written BEFORE the step's collective, then the
collective (all_reduce of the gradients, by hand).  On --fail-step the ranks
sync with --wait (allreduce | barrier | monitored_barrier) and the culprit rank
(--culprit) misbehaves with --mode:

  stall_same    logs step K like its peers, then stalls before the collective
  stall_behind  stalls before logging step K (its last line is step K-1)
  busy          logs step K, then prints "still loading ..." every second
  short_shard   its shard ends after K-1 steps: logs "training finished", exits 0
  thread_error  its prefetch thread raises (traceback), the main thread waits
  late_init     sleeps (printing "still preparing ...") before init_process_group
  never_init    stalls silently before init_process_group (exit_before_init: logs, exits 0)
  config_error  every rank raises the same ValueError at startup
  sigkill       SIGKILLs itself at step K (prints nothing)
  mismatch_gather  calls all_gather where peers call all_reduce
  mismatch_size    all_reduces a tensor of another size
  uneven_batch     every rank all_gathers its per-sample predictions at step K; the
                   culprit's batch there is longer (a shard split unevenly)
  none          healthy (for external kills)

--log-file FMT: log through Python logging (asctime) into FMT % rank instead of stderr.
--log-stream stdout: log to stdout (tracebacks stay on stderr: two streams to split).
--fr-dir DIR: write torch's Flight Recorder dump (needs TORCH_FR_BUFFER_SIZE) to
DIR/rank_<R> when a collective raises, on SIGTERM, or after the culprit's stall.
"""
import argparse
import logging
import os
import queue
import signal
import sys
import threading
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.nn as nn

log = logging.getLogger("trainer")


def dump_fr(args, rank, why):
    if not args.fr_dir:
        return
    os.makedirs(args.fr_dir, exist_ok=True)
    path = os.path.join(args.fr_dir, f"rank_{rank}")
    if os.path.exists(path):
        return
    data = torch._C._distributed_c10d._dump_fr_trace()
    with open(path, "wb") as f:
        f.write(data)
    log.info("flight recorder dump written to %s (%s, %d bytes)", path, why, len(data))


def stall(args, rank, busy=False, what="shard"):
    t0 = time.time()
    while time.time() - t0 < args.stall:
        time.sleep(1.0)
        if busy:
            log.info("still loading %s %d/64 ... (%.0f s)", what, int(time.time() - t0), time.time() - t0)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--timeout", type=float, default=10.0)
    p.add_argument("--wait", choices=["allreduce", "barrier", "monitored_barrier"], default="allreduce")
    p.add_argument("--mode", default="none")
    p.add_argument("--culprit", type=int, default=-1)
    p.add_argument("--fail-step", type=int, default=5)
    p.add_argument("--stall", type=float, default=40.0)
    p.add_argument("--step-time", type=float, default=0.2)
    p.add_argument("--log-file", default=None)
    p.add_argument("--log-stream", choices=["stderr", "stdout"], default="stderr")
    p.add_argument("--fr-dir", default=None)
    args = p.parse_args()

    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    culprit = rank == args.culprit
    handlers = ([logging.FileHandler(args.log_file % rank)] if args.log_file
                else [logging.StreamHandler(getattr(sys, args.log_stream))])
    logging.basicConfig(level=logging.INFO, handlers=handlers,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    def on_term(signum, frame):
        dump_fr(args, rank, "SIGTERM")
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    if args.fr_dir:
        signal.signal(signal.SIGTERM, on_term)

    log.info("starting: world_size=%d pid=%d host=%s", world, os.getpid(), os.uname().nodename)
    if args.mode == "config_error":
        micro, accum, global_bs = 8, 4, 64
        log.info("global_batch_size=%d micro_batch_size=%d grad_accum=%d", global_bs, micro, accum)
        if global_bs % (micro * accum * world):
            raise ValueError(f"global_batch_size ({global_bs}) must be divisible by micro_batch_size * "
                             f"grad_accum * world_size ({micro} * {accum} * {world})")
    if culprit and args.mode == "late_init":
        log.info("preparing dataset index before joining the process group")
        stall(args, rank, busy=True, what="index shard")
    if culprit and args.mode in ("never_init", "exit_before_init"):
        stall(args, rank) if args.mode == "never_init" else sys.exit(log.info("no shards assigned to rank %d, nothing to do", rank))
    dist.init_process_group("gloo", timeout=timedelta(seconds=args.timeout))
    log.info("process group ready (backend=%s, rank %d of %d)", dist.get_backend(), rank, world)
    if rank == 0:
        log.info("torch %s python %s", torch.__version__, sys.version.split()[0])

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    for prm in model.parameters():
        dist.broadcast(prm.data, src=0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    steps = args.steps
    if culprit and args.mode == "short_shard":
        steps = args.fail_step - 1
        log.info("shard has %d batches for this rank (others: %d)", steps, args.steps)

    prefetch_q = None
    if culprit and args.mode == "thread_error":
        prefetch_q = queue.Queue()

        def prefetch():
            for k in range(1, args.steps + 1):
                if k == args.fail_step:
                    raise OSError(f"[Errno 5] Input/output error: '/data/shards/train-{rank:05d}.bin' (prefetch of batch {k})")
                prefetch_q.put(k)

        threading.Thread(target=prefetch, name="prefetch", daemon=True).start()

    try:
        for step in range(1, steps + 1):
            mine = culprit and step == args.fail_step
            if prefetch_q is not None:
                prefetch_q.get(timeout=args.stall)
            if mine and args.mode == "stall_behind":
                stall(args, rank)
            if mine and args.mode == "sigkill":
                os.kill(os.getpid(), signal.SIGKILL)
            x = torch.randn(10 if mine and args.mode == "uneven_batch" else 8, 16, generator=g)
            y = x.sum(dim=1, keepdim=True)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            time.sleep(args.step_time)
            log.info("step %d | rank %d | loss %.4f", step, rank, loss.item())
            if mine and args.mode in ("stall_same", "busy"):
                if args.fr_dir:
                    threading.Timer(args.timeout - 2, dump_fr, (args, rank, "stalled")).start()
                stall(args, rank, busy=args.mode == "busy")
            if step == args.fail_step and args.wait == "barrier":
                log.info("step %d: barrier before checkpoint", step)
                dist.barrier()
            elif step == args.fail_step and args.wait == "monitored_barrier":
                log.info("step %d: monitored_barrier before checkpoint", step)
                dist.monitored_barrier(timeout=timedelta(seconds=args.timeout))
            if step == args.fail_step and args.mode == "uneven_batch":
                preds = model(x).detach()
                out = [torch.zeros_like(preds) for _ in range(world)]
                dist.all_gather(out, preds)  # per-sample predictions for a metric
            for prm in model.parameters():
                if mine and args.mode == "mismatch_gather":
                    out = [torch.zeros_like(prm.grad) for _ in range(world)]
                    dist.all_gather(out, prm.grad)
                elif mine and args.mode == "mismatch_size":
                    dist.all_reduce(torch.cat([prm.grad.flatten(), torch.zeros(3)]))
                else:
                    dist.all_reduce(prm.grad)
                prm.grad /= world
            opt.step()
    except Exception as exc:
        log.error("rank %d failed at step %d: %s", rank, step, type(exc).__name__)
        dump_fr(args, rank, "exception")
        raise
    log.info("training finished after %d steps", steps)
    dump_fr(args, rank, "finished")
    if not (culprit and args.mode == "short_shard"):
        dist.barrier()
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
