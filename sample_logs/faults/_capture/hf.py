"""Tiny Hugging Face Trainer job for the fault captures (CPU; torchrun-able: gloo DDP).

A 1-layer GPT-2 from a config (no download), a word-level tokenizer built in place,
a toy text data set tokenized in the collator.  --ta JSON is passed to TrainingArguments
as is; --none-text-at puts a None text at that index (a row with a missing field).
"""
import argparse
import json
import logging
import os
import sys

import torch
import transformers
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast, Trainer, TrainingArguments

logger = logging.getLogger("hf_train")
WORDS = "the a cat dog sat on mat ran fast slow red blue big small and or".split()


def build_tokenizer():
    vocab = {w: i for i, w in enumerate(["[PAD]", "[UNK]"] + WORDS)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")


class TextRows(torch.utils.data.Dataset):
    def __init__(self, n, none_at=None):
        g = torch.Generator().manual_seed(0)
        self.rows = []
        for i in range(n):
            ids = torch.randint(0, len(WORDS), (8,), generator=g).tolist()
            self.rows.append({"id": i, "text": " ".join(WORDS[j] for j in ids)})
        if none_at is not None:
            self.rows[none_at]["text"] = None

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ta", default="{}", help="extra TrainingArguments kwargs, JSON")
    p.add_argument("--rows", dest="n", type=int, default=256)
    p.add_argument("--none-text-at", type=int, default=None)
    p.add_argument("--legacy-optimizer", action="store_true", help="use transformers.AdamW (old recipe)")
    args = p.parse_args()
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s",
                        datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO, stream=sys.stdout)
    logger.info("transformers %s, torch %s", transformers.__version__, torch.__version__)
    if args.legacy_optimizer:
        from transformers import AdamW  # noqa: F401
    ta = dict(output_dir="out", per_device_train_batch_size=8, max_steps=12, logging_steps=4,
              save_strategy="no", report_to=[], use_cpu=True, remove_unused_columns=False, dataloader_num_workers=0)
    ta.update(json.loads(args.ta))
    training_args = TrainingArguments(**ta)
    logger.warning("Process rank: %s, device: %s, n_gpu: %s, distributed training: %s",
                   training_args.process_index, training_args.device, training_args.n_gpu,
                   training_args.parallel_mode.value == "distributed")
    tok = build_tokenizer()
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=32, n_embd=32, n_layer=1, n_head=2))

    def collate(rows):
        enc = tok([r["text"] for r in rows], padding=True, return_tensors="pt")
        enc["labels"] = enc["input_ids"].clone()
        return enc

    trainer = (__import__("hf_compat").OldTrainer if os.environ.get("HF_OLD_COMPUTE_LOSS") else Trainer)(model=model, args=training_args, train_dataset=TextRows(args.n, args.none_text_at),
                      data_collator=collate)
    trainer.train()
    logger.info("training finished")


if __name__ == "__main__":
    main()
