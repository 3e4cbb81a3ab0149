"""The Chinese catalog against the code: every text shown through ``tr`` has a translation that
keeps its fields, no translation is left over from a text that is gone, and the switch itself
behaves (``lmcore.i18n``).

The texts are found where the code writes them: the string literal that is the first argument
of every ``tr(...)`` and ``translatable(...)`` call in lmcore's modules and in the English
chapters' code cells.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from lmcore import i18n
from lmcore.i18n import catalog, fields, language, set_language, tr, translatable

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "lmcore").rglob("*.py"))
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CATALOGS = sorted((ROOT / "lmcore" / "locale" / "zh").glob("*.json"))
MARKERS = {"tr", "translatable"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def marked_texts(source: str, where: str) -> dict[str, str]:
    """{text: where} for every literal first argument of ``tr(...)`` or ``translatable(...)``."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in MARKERS:
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found[first.value] = f"{where}:{node.lineno}"
    return found


def all_marked_texts() -> dict[str, str]:
    texts = {}
    for path in SOURCES:
        texts.update(marked_texts(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))))
    for path in CHAPTERS:
        for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            if cell["cell_type"] == "code":
                code = "\n".join(line for line in "".join(cell["source"]).splitlines()
                                 if not line.lstrip().startswith(("%", "!")))
                texts.update(marked_texts(code, f"{path.name} cell {index}"))
    return texts


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def test_every_shown_text_has_a_chinese_translation_that_keeps_its_fields():
    zh = catalog("zh")
    texts = all_marked_texts()
    assert texts, "no tr(...) call found: the scan is broken"
    missing = {text: where for text, where in texts.items() if text not in zh}
    assert not missing, f"{len(missing)} texts without a translation, e.g. {list(missing.items())[:5]}"
    changed = {text: zh[text] for text in texts if fields(text) != fields(zh[text])}
    assert not changed, f"translations that change the {{fields}}: {list(changed.items())[:5]}"


def test_no_translation_is_left_over_and_each_reads_as_chinese():
    texts = all_marked_texts()
    for path in CATALOGS:
        entries = json.loads(path.read_text(encoding="utf-8"))
        stale = [english for english in entries if english not in texts]
        assert not stale, f"{path.name}: no tr(...) shows these any more: {stale[:5]}"
        words = {english: re.sub(r"\{[^}]*\}", "", english) for english in entries}  # {fields} are not words
        untranslated = [english for english, chinese in entries.items() if not CJK.search(chinese)
                        and CJK.search(english) is None and re.search(r"[A-Za-z]{4,}", words[english])]
        assert not untranslated, f"{path.name}: not translated: {untranslated[:5]}"


def test_two_catalogs_that_disagree_are_refused(tmp_path, monkeypatch):
    folder = tmp_path / "lmcore" / "locale" / "xx"
    folder.mkdir(parents=True)
    (folder / "a.json").write_text('{"bits": "比特"}', encoding="utf-8")
    (folder / "b.json").write_text('{"bits": "位"}', encoding="utf-8")
    monkeypatch.setattr(i18n.resources, "files", lambda package: tmp_path / "lmcore")
    i18n.catalog.cache_clear()
    try:
        with pytest.raises(ValueError, match="translates 'bits' as '位', another catalog as '比特'"):
            catalog("xx")
    finally:
        i18n.catalog.cache_clear()


def test_the_switch_and_the_look_up():
    assert language() == "en"
    assert tr("Correct: {value}.", value="1.00") == "Correct: 1.00."
    set_language("zh")
    assert language() == "zh"
    assert tr("Correct: {value}.", value="1.00") == "正确：1.00。"
    assert tr("a text nobody translated, {n}", n=3) == "a text nobody translated, 3"  # English, not an error
    assert translatable("Correct: {value}.") == "Correct: {value}."
    with pytest.raises(ValueError, match="language must be one of 'en', 'zh', got 'fr'"):
        set_language("fr")
    assert language() == "zh"


def test_the_self_checks_answer_in_the_language_set():
    from lmcore.exercises import grade_number

    set_language("zh")
    assert str(grade_number(None, 1.0)).startswith("尚未作答")
    assert str(grade_number(0.5, 0.5)) == "正确：0.5000。"
    set_language("en")
    assert str(grade_number(0.5, 0.5)) == "Correct: 0.5000."


def test_tables_print_in_the_language_set_and_line_up():
    from lmcore import evaluate
    from lmcore.i18n import display_width, pad

    assert (display_width("bigram"), display_width("二元模型"), display_width("（Ａ）")) == (6, 8, 6)
    assert pad("二元模型", 10, ">") == "  二元模型" and pad("bigram", 4) == "bigram"
    with pytest.raises(ValueError, match="align must be '<' or '>'"):
        pad("x", 3, "^")
    train = [["a", "b", "a", "c"], ["b", "a", "b"], ["a", "c", "a"]] * 5
    table = evaluate.perplexity_table((train, train[:3], [["a", "b", "a"]]), orders=(1, 2), methods=["add-one"])
    english = table.format()
    assert english.splitlines()[0] == " " * 18 + "unigram    bigram"
    set_language("zh")
    chinese = table.format().splitlines()
    assert chinese[0] == " " * 17 + "一元模型  二元模型"
    assert [display_width(line) for line in chinese] == [len(line) for line in english.splitlines()]
    assert chinese[1] == english.splitlines()[1]  # the numbers as they were
