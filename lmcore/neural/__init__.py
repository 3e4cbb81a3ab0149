"""A small neural language model in numpy (Bengio et al. 2003), measured exactly like the n-gram models.

- ``model``: ``NeuralLM`` (forward pass, hand-derived gradients, scoring), training, the stored models.
"""

from __future__ import annotations

from lmcore.neural.model import (
    DATA,
    PARAMETERS,
    STORED_MODELS,
    NeuralLM,
    TrainingHistory,
    load_stored,
    train,
    train_new,
)

__all__ = ["PARAMETERS", "STORED_MODELS", "DATA", "NeuralLM", "TrainingHistory", "train", "train_new", "load_stored"]
