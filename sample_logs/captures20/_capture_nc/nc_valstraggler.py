"""Per-rank stdout/stderr redirect (the site's rank_io helper dup2s fd 1/2 to logs/rank<R>.out after reading
LOCAL_RANK from the environment, as with `torch.distributed.launch --use-env`); DDP training with an end-of-epoch
validation followed by a monitored_barrier (15 s) before the next epoch."""
import os, sys, time
from datetime import timedelta, datetime
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); lrank = int(os.environ["LOCAL_RANK"])
os.makedirs("logs", exist_ok=True)
fd = os.open(f"logs/rank{rank}.out", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
os.dup2(fd, 1); os.dup2(fd, 2)
sys.stdout = os.fdopen(1, "w", buffering=1); sys.stderr = os.fdopen(2, "w", buffering=1)

def say(msg):
    print(f"{datetime.now():%Y-%m-%d %H:%M:%S} rank{rank} | {msg}", flush=True)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    ws = dist.get_world_size()
    say(f"process group up (world {ws}, local_rank {lrank}, pg timeout 15s)")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2)))
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    g = torch.Generator().manual_seed(rank)
    # validation split: meant to be sharded by rank; the eval config's 'shard_eval' defaults differ per rank because
    # rank 2 reads the legacy eval.cfg override (val_shards=1 -> it evaluates the whole 1.2M-sample set alone)
    val_n = 1_200_000 if rank == ws - 1 else 1_200_000 // 64
    for epoch in range(3):
        for step in range(20):
            x = torch.randn(64, 20, generator=g); y = (x[:, 0] > 0).long()
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward(); opt.step()
        say(f"epoch {epoch} train loss {loss.item():.4f}")
        say(f"epoch {epoch} validation: {val_n} samples")
        t0 = time.time(); correct = 0
        with torch.no_grad():
            for i in range(0, val_n, 4096):
                xv = torch.randn(min(4096, val_n - i), 20, generator=g)
                correct += (model.module(xv).argmax(1) == (xv[:, 0] > 0).long()).sum().item()
                time.sleep(0.05)
        say(f"epoch {epoch} val acc {correct / val_n:.4f} ({time.time() - t0:.1f}s)")
        dist.monitored_barrier(timeout=timedelta(seconds=15), wait_all_ranks=True)
    say("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
