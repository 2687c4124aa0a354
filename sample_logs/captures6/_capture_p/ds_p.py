"""DeepSpeed trainer (CPU, gloo) for p-ds-*: launched by the `deepspeed` launcher, which passes
--local_rank; reads --shard-dir D/rank{R}/batch-{step:04d}.csv (16 features + label)."""
import argparse, logging, os, sys, time
import deepspeed, torch, torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--local_rank", type=int, default=0)
p.add_argument("--steps", type=int, default=10)
p.add_argument("--shard-dir", default="shards")
p = deepspeed.add_config_arguments(p)
args = p.parse_args()

deepspeed.init_distributed(dist_backend="gloo")
rank = torch.distributed.get_rank()
logging.basicConfig(level=logging.INFO, format=f"[%(asctime)s] [rank{rank}] %(levelname)s %(message)s", stream=sys.stdout)
log = logging.getLogger("ds_p")

model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
engine, opt, _, _ = deepspeed.initialize(args=args, model=model, optimizer=opt)
log.info("engine ready: world_size=%d micro_batch=%d", engine.world_size, engine.train_micro_batch_size_per_gpu())


def read_batch(step):
    xs, ys = [], []
    with open(os.path.join(args.shard_dir, f"rank{rank}", f"batch-{step:04d}.csv")) as f:
        for line in f:
            v = line.strip().split(",")
            xs.append([float(a) for a in v[:-1]]); ys.append(int(v[-1]))
    return torch.tensor(xs), torch.tensor(ys)


for step in range(1, args.steps + 1):
    x, y = read_batch(step)
    loss = nn.functional.cross_entropy(engine(x), y)
    engine.backward(loss)
    engine.step()
    if rank == 0:
        log.info("step %d/%d loss %.4f", step, args.steps, loss.item())
    time.sleep(0.2)
log.info("training done")
