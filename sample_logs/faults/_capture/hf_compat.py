"""A Trainer subclass written against an older transformers: compute_loss without num_items_in_batch."""
from transformers import Trainer


class OldTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        loss = outputs["loss"]
        return (loss, outputs) if return_outputs else loss
