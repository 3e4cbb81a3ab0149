"""The Chinese edition (notebooks/zh/) against the English chapters, cell by cell, so that the two
cannot drift apart.

- Every English chapter has its Chinese copy under the same file name, and no other.
- The same cells in the same order; the code identical, byte for byte, except the one language
  switch, ``set_language("en")`` there and ``set_language("zh")`` here.
- Stored executed, with the same outputs: what the code prints is identical; what lmcore shows in
  the language set (explorers, figures, self-checks' verdicts) is there in both, of the same kinds.
- The prose is Chinese and says the same things: every decimal number of an English cell appears
  in its Chinese cell, the same headings open the same cells, the same answers stay folded, the
  same chapters are linked.

nbval re-executes the English edition only (the time budget: the suite under 90 s on two cores);
the Chinese code is that code, so it runs as it does; the switch's own effect is tested with the
explorers and self-checks (tests/notebooks/test_i18n.py and the widget tests). Change an English chapter,
and this test fails until its Chinese copy follows.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CHINESE_DIR = ROOT / "notebooks" / "zh"
SWITCH_EN, SWITCH_ZH = 'set_language("en")', 'set_language("zh")'
CJK = re.compile(r"[\u4e00-\u9fff]")
DECIMAL = re.compile(r"(?<![\w.])\d[\d,]*\.\d+(?:e[+-]?\d+)?")  # 9.0418, 8,842.5, 3.96e+07; not 1.2.3 parts
CHAPTER_LINK = re.compile(r"\]\((\d\d_[a-z_]+\.ipynb)")  # a link to a chapter of the same edition
HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def shown(outputs: list[dict]) -> list[tuple]:
    """What must be identical in a cell's outputs: the printed text (pieces of one stream in a row
    joined, as the kernel may split a print anywhere), and plain results that lmcore does not translate."""
    found = []
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            text = "".join(output["text"])
            if found and found[-1][:2] == (kind, output["name"]):
                text = found.pop()[2] + text
            found.append((kind, output["name"], text))
        elif kind == "error":
            found.append((kind, output["ename"]))
        else:
            data = output.get("data", {})
            plain = "".join(data.get("text/plain", "")) if "text/html" not in data else None
            found.append((kind, tuple(sorted(data)), plain))
    return found


def test_every_chapter_has_its_chinese_copy_and_no_other():
    assert ENGLISH
    chinese = sorted(path.name for path in CHINESE_DIR.glob("*.ipynb"))
    assert chinese == [path.name for path in ENGLISH]


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_code_and_outputs_are_the_english_chapters(english):
    en_cells, zh_cells = cells(english), cells(CHINESE_DIR / english.name)
    assert [c["cell_type"] for c in zh_cells] == [c["cell_type"] for c in en_cells], "cells added, removed or moved"
    switches = [i for i, cell in enumerate(en_cells) if cell["cell_type"] == "code" and SWITCH_EN in source(cell)]
    assert len(switches) == 1 and source(en_cells[switches[0]]).count(SWITCH_EN) == 1, "one language switch"
    for index, (en, zh) in enumerate(zip(en_cells, zh_cells)):
        if en["cell_type"] != "code":
            continue
        assert source(zh) == source(en).replace(SWITCH_EN, SWITCH_ZH), f"cell {index}: the code differs"
        assert zh["execution_count"] is not None, f"cell {index}: not executed"
        assert shown(zh["outputs"]) == shown(en["outputs"]), f"cell {index}: outputs differ"
        assert not any(o["output_type"] == "error" for o in zh["outputs"]), f"cell {index}: an error"


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_the_prose_is_chinese_and_says_the_same_things(english):
    for index, (en, zh) in enumerate(zip(cells(english), cells(CHINESE_DIR / english.name))):
        if en["cell_type"] != "markdown":
            continue
        en_text, zh_text = source(en), source(zh)
        where = f"{english.name} cell {index}"
        if re.search(r"[A-Za-z]{3,}(?: [A-Za-z]{3,}){3}", re.sub(r"\$[^$]*\$|`[^`]*`|\([^)]*\)", "", en_text)):
            assert CJK.search(zh_text), f"{where}: no Chinese"
        missing = Counter(DECIMAL.findall(en_text)) - Counter(DECIMAL.findall(zh_text))
        assert not missing, f"{where}: numbers of the English text missing: {sorted(missing)}"
        assert HEADING.findall(zh_text) == HEADING.findall(en_text), f"{where}: headings differ"
        assert zh_text.count("<details") == en_text.count("<details"), f"{where}: folded answers differ"
        assert "<details open" not in zh_text, f"{where}: an answer is unfolded"
        assert sorted(CHAPTER_LINK.findall(zh_text)) == sorted(CHAPTER_LINK.findall(en_text)), f"{where}: links"


BACK_LINK = re.compile(r"^英文版：\[([^\]]+)\]\(([^)\s]+)\)$", re.MULTILINE)


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_the_chinese_chapter_links_back_to_the_english_one_by_its_title(english):
    """The first cell says "英文版：[Chapter 2: Entropy](../02_entropy.ipynb)": the English chapter's
    own title (its first heading), not its file name, linked to that chapter; the same line in every chapter."""
    chinese = CHINESE_DIR / english.name
    first = source(cells(chinese)[0])
    links = BACK_LINK.findall(first)
    assert len(links) == 1, f"{chinese.name}: the first cell needs one line 英文版：[English title](../{english.name})"
    text, target = links[0]
    title = source(cells(english)[0]).splitlines()[0].removeprefix("# ").strip()
    assert text == title, f"{chinese.name}: the back-link says {text!r}, the English chapter is titled {title!r}"
    assert (chinese.parent / target).resolve() == english.resolve() and english.is_file(), f"{chinese.name}: {target}"
    assert "英文版：" not in first.replace(f"英文版：[{text}]({target})", ""), f"{chinese.name}: a second 英文版 line"
