"""lmcore.evaluate.windows: the sliding-window plan against the Hugging Face loop, the context each token
keeps, and scores read from a table of cut-off log-probabilities."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore.evaluate import context_in_window, window_plan, windowed_score


def huggingface_loop(n_tokens, window, stride):
    """The loop of https://huggingface.co/docs/transformers/perplexity, written out: for each pass,
    (begin, end, the tokens it scores)."""
    passes, prev_end = [], 0
    for begin in range(0, n_tokens, stride):
        end = min(begin + window, n_tokens)
        passes.append((begin, end, range(prev_end, end)))  # trg_len = end - prev_end: the last ones
        prev_end = end
        if end == n_tokens:
            break
    return passes


@settings(max_examples=50)
@given(st.integers(1, 300), st.integers(1, 40), st.data())
def test_the_plan_and_the_contexts_are_the_huggingface_loop(n_tokens, window, data):
    stride = data.draw(st.integers(1, window))
    passes = huggingface_loop(n_tokens, window, stride)
    plan = window_plan(n_tokens, window, stride)
    assert plan.starts.tolist() == [begin for begin, _, _ in passes]
    assert plan.n_passes == len(passes) == 1 + math.ceil(max(0, n_tokens - window) / stride)
    assert plan.positions_computed == sum(end - begin for begin, end, _ in passes)
    expected = np.empty(n_tokens, dtype=int)
    for begin, _, scored in passes:
        for t in scored:
            expected[t] = t - begin
    assert context_in_window(n_tokens, window, stride).tolist() == expected.tolist()
    assert sorted(t for _, _, scored in passes for t in scored) == list(range(n_tokens))  # each token once


def test_the_course_numbers():
    assert window_plan(1000, 100, 25).n_passes == 37  # exercise 4 of chapter 7
    assert window_plan(1000, 100, 100).n_passes == 10 and window_plan(1000, 100, 1).n_passes == 901
    assert window_plan(5, 10, 3).n_passes == 1  # a window longer than the text: one pass
    chunks = context_in_window(24, window=12, stride=12)
    assert np.mean(chunks >= 10) == pytest.approx(2 / 12)  # exercise 5: k = 10, chunks of 12


def table_for(k, n_tokens, seed=0):
    """A table where more context always helps: row c is log(0.1 + 0.8 c / k), with some noise."""
    rng = np.random.default_rng(seed)
    rows = [np.log(0.1 + 0.8 * c / k) + 0.01 * rng.random(n_tokens) - 0.02 for c in range(k + 1)]
    return np.minimum(np.array(rows), 0.0)


def test_one_window_over_everything_is_the_full_context_score():
    table = table_for(4, 50)
    full = windowed_score(table, 50, 50)
    assert full.full_share == 1.0 and full.plan.n_passes == 1
    expected = table[np.minimum(np.arange(50), 4), np.arange(50)]
    assert full.logprobs.tolist() == expected.tolist()
    assert full.bits == pytest.approx(-expected.sum() / math.log(2))
    assert full.perplexity == pytest.approx(math.exp(-expected.mean()))
    # stride 1 with a window longer than k gives the same numbers at many more passes
    slid = windowed_score(table, 6, 1)
    assert slid.logprobs.tolist() == expected.tolist() and slid.plan.n_passes == 45


def test_shorter_strides_never_score_worse_when_context_helps():
    table = table_for(8, 400)
    perplexities = [windowed_score(table, 12, s).perplexity for s in range(1, 13)]
    assert all(a <= b + 1e-12 for a, b in zip(perplexities, perplexities[1:]))
    assert perplexities[0] < perplexities[-1]


def test_sentence_starts_need_no_window_to_lose_context():
    table = table_for(3, 8)
    positions = np.array([0, 1, 2, 3, 0, 1, 2, 0])  # three sentences: 4, 3 and 1 tokens
    score = windowed_score(table, 8, 8, positions)
    assert score.context_used.tolist() == [0, 1, 2, 3, 0, 1, 2, 0] and score.full_share == 1.0
    chunks = windowed_score(table, 2, 2, positions)
    assert chunks.context_used.tolist() == [0, 1, 0, 1, 0, 1, 0, 0]
    assert chunks.full_share == pytest.approx(5 / 8)


@pytest.mark.parametrize("call, error, words", [
    (lambda: window_plan(10, 4, 5), ValueError, "stride must be at most the window"),
    (lambda: window_plan(0, 4, 2), ValueError, "n_tokens must be at least 1"),
    (lambda: window_plan(10, 0, 1), ValueError, "window must be at least 1"),
    (lambda: window_plan(10, 4.0, 2), TypeError, "window must be an int"),
    (lambda: window_plan(10, 4, True), TypeError, "stride must be an int"),
    (lambda: windowed_score(np.zeros(5), 2, 1), ValueError, "table must be a (k + 1) x N array"),
    (lambda: windowed_score(np.ones((2, 5)), 2, 1), ValueError, "natural-log probabilities"),
    (lambda: windowed_score(np.zeros((2, 5)), 2, 1, positions=[0, 1]), ValueError, "positions must hold 5"),
    (lambda: windowed_score(np.zeros((2, 3)), 2, 1, positions=[0, -1, 0]), ValueError, "positions must hold 3"),
])
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        call()


def test_a_plan_of_a_billion_tokens_is_a_formula():
    import tracemalloc
    tracemalloc.start()
    plan = window_plan(10**9, 1024, 1)  # listed its billion window starts: 8 GB (and 1e9 more for the sum)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100_000
    assert plan.n_passes == 10**9 - 1024 + 1 and plan.positions_computed == (plan.n_passes - 1) * 1024 + 1024
    # exact in whole numbers where float division was not (1e30 tokens)
    huge = window_plan(10**30 + 1, 10, 10)
    assert huge.n_passes == 1 + (10**30 + 1 - 10 + 9) // 10 and huge.positions_computed == 10**30 + 1
    assert window_plan(10, 4, 2).starts.tolist() == [0, 2, 4, 6]  # listed only when asked for


@pytest.mark.parametrize("table, error, words", [
    ([["a"]], TypeError, "table must hold numbers (natural-log probabilities), got dtype <U1"),
    ("ab", TypeError, "table must be a (k + 1) x N array of log-probabilities, got str"),
    ([[True]], TypeError, "table must hold numbers"),  # False was read as log 1
    ([[-1.0, -1.0], [-1.0]], ValueError, "its rows differ in length"),
])
def test_a_table_is_numbers(table, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        windowed_score(table, 1, 1)


def test_a_perplexity_beyond_the_largest_float_is_infinite():
    score = windowed_score([[-1000.0]], 1, 1)  # 1443 bits: 2 ** 1443 was an OverflowError
    assert score.perplexity == math.inf and score.bits == pytest.approx(1000 / math.log(2))


def test_a_window_longer_than_any_text():
    # a window of 10**30 tokens was an OverflowError inside numpy ("Python int too large to convert to C long")
    assert context_in_window(5, 10**30, 1).tolist() == [0, 1, 2, 3, 4]
    assert windowed_score([[-1.0, -1.0]], 10**30, 10**30).perplexity == pytest.approx(math.e)
    assert window_plan(5, 10**30, 10**30).n_passes == 1
