"""Ray-driven data-parallel training of the MLP classifier on per-rank .npz shards (CPU, gloo).
--mode actors: one ray.remote actor per rank, the driver forms the gloo group and drives epochs;
--mode train:  ray.train.torch.TorchTrainer with a train_loop_per_worker."""
import argparse, logging, os, socket, time
import numpy as np
import ray
import torch, torch.nn as nn, torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--mode", default="actors")
p.add_argument("--workers", type=int, default=3)
p.add_argument("--epochs", type=int, default=4)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=3e-3)
p.add_argument("--num-classes", type=int, default=4)
p.add_argument("--aug-copies", type=int, default=0)    # jittered copies of the shard kept in memory (augmentation cache)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--storage", default="ray_results")
args = p.parse_args()
DATA = os.path.abspath("data")
logging.basicConfig(format="%(asctime)s %(levelname)s [%(name)s] %(message)s", level=logging.INFO)
log = logging.getLogger("driver")


def make_model(n_cls):
    return nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, n_cls))


def load_shard(rank, copies):
    d = np.load(os.path.join(DATA, f"shard_{rank:02d}.npz"))
    x, y = d["x"], d["y"]
    if copies:
        rng = np.random.default_rng(rank)
        x = np.concatenate([x] + [x + rng.normal(scale=0.05, size=x.shape) for _ in range(copies)])
        y = np.concatenate([y] * (copies + 1))
    return torch.from_numpy(x.astype(np.float32)), torch.from_numpy(y)


@ray.remote(num_cpus=0.5)
class RankWorker:
    def __init__(self, rank, world, addr):
        import torch.distributed as dist
        self.rank = rank
        torch.set_num_threads(1)
        dist.init_process_group("gloo", init_method=addr, rank=rank, world_size=world)
        self.x, self.y = load_shard(rank, args.aug_copies)
        print(f"rank {rank}/{world} pid {os.getpid()}: {len(self.y)} training rows"
              + (f" ({args.aug_copies} augmented copies cached)" if args.aug_copies else ""), flush=True)
        torch.manual_seed(0)
        self.model = nn.parallel.DistributedDataParallel(make_model(args.num_classes))
        self.opt = torch.optim.Adam(self.model.parameters(), lr=args.lr)

    def train_epoch(self, ep):
        perm = torch.randperm(len(self.y), generator=torch.Generator().manual_seed(ep * 100 + self.rank))
        tot, n = 0.0, 0
        for i in range(0, len(perm) - args.batch_size + 1, args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = F.cross_entropy(self.model(self.x[idx]), self.y[idx])
            self.opt.zero_grad(); loss.backward(); self.opt.step()
            tot += loss.item(); n += 1
            time.sleep(args.step_sleep)
        return tot / n

    def evaluate(self):
        v = np.load(os.path.join(DATA, "val.npz"))
        with torch.no_grad():
            pred = self.model(torch.from_numpy(v["x"])).argmax(1)
        return float((pred == torch.from_numpy(v["y"])).float().mean())


def run_actors():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    addr = f"tcp://127.0.0.1:{port}"
    ws = [RankWorker.remote(r, args.workers, addr) for r in range(args.workers)]
    for ep in range(args.epochs):
        losses = ray.get([w.train_epoch.remote(ep) for w in ws])
        log.info(f"epoch {ep}: loss per rank " + " ".join(f"{l:.4f}" for l in losses))
    accs = ray.get([w.evaluate.remote() for w in ws])
    log.info(f"final val accuracy {accs[0]:.4f}")


def train_loop_per_worker(config):
    import ray.train, ray.train.torch
    ctx = ray.train.get_context()
    rank = ctx.get_world_rank()
    x, y = load_shard(rank, 0)
    print(f"worker rank {rank}: shard_{rank:02d} {len(y)} rows, labels {sorted(set(y.tolist()))}", flush=True)
    torch.manual_seed(0)
    model = ray.train.torch.prepare_model(make_model(config["num_classes"]))
    opt = torch.optim.Adam(model.parameters(), lr=config["lr"])
    v = np.load(os.path.join(DATA, "val.npz")); vx, vy = torch.from_numpy(v["x"]), torch.from_numpy(v["y"])
    for ep in range(config["epochs"]):
        perm = torch.randperm(len(y), generator=torch.Generator().manual_seed(ep * 100 + rank))
        tot, n = 0.0, 0
        for i in range(0, len(perm) - config["batch_size"] + 1, config["batch_size"]):
            idx = perm[i:i + config["batch_size"]]
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad(); loss.backward(); opt.step()
            tot += loss.item(); n += 1
            time.sleep(config["step_sleep"])
        with torch.no_grad():
            acc = float((model(vx).argmax(1) == vy).float().mean())
        ray.train.report({"epoch": ep, "train_loss": tot / n, "val_acc": acc})


def run_train():
    from ray.train import RunConfig, ScalingConfig
    from ray.train.torch import TorchConfig, TorchTrainer
    trainer = TorchTrainer(train_loop_per_worker,
                           train_loop_config={"lr": args.lr, "epochs": args.epochs, "batch_size": args.batch_size,
                                              "num_classes": args.num_classes, "step_sleep": args.step_sleep},
                           scaling_config=ScalingConfig(num_workers=args.workers, use_gpu=False,
                                                        resources_per_worker={"CPU": 0.5}),
                           torch_config=TorchConfig(backend="gloo"),
                           run_config=RunConfig(name="mlp_clf", storage_path=os.path.abspath(args.storage)))
    result = trainer.fit()
    log.info(f"finished: {result.metrics}")


if __name__ == "__main__":
    ray.init(num_cpus=2, include_dashboard=False)
    log.info(f"ray {ray.__version__}, resources {ray.cluster_resources()}")
    run_actors() if args.mode == "actors" else run_train()
    ray.shutdown()
