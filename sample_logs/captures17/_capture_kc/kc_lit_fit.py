#!/usr/bin/env python3
"""kc_lit_fit.py: plain Trainer script (no CLI) for the roundI kc-* jobs: KcModel/KcData from kc_lit.py, CSVLogger
(csv_logs/<name>/version_N/metrics.csv) + RichProgressBar + ModelCheckpoint, strategy ddp on 2 CPU processes."""
import sys, warnings
import lightning as L
from lightning.pytorch.callbacks import ModelCheckpoint, RichProgressBar, LearningRateMonitor
from lightning.pytorch.loggers import CSVLogger
from kc_lit import KcModel, KcData

if __name__ == "__main__":
    L.seed_everything(7)
    warnings.filterwarnings("default")
    model = KcModel(in_features=24, hidden=48, num_classes=6, lr=3e-3)
    data = KcData(n_features=24, n_samples=1536, batch_size=32, num_workers=0)
    trainer = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_epochs=3, limit_train_batches=10,
                        limit_val_batches=3, log_every_n_steps=2, precision="bf16-mixed",
                        logger=CSVLogger("csv_logs", name="tabular"),
                        callbacks=[RichProgressBar(leave=True), LearningRateMonitor(),
                                   ModelCheckpoint(dirpath="ckpt", monitor="val_loss", save_top_k=1)])
    trainer.fit(model, data)
    if trainer.global_rank == 0:
        print(f"best checkpoint: {trainer.checkpoint_callback.best_model_path} "
              f"val_loss={trainer.checkpoint_callback.best_model_score:.4f}")
    sys.exit(0)
