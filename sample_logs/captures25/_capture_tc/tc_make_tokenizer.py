"""tc_make_tokenizer.py OUT: the data-prep step. Trains a small byte-pair tokenizer on synthetic captions with the
data-prep environment's tokenizers release and saves OUT (tokenizer.json)."""
import os, random, sys
import tokenizers
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
random.seed(3)
words = "the a cat dog sat ran on under mat rug red blue small large quickly slowly near far".split()
lines = [" ".join(random.choice(words) for _ in range(8)) for _ in range(2000)]
tok = Tokenizer(models.BPE(unk_token="[UNK]")); tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator(lines, trainers.BpeTrainer(vocab_size=300, special_tokens=["[UNK]", "[PAD]", "[CLS]", "[SEP]"]))
os.makedirs(os.path.dirname(sys.argv[1]) or ".", exist_ok=True); tok.save(sys.argv[1])
print(f"data-prep: tokenizer ({tok.get_vocab_size()} tokens) saved to {sys.argv[1]} with tokenizers {tokenizers.__version__}")
