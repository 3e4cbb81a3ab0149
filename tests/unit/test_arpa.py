import math

import numpy as np
import pytest

from lmcore.evaluate import evaluate
from lmcore.lm import NotFittedError
from lmcore.ngram import MLE, AddK, ArpaModel, BackoffModel, Interpolated, KneserNey, read_arpa, write_arpa

LN10 = math.log(10)


def markov_corpus(n_sentences, seed, vocabulary=40, unknown=()):
    """Sentences from a sparse Markov chain over w0..w{vocabulary-1}: many histories are seen
    once, many never; ``unknown`` words are sprinkled in (for test sets)."""
    rng = np.random.default_rng(seed)
    successors = rng.integers(vocabulary, size=(vocabulary, 3))
    out = []
    for _ in range(n_sentences):
        word, sentence = rng.integers(vocabulary), []
        for _ in range(rng.integers(1, 12)):
            sentence.append(f"w{word}" if not unknown or rng.random() > 0.1 else rng.choice(unknown))
            word = successors[word, rng.integers(3)] if rng.random() < 0.85 else rng.integers(vocabulary)
        out.append(sentence)
    return out


TRAIN = markov_corpus(300, seed=0)
HELDOUT = markov_corpus(60, seed=1, unknown=["zz", "yy"])


def fitted(kind, order):
    if kind == "kneser-ney":
        return KneserNey(order).fit(TRAIN)
    if kind == "add-k":
        return AddK(order, 0.3).fit(TRAIN)
    model = Interpolated(order).fit(TRAIN)
    model.fit_lambdas(HELDOUT[:30])
    return model


@pytest.mark.parametrize("kind, order", [(kind, order) for kind in ("kneser-ney", "add-k") for order in (1, 2, 3, 4)]
                         + [("interpolated", 1), ("interpolated", 2)])
def test_round_trip_gives_the_same_logprobs(tmp_path, kind, order):
    model = fitted(kind, order)
    path = tmp_path / "model.arpa"
    counts = write_arpa(model, path)
    arpa = read_arpa(path)
    assert isinstance(arpa, ArpaModel) and arpa.order == order
    assert counts == tuple(keys.size for keys in arpa.keys)
    ours = model.token_logprobs(HELDOUT)
    assert model.score_tokens(HELDOUT).is_oov.sum() > 10  # unknown words are in the test
    np.testing.assert_allclose(arpa.token_logprobs(HELDOUT), ours, rtol=0, atol=1e-6)
    assert evaluate(arpa, HELDOUT).perplexity == pytest.approx(evaluate(model, HELDOUT).perplexity, rel=1e-6)
    # a backoff model's distributions sum to 1 too, after a seen and an unseen context
    for context in (["<s>", "w3"], ["zz", "w1"]):
        context = context[max(0, len(context) - (order - 1)) :] if order > 1 else []
        assert math.fsum(arpa.next_word_distribution(context).values()) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("order", [2, 3, 4])
def test_kneser_ney_file_holds_its_lower_orders_too(tmp_path, order):
    model = fitted("kneser-ney", order)
    write_arpa(model, tmp_path / "kn.arpa")
    arpa = read_arpa(tmp_path / "kn.arpa")
    for context in ([], ["w5"], ["w2", "w5"], ["zz"]):
        if len(context) < order:
            for word in ("w1", "w7", "</s>", "zz"):
                assert arpa.logprob(word, context) == pytest.approx(model.logprob(word, context), abs=1e-6)


@pytest.mark.parametrize("order", [3, 4])
def test_interpolated_standard_conversion_is_the_model_after_seen_histories(tmp_path, order):
    model = fitted("interpolated", order)
    with pytest.raises(ValueError, match=f"order {order} has no exact backoff form"):
        write_arpa(model, tmp_path / "refused.arpa")
    write_arpa(model, tmp_path / "model.arpa", exact=False)
    arpa = read_arpa(tmp_path / "model.arpa")
    seen = {tuple(s[t - order + 1 : t]) for s in ([["<s>"] * (order - 1) + s + ["</s>"] for s in TRAIN])
            for t in range(order - 1, len(s))}
    rows = []
    for s in HELDOUT:
        tokens = ["<s>"] * (order - 1) + [w if w in model.vocab else "<unk>" for w in s] + ["</s>"]
        rows += [tuple(tokens[t - order + 1 : t]) in seen for t in range(order - 1, len(tokens))]
    history_seen = np.array(rows)
    ours, theirs = model.token_logprobs(HELDOUT), arpa.token_logprobs(HELDOUT)
    np.testing.assert_allclose(theirs[history_seen], ours[history_seen], atol=1e-6)
    assert 0 < (~history_seen).sum() and np.abs(theirs - ours)[~history_seen].max() > 1e-3
    if order == 3:
        # after an unseen history the file backs off to the normalised mix of orders 1 and 2,
        # while lmcore gives λ_3 to the bigram (P_3 := P_2)
        p = model.order_probs(HELDOUT)[~history_seen]
        lambdas = model.lambdas
        expected = np.log(p[:, :2] @ lambdas[:2] / lambdas[:2].sum())
        np.testing.assert_allclose(theirs[~history_seen], expected, atol=1e-6)


def test_the_written_numbers(tmp_path):
    model = KneserNey(2, discounts=[0.5, 1.0, 1.5]).fit([["a", "b"], ["a", "c"]])
    assert write_arpa(model, tmp_path / "toy.arpa") == (6, 5)
    text = (tmp_path / "toy.arpa").read_text(encoding="utf-8")
    assert text.startswith("\\data\\\nngram 1=6\nngram 2=5\n\n\\1-grams:\n") and text.endswith("\n\\end\\\n")
    lines = set(text.splitlines())
    # P_1(a) = (1 - 0.5)/5 + γ_1/5 = 0.2 with γ_1 = 0.5; γ(a) = 0.5 * 2/2; <s>: -99, γ(<s>) = 1.0 * 1/2
    assert f"{math.log10(0.2):.7f}\ta\t{math.log10(0.5):.7f}" in lines
    assert f"-99.0000000\t<s>\t{math.log10(0.5):.7f}" in lines
    assert f"{math.log10(0.1):.7f}\t<unk>" in lines and f"{math.log10(0.3):.7f}\t</s>" in lines
    assert f"{math.log10(0.5 + 0.5 * 0.2):.7f}\t<s> a" in lines  # (2 - D2)/2 + γ(<s>) P_1(a)
    assert f"{math.log10(0.35):.7f}\ta b" in lines
    assert not any("<s> <s>" in line for line in lines)


HAND_WRITTEN = """This line and the next are not part of the model.

\\data\\
ngram 1=5
ngram 2=3

\\1-grams:
-99\t<s>\t-0.30103
-0.5 a -0.2
-1.0\tb
-0.69897\t</s>
-2.0\t<unk>

\\2-grams:
-0.1\t<s> a
-0.3\ta b
-0.4   a </s>

\\end\\
"""


def test_reading_applies_the_backoff_rule(tmp_path):
    path = tmp_path / "hand.arpa"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    arpa = read_arpa(path)
    assert arpa.order == 2 and arpa.outcomes == ("<unk>", "</s>", "a", "b")
    cases = [
        ("a", ["<s>"], -0.1),            # listed
        ("b", ["<s>"], -0.30103 - 1.0),  # backoff of <s>, then the unigram
        ("b", ["a"], -0.3),
        ("a", ["a"], -0.2 - 0.5),
        ("a", ["b"], -0.5),              # b has no backoff weight: α = 1
        ("zz", ["a"], -0.2 - 2.0),       # an unknown word is <unk>
        ("b", ["zz"], -1.0),             # after <unk>, which is not a history
        ("b", [], -1.0),
    ]
    for word, context, log10_p in cases:
        assert arpa.logprob(word, context) == pytest.approx(log10_p * LN10, abs=1e-12)
    assert arpa.prob("<s>", ["a"]) == 0.0  # never an outcome
    np.testing.assert_allclose(arpa.token_logprobs([["a", "b"], ["zz"]]) / LN10,
                               [-0.1, -0.3, -0.69897, -0.30103 - 2.0, -0.69897], atol=1e-12)
    scores = arpa.score_tokens([["a", "zz"]])
    assert scores.is_oov.tolist() == [False, True, False] and scores.is_eos.tolist() == [False, False, True]
    assert arpa.generate(3, seed=0) == arpa.generate(3, seed=0)


def test_a_file_without_unk_gives_unknown_words_probability_zero(tmp_path):
    path = tmp_path / "closed.arpa"
    path.write_text(HAND_WRITTEN.replace("ngram 1=5", "ngram 1=4").replace("-2.0\t<unk>\n", ""), encoding="utf-8")
    arpa = read_arpa(path)
    assert arpa.prob("zz", ["a"]) == 0.0 and "<unk>" not in arpa.outcomes
    assert evaluate(arpa, [["a", "zz"]]).zero_probability_tokens == ((0, 1, "zz"),)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("\\data\\", "data"), "no \\\\data\\\\ line"),
    (lambda t: t.replace("ngram 2=3", "ngram 2=4"), "line 14: the header says 4 2-grams, the section has 3"),
    (lambda t: t.replace("ngram 2=3", "ngram 2=2"), "line 14: the header says 2 2-grams, the section has 3"),
    (lambda t: t.replace("\\end\\", "\\3-grams:"), "line 19: expected \\\\end\\\\ after 3 2-grams"),
    (lambda t: t.replace("-0.3\ta b", "x\ta b"), "line 16: 'x' is not a number"),
    (lambda t: t.replace("-0.3\ta b", "-0.3\ta c"), "the 2-grams use 'c', which is not a 1-gram"),
    (lambda t: t.replace("-0.3\ta b", "-0.3\ta b c d"), "line 16: expected a log10 probability, 2 words"),
    (lambda t: t.replace("\\2-grams:", "\\3-grams:"), "line 14: expected the section \\\\2-grams:"),
    (lambda t: t.replace("-99\t<s>", "-99\t<x>"), "<s> is not among the 1-grams"),
    (lambda t: t.replace("-1.0\tb", "-1.0\ta"), "a 1-gram is listed twice"),
    (lambda t: t.split("\\2-grams:")[0], "ends early"),
])
def test_malformed_files_get_clear_errors(tmp_path, edit, message):
    path = tmp_path / "bad.arpa"
    path.write_text(edit(HAND_WRITTEN), encoding="utf-8")
    with pytest.raises(ValueError, match=message.replace("(", "\\(")):
        read_arpa(path)


def test_models_that_cannot_be_written(tmp_path):
    path = tmp_path / "x.arpa"
    with pytest.raises(TypeError, match="MLE cannot be written as an ARPA file: it gives unseen words"):
        write_arpa(MLE(2).fit(TRAIN), path)
    with pytest.raises(ValueError, match="convention must be the standard one"):
        write_arpa(AddK(2, convention="course").fit(TRAIN), path)
    with pytest.raises(ValueError, match="convention must be the standard one"):
        write_arpa(KneserNey(2, convention="nltk").fit(TRAIN), path)
    with pytest.raises(NotFittedError, match="lambdas are not set"):
        write_arpa(Interpolated(2).fit(TRAIN), path)
    with pytest.raises(ValueError, match=r"lambdas\[0\] is 0"):
        write_arpa(Interpolated(2, [0.0, 1.0]).fit(TRAIN), path)
    with pytest.raises(NotFittedError, match="not fitted"):
        write_arpa(KneserNey(2), path)
    with pytest.raises(TypeError, match="^exact must be True or False, got 'yes'$"):
        write_arpa(KneserNey(2).fit(TRAIN), path, exact="yes")
    with pytest.raises(TypeError, match="^exact must be True or False, got 1$"):
        write_arpa(KneserNey(2).fit(TRAIN), path, exact=1)
    with pytest.raises(ValueError, match="whitespace"):
        write_arpa(KneserNey(1).fit([["a b", "c"]]), path)
    with pytest.raises(TypeError, match="model must be an lmcore n-gram model in backoff form"):
        write_arpa("model", path)
    assert not path.exists()
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    assert not hasattr(read_arpa(path), "fit")  # a model read from a file is no model fitted on counts
    with pytest.raises(TypeError, match="already an ARPA file"):
        write_arpa(read_arpa(path), tmp_path / "copy.arpa")


# The numbers of an ARPA file, read as KenLM reads them (tests/parity/test_kenlm_arpa_input.py
# checks each of these against KenLM itself). HAND_WRITTEN's line 9 is "-0.5 a -0.2" (a's
# probability and backoff), line 10 "-1.0\tb", line 16 "-0.3\ta b".
REFUSED_NUMBERS = [
    ("-0.3\ta b", "2.0\ta b", "line 16: the log10 probability 2.0 is positive, a probability above 1"),
    ("-0.3\ta b", "0.5\ta b", "line 16: the log10 probability 0.5 is positive"),
    ("-1.0\tb", "+0.5\tb", "line 10: the log10 probability \\+0.5 is positive"),
    ("-1.0\tb", "inf\tb", "line 10: the log10 probability inf is positive"),
    ("-1.0\tb", "1e400\tb", "line 10: the log10 probability 1e400 is positive"),
    ("-0.3\ta b", "nan\ta b", "line 16: 'nan' is not a number \\(as ARPA files write them"),
    ("-0.3\ta b", "NaN\ta b", "line 16: 'NaN' is not a number"),
    ("-1.0\tb", "-nan\tb", "line 10: '-nan' is not a number"),
    ("-0.3\ta b", "-Infinity\ta b", "line 16: '-Infinity' is not a number"),
    ("-0.3\ta b", "-INF\ta b", "line 16: '-INF' is not a number"),
    ("-0.3\ta b", "-Inf\ta b", "line 16: '-Inf' is not a number"),
    ("-0.3\ta b", "-1_0\ta b", "line 16: '-1_0' is not a number"),  # float() reads -10
    ("-0.3\ta b", "-\u0663\ta b", "line 16: '-\u0663' is not a number"),  # an Arabic-Indic 3: float() reads -3
    ("-0.3\ta b", "-0x1p-2\ta b", "line 16: '-0x1p-2' is not a number"),
    ("-0.3\ta b", "--1\ta b", "line 16: '--1' is not a number"),
    ("-0.5 a -0.2", "-0.5 a -inf", "line 9: the log10 backoff -inf is infinite"),
    ("-0.5 a -0.2", "-0.5 a inf", "line 9: the log10 backoff inf is infinite"),
    ("-0.5 a -0.2", "-0.5 a -1e39", "line 9: the log10 backoff -1e39 is infinite"),  # beyond single precision
    ("-0.5 a -0.2", "-0.5 a nan", "line 9: 'nan' is not a number"),
    ("-0.5 a -0.2", "-0.5 a x", "line 9: 'x' is not a number"),
]


@pytest.mark.parametrize("line, edited, message", REFUSED_NUMBERS)
def test_numbers_kenlm_refuses_are_refused_with_the_line(tmp_path, line, edited, message):
    path = tmp_path / "bad.arpa"
    assert line in HAND_WRITTEN
    path.write_text(HAND_WRITTEN.replace(line, edited), encoding="utf-8")
    with pytest.raises(ValueError, match=f"bad.arpa, {message}"):
        read_arpa(path)


# (line, edited, (word, context), the log10 probability read)
ACCEPTED_NUMBERS = [
    ("-0.3\ta b", "-inf\ta b", ("b", ["a"]), -math.inf),      # log10 0, as KenLM accepts it
    ("-0.3\ta b", "-1e400\ta b", ("b", ["a"]), -math.inf),    # beyond a float: -inf too
    ("-0.3\ta b", "-99\ta b", ("b", ["a"]), -99.0),           # the format's "log10 0" is read as written
    ("-0.3\ta b", "0\ta b", ("b", ["a"]), 0.0),               # probability 1
    ("-0.3\ta b", "-0\ta b", ("b", ["a"]), 0.0),
    ("-0.3\ta b", "1e-50\ta b", ("b", ["a"]), 0.0),           # 0 in KenLM's single precision: not positive
    ("-0.3\ta b", "-.5\ta b", ("b", ["a"]), -0.5),
    ("-0.3\ta b", "-5.\ta b", ("b", ["a"]), -5.0),
    ("-0.3\ta b", "-1.5E-1\ta b", ("b", ["a"]), -0.15),
    ("-0.3\ta b", "-3e38\ta b", ("b", ["a"]), -math.inf),  # 10**-3e38 is 0
    ("-1.0\tb", "-inf\tb", ("b", []), -math.inf),
    ("-0.5 a -0.2", "-0.5 a 0.25", ("a", ["a"]), 0.25 - 0.5),    # a positive backoff: a weight above 1
    ("-0.5 a -0.2", "-0.5 a +1e-3", ("a", ["a"]), 0.001 - 0.5),
    ("-0.5 a -0.2", "-0.5 a -3e38", ("a", ["a"]), -math.inf),     # within single precision: read
]


@pytest.mark.parametrize("line, edited, query, log10_p", ACCEPTED_NUMBERS)
def test_numbers_kenlm_accepts_are_read(tmp_path, line, edited, query, log10_p):
    path = tmp_path / "good.arpa"
    path.write_text(HAND_WRITTEN.replace(line, edited), encoding="utf-8")
    arpa = read_arpa(path)
    word, context = query
    assert arpa.logprob(word, context) / LN10 == pytest.approx(log10_p, rel=1e-12, abs=1e-12)
    assert arpa.logprob("a", ["<s>"]) / LN10 == pytest.approx(-0.1)  # the rest as before


def test_many_numbers_in_exponent_form_are_read(tmp_path):
    """A file whose numbers all use exponents (the slower, checked path) reads as the plain one."""
    path = tmp_path / "exponents.arpa"
    path.write_text(HAND_WRITTEN.replace("-0.1\t<s> a", "-1e-1\t<s> a").replace("-0.4   a", "-4E-1   a"),
                    encoding="utf-8")
    plain = tmp_path / "plain.arpa"
    plain.write_text(HAND_WRITTEN, encoding="utf-8")
    sentences = [["a", "b"], ["zz"], ["a", "a", "b"]]
    np.testing.assert_allclose(read_arpa(path).token_logprobs(sentences),
                               read_arpa(plain).token_logprobs(sentences), rtol=0, atol=1e-15)


@pytest.mark.parametrize("path, error, message", [
    (3, TypeError, "^path must be a file name .a str or a pathlib.Path., got int$"),  # open(3): file descriptor 3
    (None, TypeError, "^path must be a file name .a str or a pathlib.Path., got NoneType$"),
    ("", ValueError, "^path is empty: give a file name$"),
])
def test_a_path_that_is_no_file_name_is_named(path, error, message):
    with pytest.raises(error, match=message):
        read_arpa(path)
    with pytest.raises(error, match=message):
        write_arpa(KneserNey(2).fit(TRAIN), path)


@pytest.mark.parametrize("missing", ["lower_order_probs", "backoff_weights"])
def test_a_backoff_model_must_give_its_lower_orders_and_weights(missing):
    methods = {name: (lambda self, grams, order: grams) for name in ("lower_order_probs", "backoff_weights")}
    del methods[missing]
    HalfMade = type("HalfMade", (BackoffModel,), methods)
    with pytest.raises(TypeError, match=f"abstract method.* {missing}"):
        HalfMade()
    assert type("Whole", (BackoffModel,), {**methods, missing: methods.get(missing, lambda *a: a)})()

