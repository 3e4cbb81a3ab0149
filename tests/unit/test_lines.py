"""Fitting from a text file or an iterable of lines (lmcore.text.lines, CountedNgramModel.fit_text) gives the
model that fit gives on the same sentences as token lists: same vocabulary, same count tables,
same Kneser-Ney levels, same perplexity, exactly."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore.evaluate import evaluate
from lmcore.ngram import MLE, AddK, KneserNey
from lmcore.text import encode_lines, english_words, lines, load_corpus, read_sentences

WORDS = ["a", "b", "c", "déjà", "<unk>", "x-y"]
corpus = st.lists(st.lists(st.sampled_from(WORDS), max_size=7), min_size=1, max_size=12).filter(
    lambda train: any(w != "<unk>" for s in train for w in s))


def assert_same_model(ours, theirs):
    assert ours.vocab.tokens == theirs.vocab.tokens
    for mine, other in zip(ours.counts.tables, theirs.counts.tables, strict=True):
        assert np.array_equal(mine.keys, other.keys) and np.array_equal(mine.counts, other.counts)
        assert (mine.suffix_rows is None) == (other.suffix_rows is None)
        if mine.suffix_rows is not None:
            assert np.array_equal(mine.suffix_rows, other.suffix_rows)
    for mine, other in zip(ours.counts.index.nodes, theirs.counts.index.nodes, strict=True):
        assert np.array_equal(mine, other)
    if isinstance(ours, KneserNey):
        assert np.array_equal(ours.discounts_, theirs.discounts_)
        for mine, other in zip(ours._levels, theirs._levels, strict=True):
            assert np.array_equal(mine.u, other.u) and np.array_equal(mine.gamma, other.gamma)


def write(path, train, newline="\n"):
    path.write_text("".join(" ".join(s) + newline for s in train), encoding="utf-8")
    return path


@settings(max_examples=40, deadline=None)
@given(train=corpus, order=st.integers(1, 4), min_count=st.integers(1, 2))
def test_a_text_file_gives_the_model_fit_gives_on_token_lists(tmp_path_factory, train, order, min_count):
    path = write(tmp_path_factory.mktemp("lines") / "train.txt", train)
    test = [["a", "b", "zzz"], []]
    for model_type in (MLE, AddK, KneserNey):
        from_lists = model_type(order).fit(train, min_count=min_count)
        from_file = model_type(order).fit_text(path, min_count=min_count)
        assert_same_model(from_file, from_lists)
        assert evaluate(from_file, test).perplexity == evaluate(from_lists, test).perplexity


def test_a_real_corpus_in_small_chunks_gives_the_same_kneser_ney(tmp_path, monkeypatch):
    train = load_corpus("english")[:3000]
    path = write(tmp_path / "train.txt", train, newline="\r\n")  # \r is whitespace, as for lmplz
    monkeypatch.setattr(lines, "CHUNK_BYTES", 4096)  # many chunks, types first seen in later ones
    test = load_corpus("english")[3000:3200]
    for order in (3, 5):
        from_lists, from_file = KneserNey(order).fit(train), KneserNey(order).fit_text(path)
        assert_same_model(from_file, from_lists)
        assert evaluate(from_file, test).perplexity == evaluate(from_lists, test).perplexity
    assert read_sentences(path) == train


def test_a_file_without_a_last_newline_and_with_a_tokenizer(tmp_path, monkeypatch):
    monkeypatch.setattr(lines, "CHUNK_BYTES", 8)  # blocks cut inside lines, a line longer than a block
    path = tmp_path / "train.txt"
    path.write_bytes(b"In the beginning, God\n\n  created the heavens\r\nand the earth.")
    split = [["In", "the", "beginning,", "God"], [], ["created", "the", "heavens"], ["and", "the", "earth."]]
    assert read_sentences(path) == split
    assert_same_model(KneserNey(3).fit_text(path), KneserNey(3).fit(split))
    words = [english_words(" ".join(s)) for s in split]
    assert_same_model(KneserNey(3).fit_text(str(path), tokenizer=english_words), KneserNey(3).fit(words))


def test_any_iterable_of_lines_str_or_bytes_and_a_tokenizer(monkeypatch):
    raw = ["In the beginning, God created", "", "the heavens\tand the earth.", "And God said"]
    monkeypatch.setattr(lines, "CHUNK_LINES", 2)
    split = [line.split() for line in raw]
    expected = KneserNey(2).fit(split)
    assert_same_model(KneserNey(2).fit_text(iter(raw)), expected)  # a generator is read once
    assert_same_model(KneserNey(2).fit_text([line.encode() for line in raw]), expected)
    words = KneserNey(2).fit_text(raw, tokenizer=english_words)
    assert_same_model(words, KneserNey(2).fit([english_words(line) for line in raw]))
    assert read_sentences(raw, tokenizer=english_words)[0] == ["in", "the", "beginning", "god", "created"]


def test_lines_split_at_ascii_whitespace_only_as_lmplz():
    ids, lengths, vocab = encode_lines(["a\u00a0b c\x0bd\x0ce\r", "  ", "a c"])
    assert lengths.tolist() == [4, 0, 2]
    assert vocab.decode(ids[:4]) == ["a\u00a0b", "c", "d", "e"]  # a no-break space is not whitespace


def test_a_file_splits_at_exactly_the_bytes_a_list_of_lines_splits_at(tmp_path):
    """Every ASCII character and a no-break space, between words, at a line's start and end: the file
    (read in blocks, lengths counted in numpy) and the same lines as a list give the same ids and lengths."""
    raw = [f"{c}a{c}b{c}{c}c{c}" for c in map(chr, range(1, 128)) if c != "\n"] + ["a\u00a0b c", ""]
    path = tmp_path / "bytes.txt"
    path.write_bytes("\n".join(raw).encode("utf-8") + b"\n")
    from_file, from_list = encode_lines(path), encode_lines(raw)
    assert from_file.lengths.tolist() == from_list.lengths.tolist() == [len(line.encode().split()) for line in raw]
    assert from_file.vocab.tokens == from_list.vocab.tokens and np.array_equal(from_file.ids, from_list.ids)
    assert from_file.lengths[raw.index("xaxbxxcx")] == 1 and from_file.lengths[raw.index(" a b  c ")] == 3


def test_a_big_source_is_read_a_chunk_at_a_time(tmp_path):
    """The memory bound: a file is read CHUNK_BYTES of whole lines at a time, an iterable CHUNK_LINES lines
    at a time, never all at once."""
    assert [len(chunk) for chunk in lines._chunks(iter(["a"] * (2 * lines.CHUNK_LINES + 1)))] == [
        lines.CHUNK_LINES, lines.CHUNK_LINES, 1]
    path = tmp_path / "big.txt"
    path.write_bytes(b"abc\n" * (lines.CHUNK_BYTES // 4 + 1))
    blocks = list(lines._blocks(path))
    assert len(blocks) == 2 and all(len(block) <= lines.CHUNK_BYTES and block.endswith(b"\n") for block in blocks)
    assert b"".join(blocks) == path.read_bytes()


def test_a_given_vocabulary_is_used_and_unknown_words_are_unk():
    vocab = MLE(1).fit([["a", "b"]]).vocab
    ids, _, used = encode_lines(["a zzz b", "b"], vocab=vocab)
    assert used is vocab and vocab.decode(ids) == ["a", "<unk>", "b", "b"]


@pytest.mark.parametrize("source, kwargs, error, message", [
    (["a b", "c <s> d"], {}, ValueError, r"line 2 holds the marker '<s>'"),
    (["a </s>"], {}, ValueError, r"line 1 holds the marker '</s>'"),
    ([], {}, ValueError, "source has no lines"),
    (["", " "], {}, ValueError, "no tokens"),
    (["a", b"b"], {}, TypeError, "must all be str or all bytes"),
    ([1, 2], {}, TypeError, "must all be str or all bytes"),
    (b"a b", {}, TypeError, "a file name"),
    (5, {}, TypeError, "a file name"),
    (["a"], {"min_count": 0}, ValueError, "min_count must be"),
    (["a"], {"tokenizer": str.upper}, TypeError, "tokenizer must return a list of str"),
])
def test_bad_input_gets_clear_errors(source, kwargs, error, message):
    with pytest.raises(error, match=message):
        encode_lines(source, **kwargs)


@pytest.mark.parametrize("source, message", [
    (5, "source must be a file name (str or Path) or an iterable of lines, got int"),
    (b"a b", "source must be a file name (str or Path) or an iterable of lines, got bytes"),
    (["a", 3, 4.0], "lines must all be str or all bytes, got float, int"),
])
def test_a_wrong_type_is_named(source, message):
    for read in (encode_lines, read_sentences):
        with pytest.raises(TypeError) as error:
            read(source)
        assert str(error.value) == message


def test_vocab_and_min_count_are_not_both_given():
    with pytest.raises(ValueError, match="either vocab or min_count"):
        MLE(2).fit_text(["a b"], vocab=MLE(1).fit([["a"]]).vocab, min_count=2)
