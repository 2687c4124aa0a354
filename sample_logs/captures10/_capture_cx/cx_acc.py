"""accelerate trainer (CPU, gloo) for captures10: 'accelerate launch --config_file acc_config.yaml cx_acc.py'.
Logging via accelerate.logging.get_logger (main process only unless main_process_only=False), format
'%(asctime)s | %(levelname)-8s | %(name)s | %(message)s' on stderr. Rank 0 saves a checkpoint every
--ckpt-every steps with accelerator.save_state(--ckpt-dir/step_N); all ranks wait for it."""
import argparse, logging, os, time

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.logging import get_logger
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--epochs", type=int, default=2)
p.add_argument("--ckpt-dir", default="ckpt")
p.add_argument("--ckpt-every", type=int, default=5)
a = p.parse_args()
logging.basicConfig(format="%(asctime)s | %(levelname)-8s | %(name)s | %(message)s", level=logging.INFO)
log = get_logger("cx.acc")
acc = Accelerator(cpu=True)  # CPU-only box: the MULTI_GPU entry gives the torchrun path, gloo here
log.info("accelerator: %s, %d processes", acc.state.distributed_type, acc.num_processes)
log.info("process %d pid %d up", acc.process_index, os.getpid(), main_process_only=False)
g = torch.Generator().manual_seed(0)
ds = TensorDataset(torch.randn(320, 16, generator=g), torch.randint(0, 4, (320,), generator=g))
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
model, opt, dl = acc.prepare(model, opt, DataLoader(ds, batch_size=16, shuffle=True))
step = 0
for ep in range(a.epochs):
    for x, y in dl:
        loss = F.cross_entropy(model(x), y)
        acc.backward(loss); opt.step(); opt.zero_grad(); step += 1
        if step % 2 == 0:
            log.info("epoch %d step %d loss %.4f", ep, step, acc.reduce(loss.detach(), "mean").item())
        if step % a.ckpt_every == 0:
            out = os.path.join(a.ckpt_dir, f"step_{step}")
            if acc.is_main_process:
                acc.save_model(model, out)
                log.info("saved model to %s", out)
            acc.wait_for_everyone()
        time.sleep(0.15)
log.info("training finished after %d steps", step)
acc.end_training()
