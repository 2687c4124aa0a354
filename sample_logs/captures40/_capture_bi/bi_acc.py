"""accelerate training loop (CPU / gloo): a bag-of-tokens classifier over the rank's own JSONL file of fixed-length
token windows, custom collate_fn, tqdm on the local main process, accelerate.logging."""
import argparse, datetime, json, logging, os, sys, time
import torch, torch.nn as nn
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.logging import get_logger
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, Dataset
from tqdm.auto import tqdm

p = argparse.ArgumentParser()
p.add_argument("--train-file", default="data/windows_{rank:02d}.jsonl")
p.add_argument("--epochs", type=int, default=2)
p.add_argument("--batch-size", type=int, default=16)
p.add_argument("--lr", type=float, default=0.003)
p.add_argument("--vocab", type=int, default=512)
p.add_argument("--output-dir", default="out")
args = p.parse_args()

logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S",
                    level=logging.INFO, stream=sys.stdout)
logger = get_logger(__name__)


class Windows(Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.rows = [json.loads(l) for l in f]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def collate(batch):
    ids = torch.stack([torch.tensor(r["input_ids"]) for r in batch])
    labels = torch.tensor([r["label"] for r in batch])
    return ids, labels


class BagClf(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, 64, mode="mean")
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(64, 4))

    def forward(self, ids):
        return self.head(self.emb(ids))


def main():
    acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=60))])
    logger.info(acc.state, main_process_only=False)
    set_seed(7)
    path = args.train_file.format(rank=acc.process_index)
    ds = Windows(path)
    logger.info(f"train file {path}: {len(ds)} windows", main_process_only=False)
    model = BagClf(args.vocab)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    dl = DataLoader(ds, batch_size=args.batch_size, shuffle=True, collate_fn=collate)
    model, opt = acc.prepare(model, opt)   # the files are per rank already: dl is not sharded
    lossf = nn.CrossEntropyLoss()
    steps = args.epochs * len(dl)
    logger.info(f"***** Running training *****  epochs = {args.epochs}, batch size per device = {args.batch_size}, "
                f"total optimization steps = {steps}")
    bar = tqdm(range(steps), disable=not acc.is_local_main_process, mininterval=1.0)
    for ep in range(args.epochs):
        model.train()
        for ids, yb in dl:
            loss = lossf(model(ids), yb)
            acc.backward(loss)
            opt.step(); opt.zero_grad()
            bar.update(1)
            time.sleep(0.01)
        logger.info(f"epoch {ep}: train loss {loss.item():.4f}")
    acc.wait_for_everyone()
    os.makedirs(args.output_dir, exist_ok=True)
    acc.save(acc.unwrap_model(model).state_dict(), os.path.join(args.output_dir, "model.pt"))
    logger.info(f"saved {args.output_dir}/model.pt")
    acc.end_training()


if __name__ == "__main__":
    main()
