"""Asynchronous parameter server over torch.distributed.rpc (TensorPipe): one `ps` process holds the master MLP and
applies the trainers' gradients; trainers pull params, compute grads on their own shard files, push them back.
Usage: oc_rpc_ps.py ROLE RANK WORLD  (ROLE ps | trainerN)."""
import glob, logging, os, sys, time
import numpy as np
import torch
import torch.distributed.rpc as rpc
import torch.nn as nn

role, rank, world = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s " + role + ": %(message)s",
                    stream=sys.stdout)
log = logging.getLogger("ps")
PS = None


def build(in_dim):
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, 1))


class ParamServer:
    def __init__(self, in_dim, lr):
        self.model = build(in_dim)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.updates = 0

    def push_pull(self, trainer, step, grads):
        for p, g in zip(self.model.parameters(), grads):
            p.grad = g
        self.opt.step()
        self.updates += 1
        if self.updates % 20 == 0:
            log.info("applied %d updates (last from %s step %d)", self.updates, trainer, step)
        return [p.detach().clone() for p in self.model.parameters()]

    def pull(self):
        return [p.detach().clone() for p in self.model.parameters()]


def ps_push_pull(trainer, step, grads):
    return PS.push_pull(trainer, step, grads)


def ps_pull():
    return PS.pull()


def main():
    global PS
    opts = rpc.TensorPipeRpcBackendOptions(init_method="tcp://127.0.0.1:29811", rpc_timeout=30, num_worker_threads=4)
    if role == "ps":
        PS = ParamServer(in_dim=32, lr=0.02)
        log.info("parameter server up: in_dim=32 params=%d", sum(p.numel() for p in PS.model.parameters()))
    rpc.init_rpc(role, rank=rank, world_size=world, rpc_backend_options=opts)
    log.info("rpc ready (rank %d of %d, backend %s)", rank, world, rpc.backend_registry.BackendType.TENSORPIPE.name)
    if role != "ps":
        shards = sorted(glob.glob(f"data/{role}/part-*.npz"))
        log.info("%d shards: %s", len(shards), " ".join(os.path.basename(s) for s in shards))
        model = None
        step = 0
        t0 = time.time()
        for sh in shards:
            z = np.load(sh)
            X, y = torch.from_numpy(z["x"]), torch.from_numpy(z["y"])
            log.info("open %s rows=%d cols=%d", os.path.basename(sh), X.shape[0], X.shape[1])
            if model is None:
                model = build(X.shape[1])  # same seed as the server's copy
            for i in range(0, X.shape[0], 64):
                model.zero_grad()
                loss = nn.functional.mse_loss(model(X[i:i + 64]).squeeze(1), y[i:i + 64])
                loss.backward()
                new = rpc.rpc_sync("ps", ps_push_pull, args=(role, step, [p.grad for p in model.parameters()]))
                for p, q in zip(model.parameters(), new):
                    p.data.copy_(q)
                if step % 10 == 0:
                    log.info("step %d loss %.4f (%.2f s)", step, loss.item(), time.time() - t0)
                step += 1
                time.sleep(0.05)
        log.info("done: %d steps", step)
    rpc.shutdown()
    log.info("rpc shutdown complete")


if __name__ == "__main__":
    main()
