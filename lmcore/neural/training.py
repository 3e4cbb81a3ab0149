"""Training the neural model: Adam on the batch loss, with early stopping on held-out text.

The settings travel together in a :class:`TrainingConfig`; :func:`train` fits a model with
them and returns a :class:`TrainingHistory`, :func:`train_new` builds the model on a
training text's vocabulary first (the one recipe of the stored models).

>>> TrainingConfig(epochs=2)
TrainingConfig(epochs=2, batch_size=256, learning_rate=0.003, decay=0.5, weight_decay=0.0, unigram_start=True, seed=0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lmcore.checks import check_bool, check_int, check_number
from lmcore.neural.model import NeuralLM
from lmcore.text import Vocabulary

__all__ = ["TrainingConfig", "TrainingHistory", "train", "train_new"]


@dataclass(frozen=True)
class TrainingConfig:
    """How :func:`train` fits a model; checked when built.

    - ``epochs``: passes over the training tokens; ``batch_size``: tokens per step.
    - ``learning_rate``: Adam's step size, multiplied by ``decay`` after every epoch.
    - ``weight_decay``: each step also shrinks every weight matrix (not the biases) by
      ``learning_rate · weight_decay`` of itself (AdamW), in [0, 1); ``learning_rate ·
      weight_decay`` must be below 1 (a shrink of all of a weight or more flips its sign).
    - ``unigram_start``: first set the output bias to the log of each outcome's add-one
      training frequency, so that training starts from the unigram model.
    - ``seed``: the order of the tokens in each epoch (and, in :func:`train_new`, the model's
      initial parameters).
    """

    epochs: int = 5
    batch_size: int = 256
    learning_rate: float = 3e-3
    decay: float = 0.5
    weight_decay: float = 0.0
    unigram_start: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        check_int(self.epochs, "epochs")
        check_int(self.batch_size, "batch_size")
        check_number(self.learning_rate, "learning_rate", low=0, low_open=True)
        check_number(self.decay, "decay", low=0, low_open=True)
        check_number(self.weight_decay, "weight_decay", low=0, high=1, high_open=True)
        if self.learning_rate * self.weight_decay >= 1:
            raise ValueError(f"learning_rate · weight_decay must be below 1 (each step multiplies the weights by "
                             f"1 - learning_rate · weight_decay), got {self.learning_rate:g} · {self.weight_decay:g}")
        check_bool(self.unigram_start, "unigram_start")
        check_int(self.seed, "seed", minimum=0)


@dataclass(frozen=True)
class TrainingHistory:
    """What :func:`train` did: per epoch, the mean training loss and the held-out cross-entropy.

    ``train_bits[i]`` is the mean loss over the batches of epoch i + 1 (in bits per token,
    the loss in nats divided by ln 2), measured while the parameters moved;
    ``heldout_bits[i]`` the held-out cross-entropy after that epoch (NaN without held-out
    text). ``best_epoch`` (from 1) is the epoch whose parameters the model keeps: the one
    with the lowest held-out cross-entropy (the last one without held-out text).
    ``seconds`` is the wall-clock training time.
    """

    train_bits: np.ndarray
    heldout_bits: np.ndarray
    best_epoch: int
    seconds: float
    n_train_tokens: int


def train(model: NeuralLM, sentences: Sequence[Sequence[str]], heldout: Sequence[Sequence[str]] | None = None,
          config: TrainingConfig = TrainingConfig()) -> TrainingHistory:
    """Fit ``model`` to ``sentences`` by Adam on the batch loss; return the :class:`TrainingHistory`.

    Each epoch visits every predicted training token once, in an order shuffled by
    ``config.seed``, ``config.batch_size`` at a time. Adam (Kingma and Ba 2015; β1 = 0.9,
    β2 = 0.999) steps each parameter by ``lr · m̂ / (√v̂ + 1e-8)``, with m and v running means of
    the gradient and its square; the learning rate is multiplied by ``config.decay`` after every
    epoch. Weight decay (AdamW, Loshchilov and Hutter 2019) keeps a model from fitting its
    training text too closely; a unigram start begins from the unigram model, not the uniform
    one (:class:`TrainingConfig`). With ``heldout``
    sentences, the cross-entropy on them is measured after each epoch, and the model keeps the
    parameters of the best epoch (early stopping: held-out text chooses, as it chose λ in
    chapter 5). The same arguments give the same model.

    A training that diverges (a learning rate far too large) is stopped at the step where it
    shows, with a ``FloatingPointError`` naming the step: a batch loss that is not finite, or
    over 100 times the uniform model's (ln of the number of outcomes, per token), which no
    working training comes near. The model then keeps the parameters of its best epoch so far
    (those it started with, before the first), never NaN.

    Introduced in notebooks/07_neural_models.ipynb, section "Going further: how the stored models were trained".
    """
    if not isinstance(model, NeuralLM):
        raise TypeError(f"model must be a NeuralLM, got {type(model).__name__}")
    if not isinstance(config, TrainingConfig):
        raise TypeError(f"config must be a TrainingConfig, got {type(config).__name__}")
    bad = [name for name, p in model.parameters().items() if not np.isfinite(p).all()]
    if bad:
        raise ValueError(f"model's parameters {', '.join(bad)} hold NaN or infinite values: train a new NeuralLM")
    epochs, batch_size, decay, weight_decay = config.epochs, config.batch_size, config.decay, config.weight_decay
    grams = model.frame(sentences, "sentences").grams
    check = model.frame(heldout, "heldout").grams if heldout is not None else None
    if config.unigram_start:
        counts = np.bincount(grams[:, -1], minlength=len(model.vocab)) + 1.0
        model.b2[...] = np.log(counts / counts.sum())
    rng = np.random.default_rng(config.seed)
    moments = {name: (np.zeros_like(p), np.zeros_like(p)) for name, p in model.parameters().items()}
    beta1, beta2, step, lr = 0.9, 0.999, 0, float(config.learning_rate)
    train_bits, heldout_bits, best_bits = [], [], math.inf
    best = {name: p.copy() for name, p in model.parameters().items()}
    limit = _DIVERGED * math.log(model.outcome_ids.size)  # nats per token
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        order = rng.permutation(grams.shape[0])
        total = 0.0
        for first in range(0, order.size, batch_size):
            batch = grams[order[first:first + batch_size]]
            loss, grads = model.loss_and_gradients(batch)
            total += loss * batch.shape[0]
            step += 1
            if not loss <= limit:  # NaN fails every comparison
                why = f", over {_DIVERGED} times the uniform model's {limit / _DIVERGED:.3g}" if loss < math.inf else ""
                raise _diverged(model, best, f"at step {step} (epoch {epoch}) the batch loss is {loss:.3g} nats per "
                                f"token{why}", lr)
            scale = lr * math.sqrt(1 - beta2**step) / (1 - beta1**step)
            with np.errstate(over="ignore", invalid="ignore"):  # a diverging step: refused by name below
                for name, g in grads.items():
                    m, v = moments[name]
                    m *= beta1
                    m += (1 - beta1) * g
                    v *= beta2
                    v += (1 - beta2) * g * g
                    param = getattr(model, name)
                    if weight_decay and name in ("E", "W1", "W2"):
                        param *= 1 - lr * weight_decay
                    param -= scale * m / (np.sqrt(v) + 1e-8)
        bad = [name for name, p in model.parameters().items() if not np.isfinite(p).all()]
        if bad:  # the last step of an epoch, whose loss no step measured
            raise _diverged(model, best, f"after step {step} (epoch {epoch}) {', '.join(bad)} hold NaN or infinite "
                            "values", lr)
        train_bits.append(total / grams.shape[0] / math.log(2))
        try:
            bits = -model.grams_logprobs(check).mean() / math.log(2) if check is not None else math.nan
        except ValueError as error:  # finite parameters too large to compute with: NaN held-out scores
            raise _diverged(model, best, f"after step {step} (epoch {epoch}) {error}", lr) from None
        heldout_bits.append(bits)
        if check is None or bits < best_bits:
            best_bits, best = bits, {name: p.copy() for name, p in model.parameters().items()}
        lr *= decay
    for name, p in best.items():
        setattr(model, name, p)
    best_epoch = len(heldout_bits) if check is None else int(np.nanargmin(heldout_bits)) + 1
    return TrainingHistory(np.array(train_bits), np.array(heldout_bits), best_epoch,
                           time.perf_counter() - start, int(grams.shape[0]))


# How many times the uniform model's loss (ln of the number of outcomes) a batch loss may be
# before the training counts as diverged: a working training starts below the uniform loss (the
# unigram start) and goes down from there; a learning rate far too large sends it a thousandfold up.
_DIVERGED = 100


def _diverged(model: NeuralLM, best: dict[str, np.ndarray], what: str, lr: float) -> FloatingPointError:
    """The error of a diverged training, once ``model`` has its ``best`` parameters back."""
    for name, p in best.items():
        setattr(model, name, p)
    return FloatingPointError(f"training diverged: {what}. The steps are too large: train again with a smaller "
                              f"learning_rate (this epoch's was {lr:g}); the model keeps the parameters it had "
                              "before (its best epoch's, or those it started with)")


def train_new(sentences: Sequence[Sequence[str]], heldout: Sequence[Sequence[str]] | None = None, *,
              min_count: int = 2, context_length: int = 8, dim: int = 16, hidden: int = 128,
              config: TrainingConfig = TrainingConfig()) -> tuple[NeuralLM, TrainingHistory]:
    """A new model on the vocabulary of ``sentences`` (tokens seen ``min_count`` times or more; the
    rest is ``<unk>``), its initial parameters drawn with ``config.seed``, trained by :func:`train`.
    The one recipe of the stored models (``benchmarks/train_neural.py``) and of the test that
    re-trains a reduced one.

    >>> model, history = train_new([list("abab"), list("ba")], context_length=2, dim=2, hidden=4,
    ...                            config=TrainingConfig(epochs=2))
    >>> model.vocab.words, history.train_bits.shape
    (('a', 'b'), (2,))
    """
    vocab = Vocabulary.build(sentences, min_count)
    model = NeuralLM(vocab, context_length=context_length, dim=dim, hidden=hidden, seed=config.seed)
    return model, train(model, sentences, heldout, config)
