"""accelerate training loop (CPU / gloo): a small MLP classifier on the rank's own shard, with tqdm on the main
process and accelerate.logging."""
import argparse, datetime, logging, os, sys, time
import numpy as np
import torch, torch.nn as nn
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset
from tqdm.auto import tqdm

p = argparse.ArgumentParser()
p.add_argument("--train-file", default="data/train_{rank:02d}.npz")
p.add_argument("--val-file", default="data/val.npz")
p.add_argument("--epochs", type=int, default=3)
p.add_argument("--batch-size", type=int, default=32)
p.add_argument("--lr", type=float, default=0.003)
p.add_argument("--output-dir", default="out")
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO, stream=sys.stdout)
logger = get_logger(__name__)


def main():
    acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=60))])
    logger.info(acc.state, main_process_only=False)
    set_seed(7)
    path = args.train_file.format(rank=acc.process_index)
    d = np.load(path)
    ds = TensorDataset(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]))
    v = np.load(args.val_file)
    vds = TensorDataset(torch.from_numpy(v["x"]), torch.from_numpy(v["y"]))
    logger.info(f"train file {path}: {len(ds)} rows", main_process_only=False)
    model = nn.Sequential(nn.Linear(ds.tensors[0].shape[1], 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    dl = DataLoader(ds, batch_size=args.batch_size, shuffle=True)
    vdl = DataLoader(vds, batch_size=64)
    model, opt, vdl = acc.prepare(model, opt, vdl)   # train shards are per rank already: dl is not sharded
    lossf = nn.CrossEntropyLoss()
    steps = args.epochs * len(dl)
    logger.info(f"***** Running training *****  epochs = {args.epochs}, batch size per device = {args.batch_size}, "
                f"total optimization steps = {steps}")
    bar = tqdm(range(steps), disable=not acc.is_local_main_process, mininterval=1.0)
    for ep in range(args.epochs):
        model.train()
        for xb, yb in dl:
            loss = lossf(model(xb), yb)
            acc.backward(loss)
            opt.step(); opt.zero_grad()
            bar.update(1)
            time.sleep(0.005)
        model.eval(); correct = total = 0
        with torch.no_grad():
            for xb, yb in vdl:
                pred, ref = acc.gather_for_metrics((model(xb).argmax(1), yb))
                correct += (pred == ref).sum().item(); total += len(ref)
        logger.info(f"epoch {ep}: train loss {loss.item():.4f} val accuracy {correct / total:.4f}")
    acc.wait_for_everyone()
    os.makedirs(args.output_dir, exist_ok=True)
    acc.save(acc.unwrap_model(model).state_dict(), os.path.join(args.output_dir, "model.pt"))
    logger.info(f"saved {args.output_dir}/model.pt")
    acc.end_training()


if __name__ == "__main__":
    main()
