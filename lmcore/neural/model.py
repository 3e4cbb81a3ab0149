"""A small neural language model in numpy (Bengio et al. 2003), measured exactly like the n-gram models.

The model predicts each token from the ``k`` tokens before it (``context_length``), as an
n-gram model of order k + 1 does, but through learned numbers instead of counts:

    x = [E[w_{t-k}]; ...; E[w_{t-1}]]          the k embeddings, each a row of E (|V| x d), one after another
    h = tanh(x W1 + b1)                          the hidden layer (H units)
    z = h W2 + b2,   P(w | context) = softmax(z)_w = exp(z_w) / Σ_v exp(z_v)

It is trained by making the training text's cross-entropy small (chapter 3): the mean
negative log-likelihood ``L = -(1/B) Σ_b ln P(w_b | context_b)`` of a batch of B tokens,
its gradient derived by hand (:meth:`NeuralLM.loss_and_gradients`), with Adam steps
(:func:`lmcore.neural.train`, settings in a :class:`lmcore.neural.TrainingConfig`). Everything
is seeded: the same arguments give the same model.

Sentences are framed as the n-gram models frame them (:meth:`lmcore.lm.LanguageModel.frame`,
as ``lmcore.ngram.Convention``'s standard): k ``<s>`` before each sentence (context only, never predicted), one ``</s>``
after it (predicted), words outside the vocabulary as ``<unk>``. ``<s>`` is no outcome:
its logit is set to -inf, so the probabilities of the outcomes sum to 1. A
:class:`NeuralLM` is a :class:`lmcore.lm.LanguageModel`: the same functions, with the same
conventions, score it and the n-gram models, play the Shannon game and code text with it.

Stored models (:func:`load_stored`) are trained by ``benchmarks/train_neural.py`` and kept
in ``lmcore/data`` as float16 arrays (:meth:`NeuralLM.save`); they compute in float32.

>>> from lmcore.neural import TrainingConfig, train
>>> from lmcore.text import Vocabulary
>>> toy = [["i", "spent", "three", "years"], ["before", "the", "mast"], ["i", "spent", "money"]]
>>> model = NeuralLM(Vocabulary.build(toy), context_length=1, dim=4, hidden=8, seed=0)
>>> history = train(model, toy, config=TrainingConfig(epochs=150, batch_size=13, learning_rate=0.05, decay=1.0))
>>> model.prob("spent", ["i"]) > 0.95                     # a neural bigram: "spent" always followed "i"
True
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from lmcore.checks import check_int, check_path, check_str
from lmcore.lm import LanguageModel, Sentences
from lmcore.text import BOS_ID, Vocabulary

__all__ = ["PARAMETERS", "STORED_MODELS", "DATA", "NeuralLM", "load_stored"]

#: The arrays of a model, in the order of the formula above.
PARAMETERS = ("E", "W1", "b1", "W2", "b2")
#: Where the stored models live (``benchmarks/train_neural.py`` writes them).
DATA = Path(__file__).parents[1] / "data"
#: The stored models by name: ``load_stored(name)`` reads ``DATA / STORED_MODELS[name]``.
STORED_MODELS = {"english": "neural_english.npz", "chinese": "neural_chinese.npz"}
ROWS_PER_PASS = 2048  # rows scored at once: bounds the memory of a |V|-wide softmax


class NeuralLM(LanguageModel):
    """A feed-forward neural language model: k previous tokens -> embeddings -> tanh layer -> softmax.

    - ``vocab``: the tokens it knows (:class:`lmcore.text.Vocabulary`); the softmax has one
      output per id, ``<s>``'s masked out.
    - ``context_length``: k, how many previous tokens it sees (an n-gram model of order k + 1 sees as many).
    - ``dim``: d, the length of each token's embedding; ``hidden``: H, the hidden units.
    - ``seed``: the random initial parameters (and nothing else).

    Parameters: ``E`` (|V| x d), ``W1`` (k d x H), ``b1`` (H), ``W2`` (H x |V|), ``b2`` (|V|),
    float32. Introduced in notebooks/07_neural_models.ipynb, section "A small neural language model".

    >>> from lmcore.text import Vocabulary
    >>> model = NeuralLM(Vocabulary(["a", "b"]), context_length=2, dim=3, hidden=4)
    >>> model.n_parameters, f"{model.prob('a', ['<s>', 'b']):.4f}"    # 5 x 3 + 6 x 4 + 4 + 4 x 5 + 5
    (68, '0.2500')
    """

    keeps_last_tokens = True  # a longer context is cut to its last k tokens, as a window slides

    def __init__(self, vocab: Vocabulary, context_length: int = 8, dim: int = 16, hidden: int = 128, seed: int = 0):
        if not isinstance(vocab, Vocabulary):
            raise TypeError(f"vocab must be an lmcore Vocabulary, got {type(vocab).__name__}")
        self.vocab = vocab
        self.outcome_ids = np.flatnonzero(np.arange(len(vocab)) != BOS_ID)
        self._context_length = check_int(context_length, "context_length")
        self.dim = check_int(dim, "dim")
        self.hidden = check_int(hidden, "hidden")
        rng = np.random.default_rng(check_int(seed, "seed", minimum=0))
        n_in, size = self.context_length * self.dim, len(vocab)
        self.E = rng.normal(0.0, 1.0, (size, self.dim)).astype(np.float32)
        self.W1 = (rng.normal(0.0, 1.0, (n_in, self.hidden)) / math.sqrt(n_in)).astype(np.float32)
        self.b1 = np.zeros(self.hidden, dtype=np.float32)
        self.W2 = np.zeros((self.hidden, size), dtype=np.float32)  # a uniform start: loss ln(|V| - 1)
        self.b2 = np.zeros(size, dtype=np.float32)

    def __repr__(self) -> str:
        return (f"NeuralLM(context_length={self.context_length}, dim={self.dim}, hidden={self.hidden}, "
                f"{len(self.vocab):,} ids, {self.n_parameters:,} parameters)")

    @property
    def context_length(self) -> int:
        """k: the tokens of context the model reads (the name every lmcore model uses)."""
        return self._context_length

    @property
    def sentence_padding(self) -> tuple[int, int]:
        """k ``<s>`` before each sentence, one ``</s>`` after it."""
        return self.context_length, 1

    @property
    def n_parameters(self) -> int:
        return sum(getattr(self, name).size for name in PARAMETERS)

    def parameters(self) -> dict[str, np.ndarray]:
        """The arrays, by name (the model's own, not copies)."""
        return {name: getattr(self, name) for name in PARAMETERS}

    # -- the forward pass

    # A diverged model's overflow gives NaN, which the callers refuse by name (_not_nan, train):
    # numpy's warnings about it would only add noise.

    def _hidden(self, contexts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = self.E[contexts].reshape(contexts.shape[0], -1)
        with np.errstate(over="ignore", invalid="ignore"):
            return x, np.tanh(x @ self.W1 + self.b1)

    def _log_softmax(self, h: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            z = h @ self.W2 + self.b2
            z[:, BOS_ID] = -np.inf  # <s> is context, never an outcome
            z -= z.max(axis=1, keepdims=True)
            return z - np.log(np.exp(z).sum(axis=1, keepdims=True))

    def grams_logprobs(self, grams: ArrayLike) -> np.ndarray:
        """ln P(last id | the k ids before it) for each row of ``grams`` (N x (k + 1) ids): the
        forward pass for a whole encoded stream at once, in float64.

        >>> from lmcore.text import Vocabulary
        >>> model = NeuralLM(Vocabulary(["a"]), context_length=1, dim=2, hidden=2)   # untrained: uniform
        >>> np.exp(model.grams_logprobs([[1, 3], [3, 2]])).round(4).tolist()  # 3 outcomes: a, <unk>, </s>
        [0.3333, 0.3333]
        """
        grams = self._check_grams(grams)
        out = np.empty(grams.shape[0])
        for start in range(0, grams.shape[0], ROWS_PER_PASS):
            rows = grams[start:start + ROWS_PER_PASS]
            logp = self._log_softmax(self._hidden(rows[:, :-1])[1])
            out[start:start + rows.shape[0]] = logp[np.arange(rows.shape[0]), rows[:, -1]]
        return self._not_nan(out)

    def _check_grams(self, grams: ArrayLike) -> np.ndarray:
        """``grams`` as an int array of rows of k + 1 ids of this vocabulary, or a ValueError."""
        grams = np.asarray(grams)
        width = self.context_length + 1
        if grams.ndim != 2 or grams.shape[1] != width or not np.issubdtype(grams.dtype, np.integer):
            raise ValueError(f"grams must be an integer array of shape (N, {width}), got {grams.shape}")
        if grams.size and (grams.min() < 0 or grams.max() >= len(self.vocab)):
            raise ValueError(f"grams holds ids outside 0..{len(self.vocab) - 1}")
        return grams

    def id_probs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        """P(last id | the k ids before it) for each row (``<s>`` before a sentence start; the
        model always reads its whole window, so ``context_len`` changes nothing). Rows that share
        a context share one forward pass: a row per outcome after one context costs one."""
        grams = self._check_grams(grams)
        contexts, which = np.unique(grams[:, :-1], axis=0, return_inverse=True)
        if contexts.shape[0] == grams.shape[0]:
            return np.exp(self.grams_logprobs(grams))
        probs = np.empty(grams.shape[0])
        for start in range(0, contexts.shape[0], ROWS_PER_PASS):
            logp = self._log_softmax(self._hidden(contexts[start:start + ROWS_PER_PASS])[1])
            rows = np.flatnonzero((which >= start) & (which < start + ROWS_PER_PASS))
            probs[rows] = np.exp(logp[which[rows] - start, grams[rows, -1]].astype(np.float64))
        return self._not_nan(probs)

    def _not_nan(self, values: np.ndarray) -> np.ndarray:
        """``values`` (probabilities or their logs) if none is NaN: a model whose parameters are
        not finite (its training diverged) must never answer with NaN. One ``np.isnan`` per call."""
        if np.isnan(values).any():
            raise ValueError(self._not_finite())
        return values

    def _not_finite(self) -> str:
        """Why this model computes NaN: parameters that are not finite, or too large for float32."""
        bad = [name for name, array in self.parameters().items() if not np.isfinite(array).all()]
        if bad:
            what = f"the model's parameters {', '.join(bad)} hold NaN or infinite values"
        else:
            name = max(PARAMETERS, key=lambda n: float(np.abs(getattr(self, n)).max(initial=0.0)))
            what = (f"the model's parameters are too large to compute with (up to "
                    f"{float(np.abs(getattr(self, name)).max()):.3g} in {name})")
        return (f"{what}, so its probabilities would be NaN: its training diverged; "
                "train it again with a smaller learning_rate")

    def id_logprobs(self, grams: np.ndarray, context_len: np.ndarray) -> np.ndarray:
        """ln P(last id | the k ids before it) for each row, straight from the log-softmax
        (:meth:`grams_logprobs`; ``context_len`` changes nothing, as in :meth:`id_probs`)."""
        return self.grams_logprobs(grams)

    def context_logprobs(self, sentences: Sentences) -> np.ndarray:
        """ln P(token t | only its last c tokens of context, the others ``<s>``) for c = 0..k, as
        a (k + 1) x N array: row c is what a model cut off after c tokens gives (the sliding
        windows of :mod:`lmcore.evaluate` read it). Row k is :meth:`token_logprobs`.

        >>> from lmcore.text import Vocabulary
        >>> model = NeuralLM(Vocabulary(["a"]), context_length=2, dim=2, hidden=2)
        >>> model.context_logprobs([["a", "a"]]).shape    # 3 cut-offs x (2 words + </s>)
        (3, 3)
        """
        grams = self.frame(sentences).grams
        table = np.empty((self.context_length + 1, grams.shape[0]))
        for c in range(self.context_length + 1):
            cut = grams.copy()
            cut[:, : self.context_length - c] = BOS_ID
            table[c] = self.grams_logprobs(cut)
        return table

    # -- learning

    def loss_and_gradients(self, grams: np.ndarray) -> tuple[float, dict[str, np.ndarray]]:
        """The batch loss L (nats per token) and its gradient with respect to every parameter.

        Forward, for the B rows of ``grams`` (k context ids, then the target y):
        ``x = E[context]`` (B x kd), ``a = x W1 + b1``, ``h = tanh a``, ``z = h W2 + b2``,
        ``p = softmax(z)``, ``L = -(1/B) Σ_b ln p[b, y_b]``. Backward, by the chain rule:

            ∂L/∂z  = (p - onehot(y)) / B           (softmax and log together; <s>'s p is 0)
            ∂L/∂W2 = hᵀ ∂L/∂z,    ∂L/∂b2 = Σ_b ∂L/∂z
            ∂L/∂h  = ∂L/∂z W2ᵀ,   ∂L/∂a = ∂L/∂h ⊙ (1 - h²)   (tanh' = 1 - tanh²)
            ∂L/∂W1 = xᵀ ∂L/∂a,    ∂L/∂b1 = Σ_b ∂L/∂a
            ∂L/∂x  = ∂L/∂a W1ᵀ,   ∂L/∂E[v] = Σ of the pieces of ∂L/∂x where id v sat

        ``tests/unit/test_neural.py`` checks every one against finite differences.
        """
        grams = self._check_grams(grams)
        batch = grams.shape[0]
        if batch == 0:
            raise ValueError("grams is empty: a batch needs at least one row")
        x, h = self._hidden(grams[:, :-1])
        logp = self._log_softmax(h)
        rows, targets = np.arange(batch), grams[:, -1]
        loss = -float(logp[rows, targets].astype(np.float64).mean())
        with np.errstate(over="ignore", invalid="ignore"):
            dz = np.exp(logp)
            dz[rows, targets] -= 1.0
            dz /= batch
            dh = dz @ self.W2.T
            da = dh * (1.0 - h * h)
            dx = (da @ self.W1.T).reshape(-1, self.dim)
            dE = np.zeros_like(self.E)
            np.add.at(dE, grams[:, :-1].ravel(), dx)
            return loss, {"E": dE, "W1": x.T @ da, "b1": da.sum(axis=0), "W2": h.T @ dz, "b2": dz.sum(axis=0)}

    # -- storing

    def save(self, path: str | Path, dtype: DTypeLike = np.float16, **metadata: ArrayLike) -> None:
        """Write the parameters (as ``dtype``), the vocabulary, the sizes and ``metadata`` (arrays or
        numbers) to an ``.npz`` file that :meth:`load` reads without pickling."""
        path = os.fsdecode(check_path(path))  # numpy reads a bytes name as no file name
        with np.errstate(over="ignore"):  # a value beyond dtype's range: refused by name below
            arrays = {name: array.astype(dtype) for name, array in self.parameters().items()}
        for name, array in arrays.items():
            if not np.isfinite(array).all():
                raise ValueError(f"the parameter {name} holds NaN or values beyond {np.dtype(dtype).name}'s range "
                                 "(saved, they would not be finite): save with dtype=np.float32, or a model whose "
                                 "training did not diverge")
        np.savez_compressed(path, **arrays, tokens=np.array(self.vocab.words),
                            sizes=np.array([self.context_length, self.dim, self.hidden, self.vocab.min_count]),
                            **{f"meta_{key}": np.asarray(value) for key, value in metadata.items()})

    @classmethod
    def load(cls, path: str | Path) -> tuple[NeuralLM, dict[str, np.ndarray]]:
        """``(model, metadata)`` from a file :meth:`save` wrote; the parameters become float32. A file
        whose parameters are not all finite (damaged, or a diverged model's) is refused."""
        with np.load(os.fsdecode(check_path(path)), allow_pickle=False) as stored:
            context_length, dim, hidden, min_count = (int(v) for v in stored["sizes"])
            model = cls(Vocabulary([str(t) for t in stored["tokens"]], min_count), context_length, dim, hidden)
            for name in PARAMETERS:
                setattr(model, name, stored[name].astype(np.float32))
                if not np.isfinite(getattr(model, name)).all():
                    raise ValueError(f"{os.fspath(path)}: the parameter {name} holds NaN or infinite values "
                                     "(a damaged file, or a model whose training diverged)")
            metadata = {key[5:]: stored[key] for key in stored.files if key.startswith("meta_")}
        return model, metadata


def load_stored(name: str) -> tuple[NeuralLM, dict[str, np.ndarray]]:
    """The stored model ``name`` (``"english"`` or ``"chinese"``) and what its training recorded.

    Introduced in notebooks/07_neural_models.ipynb, section "A small neural language model".
    """
    if check_str(name, "name") not in STORED_MODELS:
        raise ValueError(f"name must be one of {sorted(STORED_MODELS)}, got {name!r}")
    path = DATA / STORED_MODELS[name]
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run python benchmarks/train_neural.py to train and store it")
    return NeuralLM.load(path)
