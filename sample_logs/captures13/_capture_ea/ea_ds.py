"""DeepSpeed engine on CPU (gloo) for captures13, started by the deepspeed launcher with a --hostfile.

deepspeed.init_distributed(dist_backend='gloo', timeout=--pg-timeout s), deepspeed.initialize with the config
file and a torch AdamW client optimizer, a tiny MLP on synthetic batches. Worker lines:
'%(asctime)s.%(msecs)03d [%(levelname)s] [ds-rank%(rank)d] %(name)s - %(message)s' on stdout.
Every --ckpt-every steps every rank calls engine.save_checkpoint(--ckpt-dir, tag=step<N>); then rank 0 copies the
tag to the mirror directory (--mirror) and all ranks meet in a barrier ('checkpoint <tag> published').
--mirror-kbps: rank 0 copies with this rate limit (the 'NFS mirror' is slow); 0 = no limit.
--warn: harmless alarming lines.
"""
import argparse, logging, os, shutil, sys, time, warnings
from datetime import timedelta

import deepspeed
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--deepspeed_config", default="ds_config.json")
p.add_argument("--steps", type=int, default=20)
p.add_argument("--sleep", type=float, default=0.1)
p.add_argument("--pg-timeout", type=int, default=30)
p.add_argument("--ckpt-every", type=int, default=0)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--mirror", default="")
p.add_argument("--mirror-kbps", type=int, default=0)
p.add_argument("--warn", action="store_true")
p.add_argument("--local_rank", "--local-rank", type=int, default=0)
args = p.parse_args()

deepspeed.init_distributed(dist_backend="gloo", timeout=timedelta(seconds=args.pg_timeout))
rank = dist.get_rank()
logging.basicConfig(level=logging.INFO, stream=sys.stdout, datefmt="%Y-%m-%d %H:%M:%S",
                    format=f"%(asctime)s.%(msecs)03d [%(levelname)s] [ds-rank{rank}] %(name)s - %(message)s")
log = logging.getLogger("trainer")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 4))
client_opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
engine, opt, _, _ = deepspeed.initialize(model=model, optimizer=client_opt, config=args.deepspeed_config)
log.info("engine ready: world=%d micro_batch=%d grad_accum=%d zero_stage=%d", dist.get_world_size(),
         engine.train_micro_batch_size_per_gpu(), engine.gradient_accumulation_steps(), engine.zero_optimization_stage())
if args.warn:
    warnings.warn("`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` "
                  "instead.", FutureWarning)
    if rank == 0:
        log.warning("checkpoint dir %s has no 'latest' file; starting from scratch", args.ckpt_dir)
    try:
        raise OSError(28, "No space left on device", "/tmp/triton_cache/index.lock")
    except OSError as e:
        log.error("kernel cache unavailable (%s); falling back to eager ops", e)


def copy_slow(src, dst, kbps):
    os.makedirs(dst, exist_ok=True)
    total = 0
    for root, _, files in os.walk(src):
        for f in sorted(files):
            s = os.path.join(root, f)
            d = os.path.join(dst, os.path.relpath(s, src))
            os.makedirs(os.path.dirname(d), exist_ok=True)
            with open(s, "rb") as fi, open(d, "wb") as fo:
                while True:
                    b = fi.read(64 * 1024)
                    if not b:
                        break
                    fo.write(b); total += len(b)
                    if kbps:
                        time.sleep(len(b) / 1024 / kbps)
    return total


for step in range(1, args.steps + 1):
    g = torch.Generator().manual_seed(100 * rank + step)
    x = torch.randn(engine.train_micro_batch_size_per_gpu(), 32, generator=g)
    y = torch.randint(0, 4, (x.shape[0],), generator=g)
    loss = F.cross_entropy(engine(x), y)
    engine.backward(loss)
    engine.step()
    log.info("step %d/%d loss %.4f lr %.2e", step, args.steps, loss.item(), engine.get_lr()[0])
    if args.warn and rank == 1 and step == 5:
        log.warning("grad norm spike at step %d: 41.7 (> 10x running mean 3.2); continuing", step)
    if args.ckpt_every and step % args.ckpt_every == 0:
        tag = f"step{step}"
        engine.save_checkpoint(args.ckpt_dir, tag=tag)
        if rank == 0 and args.mirror:
            log.info("copying checkpoint %s to mirror %s", tag, args.mirror)
            t = time.time()
            n = copy_slow(os.path.join(args.ckpt_dir, tag), os.path.join(args.mirror, tag), args.mirror_kbps)
            log.info("mirrored %s: %.1f MB in %.1fs", tag, n / 1e6, time.time() - t)
        dist.barrier()
        log.info("checkpoint %s published", tag)
    time.sleep(args.sleep)
log.info("training finished: %d steps", args.steps)
