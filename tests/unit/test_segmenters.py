"""Tests for lmcore.text.jieba_words, the silent jieba wrapper of chapter 6's "Going further:
Chinese words or characters, on real text": a known segmentation, determinism, the same
arguments as chinese_words, and no output at all, even when jieba builds its dictionary."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lmcore.text import chinese_characters, chinese_words, jieba_words

ROOT = Path(__file__).resolve().parents[2]


def test_a_known_segmentation():
    assert jieba_words("跟我学深度学习") == ["跟我学", "深度", "学习"]  # PKU would write 跟 我 学 深度 学习
    assert jieba_words("我是一位老师") == ["我", "是", "一位", "老师"]  # the course's example, as chapter 6 writes it
    assert jieba_words("我是一个学生") == ["我", "是", "一个", "学生"]


def test_the_words_spell_the_text():
    sentence = "外交部副部长王英凡英国驻华大使高德年参加了会见"
    words = jieba_words(sentence)
    assert "".join(words) == sentence and len(words) > 1
    assert chinese_characters("".join(words)) == chinese_characters(sentence)


def test_deterministic():
    sentences = ["迈向充满希望的新世纪", "同胞们朋友们女士们先生们", "跟我一起学机器学习"]
    first = [jieba_words(s) for s in sentences]
    assert [jieba_words(s) for s in sentences] == first
    assert [jieba_words(s) for s in reversed(sentences)] == first[::-1]


def test_normalises_and_drops_punctuation_and_spaces_as_chinese_words_does():
    raw = "ＧＤＰ增长，  好。"
    assert jieba_words(raw) == chinese_words(" ".join(jieba_words(raw, punctuation=True)))
    assert jieba_words("我是学生。") == ["我", "是", "学生"]
    assert jieba_words("我是学生。", punctuation=True) == ["我", "是", "学生", "。"]
    assert jieba_words("ＧＤＰ", lowercase=False) == ["GDP"] and jieba_words("ＧＤＰ") == ["gdp"]
    assert all(not w.isspace() for w in jieba_words("我 是  学生"))
    assert jieba_words("") == []


def test_rejects_what_is_not_text():
    with pytest.raises(TypeError):
        jieba_words(["我", "是"])


def test_nothing_is_printed_or_logged_in_this_process(capfd, caplog):
    caplog.set_level(logging.DEBUG)
    jieba_words("今天天气很好")
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert not [r for r in caplog.records if r.name.startswith("jieba")]
    jieba_logger = logging.getLogger("jieba")
    assert not jieba_logger.disabled  # the wrapper restores jieba's logger after loading


def test_silent_on_first_load_when_jieba_builds_its_dictionary(tmp_path):
    """A fresh interpreter with an empty temporary directory: jieba builds its prefix
    dictionary and writes its cache there, the noisiest path, and still nothing appears."""
    code = "from lmcore.text import jieba_words; assert jieba_words('跟我学深度学习') == ['跟我学', '深度', '学习']"
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONWARNINGS": "always"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == ("", "")
    assert (tmp_path / "jieba.cache").exists()  # it did build (and cache) the dictionary here
