"""Tiny gloo DDP trainer for captures9 (x-* jobs).

Launch: under torchrun / deepspeed launcher (env RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT), or
`--spawn N` (torch.multiprocessing.spawn; MASTER_ADDR/PORT from the caller).

Logging: `--log-style plain|json`; `--log-file PATTERN` ('{rank}' filled in) adds a per-rank file handler;
`--no-stderr` keeps the rank's log lines out of stderr (file only).
Each step: forward/backward on a synthetic batch (seeded per rank and step), DDP all-reduce, an all_gather of
[loss, grad_norm] for the rank-0 summary line.

Faults (`--fault F --fault-rank R --fault-step S`):
  allgather_dtype  rank R builds its stats tensor in float64 (the others float32) at step S
  hang             rank R blocks (time.sleep(--hang-s)) before step S, after a debug line
  nan              rank R's batch at step S holds an inf; the loss check raises on the rank that sees nan
  rlimit_as        rank R sets RLIMIT_AS (--as-mb) at start; at step S every rank builds a --buf-mb feature cache
  dl_worker        DataLoader (num_workers=2) over JSON records; record --bad-index on rank R is truncated
`--labels PATTERN` ('{rank}' filled in): each rank reads a label map and rank 0 broadcasts class weights of that
length (a stale map on one rank = a broadcast size mismatch).
Checkpoint/resume (`--ckpt-dir`): each rank saves {step, model, opt} every --ckpt-every steps to
ckpt-dir/rank{R}.pt and resumes from it when present. `--attempt-store`: process group over
PrefixStore('attempt-<TORCHELASTIC_RESTART_COUNT>') on the agent's store, so a restarted attempt forms a
fresh gloo mesh.
"""
import argparse, datetime, json, logging, math, os, resource, sys, time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--spawn", type=int, default=0)
p.add_argument("--steps", type=int, default=12)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--pg-timeout", type=float, default=60)
p.add_argument("--log-style", default="plain", choices=["plain", "json"])
p.add_argument("--log-file", default="")
p.add_argument("--no-stderr", action="store_true")
p.add_argument("--fault", default="")
p.add_argument("--fault-rank", type=int, default=-1)
p.add_argument("--fault-step", type=int, default=-1)
p.add_argument("--hang-s", type=float, default=60)
p.add_argument("--as-mb", type=int, default=1200)
p.add_argument("--buf-mb", type=int, default=600)
p.add_argument("--bad-index", type=int, default=21)
p.add_argument("--data", default="")
p.add_argument("--ckpt-dir", default="")
p.add_argument("--ckpt-every", type=int, default=3)
p.add_argument("--attempt-store", action="store_true")
p.add_argument("--labels", default="")
p.add_argument("--warnings", action="store_true")
p.add_argument("--local_rank", "--local-rank", type=int, default=0)
args = p.parse_args()


class JsonFormatter(logging.Formatter):
    def __init__(self, rank):
        super().__init__()
        self.rank = rank

    def format(self, r):
        d = {"ts": datetime.datetime.fromtimestamp(r.created, datetime.timezone.utc).isoformat(timespec="milliseconds"),
             "level": r.levelname, "logger": r.name, "rank": self.rank, "pid": r.process, "msg": r.getMessage()}
        if r.exc_info:
            d["exc"] = self.formatException(r.exc_info)
        return json.dumps(d)


def setup_log(rank):
    log = logging.getLogger("train")
    log.setLevel(logging.INFO)
    log.propagate = False
    if args.log_style == "json":
        fmt = JsonFormatter(rank)
    else:
        fmt = logging.Formatter(f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
    hs = []
    if not args.no_stderr:
        hs.append(logging.StreamHandler(sys.stderr))
    if args.log_file:
        fn = args.log_file.format(rank=rank)
        os.makedirs(os.path.dirname(fn) or ".", exist_ok=True)
        hs.append(logging.FileHandler(fn))
    for h in hs:
        h.setFormatter(fmt)
        log.addHandler(h)
    return log


class JsonRecords(torch.utils.data.Dataset):
    def __init__(self, path):
        self.path = path
        self.n = sum(1 for _ in open(path))

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        with open(self.path) as f:
            for j, line in enumerate(f):
                if j == i:
                    rec = json.loads(line)
                    return torch.tensor(rec["x"], dtype=torch.float32), rec["y"]
        raise IndexError(i)


def main(rank=None, world=None):
    spawned = rank is not None
    if not spawned:
        rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    log = setup_log(rank)
    restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    if args.fault == "rlimit_as" and rank == args.fault_rank:
        lim = args.as_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    log.info("starting: world_size=%d pid=%d host=%s restart=%d", world, os.getpid(), os.uname().nodename, restart)
    timeout = datetime.timedelta(seconds=args.pg_timeout)
    if args.attempt_store:
        base = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), is_master=False,
                             timeout=timeout)
        store = dist.PrefixStore(f"attempt-{restart}", base)
        dist.init_process_group("gloo", store=store, rank=rank, world_size=world, timeout=timeout)
    elif spawned:
        dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timeout)
    else:
        dist.init_process_group("gloo", timeout=timeout)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    start = 1
    ck = os.path.join(args.ckpt_dir, f"rank{rank}.pt") if args.ckpt_dir else ""
    if ck and os.path.exists(ck):
        st = torch.load(ck)
        model.module.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        start = st["step"] + 1
        log.info("resumed from %s at step %d", ck, start)
    if args.warnings and rank == 0:
        import warnings
        warnings.warn("torch.cpu.amp.autocast(args...) is deprecated. Please use torch.amp.autocast('cpu', args...) instead.",
                      FutureWarning)
    if args.labels:
        # every rank reads the label map from its node-local cache and rank 0's class weights are broadcast
        with open(args.labels.format(rank=rank)) as f:
            labels = [l.strip() for l in f if l.strip()]
        log.info("loaded label map %s: %d classes", args.labels.format(rank=rank), len(labels))
        cw = torch.ones(len(labels)) if rank else torch.linspace(0.5, 1.5, len(labels))
        dist.broadcast(cw, 0)
        log.info("class weights synced from rank 0")
    loader = None
    if args.fault == "dl_worker" or args.data:
        ds = JsonRecords(os.path.join(args.data, f"shard-{rank}.jsonl"))
        loader = iter(torch.utils.data.DataLoader(ds, batch_size=8, num_workers=2))
    buf = None
    for step in range(start, args.steps + 1):
        if args.fault == "hang" and rank == args.fault_rank and step == args.fault_step:
            log.info("step %d: refreshing tokenizer cache from shared fs", step)
            time.sleep(args.hang_s)
        if args.fault == "rlimit_as" and step == args.fault_step:
            log.info("step %d: building feature cache (%d MiB)", step, args.buf_mb)
            buf = bytearray(args.buf_mb * 1024 * 1024)
        if loader is not None:
            x, y = next(loader)
            y = y % 4
        else:
            g = torch.Generator().manual_seed(1000 * rank + step)
            x = torch.randn(8, 16, generator=g)
            y = torch.randint(0, 4, (8,), generator=g)
        if args.fault == "nan" and rank == args.fault_rank and step == args.fault_step:
            x[3, 5] = float("inf")
        loss = F.cross_entropy(model(x), y)
        if not math.isfinite(loss.item()):
            raise FloatingPointError(f"non-finite loss {loss.item()} at step {step} (rank {rank})")
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        dt = torch.float64 if (args.fault == "allgather_dtype" and rank == args.fault_rank and step == args.fault_step) \
            else torch.float32
        stats = torch.tensor([loss.item(), gn.item()], dtype=dt)
        out = [torch.zeros(2) for _ in range(world)]
        dist.all_gather(out, stats)
        if rank == 0:
            m = torch.stack(out).mean(0)
            log.info("step %d/%d loss %.4f grad_norm %.3f", step, args.steps, m[0].item(), m[1].item())
        else:
            log.info("step %d/%d local loss %.4f", step, args.steps, loss.item())
        if ck and step % args.ckpt_every == 0:
            os.makedirs(args.ckpt_dir, exist_ok=True)
            torch.save({"step": step, "model": model.module.state_dict(), "opt": opt.state_dict()}, ck)
            log.info("saved checkpoint %s (step %d)", ck, step)
        time.sleep(args.sleep)
    dist.barrier()
    log.info("training done")
    dist.destroy_process_group()


def _spawned(i, n):
    main(i, n)


if __name__ == "__main__":
    if args.spawn:
        import torch.multiprocessing as mp
        mp.spawn(_spawned, args=(args.spawn,), nprocs=args.spawn)
    else:
        main()
