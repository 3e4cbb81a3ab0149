"""lmcore.bleu against sacrebleu and nltk on the same tokens.

Random cases come from a seeded numpy generator, so every run checks the same
1,400+ cases; each case is printed in the assertion message when it fails.
Every convention where the tools differ is pinned here, as listed in the
lmcore.bleu module docstring.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
import sacrebleu
from nltk.translate import bleu_score
from sacrebleu.metrics import BLEU

from lmcore import __version__
from lmcore.bleu import corpus_bleu, corpus_stats, references_from_streams, sentence_bleu

SMOOTHINGS = ("none", "floor", "add-k", "exp")


def random_sentence(rng, vocabulary, longest):
    # Mostly short sentences, sometimes long ones, sometimes empty.
    length = int(rng.integers(0, longest + 1)) if rng.random() < 0.8 else int(rng.integers(0, 4 * longest))
    return [vocabulary[i] for i in rng.integers(0, len(vocabulary), size=length)]


def random_corpus(rng, n_sentences):
    size = int(rng.integers(2, 15))
    vocabulary = [f"w{i}" for i in range(size)] + ["我", "是", "老师"][: int(rng.integers(0, 4))]
    hypotheses, references = [], []
    for _ in range(n_sentences):
        references.append([random_sentence(rng, vocabulary, 12) for _ in range(int(rng.integers(1, 5)))])
        hypotheses.append(random_sentence(rng, vocabulary, 12))
    return hypotheses, references


def random_settings(rng):
    smooth_method = SMOOTHINGS[int(rng.integers(0, 4))]
    smooth_value = None
    if smooth_method in ("floor", "add-k") and rng.random() < 0.3:
        smooth_value = float(rng.choice([0.0, 0.01, 0.5, 2.0]))
    return dict(max_order=int(rng.integers(1, 5)), smooth_method=smooth_method,
                smooth_value=smooth_value, effective_order=bool(rng.random() < 0.5))


def to_streams(references):
    """sacrebleu's layout: stream j holds reference j of every sentence, or None."""
    width = max(len(refs) for refs in references)
    def text(ref):
        return ref if isinstance(ref, str) else " ".join(ref)
    return [[text(refs[j]) if j < len(refs) else None for refs in references] for j in range(width)]


def sacrebleu_metric(settings):
    return BLEU(tokenize="none", smooth_method=settings["smooth_method"],
                smooth_value=settings["smooth_value"], max_ngram_order=settings["max_order"],
                effective_order=settings["effective_order"])


def assert_same_as_sacrebleu(ours, theirs, settings, case):
    assert abs(ours.score100 - theirs.score) <= 1e-9, case
    assert [100 * p for p in ours.precisions] == pytest.approx(theirs.precisions, abs=1e-9), case
    assert (ours.stats.hyp_len, ours.stats.ref_len) == (theirs.sys_len, theirs.ref_len), case
    if settings["smooth_method"] != "add-k":  # sacrebleu adds k to its reported counts in place
        assert list(ours.stats.matches) == list(theirs.counts), case
        assert list(ours.stats.totals) == list(theirs.totals), case
    if ours.stats.hyp_len:
        assert ours.brevity_penalty == pytest.approx(theirs.bp, rel=1e-15), case


def test_sentence_level_matches_sacrebleu_on_800_random_cases():
    rng = np.random.default_rng(20240509)
    for case in range(800):
        (hypothesis,), (references,) = random_corpus(rng, 1)
        settings = random_settings(rng)
        theirs = sacrebleu_metric(settings).sentence_score(" ".join(hypothesis),
                                                           [" ".join(r) for r in references])
        ours = sentence_bleu(hypothesis, references, **settings)
        assert_same_as_sacrebleu(ours, theirs, settings, (case, hypothesis, references, settings))


def test_corpus_level_matches_sacrebleu_on_600_random_cases():
    rng = np.random.default_rng(7)
    for case in range(600):
        hypotheses, references = random_corpus(rng, int(rng.integers(1, 6)))
        settings = random_settings(rng)
        theirs = sacrebleu_metric(settings).corpus_score([" ".join(h) for h in hypotheses],
                                                         to_streams(references))
        ours = corpus_bleu(hypotheses, references, **settings)
        assert_same_as_sacrebleu(ours, theirs, settings, (case, hypotheses, references, settings))
        # The same corpus given as strings, through the stream converter.
        streams = to_streams(references)
        again = corpus_bleu([" ".join(h) for h in hypotheses], references_from_streams(streams),
                            tokenize="none", **settings)
        assert again.score == ours.score


SENTENCES = [
    ("The cat sat on the mat.", ["The cat is sitting on the mat.", "A cat sat on the mat!"]),
    ("It's 3.5 km (about 2 miles) away, isn't it?", ["It is 3.5 km away, is it not?"]),
    ("Don't panic -- \"quotes\" & <tags>", ["Do not panic: 'quotes' & <tags>"]),
    ("我是一位老师。", ["我是一个学生。", "我是一位学生。"]),
    ("跟我学深度学习“很好”…", ["跟我一起学机器学习。"]),
    ("Ünïcödé — naïve café, 10,000 €.", ["Unicode: naive cafe, 10.000 €"]),
    ("THE Dog barked at the Mailman, ÉMILE.", ["The dog barked at the mailman, Émile!"]),  # case matters
]


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none"])
def test_strings_are_tokenized_exactly_like_sacrebleu(tokenize, lowercase):
    hypotheses = [h for h, _ in SENTENCES]
    references = [refs for _, refs in SENTENCES]
    for smooth_method in SMOOTHINGS:
        metric = BLEU(tokenize=tokenize, smooth_method=smooth_method, lowercase=lowercase)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # unspaced Chinese under 13a/intl/none
            ours = corpus_bleu(hypotheses, references, tokenize=tokenize, smooth_method=smooth_method,
                               lowercase=lowercase)
        theirs = metric.corpus_score(hypotheses, to_streams(references))
        assert abs(ours.score100 - theirs.score) <= 1e-9
        assert list(ours.stats.totals) == list(theirs.totals) or smooth_method == "add-k"


def test_sacrebleu_defaults_differ_and_are_one_setting_away():
    hypothesis, references = "the cat sat on a mat", ["a cat sat on the mat"]
    theirs = sacrebleu.sentence_bleu(hypothesis, references)  # exp smoothing, effective order
    assert sentence_bleu(hypothesis, references).score == 0.0  # no 4-gram match, no smoothing
    ours = sentence_bleu(hypothesis, references, smooth_method="exp", effective_order=True)
    assert abs(ours.score100 - theirs.score) <= 1e-9
    corpus = sacrebleu.corpus_bleu([hypothesis], [references])  # exp smoothing, no effective order
    assert abs(corpus_bleu([hypothesis], [references], smooth_method="exp").score100 - corpus.score) <= 1e-9


def test_our_signature_states_the_max_order_and_sacrebleus_does_not():
    metric = BLEU(tokenize="none", max_ngram_order=2)
    metric.corpus_score(["a b"], [["a b"]])
    assert "2" not in str(metric.get_signature()).replace("2.6", "")
    ours = str(corpus_bleu(["a b"], [["a b"]], tokenize="none", max_order=2).signature)
    assert "|max_order:2|weights:uniform|" in ours


def fields(signature: str) -> dict[str, str]:
    return dict(pair.split(":", 1) for pair in signature.split("|"))


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none"])
def test_our_signature_has_sacrebleus_fields_names_order_and_values(tokenize):
    hypotheses, streams = ["The cat sat", "a dog"], [["the cat sat", "a dog"], ["a cat", None]]
    settings = itertools.product(SMOOTHINGS, (False, True), (False, True), (streams, streams[:1]), (False, True))
    for smooth_method, lowercase, effective_order, refs, short in settings:  # refs: variable, then fixed nrefs
        metric = BLEU(tokenize=tokenize, smooth_method=smooth_method, lowercase=lowercase,
                      effective_order=effective_order)
        metric.corpus_score(hypotheses, refs)
        ours = corpus_bleu(hypotheses, references_from_streams(refs), tokenize=tokenize, smooth_method=smooth_method,
                           lowercase=lowercase, effective_order=effective_order).signature
        theirs, mine = fields(metric.get_signature().format(short=short)), fields(ours.format(short=short))
        shared = list(theirs)[:-1]  # all but the version, which both put last
        assert list(mine)[:len(shared)] == shared and list(mine)[-1] == list(theirs)[-1]
        for key in shared:  # sacrebleu writes smooth values with two decimals, lmcore in full
            assert mine[key] == theirs[key].replace("[0.10]", "[0.1]").replace("[1.00]", "[1]")
        assert mine[list(mine)[-1]] == f"lmcore-{__version__}"


def test_empty_hypothesis_brevity_penalty_is_zero_here_and_one_in_sacrebleu():
    theirs = BLEU(tokenize="none").corpus_score([""], [[""]])
    ours = corpus_bleu([""], [[""]], tokenize="none")
    assert (theirs.bp, theirs.score) == (1.0, 0.0)
    assert (ours.brevity_penalty, ours.score) == (0.0, 0.0)
    assert bleu_score.brevity_penalty(0, 0) == 0


# ---------------------------------------------------------------- nltk ----

def nltk_bleu(hypotheses, references, weights, method):
    smoothing = getattr(bleu_score.SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # method0 warns about orders without matches
        return bleu_score.corpus_bleu(references, hypotheses, weights=weights, smoothing_function=smoothing)


NLTK_EQUIVALENT = {1: "floor", 2: "add-k", 3: "exp"}


def test_nltk_methods_1_to_3_match_with_nltk_totals_on_300_random_cases():
    rng = np.random.default_rng(3)
    for case in range(300):
        hypotheses, references = random_corpus(rng, int(rng.integers(1, 5)))
        max_order = int(rng.integers(1, 5))
        weights = tuple(float(w) for w in rng.uniform(0.05, 1.0, size=max_order))
        method = int(rng.integers(1, 4))
        ours = corpus_bleu(hypotheses, references, max_order=max_order, weights=weights,
                           smooth_method=NLTK_EQUIVALENT[method], nltk_totals=True)
        theirs = nltk_bleu(hypotheses, references, weights, method)
        assert ours.score == pytest.approx(theirs, rel=1e-12, abs=1e-300), (case, method)
        if ours.score != 0:
            assert sentence_bleu(hypotheses[0], references[0], max_order=max_order, weights=weights,
                                 smooth_method=NLTK_EQUIVALENT[method], nltk_totals=True).score == \
                pytest.approx(bleu_score.sentence_bleu(
                    references[0], hypotheses[0], weights=weights,
                    smoothing_function=getattr(bleu_score.SmoothingFunction(), f"method{method}")),
                    rel=1e-12, abs=1e-300)


def test_nltk_method0_gives_a_tiny_positive_score_where_we_give_zero():
    rng = np.random.default_rng(11)
    tiny_seen = 0
    for _ in range(200):
        hypotheses, references = random_corpus(rng, int(rng.integers(1, 4)))
        max_order = int(rng.integers(1, 5))
        weights = (1 / max_order,) * max_order
        ours = corpus_bleu(hypotheses, references, max_order=max_order, nltk_totals=True)
        theirs = nltk_bleu(hypotheses, references, weights, 0)
        if ours.score > 0:
            assert ours.score == pytest.approx(theirs, rel=1e-12)
        else:
            assert 0 <= theirs < 1e-70
            tiny_seen += theirs > 0
    assert tiny_seen > 10


def test_nltk_totals_count_at_least_one_ngram_per_sentence_and_order():
    hypotheses = [["a", "b", "c", "d"], ["a"]]
    references = [[["a", "b", "c", "d"]], [["a"]]]
    weights = (0.5, 0.5)
    nltk_value = nltk_bleu(hypotheses, references, weights, 0)
    assert corpus_stats(hypotheses, references, max_order=2).totals == (5, 3)
    assert corpus_stats(hypotheses, references, max_order=2, nltk_totals=True).totals == (5, 4)
    assert corpus_bleu(hypotheses, references, max_order=2).score == 1.0  # 3/3 bigrams
    assert corpus_bleu(hypotheses, references, max_order=2, nltk_totals=True).score == \
        pytest.approx(nltk_value, rel=1e-15) == math.sqrt(3 / 4)


def test_nltk_method4_is_exp_smoothing_scaled_by_log_length_over_five():
    rng = np.random.default_rng(5)
    differs = 0
    for _ in range(150):
        hypotheses, references = random_corpus(rng, int(rng.integers(1, 4)))
        stats = corpus_stats(hypotheses, references, nltk_totals=True)
        c = stats.hyp_len
        if stats.matches[0] == 0 or c <= 1:
            continue
        precisions, halvings = [], 0
        for matches, total in zip(stats.matches, stats.totals):
            if matches:
                precisions.append(matches / total)
            else:
                halvings += 1
                precisions.append(math.log(c) / (5 * 2 ** halvings * total))
        expected = min(1.0, math.exp(1 - stats.ref_len / c)) * math.exp(sum(math.log(p) / 4 for p in precisions))
        assert nltk_bleu(hypotheses, references, (0.25,) * 4, 4) == pytest.approx(expected, rel=1e-12)
        ours = corpus_bleu(hypotheses, references, smooth_method="exp", nltk_totals=True).score
        differs += halvings > 0 and ours != pytest.approx(expected, rel=1e-6)
    assert differs > 10
