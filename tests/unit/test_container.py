"""The coded bytes' format (lmcore.coding.container) by itself, without a model or a coder: the LEB128
counts at every length and their 10-byte limit, the CRC-32 over text, counts and code, the header
packed and unpacked, and each way data can be cut short or go on named in its message. How the coder
uses the format (decoding altered data, the overhead) is tested in tests/unit/test_coding.py."""

import zlib

import pytest

from lmcore.coding import container

EDGES = [0, 1, 127, 128, 255, 300, 16_383, 16_384, 2**21 - 1, 2**21, 2**32, 2**63 - 1, 2**70 - 1]


@pytest.mark.parametrize("n", EDGES)
def test_a_count_is_leb128_and_reads_back_from_any_offset(n):
    data = container._varint(n)
    assert len(data) == max(1, -(-n.bit_length() // 7))  # 7 bits a byte, at least one byte
    assert all(byte & 0x80 for byte in data[:-1]) and not data[-1] & 0x80  # the last byte alone has no high bit
    assert container._read_varint(data) == (n, len(data))
    assert container._read_varint(b"\x07\x01" + data + b"\xff", 2) == (n, 2 + len(data))


def test_known_counts_as_bytes():
    assert container._varint(0) == b"\x00" and container._varint(127) == b"\x7f"
    assert container._varint(128) == b"\x80\x01" and container._varint(300) == b"\xac\x02"
    assert container._varint(16_384) == b"\x80\x80\x01"


def test_a_count_cut_short_is_none_and_one_of_ten_bytes_or_more_is_refused():
    assert container._read_varint(b"") is None and container._read_varint(b"\x05", 1) is None
    for continued in range(1, 10):  # 9 bytes with the high bit set: the count may go on in the next byte
        assert container._read_varint(b"\x80" * continued) is None
        assert container._read_varint(b"\x00" + b"\x80" * continued, 1) is None
    assert container._read_varint(b"\xff" * 9 + b"\x7f") == (2**70 - 1, 10)  # 10 bytes, the last one ending it
    for data, start in [(b"\x80" * 10, 0), (b"\x80" * 11, 0), (b"\x00" + b"\x80" * 10, 1), (b"\xff" * 10 + b"\x01", 0)]:
        with pytest.raises(ValueError, match="^data does not start with a sentence count and a code length: these "
                                             "are not bytes from lmcore.coding.encode$"):
            container._read_varint(data, start)


def test_the_checksum_covers_text_counts_and_code_in_that_order():
    text = "the\xffcat\xff\xfe".encode("latin-1") + b"\xfe"  # two sentences: "the cat" and the empty one
    assert container._checksum([["the", "cat"], []], b"\x02\x01", b"code") == (
        zlib.crc32(text + b"\x02\x01" + b"code").to_bytes(4, "little"))
    assert container._checksum([], b"", b"") == bytes(4)


def test_no_two_texts_share_the_bytes_the_checksum_reads():
    texts = [[["ab"]], [["a", "b"]], [["a"], ["b"]], [["a"]], [["a"], []], [[], ["a"]], [[""]], [[]], [],
             [["\ud800"]], [["é"]]]
    sums = {container._checksum(text, b"\x00", b"") for text in texts}
    assert len(sums) == len(texts)
    # a lone surrogate is written as UTF-8 would write it (surrogatepass), not refused
    assert container._checksum([["\ud800"]], b"", b"") == zlib.crc32(b"\xed\xa0\x80\xff\xfe").to_bytes(4, "little")


@pytest.mark.parametrize("sentences, code", [([], b""), ([["a"]], bytes(4)), ([["a"]] * 200, bytes(4 * 130))])
def test_pack_then_unpack_gives_the_counts_the_checksum_and_the_code(sentences, code):
    data = container._pack(sentences, code)
    counts = container._varint(len(sentences)) + container._varint(len(code) // 4)
    assert data == counts + container._checksum(sentences, counts, code) + code
    assert container._unpack(data) == (len(sentences), counts, data[len(counts) : len(counts) + 4], code)


@pytest.mark.parametrize("n, noun, said", [(0, "byte", "0 bytes"), (1, "byte", "1 byte"), (2, "byte", "2 bytes"),
                                           (1234, "coded sentence", "1,234 coded sentences")])
def test_a_count_and_its_noun(n, noun, said):
    assert container._many(n, noun) == said


@pytest.mark.parametrize("data, message", [
    (b"", "data is empty: encode writes at least 6 bytes, even for no sentences"),
    (b"\x85", r"data ends inside its header, in the sentence count \(1 byte\): it was cut short"),
    (b"\x85\x80", r"data ends inside its header, in the sentence count \(2 bytes\): it was cut short"),
    (b"\x01", "data ends before the 1 coded sentence does: it stops inside its header, after 1 byte"),
    (b"\x02\x81", "data ends before the 2 coded sentences do: it stops inside its header, after 2 bytes"),
    (b"\x02\x00\x00\x00\x00", "data ends before the 2 coded sentences do: it stops inside its header, after 5 bytes"),
    (b"\x01\x01\x00\x00\x00\x00", r"data ends before the 1 coded sentence does: 4 bytes of its code are missing "
                                  r"\(the header counts 4 bytes of code, 0 are there\)"),
    (b"\x01\x01\x00\x00\x00\x00\x00", r"data ends before the 1 coded sentence does: 3 bytes of its code are missing "
                                      r"\(the header counts 4 bytes of code, 1 is there\)"),
    (b"\x01\x01\x00\x00\x00\x00" + bytes(3), r"data ends before the 1 coded sentence does: 1 byte of its code is "
                                             r"missing \(the header counts 4 bytes of code, 3 are there\)"),
    (b"\x00\x00\x00\x00\x00\x00\x00", r"1 byte after the end of the coded text \(the header counts 0 bytes of code, "
                                      r"1 is there\)"),
    (b"\x00\x01" + bytes(4) + bytes(1004), r"1,000 bytes after the end of the coded text \(the header counts 4 bytes "
                                           r"of code, 1,004 are there\)"),
])
def test_each_way_the_data_is_not_whole_is_named(data, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        container._unpack(data)


def test_the_smallest_whole_data_is_six_bytes():
    assert container._unpack(bytes(6)) == (0, b"\x00\x00", bytes(4), b"")
    assert container._unpack(b"\x01\x00" + b"\x01\x02\x03\x04") == (1, b"\x01\x00", b"\x01\x02\x03\x04", b"")
