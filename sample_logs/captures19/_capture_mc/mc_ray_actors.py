#!/usr/bin/env python3
"""mc_ray_actors.py: a hand-rolled data-parallel trainer on Ray actors (not Ray Train). The driver starts a local Ray
instance, creates WORLD `RankWorker` actors, each actor joins a gloo process group (tcp:// init on the driver-chosen
port) and trains its own model replica; gradients are averaged by hand (all_reduce of every .grad, then / world).
Per-rank settings come from the job config (conf.json): "defaults" plus "rank_overrides" by rank.
Logging: python logging in each actor `%(asctime)s %(levelname)s rank=<r> %(message)s` (Ray forwards actor output
to the driver console with its `(RankWorker pid=...)` prefix); driver logs with `driver` in the same format."""
import json, logging, os, socket, sys, time
import ray


@ray.remote(num_cpus=1)
class RankWorker:
    def __init__(self, rank, world, port, cfg):
        self.rank, self.world, self.port, self.cfg = rank, world, port, cfg
        logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                            format=f"%(asctime)s %(levelname)s rank={rank} %(message)s", force=True)
        self.log = logging.getLogger("rankworker")

    def setup(self):
        import datetime
        import torch, torch.distributed as dist, torch.nn as nn
        torch.set_num_threads(1)
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{self.port}", rank=self.rank,
                                world_size=self.world, timeout=datetime.timedelta(seconds=45))
        torch.manual_seed(0)
        self.model = nn.Sequential(nn.Linear(24, 96), nn.Tanh(), nn.Linear(96, 6))
        if self.cfg.get("precision") == "64":
            self.model = self.model.double()
        self.opt = torch.optim.SGD(self.model.parameters(), lr=self.cfg["lr"])
        n = sum(p.numel() for p in self.model.parameters())
        self.log.info("joined gloo group (world %d, pid %d); model %d params, param dtype %s, cfg %s", self.world,
                      os.getpid(), n, next(self.model.parameters()).dtype, self.cfg)
        return os.getpid()

    def train(self, steps):
        import torch, torch.distributed as dist, torch.nn.functional as F
        g = torch.Generator().manual_seed(50 + self.rank)
        w = torch.randn(24, 6, generator=torch.Generator().manual_seed(9))
        dt = next(self.model.parameters()).dtype
        for step in range(1, steps + 1):
            x = torch.randn(self.cfg["batch"], 24, generator=g)
            y = (x @ w).argmax(1)
            loss = F.cross_entropy(self.model(x.to(dt)), y)
            self.opt.zero_grad(); loss.backward()
            for p in self.model.parameters():
                dist.all_reduce(p.grad)
                p.grad /= self.world
            self.opt.step()
            if step % 5 == 0:
                self.log.info("step %d/%d loss %.4f", step, steps, loss.item())
            time.sleep(0.1)
        dist.barrier()
        self.log.info("done, final loss %.4f", loss.item())
        return loss.item()


def main():
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(levelname)s driver %(message)s")
    log = logging.getLogger("driver")
    cfg = json.load(open("conf.json"))
    world = cfg["world"]
    ray.init(num_cpus=world, include_dashboard=False, _temp_dir="/tmp/raymc")
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    log.info("starting %d RankWorker actors, gloo rendezvous tcp://127.0.0.1:%d", world, port)
    workers = [RankWorker.remote(r, world, port, {**cfg["defaults"], **cfg["rank_overrides"].get(str(r), {})})
               for r in range(world)]
    pids = ray.get([w.setup.remote() for w in workers])
    log.info("all actors joined: pids %s", pids)
    try:
        losses = ray.get([w.train.remote(cfg["steps"]) for w in workers])
        log.info("training finished, final losses %s", losses)
    except Exception as e:
        log.error("training failed: %s: %s", type(e).__name__, str(e).splitlines()[0])
        raise
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
