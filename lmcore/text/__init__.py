"""Text for every chapter: the vocabulary, tokenizers, corpora, splits, Bible translations, subwords.

Tokenization is always an explicit argument (``unit``, ``lowercase``, ``punctuation``),
never a hidden habit: changing what counts as a word changes what a score measures.

- ``vocab``: ``Vocabulary`` with ``<unk>``, ``<s>``, ``</s>`` and their ids.
- ``tokenizers``: English words and sentences; Chinese words, characters and sentences;
  ``jieba_words`` segments raw Chinese with jieba, silently (chapter 6).
- ``corpora``: the corpora read from installed packages, with sizes and licences.
- ``splits``: the course's toy corpus and deterministic train/held-out/test splits.
- ``lines``: a text file, one sentence a line, to id arrays at scale.
- ``translations``: verses of six English Bible translations (chapter 6's references).
- ``subwords``: byte-pair encoding (chapter 7).

>>> english_words("Don't fear, Lord's people!")
["don't", 'fear', "lord's", 'people']
>>> chinese_characters("１９９８年，新年。")
['1', '9', '9', '8', '年', '新', '年']
>>> jieba_words("跟我学深度学习")
['跟我学', '深度', '学习']
"""

from __future__ import annotations

from lmcore.text.corpora import (
    CorpusInfo,
    GenrePair,
    corpus_names,
    describe_corpora,
    genre_pairs,
    load_corpus,
)
from lmcore.text.lines import EncodedLines, encode_lines, read_sentences
from lmcore.text.splits import (
    TOY_TEST,
    TOY_TRAIN,
    Split,
    split_indices,
    split_sentences,
)
from lmcore.text.subwords import (
    BPE,
    METASPACE,
    STORED_BPE,
    load_bpe,
    load_stored_bpe,
    train_bpe,
)
from lmcore.text.tokenizers import (
    chinese_characters,
    chinese_sentences,
    chinese_words,
    english_sentences,
    english_token_pattern,
    english_words,
    is_punctuation,
    jieba_words,
    join_tokens,
    nfkc,
    normalize_quotes,
)
from lmcore.text.translations import (
    MISALIGNED,
    NEW_TESTAMENT,
    OLD_TESTAMENT,
    TRANSLATIONS,
    Translation,
    VerseSample,
    aligned_verse_ids,
    clean_verse,
    sample_verses,
    verse_ids,
    verse_name,
    verse_text,
)
from lmcore.text.vocab import (
    BOS,
    BOS_ID,
    EOS,
    EOS_ID,
    MARKERS,
    UNK,
    UNK_ID,
    Vocabulary,
)

__all__ = [
    "UNK", "BOS", "EOS", "UNK_ID", "BOS_ID", "EOS_ID", "MARKERS", "Vocabulary", "english_words",
    "english_sentences", "chinese_words", "chinese_characters", "jieba_words", "chinese_sentences", "normalize_quotes",
    "english_token_pattern", "nfkc", "is_punctuation", "join_tokens", "corpus_names", "describe_corpora", "load_corpus",
    "genre_pairs", "CorpusInfo", "GenrePair", "TOY_TRAIN", "TOY_TEST", "Split", "split_indices",
    "split_sentences", "EncodedLines", "encode_lines", "read_sentences", "Translation", "TRANSLATIONS",
    "MISALIGNED", "OLD_TESTAMENT", "NEW_TESTAMENT", "clean_verse", "verse_ids", "verse_text", "verse_name",
    "aligned_verse_ids", "VerseSample", "sample_verses", "METASPACE", "STORED_BPE", "BPE",
    "train_bpe", "load_bpe", "load_stored_bpe",
]
