"""Small MLP classifier, DDP over gloo on CPU, per-rank shards. Runs under torchrun or torch.multiprocessing.spawn
(--nprocs). Logging: --style basic (logging.basicConfig defaults), print, or tqdm (a bar on rank 0 + logging)."""
import argparse, datetime, logging, os, sys, time
import numpy as np
import torch, torch.distributed as dist, torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

p = argparse.ArgumentParser()
p.add_argument("--config", default="")
p.add_argument("--data", default="data")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.05)
p.add_argument("--hidden", type=int, default=64)
p.add_argument("--classes", type=int, default=4)
p.add_argument("--pg-timeout", type=int, default=60)
p.add_argument("--step-sleep", type=float, default=0.0)
p.add_argument("--log-every", type=int, default=20)
p.add_argument("--style", choices=["basic", "print", "tqdm"], default="basic")
p.add_argument("--ckpt-dir", default="")
p.add_argument("--resume", default="")
p.add_argument("--aux-decoder", action="store_true")
p.add_argument("--debug-high-loss", type=float, default=0.0)
p.add_argument("--eval", action="store_true")
p.add_argument("--nprocs", type=int, default=0)
p.add_argument("--master-port", default="29755")
args = p.parse_args()


class Net(nn.Module):
    def __init__(self, nin, hidden, classes, aux):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(nin, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, classes)
        if aux:
            self.decoder = nn.Linear(hidden, nin)   # reconstruction head for the pretraining variant

    def forward(self, x):
        return self.head(self.body(x))


def main(rank=None):
    if rank is not None:
        os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(args.nprocs))
    if args.config:
        import yaml
        with open(args.config) as f:
            cfg = yaml.safe_load(f)
        for k, v in cfg.get("train", {}).items():
            setattr(args, k.replace("-", "_"), v)
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    if args.style == "print":
        log = lambda msg: print(f"[rank{rank}] {msg}", flush=True)
    else:
        logging.basicConfig(level=logging.INFO)
        logger = logging.getLogger(__name__)
        log = logger.info
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=args.pg_timeout))
    log(f"rank {rank}/{world} initialised (gloo)")
    torch.manual_seed(0)
    d = np.load(os.path.join(args.data, f"shard_{rank:02d}.npz"))
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"])
    log(f"loaded shard_{rank:02d}.npz: {len(y)} samples")
    net = Net(x.shape[1], args.hidden, args.classes, args.aux_decoder)
    start_epoch = 0
    if args.resume:
        ck = os.path.join(args.resume, f"ckpt_rank{rank}.pt")
        log(f"resuming from {ck}")
        st = torch.load(ck)
        net.load_state_dict(st["model"])
        start_epoch = st["epoch"] + 1
    model = DDP(net)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    lossf = nn.CrossEntropyLoss()
    dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=args.batch_size, shuffle=True,
                                     generator=torch.Generator().manual_seed(rank))
    bar = None
    if args.style == "tqdm" and rank == 0:
        from tqdm import tqdm
        bar = tqdm(total=(args.epochs - start_epoch) * len(dl), desc="train", file=sys.stderr, mininterval=1.0)
    t0 = time.time(); step = 0
    for ep in range(start_epoch, args.epochs):
        tot = 0.0
        for xb, yb in dl:
            step += 1
            out = model(xb)
            loss = lossf(out, yb)
            if args.debug_high_loss and loss.item() > args.debug_high_loss:
                breakpoint()
            opt.zero_grad(); loss.backward(); opt.step()
            tot += loss.item()
            if bar is not None:
                bar.update(1); bar.set_postfix(loss=f"{loss.item():.3f}")
            elif step % args.log_every == 0:
                log(f"epoch {ep} step {step} loss {loss.item():.4f}")
            if args.step_sleep:
                time.sleep(args.step_sleep)
        if bar is not None:
            bar.write(f"epoch {ep}: mean loss {tot / len(dl):.4f}")
        else:
            log(f"epoch {ep} done, mean loss {tot / len(dl):.4f}, {time.time() - t0:.1f}s")
        if args.ckpt_dir and rank == 0:
            os.makedirs(args.ckpt_dir, exist_ok=True)
            path = os.path.join(args.ckpt_dir, f"epoch{ep}.pt")
            torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "epoch": ep}, path)
            log(f"saved checkpoint {path}")
    if bar is not None:
        bar.close()
    if args.eval:
        v = np.load(os.path.join(args.data, "val.npz"))
        with torch.no_grad():
            acc = (net(torch.from_numpy(v["x"])).argmax(1) == torch.from_numpy(v["y"])).float().mean()
        dist.all_reduce(acc)
        log(f"val accuracy {acc.item() / world:.4f}")
    dist.barrier()
    log(f"finished in {time.time() - t0:.1f}s")
    dist.destroy_process_group()


if __name__ == "__main__":
    if args.nprocs:
        import torch.multiprocessing as mp
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", args.master_port)
        mp.spawn(main, nprocs=args.nprocs)
    else:
        main()
