"""Compression is prediction: arithmetic (range) coding driven by a language model's probabilities.

An arithmetic coder turns a sequence of predictions into bits: each symbol narrows an
interval of [0, 1) to the share its probability gives it, and the message is sent as a
binary fraction inside the final interval. The code length is within two bits of the
message's surprisal, ``-log2 P(message)`` (``interval`` shows it on a short message). With a
language model as the predictor, the coded size of a test text is its
cross-entropy times its length: a model that predicts better compresses better.

:func:`encode` codes tokenized sentences with the range coder of the ``constriction``
library, one symbol per predicted token; :func:`decode` gets them back,
token for token. The coded size is the model's total surprisal (:func:`surprisal_bits`)
plus a few bytes (the coder's final flush, 32-bit words, the header).

Lossless on real text: a word the model's vocabulary lacks is coded as ``<unk>`` and then
*spelled*, character by character, by a second model over characters (the speller,
:func:`fit_speller`); a character the speller has never seen is sent as its Unicode code
point, a uniform choice among 0x110000. So every test text is coded exactly, never as
``<unk>``.

How a token is coded: ``levels`` (the model's probabilities as rows).

The bytes are a short header (the counts and a checksum: ``container``), then the code.

>>> from lmcore.ngram import AddK
>>> model = AddK(2).fit([["a", "b"], ["b", "a", "b"]])
>>> coded = encode(model, [["a", "b", "b"]])
>>> decode(coded.data, model)
[['a', 'b', 'b']]
>>> f"{coded.surprisal_bits:.4f} bits of surprisal in {len(coded.data)} bytes"  # a 6-byte header, one 32-bit word
'6.6147 bits of surprisal in 10 bytes'
>>> decode(coded.data[:-1], model)
Traceback (most recent call last):
...
ValueError: data ends before the 1 coded sentence does: 1 byte of its code is missing (the header counts 4 bytes ...
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lmcore.checks import check_sentences
from lmcore.coding.container import _checksum, _many, _pack, _unpack
from lmcore.coding.levels import CODE_POINTS, METHODS, Predictor, check_coding_model
from lmcore.lm import LanguageModel, Sentences, flatten_sentences
from lmcore.ngram import KneserNey
from lmcore.text import EOS_ID, UNK_ID, Vocabulary

__all__ = ["CodedText", "fit_speller", "Coder", "encode", "decode", "surprisal_bits"]

# --- coding real text -----------------------------------------------------------------------


@dataclass(frozen=True)
class CodedText:
    """Sentences coded by :func:`encode`.

    ``data``: the bytes. ``n_tokens``: symbols the model predicted (words and one ``</s>``
    per sentence); ``n_unknown``: words outside its vocabulary, spelled by the speller;
    ``n_code_points``: characters the speller had never seen, sent as code points.
    ``surprisal_bits``: the total surprisal of everything coded, in bits (the model's
    ``-log2 P`` of each token, the speller's of each spelled character, 20.09 bits per
    code point): the ideal code length, which :func:`surprisal_bits` recomputes from the
    models alone.
    """

    data: bytes
    n_sentences: int
    n_tokens: int
    n_unknown: int
    n_code_points: int
    surprisal_bits: float

    @property
    def coded_bits(self) -> int:
        """8 bits for every byte of ``data``."""
        return 8 * len(self.data)

    @property
    def overhead_bits(self) -> float:
        """``coded_bits - surprisal_bits``: what the coder costs beyond the model's surprisal."""
        return self.coded_bits - self.surprisal_bits


def fit_speller(sentences: Sentences, order: int = 3, min_count: int = 2) -> KneserNey:
    """A character model of words, to spell the words a word model does not know.

    A Kneser-Ney model of ``order`` over the characters of each distinct word of
    ``sentences`` (each word once: unknown words are rare words, and rare words are
    most of the types), ending each word with ``</s>``. A character in fewer than
    ``min_count`` distinct words is left out of its vocabulary, so that ``<unk>``, the
    way out to a code point, gets a probability learned from the rare characters.

    >>> speller = fit_speller([["the", "then", "hen", "ten"]])
    >>> speller.vocab.words
    ('e', 'h', 'n', 't')
    """
    tokens, _ = flatten_sentences(sentences, "sentences")
    words = [list(word) for word in sorted(set(tokens))]
    vocab = Vocabulary.build(words, min_count)
    return KneserNey(order).fit(words, vocab=vocab)


def _check_sentences(sentences: object) -> list[list[str]]:
    return [list(s) for s in check_sentences(sentences, "sentences", allow_empty=True)]


def _unknown_words(model, sentences) -> list[str]:
    return [w for s in sentences for w in s if model.vocab.id(w) == UNK_ID]


def surprisal_bits(model: LanguageModel, sentences: Sentences, speller: LanguageModel | None = None) -> float:
    """Total surprisal of ``sentences`` in bits: what an ideal coder driven by the models needs.

        -Σ_t log2 P(w_t | h_t)  +  -Σ_c log2 P_speller(c | previous characters)  +  20.09 bits per code point

    The first sum runs over every predicted token (words, ``<unk>`` for unknown words,
    one ``</s>`` per sentence), from ``model.token_logprobs``; the second over the
    characters and ``</s>`` of each unknown word, from ``speller.token_logprobs``; a
    character outside the speller's vocabulary adds ``log2(0x110000)`` bits.

    Introduced in notebooks/03_cross_entropy.ipynb, section "Real text, next to a figure from 1992".

    >>> from lmcore.ngram import AddK
    >>> model = AddK(1).fit([["a", "b"]])   # add-one: P(a) = P(b) = P(</s>) = 2/7, P(<unk>) = 1/7
    >>> f"{surprisal_bits(model, [['b', 'a']]):.4f}"   # 3 tokens of log2(7/2) bits each
    '5.4221'
    """
    check_coding_model(model, "model")
    sentences = _check_sentences(sentences)
    if not sentences:
        return 0.0
    bits = -float(np.sum(model.token_logprobs(sentences))) / math.log(2)
    unknown = _unknown_words(model, sentences)
    if unknown:
        if speller is None:
            raise ValueError(f"sentences has words outside the model's vocabulary ({unknown[0]!r}, ...): "
                             "pass a speller (lmcore.coding.fit_speller) to spell them")
        check_coding_model(speller, "speller")
        bits -= float(np.sum(speller.token_logprobs([list(w) for w in unknown]))) / math.log(2)
        n_points = sum(speller.vocab.id(c) == UNK_ID for w in unknown for c in w)
        bits += n_points * math.log2(CODE_POINTS)
    return bits


class Coder:
    """A range coder driven by ``model`` (and ``speller`` for unknown words): :meth:`encode` and :meth:`decode`.

    It remembers the rows of probabilities it has asked the models for, so that a second
    text, or decoding what it encoded, reuses them: they depend on the models and the
    histories only, which the decoder knows as well as the encoder. It starts afresh when a
    model has been refitted (new counts, vocabulary or weights). :func:`encode` and
    :func:`decode` use a fresh coder each time.
    ``method``: see :func:`encode`.

    Introduced in notebooks/03_cross_entropy.ipynb, section "Real text, next to a figure from 1992".

    >>> from lmcore.ngram import AddK
    >>> coder = Coder(AddK(2).fit([["a", "b"], ["b", "a", "b"]]))
    >>> coder.decode(coder.encode([["b", "b"], ["a"]]).data)
    [['b', 'b'], ['a']]
    """

    def __init__(self, model: LanguageModel, speller: LanguageModel | None = None, *, method: str = "auto"):
        if method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {method!r}")
        check_coding_model(model, "model")
        if speller is not None:
            check_coding_model(speller, "speller")
        self.model, self.speller, self.method = model, speller, method
        try:  # imported here, so that the rest of lmcore (and the explorers) work without it
            import constriction
        except (ImportError, OSError) as error:  # OSError: a wheel whose native library cannot load
            raise ImportError("lmcore.coding.Coder needs the constriction package (chapter 3, "
                              "notebooks/03_cross_entropy.ipynb): pip install constriction") from error
        self._queue = constriction.stream.queue
        self._family = constriction.stream.model.Categorical(perfect=False)
        self._code_point = constriction.stream.model.Uniform(CODE_POINTS)
        self._fresh_rows()

    def _state(self) -> tuple:
        """What the remembered rows depend on: the models' counts (or a neural model's output
        weights), vocabularies and interpolation weights."""
        return tuple((id(getattr(m, "counts", None)), id(getattr(m, "W2", None)), id(m.vocab),
                      repr(getattr(m, "lambdas", None))) for m in (self.model, self.speller) if m is not None)

    def _fresh_rows(self) -> None:
        self.words = Predictor(self.model, self.method)
        self.spelling = None if self.speller is None else Predictor(self.speller, "auto")
        self._remembered = self._state()

    def _current_rows(self) -> None:
        if self._state() != self._remembered:  # a model was refitted since: forget its old rows
            self._fresh_rows()

    # -- encoding

    def _emit(self, encoder, rows) -> float:
        """Send each (row, index) to the coder; the bits they cost."""
        bits = 0.0
        for row, index in rows:
            if row.size > 1:  # a row of one entry is certain: nothing to send
                encoder.encode(np.array([index], dtype=np.int32), self._family, row[None, :])
            bits -= math.log2(row[index] / row.sum())
        return bits

    def encode(self, sentences: Sentences) -> CodedText:
        """Code tokenized ``sentences``; see :func:`encode`."""
        model, speller = self.model, self.speller
        self._current_rows()
        sentences = _check_sentences(sentences)
        if not sentences:
            return CodedText(_pack([], b""), 0, 0, 0, 0, 0.0)
        logprobs = model.token_logprobs(sentences)  # also refuses <s> and </s> inside a sentence
        if np.isneginf(logprobs).any():
            raise ValueError("a token of sentences has probability 0 under the model, so no code can hold it "
                             "(its surprisal is infinite): use a smoothed model")
        unknown = _unknown_words(model, sentences)
        if unknown and speller is None:
            raise ValueError(f"sentences has words outside the model's vocabulary ({unknown[0]!r}, ...): "
                             "pass a speller (lmcore.coding.fit_speller) to spell them")
        words, spelling = self.words, self.spelling
        encoded = [model.vocab.encode(sentence).tolist() + [EOS_ID] for sentence in sentences]
        contexts = [[words.context(ids[:i]) for i in range(len(ids))] for ids in encoded]
        words.prepare(c for sentence in contexts for c in sentence)
        spelled = [speller.vocab.encode(list(w)).tolist() + [EOS_ID] for w in unknown]
        if unknown:
            spelling.prepare(spelling.context(ids[:i]) for ids in spelled for i in range(len(ids)))
        encoder = self._queue.RangeEncoder()
        word_bits, spelling_bits, n_code_points = [], [], 0
        spelled_words = iter(zip(unknown, spelled))
        for ids, sentence_contexts in zip(encoded, contexts):
            for token_id, context in zip(ids, sentence_contexts):
                word_bits.append(self._emit(encoder, words.rows(context, token_id)))
                if token_id != UNK_ID:
                    continue
                word, char_ids = next(spelled_words)  # spelled at once, after its <unk>
                for i, (char, char_id) in enumerate(zip([*word, None], char_ids)):
                    spelling_bits.append(self._emit(encoder, spelling.rows(spelling.context(char_ids[:i]), char_id)))
                    if char_id == UNK_ID:  # a character the speller never saw: its code point
                        encoder.encode(ord(char), self._code_point)
                        n_code_points += 1
        self._check_against_models(word_bits, logprobs, spelling_bits, unknown)
        data = _pack(sentences, encoder.get_compressed().astype("<u4", copy=False).tobytes())
        total = float(np.sum(word_bits) + np.sum(spelling_bits)) + n_code_points * math.log2(CODE_POINTS)
        return CodedText(data, len(sentences), len(word_bits), len(unknown), n_code_points, total)

    def _check_against_models(self, word_bits, logprobs, spelling_bits, unknown) -> None:
        """Every coded share must be the model's probability: raise if a row lost or gained some."""
        checks = [("model", np.asarray(word_bits), -logprobs / math.log(2))]
        if unknown:
            spelled = self.speller.token_logprobs([list(w) for w in unknown])
            checks.append(("speller", np.asarray(spelling_bits), -spelled / math.log(2)))
        for name, coded, expected in checks:
            # a millionth of a bit: a model that computes in float32 (the neural one) gives a token
            # in a row of all outcomes and in a stream the same bits to about 1e-7; a row that lost
            # or gained mass (a model coded by levels that has none) is off by far more
            if not np.allclose(coded, expected, rtol=1e-6, atol=1e-6):
                worst = int(np.argmax(np.abs(coded - expected)))
                raise ValueError(
                    f"method={self.method!r} does not code the {name}'s probabilities (symbol {worst}: "
                    f"{coded[worst]:.6f} bits coded, {expected[worst]:.6f} bits by the {name}): this model is "
                    "no backoff model, use method='dense'")

    # -- decoding

    def decode(self, data: bytes) -> list[list[str]]:
        """The sentences :meth:`encode` coded into ``data``; see :func:`decode`."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"data must be bytes, got {type(data).__name__}")
        data = bytes(data)
        n_sentences, counts, checksum, code = _unpack(data)
        self._current_rows()
        decoder = self._queue.RangeDecoder(np.frombuffer(code, dtype="<u4").astype(np.uint32))

        # Altered code, or another model, may read a text that never ends. Bound in bits, not symbols: a real text's
        # symbols hold about as many bits as the data has (twice, for rounding; a share below 2^-20 counts 20).
        allowed, spent = 16 * len(data) + 128, 0.0

        def read(row: np.ndarray) -> int:
            nonlocal spent
            if row.size == 1:
                return 0
            index = int(_take(decoder, self._family, row[None, :])[0])
            share = row[index] / row.sum()
            spent += 20.0 if share < 2**-20 else -math.log2(share)
            if spent > allowed:
                raise ValueError(f"data does not end where a text would: the {_many(n_sentences, 'coded sentence')} "
                                 "read on far past the bits the code holds; it was altered, or coded with another "
                                 "model, speller or method")
            return index

        words, vocab = self.words, self.model.vocab
        sentences = []
        for _ in range(n_sentences):
            ids: list[int] = []
            sentence: list[str] = []
            while True:
                token_id = words.decode(words.context(ids), read)
                if token_id == EOS_ID:
                    break
                if token_id != UNK_ID:
                    sentence.append(vocab.tokens[token_id])
                elif self.spelling is None:
                    raise ValueError("data holds an unknown word, but no speller was given to spell it (or the data "
                                     "was altered)")
                else:
                    sentence.append(self._read_word(decoder, read))
                ids.append(token_id)
            sentences.append(sentence)
        if _checksum(sentences, counts, code) != checksum:
            raise ValueError("checksum mismatch: the data was altered, or it was coded with another model, speller "
                             "or method than the ones decoding it")
        return sentences

    def _read_word(self, decoder, read) -> str:
        chars: list[str] = []
        spelled: list[int] = []
        spelling, tokens = self.spelling, self.speller.vocab.tokens
        while True:  # read() ends a word that never ends
            char_id = spelling.decode(spelling.context(spelled), read)
            if char_id == EOS_ID:
                return "".join(chars)
            chars.append(chr(int(_take(decoder, self._code_point))) if char_id == UNK_ID else tokens[char_id])
            spelled.append(char_id)


def _take(decoder, *model):
    """The next symbol(s) of ``decoder``; constriction's ``AssertionError`` for code that no row can have
    written as the ``ValueError`` it means here."""
    try:
        return decoder.decode(*model)
    except AssertionError as error:
        raise ValueError(f"the code is not valid for the model's probabilities ({error}): the data was altered, or "
                         "coded with another model, speller or method") from None


def encode(model: LanguageModel, sentences: Sentences, speller: LanguageModel | None = None, *,
           method: str = "auto") -> CodedText:
    """Code tokenized ``sentences`` losslessly with a range coder driven by ``model``.

    Each token is coded with the probability the model gives it after its history (the
    model's convention frames the sentence: ``<s>`` padding, one ``</s>`` after it, which
    must be an outcome); a word outside the vocabulary is coded as ``<unk>`` and spelled
    by ``speller`` (see :func:`fit_speller`); a token of probability 0 cannot be coded
    (``ValueError``: it would take infinitely many bits). ``method``: ``"backoff"`` codes
    a Kneser-Ney model's probabilities level by level, fast at any vocabulary size
    (:mod:`lmcore.coding`); ``"dense"`` any model, from its whole next-token
    distribution, slow for a large vocabulary; ``"auto"`` picks the first for
    :class:`~lmcore.ngram.KneserNey`. The coded symbols' shares are checked against
    ``model.token_logprobs``: they must be the model's probabilities.

    Introduced in notebooks/03_cross_entropy.ipynb, section "Real text, next to a figure from 1992".
    """
    return Coder(model, speller, method=method).encode(sentences)


def decode(data: bytes, model: LanguageModel, speller: LanguageModel | None = None, *,
           method: str = "auto") -> list[list[str]]:
    """The sentences :func:`encode` coded into ``data``, with the same ``model``, ``speller`` and ``method``.

    ``ValueError`` for data that is cut short, goes on past its code, or was altered (or is
    decoded with another model, speller or method): the module's "Format of the bytes".

    Introduced in notebooks/03_cross_entropy.ipynb, section "Real text, next to a figure from 1992".
    """
    return Coder(model, speller, method=method).decode(data)
