"""Data-parallel training with plain Ray actors: the driver starts N Trainer actors (one CPU each), they form a gloo
process group (rank 0's address handed out by the driver), wrap the MLP in DDP and train on their own shards; the
driver collects per-epoch metrics and the final evaluation."""
import argparse, os, socket, time
import numpy as np
import ray
import torch, torch.nn as nn, torch.distributed as dist

p = argparse.ArgumentParser()
p.add_argument("--workers", type=int, default=4)
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--data", default=os.path.abspath("data"))
p.add_argument("--lr", type=float, default=2e-3)
args = p.parse_args()


@ray.remote(num_cpus=0.5)
class Trainer:
    def __init__(self, rank, world):
        self.rank, self.world = rank, world

    def addr(self):
        s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
        return "127.0.0.1", port

    def setup(self, master):
        os.environ.update(MASTER_ADDR=master[0], MASTER_PORT=str(master[1]))
        torch.set_num_threads(1)
        dist.init_process_group("gloo", rank=self.rank, world_size=self.world)
        d = np.load(os.path.join(args.data, f"shard_{self.rank:02d}.npz"))
        self.x, self.y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
        v = np.load(os.path.join(args.data, "val.npz"))
        self.xv, self.yv = torch.from_numpy(v["x"]), torch.from_numpy(v["y"])
        torch.manual_seed(0)
        self.model = nn.parallel.DistributedDataParallel(
            nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4)))
        self.opt = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        print(f"rank {self.rank}/{self.world}: {len(self.y)} rows, process group ready")
        return len(self.y)

    def epoch(self, ep):
        g = torch.Generator().manual_seed(ep * 100 + self.rank)
        perm = torch.randperm(len(self.y), generator=g)
        tot = 0.0
        for i in range(0, len(perm), 32):
            b = perm[i:i + 32]
            loss = nn.functional.cross_entropy(self.model(self.x[b]), self.y[b])
            self.opt.zero_grad(); loss.backward(); self.opt.step()
            tot += loss.item() * len(b)
            time.sleep(0.002)
        t = torch.tensor([tot, float(len(perm))]); dist.all_reduce(t)
        if self.rank == 0:
            print(f"epoch {ep}: mean train loss {t[0] / t[1]:.4f}")
        return (t[0] / t[1]).item()

    def evaluate(self):
        with torch.no_grad():
            acc = (self.model(self.xv).argmax(1) == self.yv).float().mean()
        dist.all_reduce(acc); acc /= self.world
        dist.barrier()
        dist.destroy_process_group()
        return acc.item()


if __name__ == "__main__":
    ray.init(num_cpus=2, include_dashboard=False)
    actors = [Trainer.remote(r, args.workers) for r in range(args.workers)]
    master = ray.get(actors[0].addr.remote())
    rows = ray.get([a.setup.remote(master) for a in actors])
    print(f"driver: {args.workers} trainer actors, {sum(rows)} rows in total")
    for ep in range(args.epochs):
        losses = ray.get([a.epoch.remote(ep) for a in actors])
        print(f"driver: epoch {ep} done, loss {losses[0]:.4f}")
    acc = ray.get([a.evaluate.remote() for a in actors])
    print(f"driver: final val accuracy {acc[0]:.4f}")
    ray.shutdown()
