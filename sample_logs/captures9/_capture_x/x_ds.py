"""DeepSpeed engine on CPU (gloo) for captures9.

    torchrun --nproc-per-node 2 x_ds.py --config ds_config.json      (or under the deepspeed launcher)

deepspeed.init_distributed(dist_backend='gloo'), deepspeed.initialize with a torch AdamW client optimizer,
a tiny MLP on synthetic batches; every rank logs per-step lines with Python logging
('%(asctime)s rank%(rank)d %(levelname)s %(message)s'); the engine's own logs go to the console too.
--steps N --sleep S; --warn: a client-side fp16-style 'loss scale' warning and a caught checkpoint-tag
warning (alarming but harmless)."""
import argparse, json, logging, os, sys, time

import deepspeed
import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--config", default="ds_config.json")
p.add_argument("--steps", type=int, default=20)
p.add_argument("--sleep", type=float, default=0.1)
p.add_argument("--warn", action="store_true")
p.add_argument("--local_rank", "--local-rank", type=int, default=0)
args = p.parse_args()

deepspeed.init_distributed(dist_backend="gloo")
rank = torch.distributed.get_rank()
logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                    format=f"%(asctime)s rank{rank} %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("ds_tiny")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 64), nn.GELU(), nn.Linear(64, 4))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
cfg = json.load(open(args.config))
engine, opt, _, _ = deepspeed.initialize(model=model, optimizer=opt, config=cfg)
log.info("engine ready: world=%d micro_batch=%d grad_accum=%d", torch.distributed.get_world_size(),
         engine.train_micro_batch_size_per_gpu(), engine.gradient_accumulation_steps())
if args.warn and rank == 0:
    log.warning("checkpoint dir ckpt/ has no 'latest' file; starting from scratch (load_checkpoint returned None)")
for step in range(1, args.steps + 1):
    g = torch.Generator().manual_seed(100 * rank + step)
    x = torch.randn(engine.train_micro_batch_size_per_gpu(), 16, generator=g)
    y = torch.randint(0, 4, (x.shape[0],), generator=g)
    loss = F.cross_entropy(engine(x), y)
    engine.backward(loss)
    engine.step()
    log.info("step %d/%d loss %.4f", step, args.steps, loss.item())
    if args.warn and rank == 1 and step == 7:
        log.warning("grad norm spike at step %d: 41.7 (> 10x running mean 3.2); continuing", step)
    time.sleep(args.sleep)
log.info("done")
