#!/usr/bin/env python3
"""mc_mp_queue.py WORLD: a home-grown launcher: plain multiprocessing (spawn context) Process per rank named
"rank-<r>", env:// style rendezvous on 127.0.0.1:29593 passed as arguments; all ranks log through a
logging.handlers.QueueHandler to a QueueListener in the launcher, which writes train.log
(`%(asctime)s | %(processName)-8s | %(levelname)-7s | %(name)s | %(message)s`). Uncaught exceptions in a rank are
printed by multiprocessing itself on that process's stderr (console.log). The launcher logs each rank's exit code.
Incremental training: each rank first checks its shard manifest (data/manifest-<r>.json) for records newer than the
last trained step; with none, it logs that there is nothing to do and exits 0 (per-rank decision)."""
import datetime, json, logging, logging.handlers, multiprocessing as mp, os, sys, time


def rank_main(rank, world, q):
    h = logging.handlers.QueueHandler(q)
    root = logging.getLogger(); root.handlers[:] = [h]; root.setLevel(logging.INFO)
    log = logging.getLogger("incr_train")
    import torch, torch.distributed as dist, torch.nn as nn, torch.nn.functional as F
    from torch.nn.parallel import DistributedDataParallel as DDP
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29593", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=40))
    log.info("joined process group: rank %d/%d pid %d", rank, world, os.getpid())
    man = json.load(open(f"data/manifest-{rank}.json"))
    new = [p for p in man["parts"] if p["step"] > man["last_trained_step"]]
    log.info("shard %d manifest: %d parts, %d newer than last trained step %d", rank, len(man["parts"]), len(new),
             man["last_trained_step"])
    if not new:
        log.info("no new records for shard %d since step %d: nothing to train, exiting", rank,
                 man["last_trained_step"])
        sys.exit(0)
    n = sum(p["rows"] for p in new)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(rank)
    w = torch.randn(16, 4, generator=torch.Generator().manual_seed(3))
    steps = n // 32
    log.info("training on %d new rows (%d steps)", n, steps)
    for s in range(1, steps + 1):
        x = torch.randn(32, 16, generator=g)
        loss = F.cross_entropy(model(x), (x @ w).argmax(1))
        opt.zero_grad(); loss.backward(); opt.step()
        if s % 5 == 0:
            log.info("step %d/%d loss %.4f", s, steps, loss.item())
        time.sleep(0.1)
    dist.barrier()
    log.info("incremental update done")


if __name__ == "__main__":
    world = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    fh = logging.FileHandler("train.log")
    fh.setFormatter(logging.Formatter("%(asctime)s | %(processName)-8s | %(levelname)-7s | %(name)s | %(message)s"))
    lis = logging.handlers.QueueListener(q, fh, respect_handler_level=False); lis.start()
    root = logging.getLogger(); root.handlers[:] = [logging.handlers.QueueHandler(q)]; root.setLevel(logging.INFO)
    log = logging.getLogger("launcher")
    procs = [ctx.Process(target=rank_main, args=(r, world, q), name=f"rank-{r}") for r in range(world)]
    for p in procs:
        p.start()
    log.info("started %d ranks: %s", world, ", ".join(f"{p.name} pid {p.pid}" for p in procs))
    for p in procs:
        p.join()
        log.info("%s (pid %d) exited with code %s", p.name, p.pid, p.exitcode)
    rc = max(abs(p.exitcode) for p in procs)
    log.info("job finished, exit status %d", rc)
    lis.stop()
    sys.exit(rc)
