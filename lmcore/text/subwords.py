"""Subword units: byte-pair encoding (BPE) trained offline with Hugging Face's ``tokenizers``.

BPE (Sennrich et al. 2016) starts from single characters and repeatedly merges the most
frequent adjacent pair of units into one new unit, until the vocabulary has the size asked
for. Frequent words end up as one unit, rare words as a few pieces, so a model over BPE
units never meets an unknown *word*, only (rarely) an unknown character.

How the text is cut, so that the pieces always spell it out exactly:

- English (words joined by ``separator=" "``): each word gets the marker ``▁``
  (:data:`METASPACE`, as SentencePiece writes a space) in front, and merges stay inside a
  word: *in the beginning* becomes ``▁in ▁the ▁begin ning``.
- Chinese (``separator=""``): a sentence is one run of characters, and merges may join any
  neighbours: 中国 and 人民 become single units.

The training text decides the merges; the same sentences and vocabulary size always give the
same tokenizer. A character never seen in training is left as itself (``tokenizers`` would
write ``<unk>`` and lose it), so a model's vocabulary then scores it as ``<unk>`` and
:mod:`lmcore.evaluate` can spell it out.

>>> bpe = train_bpe([["i", "spent", "three", "years"], ["before", "the", "mast"], ["i", "spent", "money"]], 26)
>>> bpe.merges[:3]
[('e', 'n'), ('p', 'en'), ('r', 'e')]
>>> bpe.encode([["i", "spent", "the", "money"]])
[['▁i', '▁spent', '▁th', 'e', '▁m', 'o', 'n', 'e', 'y']]
>>> bpe.decode(['▁i', '▁spent', '▁th', 'e'])
'i spent the'
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lmcore.checks import check_int, check_path, check_str, check_tokens
from lmcore.text.tokenizers import join_tokens
from lmcore.text.vocab import UNK

if TYPE_CHECKING:  # imported where it is used (_tokenizers), so that lmcore.text loads without it
    import tokenizers

__all__ = ["METASPACE", "STORED_BPE", "BPE", "train_bpe", "load_bpe", "load_stored_bpe"]

#: The mark of a word start in English pieces (U+2581, as in SentencePiece).
METASPACE = "▁"
#: The stored tokenizers by name (``benchmarks/train_neural.py`` trains and writes them).
STORED_BPE = {"english": Path(__file__).parents[1] / "data" / "bpe_english.json",
          "chinese": Path(__file__).parents[1] / "data" / "bpe_chinese.json"}


def _tokenizers():
    """The ``tokenizers`` library, imported on first use: a platform where its Rust wheel cannot
    load still imports :mod:`lmcore.text` (every chapter does); only BPE needs it."""
    try:
        import tokenizers
        import tokenizers.models
        import tokenizers.pre_tokenizers
        import tokenizers.trainers
    except (ImportError, OSError) as error:  # OSError: a wheel whose native library cannot load
        raise ImportError("lmcore.text's byte-pair encoding needs the tokenizers package (chapter 7, "
                          "notebooks/07_neural_models.ipynb): pip install tokenizers") from error
    return tokenizers


@dataclass(frozen=True)
class BPE:
    """A trained byte-pair encoding: ``tokenizer`` (a ``tokenizers.Tokenizer``) and the
    ``separator`` that joins a sentence's tokens into its text (``" "``: English words,
    ``""``: Chinese characters or words)."""

    tokenizer: tokenizers.Tokenizer
    separator: str

    @property
    def vocab_size(self) -> int:
        """Units in the vocabulary: the characters of the training text, every merge, and ``<unk>``."""
        return self.tokenizer.get_vocab_size()

    @functools.cached_property
    def _units(self) -> list[str]:
        """Each unit's text, by id."""
        units = [""] * self.vocab_size
        for unit, i in self.tokenizer.get_vocab().items():
            units[i] = unit
        return units

    @property
    def merges(self) -> list[tuple[str, str]]:
        """The merges in the order they were learned (the most frequent pair first)."""
        return [tuple(pair) for pair in json.loads(self.tokenizer.to_str())["model"]["merges"]]

    def encode(self, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        """Each sentence (a list of tokens, joined by the separator) as a list of BPE pieces.

        Introduced in notebooks/07_neural_models.ipynb, section "Perplexity depends on the unit".
        """
        texts = join_tokens(sentences, self.separator)
        # encode_batch_fast (tokenizers >= 0.20) skips the offsets, which only unknown characters need
        encode = getattr(self.tokenizer, "encode_batch_fast", self.tokenizer.encode_batch)
        units = self._units
        pieces = [[units[i] for i in encoding.ids] for encoding in encode(texts)]
        for text, sentence in zip(texts, pieces):
            if UNK in sentence:  # rare: put the characters back where tokenizers wrote <unk> (no unit for them)
                encoding = self.tokenizer.encode(text)
                sentence[:] = [text[a:b] if piece == UNK else piece
                               for piece, (a, b) in zip(encoding.tokens, encoding.offsets)]
        return pieces

    def save(self, path: str | Path) -> None:
        """Write the tokenizer as ``tokenizers``' JSON (:func:`load_bpe` reads it back)."""
        self.tokenizer.save(os.fsdecode(check_path(path)), pretty=False)

    def decode(self, pieces: Sequence[str]) -> str:
        """The text the pieces spell: ``"".join(pieces)``, with each ``▁`` back to a space (English)."""
        text = "".join(check_tokens(pieces, "pieces"))
        return text.replace(METASPACE, " ").removeprefix(" ") if self.separator == " " else text


def train_bpe(sentences: Sequence[Sequence[str]], vocab_size: int, separator: str = " ") -> BPE:
    """Learn a BPE vocabulary of ``vocab_size`` units from ``sentences`` (lists of tokens).

    ``separator=" "``: English, words marked by ``▁`` and never merged across; ``""``:
    Chinese, merges anywhere in the sentence. Among pairs equally frequent, ``tokenizers``
    merges the pair whose units came first (characters in code-point order, then merged
    units in the order they were made). ``vocab_size`` smaller than the alphabet keeps only
    the characters (with ``<unk>``).

    Introduced in notebooks/07_neural_models.ipynb, section "Perplexity depends on the unit".
    """
    vocab_size = check_int(vocab_size, "vocab_size", minimum=2)
    if separator not in (" ", ""):
        raise ValueError(f"separator must be ' ' (English words) or '' (Chinese), got {separator!r}")
    texts = join_tokens(sentences, separator)
    if not any(texts):
        raise ValueError("sentences is empty: BPE learns its merges from training text")
    tokenizers = _tokenizers()
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE(unk_token=UNK))
    if separator == " ":
        tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace(replacement=METASPACE,
                                                                      prepend_scheme="always")
    trainer = tokenizers.trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=[UNK], show_progress=False,
                                  limit_alphabet=1_000_000)
    tokenizer.train_from_iterator(texts, trainer)
    return BPE(tokenizer, separator)


def load_bpe(path: str | Path) -> BPE:
    """A tokenizer :meth:`BPE.save` wrote; English (``▁`` before each word) if it splits at spaces, else Chinese."""
    path = os.fsdecode(check_path(path))
    if not os.path.isfile(path):  # tokenizers would raise a bare Exception
        raise FileNotFoundError(f"{path}: no such file (a tokenizer BPE.save wrote)")
    tokenizer = _tokenizers().Tokenizer.from_file(path)
    return BPE(tokenizer, " " if tokenizer.pre_tokenizer is not None else "")


def load_stored_bpe(name: str) -> BPE:
    """The stored tokenizer ``name`` (``"english"`` or ``"chinese"``): trained by ``benchmarks/train_neural.py``
    with :func:`train_bpe` on the training sentences of the stored neural model of the same name.

    Introduced in notebooks/07_neural_models.ipynb, section "Perplexity depends on the unit".
    """
    if check_str(name, "name") not in STORED_BPE:
        raise ValueError(f"name must be one of {sorted(STORED_BPE)}, got {name!r}")
    if not STORED_BPE[name].exists():
        raise FileNotFoundError(f"{STORED_BPE[name]} is missing: run python benchmarks/train_neural.py to train it")
    return load_bpe(STORED_BPE[name])
