"""tc_fabric_resume.py: Lightning Fabric trainer (run with `fabric run`), YAML config. Stage 1 trains the whole
model; a later stage (e.g. fine-tuning with the embedding frozen) resumes from `resume:` with fabric.load of the
full state (model + optimizer + step)."""
import argparse, logging, os, time
import torch, torch.nn as nn, yaml
from lightning.fabric import Fabric

ap = argparse.ArgumentParser(); ap.add_argument("--config", required=True); args = ap.parse_args()
cfg = yaml.safe_load(open(args.config))
fabric = Fabric()  # accelerator / strategy / devices come from `fabric run`
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s [g{fabric.global_rank}] %(name)s: %(message)s")
log = logging.getLogger("stage." + cfg["name"])
fabric.seed_everything(cfg.get("seed", 7))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(16, 128); self.body = nn.Sequential(nn.ReLU(), nn.Linear(128, 64), nn.ReLU())
        self.head = nn.Linear(64, 4)

    def forward(self, x): return self.head(self.body(self.embed(x)))


model = Net()
if cfg.get("freeze_embed"):
    for p in model.embed.parameters(): p.requires_grad_(False)
params = [p for p in model.parameters() if p.requires_grad]
opt = torch.optim.AdamW(params, lr=cfg["lr"], weight_decay=0.01)
model, opt = fabric.setup(model, opt)
fabric.print(f"[{cfg['name']}] world {fabric.world_size}, {sum(p.numel() for p in params)} trainable params, "
             f"freeze_embed={cfg.get('freeze_embed', False)}")
g = torch.Generator().manual_seed(100 + fabric.global_rank)
X = torch.randn(cfg["rows"], 16, generator=g); Y = (X[:, :4].sum(1) * 10).long().abs() % 4
dl = fabric.setup_dataloaders(torch.utils.data.DataLoader(list(zip(X, Y)), batch_size=cfg["bs"], shuffle=True))
state = {"model": model, "optimizer": opt, "step": 0}
if cfg.get("resume"):
    log.info("resuming from %s", cfg["resume"])
    fabric.load(cfg["resume"], state)
    log.info("resumed at step %d", state["step"])
t0 = time.time()
for ep in range(cfg["epochs"]):
    for xb, yb in dl:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad(); fabric.backward(loss); opt.step(); state["step"] += 1
        if state["step"] % 20 == 0:
            fabric.print(f"[{cfg['name']}] epoch {ep} step {state['step']} loss {loss.item():.4f}")
        time.sleep(0.02)
os.makedirs(os.path.dirname(cfg["save"]), exist_ok=True)
fabric.save(cfg["save"], state)
fabric.print(f"[{cfg['name']}] saved {cfg['save']} at step {state['step']} ({time.time() - t0:.1f}s)")
