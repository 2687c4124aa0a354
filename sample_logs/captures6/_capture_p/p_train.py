"""Tiny gloo DDP trainer for the captures6 p-* incidents (torchrun / torch.distributed.run,
legacy torch.distributed.launch, mpirun, several torchrun agents as nodes).

Rank: RANK (torchrun, launch) or OMPI_COMM_WORLD_RANK (mpirun); MASTER_ADDR/PORT from the env.
Logging (--log-format):
  plain -> '%(asctime)s | %(levelname)-7s | rank N | %(message)s'
  json  -> one JSON object per line: ts, level, rank, logger, msg (+ exc with the traceback)
  pid   -> '%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s' (no rank in the line)
  --log-dir D: each rank also writes D/rank{N}.log (FileHandler); the console keeps stderr.
  Uncaught exceptions are logged (CRITICAL, with traceback) and then printed by Python as usual.
Data: --shard-dir D reads D/rank{R}/batch-{step:04d}.csv (8 lines of 16 floats and a label).
--state-dir D: resumes the eval state D/rank{R}.json (best_val) and compares against it.
Faults (--fault on --fault-rank at --fault-step): hang (silent sleep before the step's batch), retry_ok (a fetch that
  raises ConnectionResetError once and is retried). --warnings: torch UserWarnings (tensor copy-construct,
  DataLoader workers > cores, lr_scheduler.step() before optimizer.step() at step 1).
Other knobs: --watchdog S (faulthandler.dump_traceback_later re-armed every step, into the rank's
  log file), --ckpt-dir/--ckpt-step (local rank 0 of every node saves a node-local checkpoint),
  --world-size (override passed to init_process_group), --local-rank (legacy launcher argument),
  --attempt-store (process group on a PrefixStore 'attempt-<TORCHELASTIC_RESTART_COUNT>' over the
  agent's store, so that a torchrun restart does not read the previous attempt's gloo addresses).
"""
import argparse, datetime, faulthandler, json, logging, os, sys, time, warnings

import torch
import torch.distributed as dist
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--local-rank", "--local_rank", type=int, default=None)
p.add_argument("--steps", type=int, default=12)
p.add_argument("--sleep", type=float, default=0.2)
p.add_argument("--pg-timeout", type=float, default=30.0)
p.add_argument("--world-size", type=int, default=None)
p.add_argument("--log-format", default="plain", choices=["plain", "json", "pid"])
p.add_argument("--log-dir", default=None)
p.add_argument("--shard-dir", default=None)
p.add_argument("--state-dir", default=None)
p.add_argument("--ckpt-dir", default=None)
p.add_argument("--ckpt-step", type=int, default=6)
p.add_argument("--watchdog", type=float, default=0)
p.add_argument("--eval-every", type=int, default=3)
p.add_argument("--fault", default="none")
p.add_argument("--fault-rank", type=int, default=1)
p.add_argument("--fault-step", type=int, default=5)
p.add_argument("--warnings", action="store_true")
p.add_argument("--attempt-store", action="store_true")
args = p.parse_args()

env = os.environ
rank = int(env.get("RANK", env.get("OMPI_COMM_WORLD_RANK", "0")))
local_rank = int(env.get("LOCAL_RANK", env.get("OMPI_COMM_WORLD_LOCAL_RANK", args.local_rank or 0)))
world_env = int(env.get("WORLD_SIZE", env.get("OMPI_COMM_WORLD_SIZE", "1")))


class JsonFormatter(logging.Formatter):
    def format(self, r):
        d = {"ts": datetime.datetime.fromtimestamp(r.created).isoformat(timespec="milliseconds"),
             "level": r.levelname, "rank": rank, "logger": r.name, "msg": r.getMessage()}
        if r.exc_info:
            d["exc"] = self.formatException(r.exc_info)
        return json.dumps(d)


log = logging.getLogger("trainer")
log.setLevel(logging.INFO)
if args.log_format == "json":
    fmt = JsonFormatter()
elif args.log_format == "pid":
    fmt = logging.Formatter("%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s")
else:
    fmt = logging.Formatter(f"%(asctime)s | %(levelname)-7s | rank {rank} | %(message)s")
h = logging.StreamHandler(sys.stderr); h.setFormatter(fmt); log.addHandler(h)
fh = None
if args.log_dir:
    os.makedirs(args.log_dir, exist_ok=True)
    fh = logging.FileHandler(os.path.join(args.log_dir, f"rank{rank}.log")); fh.setFormatter(fmt); log.addHandler(fh)


def _hook(t, v, tb):
    log.critical("unhandled exception, exiting", exc_info=(t, v, tb))
    sys.__excepthook__(t, v, tb)


sys.excepthook = _hook

log.info("starting: rank=%d local_rank=%d world_size(env)=%d restart_count=%s host=%s pid=%d",
         rank, local_rank, world_env, env.get("TORCHELASTIC_RESTART_COUNT", "-"), os.uname().nodename, os.getpid())
kw = {}
if args.world_size is not None:
    kw = dict(init_method="env://", world_size=args.world_size, rank=rank)
if args.attempt_store:
    # a fresh key prefix per torchrun attempt: the agent's store keeps attempt 0's gloo addresses
    attempt = env.get("TORCHELASTIC_RESTART_COUNT", "0")
    base = dist.TCPStore(env["MASTER_ADDR"], int(env["MASTER_PORT"]), world_env, is_master=False,
                         timeout=datetime.timedelta(seconds=args.pg_timeout))
    kw = dict(store=dist.PrefixStore(f"attempt-{attempt}", base), rank=rank, world_size=world_env)
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout), **kw)
world = dist.get_world_size()
log.info("process group ready: world_size=%d backend=%s", world, dist.get_backend())

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
model = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=4, gamma=0.5)

best_val = None
if args.state_dir:
    path = os.path.join(args.state_dir, f"rank{rank}.json")
    prev = json.load(open(path))
    best_val = prev.get("best_val")
    log.info("resumed eval state from %s (keys: %s)", path, ",".join(sorted(prev)))

if args.warnings:
    x0 = torch.randn(4, 16)
    _ = torch.tensor(x0)  # UserWarning: To copy construct from a tensor ...
    ds = torch.utils.data.TensorDataset(torch.randn(32, 16))
    next(iter(torch.utils.data.DataLoader(ds, batch_size=8, num_workers=3)))  # more workers than cores


def read_batch(step):
    path = os.path.join(args.shard_dir, f"rank{rank}", f"batch-{step:04d}.csv")
    xs, ys = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            v = line.strip().split(",")
            xs.append([float(a) for a in v[:16]]); ys.append(int(v[16]))
    return torch.tensor(xs), torch.tensor(ys)


def fetch_remote_batch(step):
    # stands for a read from a remote object store that never returns
    time.sleep(3600)


def _fetch(step, attempt):
    if attempt == 1:
        raise ConnectionResetError(104, "Connection reset by peer")
    return torch.randn(8, 16)


def fetch_with_retry(step, tries=3):
    for attempt in range(1, tries + 1):
        try:
            return _fetch(step, attempt)
        except ConnectionResetError:
            log.warning("fetch of augmentation batch %d failed (attempt %d/%d), retrying in 0.5s", step, attempt, tries, exc_info=True)
            time.sleep(0.5)


wd_file = fh.stream if fh is not None else sys.stderr
g = torch.Generator().manual_seed(100 + rank)
for step in range(1, args.steps + 1):
    if args.watchdog:
        faulthandler.cancel_dump_traceback_later()
        faulthandler.dump_traceback_later(args.watchdog, repeat=False, file=wd_file)
    fault_now = step == args.fault_step and rank == args.fault_rank
    if args.warnings and step == 1:
        sched.step()  # before opt.step(): torch's lr_scheduler UserWarning
    if fault_now and args.fault == "hang":
        fetch_remote_batch(step)
    if args.shard_dir:
        x, y = read_batch(step)
    else:
        x = torch.randn(8, 16, generator=g)
        y = torch.randint(0, 4, (8,), generator=g)
    if fault_now and args.fault == "retry_ok":
        x = x + 0.01 * fetch_with_retry(step)
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if not args.warnings or step > 1:
        sched.step()
    lt = loss.detach().clone()
    dist.all_reduce(lt)
    if rank == 0:
        log.info("step %d/%d loss %.4f lr %.4f", step, args.steps, lt.item() / world, sched.get_last_lr()[0])
    if step % args.eval_every == 0:
        val = float(lt.item() / world) * 1.01
        if args.state_dir:
            improved = val < best_val  # best_val came from the resumed state file
        else:
            improved = best_val is None or val < best_val
        if improved:
            best_val = val
        log.info("eval step %d val_loss %.4f best %.4f", step, val, best_val)
    if args.ckpt_dir and step == args.ckpt_step and local_rank == 0:
        os.makedirs(args.ckpt_dir, exist_ok=True)
        path = os.path.join(args.ckpt_dir, f"step-{step:05d}.pt")
        log.info("saving node-local checkpoint %s", path)
        torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, path)
    time.sleep(args.sleep)

if args.watchdog:
    faulthandler.cancel_dump_traceback_later()
dist.barrier()
log.info("training done")
dist.destroy_process_group()
