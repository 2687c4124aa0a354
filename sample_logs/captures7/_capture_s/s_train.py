"""Tiny gloo trainer for the captures7 s-* incidents.

Launch: torchrun / any launcher that sets RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT (env://), or
`--spawn N` (torch.multiprocessing.spawn, MASTER_ADDR/PORT from the env).

Model wrapping (--wrap): ddp (DistributedDataParallel), fsdp (FSDP2 fully_shard, CPU gloo),
manual (plain module, gradients all-reduced by hand: works with TORCH_DISTRIBUTED_DEBUG=DETAIL).
Hidden width: --hidden, default from the env TRAIN_HIDDEN_DIM (32).

Logging (--log-style):
  plain   '%(asctime)s %(levelname)s [rank N] %(message)s'   (stderr)
  loguru  loguru's default format, stderr + --log-file (per rank, {rank} in the path)
  rich    rich.logging.RichHandler (its own '[%x %X]' time column, wrapped at 100 columns)
  custom  '%(asctime)s.%(msecs)03d|%(processName)s|r{rank}|%(levelname).1s| %(message)s' (%H:%M:%S), --log-file only
  reltime '%(relativeCreated)9.0fms %(levelname)-5s rank{rank} %(message)s', --log-file + stdout
  tqdm    no log lines: a tqdm bar per rank (position=rank) with loss in the postfix
--faulthandler: faulthandler.enable() into the rank's log file (or stderr).

Faults (--fault on --fault-rank at --fault-step):
  segv        a call into a 'native extension' (ctypes) dereferences NULL: SIGSEGV
  straggler   logs a slow-fetch warning and sleeps --straggle-s before the step's batch
  alloc       at --fault-step every rank reserves an activation arena of --arena-gb GiB (torch.empty,
              virtual only); the fault rank's wrapper (rank_limits.sh) has a lower address-space limit
  tail_stats  the last rank's progress bar shows the mean of the last 4 losses with .item() on a
              4-element tensor (a code bug on that rank only)
  (line numbers of this file are those in the captured tracebacks: edit lines in place only)
Checkpoints: --dcp-save DIR / --dcp-load DIR (torch.distributed.checkpoint, FSDP state dict);
  --shard-save DIR / --shard-load DIR (one torch.save file per rank of its local shards, shard-rank{r}.pt).
--monitored-barrier S: a monitored_barrier (gloo) after setup and before the end.
--warnings: harmless but alarming output (caught+retried error with traceback, skipped
  non-finite batch warning, torch UserWarnings).
--beta2: AdamW beta2 (config value).
"""
import argparse, datetime, faulthandler, logging, os, sys, time, warnings

import torch
import torch.distributed as dist
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--spawn", type=int, default=0)
p.add_argument("--steps", type=int, default=12)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--pg-timeout", type=float, default=30.0)
p.add_argument("--wrap", default="ddp", choices=["ddp", "fsdp", "manual"])
p.add_argument("--hidden", type=int, default=int(os.environ.get("TRAIN_HIDDEN_DIM", "32")))
p.add_argument("--optim", default="sgd", choices=["sgd", "adamw"])
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--beta2", type=float, default=0.999)
p.add_argument("--log-style", default="plain", choices=["plain", "loguru", "rich", "custom", "reltime", "tqdm"])
p.add_argument("--log-file", default=None)
p.add_argument("--faulthandler", action="store_true")
p.add_argument("--shard-dir", default=None)
p.add_argument("--dcp-save", default=None)
p.add_argument("--dcp-load", default=None)
p.add_argument("--shard-save", default=None)
p.add_argument("--shard-load", default=None)
p.add_argument("--monitored-barrier", type=float, default=0)
p.add_argument("--warnings", action="store_true")
p.add_argument("--fault", default="none")
p.add_argument("--fault-rank", type=int, default=1)
p.add_argument("--fault-step", type=int, default=5)
p.add_argument("--straggle-s", type=float, default=45)
p.add_argument("--arena-gb", type=float, default=1.5)
args = p.parse_args()


class Log:
    """info/warning/error/exception over the chosen style."""

    def __init__(self, rank, world):
        self.rank, self.world, self.style = rank, world, args.log_style
        self.fh_stream = None
        path = args.log_file.format(rank=rank) if args.log_file else None
        if path:
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        if self.style == "loguru":
            from loguru import logger
            logger.remove()
            logger.add(sys.stderr, level="INFO")
            if path:
                logger.add(path, level="INFO")
            self.lg = logger.opt(depth=1)
        elif self.style == "tqdm":
            self.lg = None
        else:
            lg = logging.getLogger(f"train.r{rank}")
            lg.setLevel(logging.INFO)
            lg.propagate = False
            if self.style == "rich":
                from rich.console import Console
                from rich.logging import RichHandler
                h = RichHandler(console=Console(file=sys.stderr, width=100), rich_tracebacks=False)
                h.setFormatter(logging.Formatter(f"[rank{rank}] %(message)s"))
                lg.addHandler(h)
            elif self.style == "custom":
                f = logging.Formatter(f"%(asctime)s.%(msecs)03d|%(processName)s|r{rank}|%(levelname).1s| %(message)s",
                                      datefmt="%H:%M:%S")
                h = logging.FileHandler(path)
                h.setFormatter(f)
                lg.addHandler(h)
                self.fh_stream = h.stream
            elif self.style == "reltime":
                f = logging.Formatter(f"%(relativeCreated)9.0fms %(levelname)-5s rank{rank} %(message)s")
                for h in (logging.StreamHandler(sys.stdout), logging.FileHandler(path)):
                    h.setFormatter(f)
                    lg.addHandler(h)
            else:
                f = logging.Formatter(f"%(asctime)s %(levelname)s [rank {rank}] %(message)s")
                h = logging.StreamHandler(sys.stderr)
                h.setFormatter(f)
                lg.addHandler(h)
                if path:
                    h = logging.FileHandler(path)
                    h.setFormatter(f)
                    lg.addHandler(h)
            self.lg = lg

    def info(self, msg, *a):
        if self.lg is not None:
            self.lg.info(msg % a if a else msg) if self.style == "loguru" else self.lg.info(msg, *a, stacklevel=2)

    def warning(self, msg, *a):
        if self.lg is not None:
            self.lg.warning(msg % a if a else msg) if self.style == "loguru" else self.lg.warning(msg, *a, stacklevel=2)

    def exception(self, msg, *a):
        if self.lg is not None:
            self.lg.exception(msg % a if a else msg) if self.style == "loguru" else self.lg.exception(msg, *a, stacklevel=2)


def fused_layernorm_ext(x):
    """stand-in for a custom C++ op of the project ('fused_ops.so'): this call dereferences NULL."""
    import ctypes
    ctypes.string_at(0)
    return x


def load_batch(rank, step, g):
    if args.shard_dir:
        path = os.path.join(args.shard_dir, f"rank{rank}", f"batch-{step:04d}.pt")
        d = torch.load(path)
        return d["x"], d["y"]
    return torch.randn(8, 16, generator=g), torch.randint(0, 4, (8,), generator=g)


def worker(rank, world):
    log = Log(rank, world)
    if args.faulthandler:
        faulthandler.enable(file=log.fh_stream or sys.stderr)
    log.info("starting: rank=%d world_size=%d host=%s pid=%d hidden=%d", rank, world, os.uname().nodename,
             os.getpid(), args.hidden)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout), rank=rank, world_size=world)
    log.info("process group ready: backend=%s world_size=%d", dist.get_backend(), dist.get_world_size())
    if args.monitored_barrier:
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=args.monitored_barrier), wait_all_ranks=True)
        log.info("monitored_barrier passed (setup)")

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 4))
    if args.wrap == "ddp":
        model = nn.parallel.DistributedDataParallel(model)
    elif args.wrap == "fsdp":
        from torch.distributed.fsdp import fully_shard
        for m in model:
            if isinstance(m, nn.Linear):
                fully_shard(m)
        fully_shard(model)
    else:
        for prm in model.parameters():
            dist.broadcast(prm.data, 0)
    if args.optim == "adamw":
        opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, args.beta2), weight_decay=0.01)
    else:
        opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    log.info("model: %d parameters (local), wrap=%s, optimizer=%s", sum(p.numel() for p in model.parameters()),
             args.wrap, type(opt).__name__)

    start = 1
    if args.dcp_load:
        import torch.distributed.checkpoint as dcp
        from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
        msd, osd = get_state_dict(model, opt)
        state = {"model": msd, "optim": osd}
        log.info("resuming from %s", args.dcp_load)
        dcp.load(state, checkpoint_id=args.dcp_load)
        set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])
        start = int(open(os.path.join(args.dcp_load, "step.txt")).read()) + 1
        log.info("resumed at step %d", start)

    if args.shard_load:
        path = os.path.join(args.shard_load, f"shard-rank{rank}.pt")
        log.info("resuming from %s", path)
        ck = torch.load(path)
        for k, v in model.state_dict().items():
            v.to_local().copy_(ck["model"][k]) if hasattr(v, "to_local") else v.copy_(ck["model"][k])
        start = ck["step"] + 1
        log.info("resumed at step %d", start)

    if args.warnings:
        _ = torch.tensor(torch.randn(2, 2))  # UserWarning: To copy construct from a tensor ...
        warnings.warn("grad-norm clipping disabled for step 1 (warmup); this is expected", RuntimeWarning)

    arena = None

    g = torch.Generator().manual_seed(1000 + rank)
    bar = None
    if args.log_style == "tqdm":
        from tqdm import tqdm
        bar = tqdm(total=args.steps, desc=f"rank {rank}", position=rank, initial=start - 1, dynamic_ncols=False,
                   ncols=90, mininterval=0)
    losses = []
    lossf = nn.CrossEntropyLoss()
    end = args.steps
    for step in range(start, end + 1):
        if args.fault == "straggler" and rank == args.fault_rank and step == args.fault_step:
            log.warning("shard fetch for step %d is slow (object store: 503 SlowDown), retry 1/3 in %.0fs", step,
                        args.straggle_s)
            time.sleep(args.straggle_s)
        if args.warnings and rank == 1 and step == 4:
            for attempt in (1, 2):
                try:
                    if attempt == 1:
                        raise ConnectionResetError(104, "Connection reset by peer")
                    log.info("metrics push ok (attempt %d)", attempt)
                except ConnectionResetError:
                    log.exception("metrics push to tracking server failed (attempt %d/3), retrying", attempt)
        if args.fault == "alloc" and step == args.fault_step:
            log.info("step %d: long-sequence phase, reserving activation arena: %.1f GiB", step, args.arena_gb)
            arena = torch.empty(int(args.arena_gb * (1 << 30)) // 4, dtype=torch.float32)
            log.info("activation arena ready (%d elements)", arena.numel())
        x, y = load_batch(rank, step, g)
        if args.warnings and rank == 0 and step == 6:
            log.warning("batch %d: 1 non-finite value in auxiliary metric 'ppl_est' (nan), metric skipped; "
                        "loss unaffected", step)
        if args.fault == "segv" and rank == args.fault_rank and step == args.fault_step:
            log.info("step %d: switching to fused layernorm kernel (seq len 16 > threshold)", step)
            x = fused_layernorm_ext(x)
        out = model(x)
        loss = lossf(out, y)
        loss.backward()
        if args.wrap == "manual":
            for prm in model.parameters():
                dist.all_reduce(prm.grad)
                prm.grad /= world
        opt.step()
        opt.zero_grad()
        losses.append(loss.item())
        if bar is not None:
            post = {"loss": f"{loss.item():.4f}"}
            if args.fault == "tail_stats" and rank == world - 1 and step >= args.fault_step:
                post["tail"] = f"{torch.tensor(losses[-4:]).item():.4f}"
            bar.set_postfix(post)
            bar.update(1)
        else:
            log.info("step %d/%d loss %.4f", step, end, loss.item())
        time.sleep(args.sleep)
        if args.dcp_save and step == end:
            import torch.distributed.checkpoint as dcp
            from torch.distributed.checkpoint.state_dict import get_state_dict
            msd, osd = get_state_dict(model, opt)
            dcp.save({"model": msd, "optim": osd}, checkpoint_id=args.dcp_save)
            if rank == 0:
                open(os.path.join(args.dcp_save, "step.txt"), "w").write(str(step))
            log.info("saved distributed checkpoint to %s (step %d)", args.dcp_save, step)
        if args.shard_save and step == end:
            os.makedirs(args.shard_save, exist_ok=True)
            sd = {k: (v.to_local() if hasattr(v, "to_local") else v) for k, v in model.state_dict().items()}
            torch.save({"model": sd, "step": step}, os.path.join(args.shard_save, f"shard-rank{rank}.pt"))
            log.info("saved shard %s/shard-rank%d.pt (step %d)", args.shard_save, rank, step)
    if bar is not None:
        bar.close()
    if args.monitored_barrier:
        dist.monitored_barrier(timeout=datetime.timedelta(seconds=args.monitored_barrier), wait_all_ranks=True)
        log.info("monitored_barrier passed (end)")
    dist.barrier()
    log.info("training done: %d steps, final loss %.4f", end - start + 1, losses[-1])
    dist.destroy_process_group()


def spawn_entry(rank, world):
    worker(rank, world)


if __name__ == "__main__":
    if args.spawn:
        import torch.multiprocessing as mp
        mp.spawn(spawn_entry, args=(args.spawn,), nprocs=args.spawn, join=True)
    else:
        worker(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
