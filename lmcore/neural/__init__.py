"""A small neural language model in numpy (Bengio et al. 2003), measured exactly like the n-gram models.

- ``model``: ``NeuralLM`` (embeddings, a tanh layer, a softmax; hand-derived gradients), a
  :class:`lmcore.lm.LanguageModel`, and the stored English and Chinese character models.
- ``training``: ``TrainingConfig`` (the settings that travel together), ``train`` (Adam,
  early stopping on held-out text) and ``train_new``.
"""

from __future__ import annotations

from lmcore.neural.model import DATA, PARAMETERS, STORED_MODELS, NeuralLM, load_stored
from lmcore.neural.training import TrainingConfig, TrainingHistory, train, train_new

__all__ = ["PARAMETERS", "STORED_MODELS", "DATA", "NeuralLM", "load_stored", "TrainingConfig", "TrainingHistory",
           "train", "train_new"]
