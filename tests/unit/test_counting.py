"""The counting machinery under every n-gram model (lmcore.ngram.counting): its tables against
plain Python counts in small chunks, its guards against integer overflow, its checks of encoded
input, and the edges mutation testing found unpinned (empty sentences, the end markers, the
packed sort near 64 bits)."""

import dataclasses
from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore.lm import frame_sentences
from lmcore.ngram import MLE, AddK, Convention, KneserNey, counting
from lmcore.ngram.counting import NgramCounts, NgramIndex, _sorted_keys
from lmcore.text import Vocabulary

VOCAB = Vocabulary(list("abcde"))
sentences_strategy = st.lists(st.lists(st.sampled_from("abcde"), max_size=9), min_size=1, max_size=8)


def count(sentences, order, n_start, n_end, count_padding=False, chunk=None):
    ids = VOCAB.encode([w for s in sentences for w in s])
    lengths = np.array([len(s) for s in sentences])
    with mock.patch.object(counting, "_CHUNK", chunk or counting._CHUNK):
        return NgramCounts.from_sentences(ids, lengths, order, n_start, n_end, len(VOCAB), count_padding)


def reference(sentences, k, n_start, n_end, count_padding):
    """Every k-gram ending at a predicted token (or, counting the padding, every k-gram) of the padded sentences."""
    found = Counter()
    for s in sentences:
        padded = ["<s>"] * n_start + s + ["</s>"] * n_end
        for end in range(0 if count_padding else n_start, len(padded)):
            if end - k + 1 >= 0:
                found[tuple(padded[end - k + 1 : end + 1])] += 1
    return found


# --- the tables against plain Python counting -------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(sentences_strategy, st.integers(1, 5), st.integers(0, 3), st.integers(0, 2), st.booleans(),
       st.sampled_from([1, 3, 7]))
def test_every_table_equals_plain_counting_in_small_chunks(sentences, order, n_start, n_end, count_padding, chunk):
    counts = count(sentences, order, n_start, n_end, count_padding, chunk)  # chunks of 1 to 7: many per array
    assert len(counts.tables) == order and len(counts.index.nodes) == max(order - 2, 0)  # no top-order nodes
    for k, table in enumerate(counts.tables, start=1):
        expected = reference(sentences, k, n_start, n_end, count_padding)
        grams = [tuple(VOCAB.decode(row)) for row in counts.ngram_ids(k)]
        assert dict(zip(grams, table.counts.tolist())) == dict(expected)
        assert table.order == k and table.base == len(VOCAB)
        assert table.n_histories == (1 if k == 1 else len(VOCAB) if k == 2 else counts.index.nodes[k - 3].size)
        assert table.history_counts.size == table.history_types.size == table.n_histories
        assert table.history_counts.sum() == sum(expected.values())
        assert (table.suffix_rows is None) == (k == 1)  # the unigram table has no suffixes
        assert counts.count_of_counts(k).tolist() == [sum(c == r for c in expected.values()) for r in range(5)]


def test_padding_everygrams_are_counted_only_when_asked():
    sentences = [["a", "b"], [], ["a"]]
    kenlm_like = count(sentences, 3, 2, 2)
    nltk_like = count(sentences, 3, 2, 2, count_padding=True)
    bos = VOCAB.id("<s>")
    assert bos not in kenlm_like.tables[0].keys.tolist()
    assert dict(zip(nltk_like.tables[0].keys.tolist(), nltk_like.tables[0].counts.tolist()))[bos] == 6
    pairs = {tuple(VOCAB.decode(row)): c for row, c in zip(nltk_like.ngram_ids(2), nltk_like.tables[1].counts)}
    assert pairs[("<s>", "<s>")] == 3 and pairs[("<s>", "a")] == 2 and pairs[("<s>", "</s>")] == 1
    # a Convention says so: nltk's counts them, Kneser-Ney never does, and everygrams needs bos_outcome
    assert MLE(3, convention="nltk").fit(sentences).count("<s>", ["<s>"]) == 3
    assert MLE(3, convention=Convention(end_markers=None, bos_outcome=True)).fit(sentences).count("<s>") == 0
    assert KneserNey(3, convention="nltk").fit(sentences).count("<s>") == 0
    with pytest.raises(ValueError, match="^convention.everygrams counts <s> like a predicted token, so it needs "
                                         r"bos_outcome=True \(<s> an outcome\), as nltk's convention has$"):
        MLE(2, convention=Convention(everygrams=True))
    with pytest.raises(TypeError, match="^convention.everygrams must be True or False, got 1$"):
        MLE(2, convention=Convention(bos_outcome=True, everygrams=1))


def test_tokens_are_numbered_once_per_order_below_the_top():
    """Each numbering is a pass over every token: the top order needs none (nothing is built on
    it), unless its n-grams of <s> alone must be taken out."""
    sentences = [["a", "b", "c"], ["b"]]
    cases = [(3, 2, False, 1), (3, 2, True, 1), (4, 3, False, 2), (4, 3, True, 2),
             (2, 3, False, 1), (2, 3, True, 0), (2, 2, False, 1), (1, 0, False, 0)]
    for order, n_start, count_padding, passes in cases:
        with mock.patch.object(counting, "_number_tokens", wraps=counting._number_tokens) as numbering:
            count(sentences, order, n_start, 1, count_padding)
        assert numbering.call_count == passes, (order, n_start, count_padding)


def test_the_key_index_decodes_rows_of_unequal_sizes():
    rng = np.random.default_rng(1)
    rows = [rng.integers(0, 40, size=(30 + 17 * k, k)) for k in range(1, 6)]  # split points differ per order
    index = NgramIndex.from_rows(rows, 40)
    for k, grams in enumerate(rows, start=1):
        assert (index.decode(index.keys(grams, k), k) == grams).all()


def test_an_index_lacking_a_level_knows_no_ngram_of_it():
    index = NgramIndex(10, (np.array([], dtype=np.int64),))  # no bigram at all
    grams = np.array([[3, 4], [5, 6]])
    assert index.node_ids(grams, 2).tolist() == [-1, -1] and index.keys(np.array([[3, 4, 5]]), 3).tolist() == [-1]
    assert index.node_ids(grams, 0).tolist() == [0, 0] and index.node_ids(grams, 1).tolist() == [4, 6]


def test_prefix_rows_take_one_to_order_minus_one_ids():
    counts = count([["a", "b", "a"]], 3, 2, 1)
    assert counts.ngram_ids(3)[counts.prefix_rows(3, [VOCAB.id("a"), VOCAB.id("b")])].tolist() == [[3, 4, 3]]
    for prefix in ([], [1, 1, 3]):
        with pytest.raises(ValueError, match=rf"^prefix must hold 1 to 2 ids, got {len(prefix)}$"):
            counts.prefix_rows(3, prefix)


def test_count_of_counts_stops_at_largest():
    counts = count([["a"] * 6 + ["b"] * 4 + ["c"] * 2], 1, 0, 0)  # unigrams seen 6, 4, 2 times
    assert counts.count_of_counts(1).tolist() == [0, 0, 1, 0, 1]  # 6 is above largest = 4
    assert counts.count_of_counts(1, largest=6).tolist() == [0, 0, 1, 0, 1, 0, 1]
    assert counts.count_of_counts(1, largest=1).tolist() == [0, 0]


def test_results_are_frozen():
    counts = count([["a", "b"]], 2, 1, 1)
    framed = frame_sentences(np.array([3]), np.array([1]), 2, 1, 1)
    token_counts = MLE(2).fit([["a"]]).token_counts([["a"]])
    for value, field in [(counts, "tables"), (counts.index, "base"), (counts.tables[0], "order"),
                         (framed, "grams"), (token_counts, "order")]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)


# --- empty sentences and the end markers -----------------------------------------------------------


def test_empty_sentences_fit_and_score_under_every_convention():
    train = [["a", "b"], [], ["b"]]
    standard = MLE(2).fit(train)
    assert standard.count("</s>", ["<s>"]) == 1 and standard.context_count(["<s>"]) == 3
    ids = standard.vocab.encode(["a", "b", "b"])
    from_ids = MLE(2).fit_encoded(ids, [2, 0, 1], standard.vocab)  # a length of 0 is a sentence
    assert from_ids.ngram_counts(2) == standard.ngram_counts(2)
    course = AddK(2, convention="course").fit(train)  # nothing to count in the empty one
    assert course.context_count() == 3 and course.count("b") == 2
    assert AddK(2, convention="nltk").fit(train).count("</s>", ["<s>"]) == 1
    # scored: an empty sentence between two others changes nothing of theirs
    for model in (standard, course, AddK(3, 0.5).fit(train)):
        together = model.token_logprobs([["a", "b"], [], ["a"]])
        apart = [model.token_logprobs([s]) for s in (["a", "b"], ["a"])]
        if model.sentence_padding[1]:
            apart.insert(1, model.token_logprobs([[]]))
        np.testing.assert_array_equal(together, np.concatenate(apart))


# --- integer limits ------------------------------------------------------------------------------


def test_chunks_and_count_types_are_sized_for_memory():
    assert counting._CHUNK == 2**20  # elements per step of the chunked loops: 8 MiB of int64 temporaries
    assert counting.INT32_TOKENS == np.iinfo(np.int32).max + 1  # positions up to 2**31 - 1 fit int32
    sentences = [["a", "b"], ["c"]]  # 3 words, 2 <s> and one </s> each at order 3: 9 tokens
    stream_size = 3 + 2 * 2 + 2
    for limit, dtype in [(stream_size, np.int64), (stream_size + 1, np.int32)]:
        with mock.patch.object(counting, "INT32_TOKENS", limit):
            counts = count(sentences, 3, 2, 1)
        assert {table.counts.dtype for table in counts.tables} == {np.dtype(dtype)}
        assert counts.tables[2].suffix_rows.dtype == dtype


def test_keys_beyond_int64_are_refused():
    limit = np.iinfo(np.int64).max  # 2**63 - 1 = 7 * 1317624576693539401
    NgramIndex(limit // 7, (np.arange(7),))  # the largest key is exactly int64's largest: allowed
    with pytest.raises(ValueError, match="^8 distinct 2-grams over 1,317,624,576,693,539,401 ids need keys beyond "
                                         "int64$"):
        NgramIndex(limit // 7, (np.arange(8),))
    with pytest.raises(ValueError, match="^2 distinct 3-grams over"):
        NgramIndex(2**62, (np.arange(1), np.arange(2)))


@pytest.mark.parametrize("base, top_node", [(7, 5), (2**55, 15), (2**55, 31), (2**57, 15), (2**58, 31), (2**59, 15)])
def test_the_packed_sort_never_overflows(base, top_node):
    """Keys and positions share one int64 where they fit in 63 bits; near and beyond that the
    keys are sorted on their own. Either way: every key, sorted, with the position it ends at."""
    rng = np.random.default_rng(0)
    size = 16  # positions 0..15: 4 bits
    node = rng.integers(0, top_node + 1, size=size)
    node[3] = top_node  # the largest key is there: its bits + 4 are 63 (packed) .. 67
    stream = rng.integers(0, 5, size=size).astype(np.int32)
    ends = np.arange(1, size, dtype=np.int32)
    expected = node[ends - 1].astype(object) * base + stream[ends]
    keys, positions = _sorted_keys(ends.copy(), node, stream, base)
    assert keys.tolist() == sorted(expected.tolist())
    assert (node[positions - 1].astype(object) * base + stream[positions]).tolist() == keys.tolist()
    assert all(np.diff(positions)[np.diff(keys) == 0] > 0)  # equal keys keep their positions' order


# --- checks of encoded input and of markers ------------------------------------------------------


@pytest.mark.parametrize("ids, lengths, error, message", [
    ([3, 4], [[2]], TypeError, r"^lengths must be a 1-d array of sentence lengths \(integers >= 0\)$"),
    ([3, 4], [2.0], TypeError, r"^lengths must be a 1-d array of sentence lengths \(integers >= 0\)$"),
    ([[3, 4]], [2], TypeError, r"^ids must be a 1-d array of integer vocabulary ids, got int64 of shape \(1, 2\)$"),
    ([3.0], [1], TypeError, r"^ids must be a 1-d array of integer vocabulary ids, got float64 of shape \(1,\)$"),
    ([3, 8], [2], ValueError, r"^ids must be vocabulary ids between 0 and 7, got 3 .. 8$"),
    ([-1, 3], [2], ValueError, r"^ids must be vocabulary ids between 0 and 7, got -1 .. 3$"),
    ([3, 2], [2], ValueError, r"^sentences\[0\] holds the marker '</s>' at position 1: lmcore adds <s> and </s>"),
])
def test_encoded_input_is_checked(ids, lengths, error, message):
    with pytest.raises(error, match=message):
        MLE(2).fit_encoded(ids, lengths, VOCAB)  # |VOCAB| = 8: ids 0 .. 7
    assert MLE(2).fit_encoded([3, 7], [2], VOCAB).count("e", ["a"]) == 1  # the last id is a word


def test_a_sentence_of_markers_only_is_refused_with_an_example_of_raw_tokens():
    with pytest.raises(ValueError) as refused:
        MLE(2).fit([["a"], ["<s>", "</s>"]])
    assert str(refused.value) == ("sentences[1] holds the marker '<s>' at position 0: lmcore adds <s> and </s> "
                                  "itself (see Convention), so pass the raw tokens, e.g. ['i', 'spent', 'money']")


@pytest.mark.parametrize("sentences, message", [
    ("a b", "^sentences must be a list of token lists, got str$"),
    ([["a"], "b c"], r"^sentences must be a list of token lists \(split each sentence into tokens\), got a str$"),
    ([["a"], ("b", None)], "^sentences\\[1\\] must contain only str tokens, got NoneType None$"),
    ({"a": 1}, "^sentences must be a list of token lists, got dict$"),
])
def test_sentences_of_the_wrong_type_are_refused(sentences, message):
    with pytest.raises(TypeError, match=message):
        MLE(2).fit(sentences)
    assert MLE(2).fit([("a", "b")]).count("b", ["a"]) == 1  # a tuple of tokens is a sentence


# --- the words that follow a context ---------------------------------------------------------------


def test_continuations_list_the_words_seen_after_each_context_with_their_counts():
    sentences = [["a", "b", "a"], ["a", "b", "c"], ["b"]]
    counts = count(sentences, 3, 2, 1)
    a, b, c = VOCAB.encode(["a", "b", "c"])
    owner, ids, seen = counts.continuations(np.array([[a, b], [b, b], [1, a], [a, a]]))
    assert owner.tolist() == [0, 0, 2] and ids.tolist() == [a, c, b] and seen.tolist() == [1, 1, 2]
    owner, ids, seen = counts.continuations([[a], [b], [1]])  # after a: b b </s>; after b: a c </s>; after <s>: ...
    expected = Counter((i, w) for s in sentences for i, w in zip([1, *VOCAB.encode(s)], [*VOCAB.encode(s), 2])
                       if i in (a, b, 1))
    row = {a: 0, b: 1, 1: 2}
    assert sorted(zip(owner.tolist(), ids.tolist(), seen.tolist())) == sorted(
        (row[i], w, n) for (i, w), n in expected.items())
    owner, ids, seen = counts.continuations(np.zeros((1, 0), dtype=int))  # no context: every unigram
    assert ids.tolist() == counts.tables[0].keys.tolist() and seen.tolist() == counts.tables[0].counts.tolist()
    assert [x.size for x in counts.continuations(np.zeros((0, 2), dtype=int))] == [0, 0, 0]
    for bad in ([[a, b, c]], [a, b], np.zeros((1, 1, 1))):
        with pytest.raises(ValueError, match="contexts must be an"):
            counts.continuations(bad)


def test_count_of_counts_counts_each_count_up_to_largest():
    assert counting.count_of_counts(np.array([1, 3, 1, 7, 4])).tolist() == [0, 2, 0, 1, 1]
    assert counting.count_of_counts(np.array([2]), 1).tolist() == [0, 0]


def test_prefix_rows_find_the_ngrams_that_start_with_a_shorter_prefix():
    counts = count([["a", "b", "a"], ["b", "a", "c"], ["a", "c"]], 4, 3, 1)
    a = VOCAB.id("a")
    for order in (2, 3, 4):
        rows = counts.ngram_ids(order)[counts.prefix_rows(order, [a])]
        everything = counts.ngram_ids(order)
        assert rows.tolist() == everything[everything[:, 0] == a].tolist() and len(rows)

