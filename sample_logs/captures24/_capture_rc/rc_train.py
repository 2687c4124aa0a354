"""rc_train.py: small DDP (gloo) MLP trainer with a DataLoader + custom collate on synthetic per-rank shards.
Rank/world from env:// (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT). Site conditions chosen by flags."""
import argparse, ctypes, datetime, logging, logging.handlers, os, sys, time
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader

p = argparse.ArgumentParser()
p.add_argument("--rows", type=int, default=1200); p.add_argument("--epochs", type=int, default=1)
p.add_argument("--bs", type=int, default=32); p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--sleep", type=float, default=0.02); p.add_argument("--pg-timeout", type=float, default=60)
p.add_argument("--log", "--logto", dest="log", default="stdout", help="stdout | watched:<path with {rank}> | plain")
p.add_argument("--log-every", type=int, default=10)
p.add_argument("--drop-key", default="", help="R:IDX: sample IDX of rank R's shard carries 'label' instead of 'y'")
p.add_argument("--gather-list", default="", help="R:N: at epoch end rank R passes an all_gather output list of N tensors")
p.add_argument("--ckpt", default="", help="rank 0 saves here at epoch end")
p.add_argument("--rank0-barrier", action="store_true", help="rank 0 calls dist.barrier() right after its checkpoint save")
p.add_argument("--segv", default="", help="R:STEP: rank R dereferences NULL through ctypes at STEP (first attempt only)")
p.add_argument("--cache", default="", help="dataset cache file; rank 0 builds it, the others load it once it exists")
p.add_argument("--summary", action="store_true")
p.add_argument("--buffer-gb", type=float, default=0, help="allocate a feature replay buffer of this size after epoch 0")
p.add_argument("--compile", action="store_true", help="torch.compile the DDP model (inductor, CPU)")
a, _ = p.parse_known_args()
RANK = int(os.environ.get("RANK", 0)); WORLD = int(os.environ.get("WORLD_SIZE", 1))
ATTEMPT = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
log = logging.getLogger("rc.train")

def setup_logging():
    root = logging.getLogger(); root.setLevel(logging.INFO)
    if a.log.startswith("watched:"):
        path = a.log[8:].format(rank=RANK); os.makedirs(os.path.dirname(path), exist_ok=True)
        h = logging.handlers.WatchedFileHandler(path)
        h.setFormatter(logging.Formatter("%(asctime)s %(process)d rank=" + str(RANK) + " %(levelname)-7s %(name)s %(message)s"))
    elif a.log == "plain":
        h = logging.StreamHandler(sys.stdout); h.setFormatter(logging.Formatter(f"rank{RANK} %(levelname)s %(message)s"))
    else:
        h = logging.StreamHandler(sys.stdout)
        h.setFormatter(logging.Formatter(f"%(asctime)s | %(levelname)s | rank {RANK}/{WORLD} | %(message)s"))
    root.addHandler(h); logging.captureWarnings(True)

def make_shard():
    g = torch.Generator().manual_seed(1000 + RANK)
    X = torch.randn(a.rows, 16, generator=g); Y = (X[:, :4].sum(1) * 10).long().abs() % 4
    s = [{"x": X[i], "y": int(Y[i]), "id": f"r{RANK}-{i:06d}"} for i in range(a.rows)]
    if a.drop_key:
        r, i = map(int, a.drop_key.split(":"))
        if r == RANK: s[i] = {"x": s[i]["x"], "label": s[i]["y"], "id": s[i]["id"]}
    return s

def collate(batch):
    return torch.stack([b["x"] for b in batch]), torch.tensor([b["y"] for b in batch])

def load_or_build_cache():
    if RANK == 0:
        log.info("building dataset cache %s", a.cache)
        g = torch.Generator().manual_seed(7)
        vocab = {"tokens": torch.randint(0, 50000, (400000,), generator=g), "version": 3}
        tmp = a.cache  # written in place (no tmp + rename)
        with open(tmp, "wb") as f:
            import io; buf = io.BytesIO(); torch.save(vocab, buf); b = buf.getvalue()
            for k in range(0, len(b), 1 << 18):
                f.write(b[k:k + (1 << 18)]); f.flush(); time.sleep(0.05)
        log.info("dataset cache written (%d bytes)", len(b))
    else:
        while not os.path.exists(a.cache): time.sleep(0.01)
        log.info("dataset cache %s found, loading", a.cache)
    c = torch.load(a.cache)
    log.info("dataset cache loaded: %d tokens, version %d", len(c["tokens"]), c["version"])

def main():
    setup_logging()
    log.info("start pid=%d host=%s world=%d attempt=%d torch=%s", os.getpid(), os.uname().nodename, WORLD, ATTEMPT, torch.__version__)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=a.pg_timeout))
    log.info("process group up (gloo, world %d, timeout %.0fs)", dist.get_world_size(), a.pg_timeout)
    if a.cache: load_or_build_cache()
    shard = make_shard()
    dl = DataLoader(shard, batch_size=a.bs, shuffle=True, collate_fn=collate, generator=torch.Generator().manual_seed(RANK))
    log.info("shard: %d samples, %d batches per epoch", len(shard), len(dl))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4)))
    opt = torch.optim.SGD(model.parameters(), lr=a.lr)
    if a.compile:
        log.info("compiling model with torch.compile (inductor, cxx=%s)", os.environ.get("CXX", "g++"))
        model = torch.compile(model)
    step = 0; t_start = time.time(); loss = torch.tensor(0.)
    for ep in range(a.epochs):
        for b, (xb, yb) in enumerate(dl):
            if a.segv:
                r, s = map(int, a.segv.split(":"))
                if r == RANK and s == step and ATTEMPT == 0:
                    log.info("step %d: reading pinned staging buffer through libstage shim", step)
                    ctypes.string_at(0)
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step(); step += 1
            if step % a.log_every == 0:
                lt = loss.detach().clone(); dist.all_reduce(lt); lt /= WORLD
                log.info("epoch %d step %d batch %d/%d loss %.4f global %.4f", ep, step, b + 1, len(dl), loss.item(), lt.item())
            time.sleep(a.sleep)
        log.info("epoch %d finished (%d steps)", ep, step)
        if a.buffer_gb and ep == 0:
            log.info("allocating feature replay buffer (%.1f GiB)", a.buffer_gb)
            buf = torch.empty(int(a.buffer_gb * (1 << 30)) // 4, dtype=torch.float32)
            log.info("replay buffer ready: %d floats", buf.numel())
        if a.ckpt and RANK == 0:
            torch.save({"model": model.module.state_dict(), "step": step}, a.ckpt)
            log.info("checkpoint epoch %d written to %s", ep, a.ckpt)
            if a.rank0_barrier:
                log.info("waiting for all ranks after checkpoint")
                dist.barrier()
        if a.gather_list:
            r, n = map(int, a.gather_list.split(":"))
            mine = torch.tensor([loss.item(), float(step)])
            out = [torch.zeros(2) for _ in range(n if r == RANK else WORLD)]
            log.info("gathering epoch metrics into %d slots", len(out))
            dist.all_gather(out, mine)
            log.info("epoch %d metrics %s", ep, [round(t[0].item(), 4) for t in out])
    X = torch.stack([s["x"] for s in shard]); Y = torch.tensor([s["y"] for s in shard])
    acc = (model(X).argmax(1) == Y).float().mean(); dist.all_reduce(acc); acc /= WORLD
    log.info("done: %d steps, train acc %.4f", step, acc.item())
    if a.summary and RANK == 0:
        print("=" * 20 + " run summary " + "=" * 20)
        print(f"  world size      : {WORLD}\n  epochs          : {a.epochs}\n  steps           : {step}")
        print(f"  final loss      : {loss.item():.4f}\n  train accuracy  : {acc.item():.4f}\n  wall time       : {time.time() - t_start:.1f}s")
        print("=" * 53)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
