"""KenLM reading lmcore's ARPA files gives lmcore's scores.

KenLM's ``Model.score(sentence, bos=True, eos=True)`` is the sentence's log10
probability with ``<s>`` as context and ``</s>`` predicted, unknown words scored as
``<unk>``; ``Model.perplexity(sentence)`` is ``10 ** (-score / (words + 1))``: the
``+ 1`` is the ``</s>``. KenLM keeps each number in single precision, so per-token
log10s agree to about 1e-7 and sentences (summed in double) to about 1e-6; the tests
allow 1e-4.
"""

import math

import numpy as np
import optional_extras
import pytest

from lmcore.evaluate import sentence_perplexities
from lmcore.ngram import AddK, Interpolated, KneserNey, read_arpa, write_arpa
from lmcore.text import load_corpus, split_sentences

optional_extras.require("kenlm")
import kenlm  # noqa: E402  (after the guard: an optional extra)

pytestmark = pytest.mark.kenlm

TOLERANCE = 1e-4  # log10 per sentence


@pytest.fixture(scope="module")
def english():
    split = split_sentences(load_corpus("english"), heldout=0.1, test=0.1, seed=0)
    return split.train[:2000], split.heldout[:200], split.test[:200]


def lmcore_log10_scores(model, sentences):
    scores = model.score_tokens(sentences)
    return np.bincount(scores.sentence_index, weights=scores.logprobs, minlength=len(sentences)) / math.log(10)


def kenlm_scores(path, sentences):
    """KenLM's ``score`` and ``perplexity`` of each sentence, and its per-token log10s summed in double."""
    model = kenlm.Model(str(path))
    texts = [" ".join(s) for s in sentences]
    return (np.array([model.score(t, bos=True, eos=True) for t in texts]),
            np.array([model.perplexity(t) for t in texts]),
            np.array([math.fsum(p for p, _, _ in model.full_scores(t, bos=True, eos=True)) for t in texts]))


def models(train, heldout):
    interpolated = Interpolated(2).fit(train)
    interpolated.fit_lambdas(heldout)
    return [KneserNey(3).fit(train), KneserNey(4).fit(train), interpolated, AddK(3, 0.1).fit(train)]


def test_kenlm_scores_lmcore_models_as_lmcore_does(tmp_path, english):
    train, heldout, test = english
    known = {w for s in train for w in s}
    assert sum(w not in known for s in test for w in s) > 50  # unknown words are scored as <unk>
    worst = 0.0
    for model in models(train, heldout):
        path = tmp_path / f"{type(model).__name__}{model.order}.arpa"
        write_arpa(model, path)
        theirs, their_perplexities, their_token_sums = kenlm_scores(path, test)
        ours = lmcore_log10_scores(model, test)
        # score() adds up in single precision: a sentence of log10 -500 is off by up to 5e-4
        np.testing.assert_allclose(theirs, ours, rtol=2e-6, atol=TOLERANCE, err_msg=repr(model))
        np.testing.assert_allclose(their_token_sums, ours, rtol=0, atol=TOLERANCE, err_msg=repr(model))
        # KenLM's perplexity counts the words and one </s>, as lmcore's default does
        np.testing.assert_allclose(their_perplexities, sentence_perplexities(model, test), rtol=1e-4)
        worst = max(worst, float(np.abs(their_token_sums - ours).max()))
    assert worst < 2e-5  # KenLM keeps single-precision log10s: about 1e-7 per token


def test_kenlm_and_lmcore_read_the_same_file_alike(tmp_path, english):
    train, heldout, test = english
    model = Interpolated(3).fit(train)
    model.fit_lambdas(heldout)
    path = tmp_path / "interpolated3.arpa"
    write_arpa(model, path, exact=False)  # the standard conversion: the model after every seen history
    theirs = kenlm_scores(path, test)[2]
    np.testing.assert_allclose(theirs, lmcore_log10_scores(read_arpa(path), test), rtol=0, atol=TOLERANCE)
    # lmcore's own model differs where a trigram history was never seen (see lmcore.arpa.write_arpa)
    assert np.abs(theirs - lmcore_log10_scores(model, test)).max() > 0.01


def test_high_orders_on_english_and_chinese_words_score_as_kenlm(tmp_path, english):
    """Order 6 on English words, order 5 on Chinese words (55k types): beyond |V| ** order in int64."""
    chinese = split_sentences(load_corpus("chinese"), heldout=0.1, test=0.1, seed=0)
    for name, (train, test), order in [("english", (english[0], english[2]), 6),
                                       ("chinese", (chinese.train[:2000], chinese.test[:200]), 5)]:
        model = KneserNey(order).fit(train)
        assert len(model.vocab) ** order > np.iinfo(np.int64).max  # base-|V| keys of all n ids would overflow
        path = tmp_path / f"{name}{order}.arpa"
        write_arpa(model, path)
        theirs = kenlm_scores(path, test)[2]
        np.testing.assert_allclose(theirs, lmcore_log10_scores(model, test), rtol=0, atol=TOLERANCE, err_msg=name)
        np.testing.assert_allclose(theirs, lmcore_log10_scores(read_arpa(path), test), rtol=0, atol=TOLERANCE)
