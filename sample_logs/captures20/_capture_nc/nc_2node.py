"""Two-node worker (torchrun static rendezvous): checks the node's software stack manifest (/opt/stack/manifest.txt,
the site's image description) against its peers, trains a small DDP model and saves a torch.distributed.checkpoint
(DCP) sharded checkpoint to the shared ckpt/ directory every --ckpt-every steps."""
import os, sys, time, socket, argparse, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.nn.parallel import DistributedDataParallel as DDP

ap = argparse.ArgumentParser()
ap.add_argument("--steps", type=int, default=40); ap.add_argument("--ckpt-every", type=int, default=0)
args = ap.parse_args()
RANK = int(os.environ["RANK"]); HOST = socket.gethostname()
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s {HOST} rank{RANK}: %(message)s")
log = logging.getLogger()

def stack():
    kv = {}
    with open("/opt/stack/manifest.txt") as f:
        for ln in f:
            if "==" in ln:
                k, v = ln.strip().split("==", 1); kv[k] = v
    return kv

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    ws = dist.get_world_size()
    st = stack()
    log.info("stack: torch %s, numpy %s, image %s", st.get("torch"), st.get("numpy"), st.get("image"))
    allst = [None] * ws
    dist.all_gather_object(allst, (HOST, st.get("torch")))
    vers = sorted({v for _, v in allst})
    if len(vers) > 1:
        by = {}
        for h, v in allst: by.setdefault(v, set()).add(h)
        raise RuntimeError("torch version mismatch across nodes: " +
                           ", ".join(f"{v} on {sorted(hs)}" for v, hs in sorted(by.items())) +
                           " (serialized optimizer/DCP state is not portable across versions; refusing to start)")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 8)))
    opt = torch.optim.AdamW(model.parameters(), 1e-3)
    g = torch.Generator().manual_seed(RANK)
    for step in range(1, args.steps + 1):
        x = torch.randn(64, 32, generator=g); y = torch.randint(0, 8, (64,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        if args.ckpt_every and step % args.ckpt_every == 0:
            cid = f"ckpt/step{step:05d}"
            log.info("saving DCP checkpoint %s", cid)
            dcp.save({"model": model.state_dict(), "optim": opt.state_dict()}, checkpoint_id=cid)
            log.info("checkpoint %s saved", cid)
        time.sleep(0.1)
    dist.barrier()
    log.info("finished %d steps", args.steps)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
