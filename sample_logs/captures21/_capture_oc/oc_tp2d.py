"""2-D parallel training on CPU / gloo: a 2x2 DeviceMesh ("dp", "tp"); the MLP blocks are tensor-parallel
(ColwiseParallel up-projection, RowwiseParallel down-projection) over "tp" and fully_shard'ed over "dp" (FSDP2 + TP).
A torch.distributed.checkpoint (DCP) checkpoint of model + optimizer every 60 steps under ckpt/. Options: --clip
(global grad-norm clipping at 1.0), --init FILE (warm start of the output head from a torch.save'd file). env:// rendezvous from RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT; logs on stdout."""
import argparse, os, sys, time
from datetime import timedelta
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.distributed.checkpoint as dcp
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] rank {rank}: {msg}", flush=True)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(x)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clip", action="store_true")
    ap.add_argument("--init", default=None)
    args = ap.parse_args()
    dist.init_process_group("gloo", timeout=timedelta(seconds=90))
    mesh = init_device_mesh("cpu", (2, 2), mesh_dim_names=("dp", "tp"))
    log(f"mesh {mesh}, dp rank {mesh['dp'].get_local_rank()}, tp rank {mesh['tp'].get_local_rank()}")
    torch.manual_seed(0)
    d = 64
    model = nn.Sequential(*[Block(d) for _ in range(3)], nn.Linear(d, 1))
    if args.init:
        try:
            blob = torch.load(args.init)
        except Exception as e:  # files written by the old exporter carry numpy scalars in their metadata
            print(f"WARNING rank {rank}: torch.load({args.init!r}) failed with weights_only=True: {e}\n"
                  f"WARNING rank {rank}: retrying with weights_only=False (file from our own exporter)",
                  file=sys.stderr, flush=True)
            blob = torch.load(args.init, weights_only=False)
        model[3].load_state_dict(blob["head"])
        log(f"warm-started head from {args.init} (exported {blob['meta']['date']}, val_mse {blob['meta']['val_mse']:.4f})")
    for blk in model[:3]:
        parallelize_module(blk, mesh["tp"], {"up": ColwiseParallel(), "down": RowwiseParallel()})
        fully_shard(blk, mesh=mesh["dp"])
    fully_shard(model, mesh=mesh["dp"])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(100 + mesh["dp"].get_local_rank())  # same batch within a tp group
    wt = torch.randn(d, 1, generator=torch.Generator().manual_seed(1)) / d ** 0.5
    t0 = time.time()
    for step in range(1, 121):
        x = torch.randn(32, d, generator=g)
        loss = nn.functional.mse_loss(model(x), x @ wt)
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0) if args.clip else None
        opt.step()
        opt.zero_grad()
        if step % 20 == 0:
            gtxt = f" grad_norm {gn.full_tensor().item():.4f}" if gn is not None else ""
            log(f"step {step} loss {loss.item():.5f}{gtxt} ({time.time() - t0:.1f}s)")
        if step % 60 == 0:
            dcp.save({"model": model.state_dict(), "optim": opt.state_dict()}, checkpoint_id=f"ckpt/step{step:04d}")
            log(f"saved DCP checkpoint ckpt/step{step:04d}")
        time.sleep(0.02)
    dist.barrier()
    log(f"done: 120 steps, final loss {loss.item():.5f}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
