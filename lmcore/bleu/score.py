"""BLEU that shows its work (Papineni et al., 2002).

    BLEU = BP * exp(sum_n w_n log p_n),   n = 1..N (the max order)
    p_n  = clipped hypothesis n-gram counts / hypothesis n-gram counts
    BP   = 1 if c > r else exp(1 - r/c);  BP = 0 when c = 0

c is the hypothesis length, r the reference length closest to c (ties: the
shorter). An n-gram's count is clipped at its largest count in any single
reference. Corpus BLEU adds up all sentences' counts and lengths, then combines
them once: it is not the mean of the sentence scores. ``references[i]`` is the
list of references of ``hypotheses[i]``, as in nltk; sacrebleu's reference
*streams* (``streams[j][i]``: j-th reference of sentence i, None if missing)
convert with ``references_from_streams``.

This module counts (``sentence_stats``, ``corpus_stats``, ``sentence_stats_matrix``,
``ngram_matches``) and combines (``bleu_from_stats``); ``corpus_bleu`` and ``sentence_bleu`` do
both in one call. Each takes its settings as one ``BleuSettings`` (``signature``; a ``BLEU`` is
one) or builds one from its keyword arguments, so they are checked once per call.

Where lmcore, sacrebleu 2.6 and nltk 3.10 differ (tests/parity/test_bleu_parity.py):

- Same tokens and settings give sacrebleu's score (to ~1e-13 on its 0-100 scale).
- Defaults: smooth_method="none", effective_order=False at both levels, so
  sentence_bleu(h, refs) == corpus_bleu([h], [refs]) and one BLEU() serves
  both. sacrebleu smooths with "exp" by default, and its sentence_bleu (not
  its BLEU().sentence_score) turns effective_order on.
- nltk's corpus_bleu(list_of_references, hypotheses) takes them reversed.
- Weights: sacrebleu's are uniform; nltk's set the max order; here they must
  have max_order entries. "halving" (1/2^n, Dive into Deep Learning) is
  non-standard: those weights sum to 1 - 2^-N, not 1.
- effective_order (sacrebleu's) drops the orders for which the hypothesis has
  no n-gram at all (not those without matches, as its docstring says); their
  weight goes to the kept orders in proportion (uniform: 1/orders kept).
- Totals: nltk counts max(1, count) n-grams per sentence and order, sacrebleu
  the count; ``nltk_totals=True`` reproduces nltk.
- nltk's method1, method2, method3 are "floor" (0.1), "add-k" (1, orders
  >= 2) and "exp": equal to ~1e-15 with nltk_totals=True, for any weights.
- nltk's method0 gives an order without matches the precision 2.2e-308: a
  tiny score (<= 1e-77 for uniform weights) and a warning, where we give 0.
- nltk's method4 (not provided) is "exp" with each smoothed precision times
  ln(c)/5, c = total hypothesis length (no smoothing if c <= 1). Methods 5-7
  are not provided (nltk's corpus_bleu hands them the last sentence only).
- No unigram match: score 0 whatever the smoothing, in all three tools.
- c = r = 0: BP is 0 here and in nltk, 1 in sacrebleu (the score is 0).
- Strings go through sacrebleu's own tokenizers after ``rstrip``, as in
  sacrebleu; nltk takes token lists only. Unspaced Chinese is one token for
  13a/intl/none: lmcore warns and suggests tokenize="zh" or "char".
- ``lowercase=True`` lowercases strings before tokenizing, as sacrebleu does, and token lists too.
- Each result keeps a ``BleuSignature`` (``lmcore.bleu``): sacrebleu's signature fields
  plus the max order and the weights, which sacrebleu's leaves out.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from lmcore.bleu.signature import PRETOKENIZED, BleuSettings, BleuSignature, _tokenize_text, _warn_unspaced

__all__ = ["BleuStats", "BleuResult", "NgramRow",
           "references_from_streams", "sentence_stats", "corpus_stats", "ngram_matches",
           "sentence_stats_matrix", "brevity_penalty", "bleu_from_stats", "corpus_bleu", "sentence_bleu"]

def references_from_streams(streams: Sequence[Sequence[str | None]]) -> list[list[str]]:
    """Turn sacrebleu's reference streams into one list of references per hypothesis.

    ``streams[j][i]`` is the j-th reference of sentence i; ``None`` marks a
    missing one, so sentences may have different numbers of references.

    >>> references_from_streams([["a b", "c d"], ["a c", None]])
    [['a b', 'a c'], ['c d']]
    """
    if isinstance(streams, str) or not isinstance(streams, Sequence) or not streams:
        raise TypeError("streams must be a non-empty list of reference streams (lists of str)")
    for j, stream in enumerate(streams):
        if isinstance(stream, (str, bytes)) or not isinstance(stream, Sequence):
            raise TypeError(f"streams[{j}] must be a list of references (str or None), one per hypothesis, "
                            f"got {type(stream).__name__}")
        for i, ref in enumerate(stream):
            if ref is not None and not isinstance(ref, (str, list, tuple)):
                raise TypeError(f"streams[{j}][{i}] must be a reference (a str or a token list) or None, "
                                f"got {type(ref).__name__}")
    lengths = {len(stream) for stream in streams}
    if len(lengths) != 1:
        raise ValueError(f"streams have different lengths {sorted(lengths)}; "
                         "each needs one entry (or None) per hypothesis")
    return [[ref for ref in refs if ref is not None] for refs in zip(*streams)]


@dataclass(frozen=True)
class BleuStats:
    """What BLEU needs: per order n, ``matches[n-1]`` clipped matches among ``totals[n-1]``
    hypothesis n-grams; the hypothesis length ``hyp_len`` (c) and the effective
    reference length ``ref_len`` (r). Corpus statistics are sums: ``a + b``, ``sum(...)``.

    >>> BleuStats((2, 1), (4, 3), 4, 4) + BleuStats((2, 0), (3, 2), 3, 4)
    BleuStats(matches=(4, 1), totals=(7, 5), hyp_len=7, ref_len=8)
    """

    matches: tuple[int, ...]
    totals: tuple[int, ...]
    hyp_len: int
    ref_len: int

    def __post_init__(self):
        for name in ("matches", "totals"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                raise TypeError(f"{name} must be a tuple of counts, one per order, got {type(value).__name__}")
            object.__setattr__(self, name, tuple(_count_of(x, f"{name}[{n}]") for n, x in enumerate(value)))
        for name in ("hyp_len", "ref_len"):
            object.__setattr__(self, name, _count_of(getattr(self, name), name))
        if not self.matches or len(self.matches) != len(self.totals):
            raise ValueError(f"matches and totals need one entry per order, "
                             f"got {self.matches} and {self.totals}")
        consistent = all(0 <= m <= t for m, t in zip(self.matches, self.totals))
        if self.hyp_len < 0 or self.ref_len < 0 or not consistent:
            raise ValueError(f"need lengths >= 0 and 0 <= matches <= totals, got {self}")

    @property
    def max_order(self) -> int:
        return len(self.matches)

    def __add__(self, other: BleuStats) -> BleuStats:
        if not isinstance(other, BleuStats):
            return NotImplemented
        if other.max_order != self.max_order:
            raise ValueError(f"cannot add statistics of max order {self.max_order} and {other.max_order}")
        return BleuStats(tuple(a + b for a, b in zip(self.matches, other.matches)),
                         tuple(a + b for a, b in zip(self.totals, other.totals)),
                         self.hyp_len + other.hyp_len, self.ref_len + other.ref_len)

    def __radd__(self, other):
        return self if other == 0 else NotImplemented  # sum() starts from 0


def _count_of(value: object, name: str) -> int:
    """``value`` as an int if it is a whole number (an int, a numpy int, or a float such as 3.0 that
    sums of statistics give); a bool, a str or a fraction is no count."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a whole number (a count), got {type(value).__name__} {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if not (math.isfinite(value) and value == int(value)):
        raise ValueError(f"{name} must be a whole number (a count), got {value!r}")
    return int(value)


def _one_sentence(references) -> list:
    if isinstance(references, str):
        raise TypeError("references must be a list of references; wrap a single one: [reference]")
    return [references]


def _corpus_shape(hypotheses, references) -> tuple[int | str, bool]:
    """Check a corpus's lists without tokenizing anything; return the number of references per
    hypothesis ("var" if it varies) and whether the corpus is text rather than token lists."""
    for name, value in (("hypotheses", hypotheses), ("references", references)):
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{name} must be a list with one entry per sentence, got "
                            f"{type(value).__name__}; for one sentence use sentence_bleu")
    if not hypotheses:
        raise ValueError("hypotheses is empty")
    if len(hypotheses) != len(references):
        raise ValueError(f"hypotheses has {len(hypotheses)} items but references has {len(references)}; "
                         "give one list of references per hypothesis (see references_from_streams)")
    ref_counts = set()
    for i, refs in enumerate(references):
        if isinstance(refs, str) or not isinstance(refs, (list, tuple)):
            raise TypeError(f"references[{i}] must be a list of references for hypotheses[{i}], "
                            f"got {type(refs).__name__}; wrap a single reference in a list")
        if not refs:
            raise ValueError(f"references[{i}] is empty; every hypothesis needs a reference")
        ref_counts.add(len(refs))
    return ref_counts.pop() if len(ref_counts) == 1 else "var", isinstance(hypotheses[0], str)


def _tokenized(hypotheses, references, settings: BleuSettings, texts: bool):
    """The token lists of a corpus checked by ``_corpus_shape``, lowercased first if asked (as sacrebleu)."""
    tokenize, lowercase, unspaced = settings.tokenize, settings.lowercase, []

    def tokens_of(item, where: str):
        if texts and isinstance(item, str):
            tokens, one_token = _tokenize_text(item.lower() if lowercase else item, tokenize)
            if one_token:
                unspaced.append(item)
            return tokens
        if not texts and isinstance(item, (list, tuple)):
            if set(map(type, item)) - {str}:  # the fast check; str subclasses still pass below
                for k, token in enumerate(item):
                    if not isinstance(token, str):
                        raise TypeError(f"{where}[{k}] is a {type(token).__name__}; tokens must be str")
            return [token.lower() for token in item] if lowercase else item  # a copy: never the caller's
        expected = "a string like hypotheses[0]" if texts else "a list of str tokens like hypotheses[0]"
        raise TypeError(f"{where} must be {expected}, got {type(item).__name__} "
                        "(do not mix strings and token lists)")

    hyp_tokens, ref_tokens = [], []
    for i, (hyp, refs) in enumerate(zip(hypotheses, references)):
        hyp_tokens.append(tokens_of(hyp, f"hypotheses[{i}]"))
        ref_tokens.append([tokens_of(ref, f"references[{i}][{j}]") for j, ref in enumerate(refs)])
    if unspaced:
        _warn_unspaced(unspaced[0], tokenize)
    return hyp_tokens, ref_tokens


def _ngrams(tokens: Sequence[str], n: int):
    # Unigrams stay plain strings: cheaper to hash than 1-tuples.
    return tokens if n == 1 else zip(*(tokens[i:] for i in range(n)))


def _count(hyp: Sequence[str], refs: list, max_order: int, nltk_totals: bool, stats: list) -> None:
    """Add one sentence's c, r, clipped matches and totals to ``stats`` = [c, r, m_1.., t_1..]."""
    hyp_len = len(hyp)
    stats[0] += hyp_len
    stats[1] += min((len(ref) for ref in refs), key=lambda length: (abs(length - hyp_len), length))
    matched = 0
    for n in range(1, max_order + 1):
        total = hyp_len - n + 1
        if total <= 0:  # too short for this order and every higher one: no n-grams, no matches
            if nltk_totals:  # nltk counts max(1, total) = 1 for each of them
                for m in range(n, max_order + 1):
                    stats[1 + max_order + m] += 1
            return
        stats[1 + max_order + n] += total
        if n > 1 and not matched:  # no (n-1)-gram match: no n-gram match either
            continue
        most = Counter(_ngrams(refs[0], n))
        for ref in refs[1:]:
            for ngram, count in Counter(_ngrams(ref, n)).items():
                if count > most[ngram]:
                    most[ngram] = count
        matched, limit_of = 0, most.get
        for ngram, count in Counter(_ngrams(hyp, n)).items():
            limit = limit_of(ngram)
            if limit:
                matched += count if count < limit else limit
        stats[1 + n] += matched


def _counted(hypotheses, references, settings: BleuSettings, texts: bool, per_sentence: bool) -> list[list[int]]:
    """[c, r, m_1.., t_1..] of each sentence if ``per_sentence``, else one row: the corpus's sums."""
    hyp_tokens, ref_tokens = _tokenized(hypotheses, references, settings, texts)
    order, rows = settings.max_order, [] if per_sentence else [[0] * (2 + 2 * settings.max_order)]
    for hyp, refs in zip(hyp_tokens, ref_tokens):
        if per_sentence:
            rows.append([0] * (2 + 2 * order))
        _count(hyp, refs, order, settings.nltk_totals, rows[-1])
    return rows


def _corpus_stats(hypotheses, references, settings: BleuSettings, texts: bool) -> BleuStats:
    (stats,), order = _counted(hypotheses, references, settings, texts, per_sentence=False), settings.max_order
    return BleuStats(stats[2:2 + order], stats[2 + order:], stats[0], stats[1])


def corpus_stats(hypotheses: Sequence[str | Sequence[str]], references: Sequence[Sequence[str | Sequence[str]]],
                 settings: BleuSettings | None = None, **options: object) -> BleuStats:
    """The sum of the sentence statistics of a corpus (see ``sentence_stats``).

    >>> corpus_stats([["a", "b"]], [[["a", "c"]]], max_order=2)
    BleuStats(matches=(1, 0), totals=(2, 1), hyp_len=2, ref_len=2)
    """
    settings = BleuSettings.of(settings, **options)
    return _corpus_stats(hypotheses, references, settings, _corpus_shape(hypotheses, references)[1])


def sentence_stats(hypothesis: str | Sequence[str], references: Sequence[str | Sequence[str]],
                   settings: BleuSettings | None = None, **options: object) -> BleuStats:
    """Clipped matches and totals per order, c and r, for one hypothesis.

    matches_n = sum over hypothesis n-grams g of min(count(g), max_j count_in_ref_j(g));
    totals_n = max(0, c - n + 1), or max(1, c - n + 1) with ``nltk_totals`` (nltk's
    convention). Strings are tokenized with ``tokenize``; token lists are used as is.
    ``lowercase`` lowercases both before anything else. The settings that count are those four
    and ``max_order``, of a ``BleuSettings`` or given as keyword arguments (``options``).

    >>> sentence_stats("我 是 一位 老师".split(), [["我", "是", "一个", "学生"]], max_order=2)
    BleuStats(matches=(2, 1), totals=(4, 3), hyp_len=4, ref_len=4)
    """
    return corpus_stats([hypothesis], _one_sentence(references), settings, **options)


def sentence_stats_matrix(hypotheses: Sequence[str | Sequence[str]],
                          references: Sequence[Sequence[str | Sequence[str]]], settings: BleuSettings | None = None,
                          **options: object) -> np.ndarray:
    """``sentence_stats`` of every sentence of a corpus as an int64 matrix, one row per sentence, in
    sacrebleu's column order c, r, matches_1..matches_N, totals_1..totals_N (``stats_matrix``'s):
    what the paired bootstrap resamples. Summing the rows gives ``corpus_stats``.

    Introduced in notebooks/06_bleu.ipynb, section "Going further: Is A better than B?".

    >>> sentence_stats_matrix(["a b c", "a b"], [["a b c"], ["a c"]], max_order=2)
    array([[3, 3, 3, 2, 3, 2],
           [2, 2, 1, 0, 2, 1]])
    """
    settings = BleuSettings.of(settings, **options)
    texts = _corpus_shape(hypotheses, references)[1]
    return np.array(_counted(hypotheses, references, settings, texts, per_sentence=True), dtype=np.int64)


class NgramRow(NamedTuple):
    """One distinct hypothesis n-gram, its counts and its clipped count."""

    order: int
    ngram: tuple[str, ...]
    count: int  # in the hypothesis
    ref_counts: tuple[int, ...]  # in each reference
    clipped_count: int  # min(count, max(ref_counts))
    clip_ref: int | None  # the reference with the most copies (first on ties); None if in none


def ngram_matches(hypothesis: str | Sequence[str], references: Sequence[str | Sequence[str]],
                  settings: BleuSettings | None = None, **options: object) -> list[NgramRow]:
    """How each distinct hypothesis n-gram matches: its count, its count in each reference and its
    clipped count min(count, max ref count), order by order, in order of first appearance.

    Summed over the rows of order n, ``clipped_count`` and ``count`` give the
    ``matches`` and ``totals`` of ``sentence_stats``.

    >>> ngram_matches(["a", "a"], [["a", "b"], ["a", "a"]], max_order=1)
    [NgramRow(order=1, ngram=('a',), count=2, ref_counts=(1, 2), clipped_count=2, clip_ref=1)]
    """
    settings = BleuSettings.of(settings, **options)
    references = _one_sentence(references)
    (hyp,), (refs,) = _tokenized([hypothesis], references, settings, _corpus_shape([hypothesis], references)[1])
    rows = []
    for n in range(1, settings.max_order + 1):
        ref_counters = [Counter(zip(*(ref[i:] for i in range(n)))) for ref in refs]
        for ngram, count in Counter(zip(*(hyp[i:] for i in range(n)))).items():
            ref_counts = tuple(counter[ngram] for counter in ref_counters)
            most = max(ref_counts)
            rows.append(NgramRow(n, ngram, count, ref_counts, min(count, most),
                                 ref_counts.index(most) if most else None))
    return rows


def brevity_penalty(hyp_len: int, ref_len: int) -> float:
    """BP = 1 if c > r, else exp(1 - r/c); 0 for an empty hypothesis.

    >>> round(brevity_penalty(2, 6), 4)
    0.1353
    """
    hyp_len, ref_len = _count_of(hyp_len, "hyp_len"), _count_of(ref_len, "ref_len")
    if hyp_len < 0 or ref_len < 0:
        raise ValueError(f"lengths must be >= 0, got hyp_len={hyp_len}, ref_len={ref_len}")
    if hyp_len > ref_len:
        return 1.0
    if not hyp_len:
        return 0.0
    try:
        return math.exp(1.0 - ref_len / hyp_len)
    except OverflowError:  # r / c beyond a float: the penalty is as good as exp(-inf)
        return 0.0


@dataclass(frozen=True)
class BleuResult:
    """A BLEU score and its parts: ``score`` (0-1; ``score100`` on 0-100), the
    ``precisions`` p_n as used (after smoothing), the ``brevity_penalty``, the
    ``weights`` as applied (0 for orders left out), the ``stats`` and the
    ``signature`` (a ``BleuSignature``; ``str`` gives its full form)."""

    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    weights: tuple[float, ...]
    stats: BleuStats
    signature: BleuSignature

    @property
    def score100(self) -> float:
        return 100.0 * self.score

    def __str__(self) -> str:
        precisions = "/".join(f"{p:.4f}" for p in self.precisions)
        return (f"BLEU = {self.score:.4f} (p_n = {precisions}, BP = {self.brevity_penalty:.4f}, "
                f"c = {self.stats.hyp_len}, r = {self.stats.ref_len}) {self.signature}")


def bleu_from_stats(stats: BleuStats, settings: BleuSettings | None = None, *, nrefs: int | str = 1,
                    **options: object) -> BleuResult:
    """BLEU = BP * exp(sum_n w_n log p_n) from statistics, smoothed as in sacrebleu.

    An order without a match gets p_n = 0 with "none" (score 0), k / total_n with
    "floor" (k = ``smooth_value``, default 0.1), 1 / (2^j total_n) with "exp" for the
    j-th such order; "add-k" adds k (default 1) to matches and totals of orders
    n >= 2. No unigram match gives 0 whatever the smoothing. An order without any
    hypothesis n-gram gives 0 unless ``effective_order`` drops it and shares its
    weight among the kept orders in proportion. Orders of weight 0 never count.

    The settings are a ``BleuSettings`` (or a ``BLEU``), or its keyword arguments (``options``:
    ``weights``, ``smooth_method``, ``smooth_value``, ``effective_order``, ...), the max order
    that of ``stats``. ``nrefs`` (an int or "var"), ``tokenize`` (or "pretokenized"),
    ``lowercase`` and ``nltk_totals`` say how ``stats`` were counted, which statistics cannot
    tell: they change no number here, only the signature. The defaults are ``corpus_stats``'s
    on strings with one reference each.

    >>> result = bleu_from_stats(BleuStats((5, 2), (7, 5), 7, 8), nrefs="var", tokenize="pretokenized")
    >>> round(result.score, 5), result.signature.format(short=True).split("|")[:4]
    (0.46337, ['#:var', 'c:mixed', 'e:no', 'tok:pretokenized'])
    """
    if not isinstance(stats, BleuStats):
        raise TypeError(f"stats must be a BleuStats, got {type(stats).__name__}")
    pretokenized = options.get("tokenize") == PRETOKENIZED
    if pretokenized:
        options = {name: value for name, value in options.items() if name != "tokenize"}
    if settings is None:
        options.setdefault("max_order", stats.max_order)
    settings = BleuSettings.of(settings, **options)
    if settings.max_order != stats.max_order:
        raise ValueError(f"stats are of max order {stats.max_order} but max_order is {settings.max_order}")
    return _combine(stats, settings.signature(nrefs, pretokenized=pretokenized))


def corpus_bleu(hypotheses: Sequence[str | Sequence[str]], references: Sequence[Sequence[str | Sequence[str]]],
                settings: BleuSettings | None = None, **options: object) -> BleuResult:
    """Corpus BLEU: every sentence's matches, totals, c and r added up, then combined once
    (``BLEU(**options).corpus_score`` is the same).

    ``hypotheses[i]``: a string or a token list; ``references[i]``: the list of its references,
    of the same kind (from sacrebleu's streams: ``references_from_streams``). Strings are
    tokenized with ``tokenize``, token lists used as they are (the signature then says
    "tok:pretokenized"); ``lowercase`` applies to both, as in sacrebleu. The settings are a
    ``BleuSettings`` (or a ``BLEU``) or its keyword arguments (``options``: ``max_order``,
    ``weights``, ``smooth_method``, ...; see ``BleuSettings``), checked once; see
    ``bleu_from_stats`` for smoothing, ``BleuSignature`` for the signature.

    >>> hyps = ["我 是 一位 老师".split(), "跟我 学 深度学习".split()]
    >>> refs = [[["我", "是", "一个", "学生"], ["我", "是", "一位", "学生", "。"]],
    ...         [["跟我", "一起", "学", "机器学习"]]]
    >>> result = corpus_bleu(hyps, refs, max_order=2)
    >>> round(result.score, 5), result.stats
    (0.46337, BleuStats(matches=(5, 2), totals=(7, 5), hyp_len=7, ref_len=8))
    """
    settings = BleuSettings.of(settings, **options)
    nrefs, texts = _corpus_shape(hypotheses, references)
    signature = settings.signature(nrefs, pretokenized=not texts)
    return _combine(_corpus_stats(hypotheses, references, settings, texts), signature)


def sentence_bleu(hypothesis: str | Sequence[str], references: Sequence[str | Sequence[str]],
                  settings: BleuSettings | None = None, **options: object) -> BleuResult:
    """BLEU of one hypothesis against the list of its references: exactly
    ``corpus_bleu([hypothesis], [references], settings, **options)``.

    Same defaults as ``corpus_bleu``; sacrebleu's ``sentence_bleu`` defaults to
    smooth_method="exp" and effective_order=True instead.

    >>> round(sentence_bleu("我 是 一位 老师", ["我 是 一个 学生"], max_order=2).score, 4)
    0.4082
    """
    return corpus_bleu([hypothesis], _one_sentence(references), settings, **options)


def _combine(stats: BleuStats, signature: BleuSignature) -> BleuResult:
    settings = signature.settings
    order, weights, smooth_method = stats.max_order, settings.weight_values, settings.smooth_method
    k = settings.smooth_value_used
    bp = brevity_penalty(stats.hyp_len, stats.ref_len)
    precisions, used = [0.0] * order, [0.0] * order
    kept, halvings = 0, 0
    if any(stats.matches):
        for n, (matches, total) in enumerate(zip(stats.matches, stats.totals)):
            if smooth_method == "add-k" and n > 0:
                matches, total = matches + k, total + k
            if total == 0:
                break  # the hypothesis is too short for this order and all higher ones
            kept = n + 1
            if matches:
                precisions[n] = matches / total
            elif smooth_method == "exp":
                halvings += 1
                precisions[n] = 1.0 / (2 ** halvings * total)
            elif smooth_method == "floor":
                precisions[n] = k / total
    kept_weight = sum(weights[:kept])
    if kept_weight > 0 and (settings.effective_order or not any(weights[kept:])):
        scale = sum(weights) / kept_weight if settings.effective_order else 1.0
        used[:kept] = [weight * scale for weight in weights[:kept]]
    weighted = [(w, p) for w, p in zip(used, precisions) if w > 0]
    if not weighted or bp == 0 or any(p == 0 for _, p in weighted):
        score = 0.0
    else:
        score = math.exp(math.log(bp) + math.fsum(w * math.log(p) for w, p in weighted))
    return BleuResult(score, tuple(precisions), bp, tuple(used), stats, signature)
