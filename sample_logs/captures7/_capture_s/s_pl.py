"""Lightning trainer for captures7 (strategy='ddp' on CPU, gloo; CSVLogger under csv_logs/).

Data: --data-dir D with D/sample-NNNNN.bin (16 float32 features + 1 int64 label each). The dataset keeps
every sample file it has read open (handle cache: 'avoid re-open cost on network storage').
--warnings: harmless but alarming output (a caught and retried OSError with its traceback, a validation
batch with a non-finite auxiliary metric skipped, the usual Lightning/torch warnings)."""
import argparse, logging, os, sys, warnings

import lightning as L
import numpy as np
import torch
import torch.nn as nn
from lightning.pytorch.loggers import CSVLogger

p = argparse.ArgumentParser()
p.add_argument("--devices", type=int, default=2)
p.add_argument("--data-dir", default="data")
p.add_argument("--epochs", type=int, default=2)
p.add_argument("--batch-size", type=int, default=4)
p.add_argument("--warnings", action="store_true")
args = p.parse_args()

log = logging.getLogger("tinyjob")
log.setLevel(logging.INFO)
h = logging.StreamHandler(sys.stderr)
h.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] %(name)s: %(message)s"))
log.addHandler(h)


class FileSamples(torch.utils.data.Dataset):
    def __init__(self, root):
        self.root = root
        self.files = sorted(f for f in os.listdir(root) if f.endswith(".bin"))
        self._handles = {}

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        fh = self._handles.get(i)
        if fh is None:
            fh = self._handles[i] = open(os.path.join(self.root, self.files[i]), "rb")
        fh.seek(0)
        raw = fh.read()
        x = torch.from_numpy(np.frombuffer(raw[:64], dtype=np.float32).copy())
        y = int(np.frombuffer(raw[64:72], dtype=np.int64)[0])
        return x, y


class Tiny(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
        self.loss = nn.CrossEntropyLoss()
        self._retried = False

    def training_step(self, batch, i):
        x, y = batch
        loss = self.loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        if args.warnings and self.global_rank == 1 and self.global_step == 10 and not self._retried:
            self._retried = True
            for attempt in (1, 2):
                try:
                    if attempt == 1:
                        raise OSError(5, "Input/output error", "/mnt/shared/metrics/tiny.lock")
                    log.info("metrics lock acquired (attempt %d)", attempt)
                except OSError:
                    log.exception("could not take metrics lock (attempt %d/3), retrying in 0s", attempt)
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        loss = self.loss(self.net(x), y)
        if args.warnings and i == 1 and self.global_rank == 0:
            log.warning("val batch %d: auxiliary metric 'ppl' is nan (empty mask), skipped; val_loss unaffected", i)
        self.log("val_loss", loss, sync_dist=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


if __name__ == "__main__":
    L.seed_everything(0)
    ds = FileSamples(args.data_dir)
    n_val = len(ds) // 5
    train, val = torch.utils.data.random_split(ds, [len(ds) - n_val, n_val], generator=torch.Generator().manual_seed(0))
    tl = torch.utils.data.DataLoader(train, batch_size=args.batch_size, shuffle=True)
    vl = torch.utils.data.DataLoader(val, batch_size=args.batch_size)
    trainer = L.Trainer(accelerator="cpu", devices=args.devices, strategy="ddp", max_epochs=args.epochs,
                        logger=CSVLogger("csv_logs", name="tiny"), log_every_n_steps=5,
                        enable_checkpointing=False)
    trainer.fit(Tiny(), tl, vl)
    log.info("fit done (rank %d)", trainer.global_rank)
