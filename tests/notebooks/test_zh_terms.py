"""One name per concept in the Chinese edition: the term list of the glossary, enforced.

The glossary (notebooks/zh/术语表.md) opens with a table "统一用语": the one term the edition
uses for each concept, and the names it does not use (the seeds', other textbooks' and older
drafts' variants). This test reads that table and fails when any Chinese text a reader meets
uses one of those names: the Chinese chapters (their markdown and the explorers and figures their code shows), the
catalogs in lmcore/locale/zh/, README.zh-CN.md, the site's Chinese front page and the rest of
the glossary. An English original written in full-width brackets after a term, as in
"《世界英文圣经》（World English Bible）", is a gloss, not a second name, and does not count.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "notebooks" / "zh" / "术语表.md"
TERM_TABLE_HEADING = "## 统一用语"
NOT_USED = "不用的说法"
ENGLISH_GLOSS = re.compile(r"（[A-Za-z][^（）\u4e00-\u9fff]*）")  # （World English Bible）
CODE_SPAN = re.compile(r"`[^`\n]*`")


def term_table(text: str) -> list[tuple[str, list[str]]]:
    """(term, names not used) for each row of the glossary's "统一用语" table."""
    section = text.split(TERM_TABLE_HEADING, 1)[1].split("\n## ", 1)[0]
    rows = [line.strip().strip("|").split("|") for line in section.splitlines() if line.startswith("|")]
    header, rows = [c.strip() for c in rows[0]], rows[2:]
    term_at, aliases_at = 0, header.index(NOT_USED)
    return [(row[term_at].strip(), [a.strip() for a in row[aliases_at].split("、") if a.strip() not in ("", "—")])
            for row in rows]


def readable(text: str) -> str:
    """``text`` without code spans and English glosses: what is left must use the edition's terms."""
    return ENGLISH_GLOSS.sub("", CODE_SPAN.sub("", text))


def notebook_texts(path: Path) -> list[tuple[str, str]]:
    """(where, text) for each cell of a Chinese chapter (its code's comments and strings are Chinese)
    and each output: printed text, plain results, explorers' and figures' HTML."""
    texts = []
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        texts.append((f"{path.name} cell {index}", "".join(cell["source"])))
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            shown = "".join(output.get("text", "")) + "".join(data.get("text/html", "")) + "".join(
                data.get("text/plain", ""))
            if shown:
                texts.append((f"{path.name} cell {index} output", shown))
    return texts


def catalog_texts(path: Path) -> list[tuple[str, str]]:
    catalog = json.loads(path.read_text(encoding="utf-8"))
    return [(f"{path.relative_to(ROOT)} [{key!r}]", value) for key, value in catalog.items() if isinstance(value, str)]


def chinese_texts() -> list[tuple[str, str]]:
    texts = []
    for path in sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")):
        texts += notebook_texts(path)
    for path in sorted((ROOT / "lmcore" / "locale" / "zh").glob("*.json")):
        texts += catalog_texts(path)
    for path in (ROOT / "README.zh-CN.md", ROOT / "site" / "index.zh.md"):
        texts.append((path.name, path.read_text(encoding="utf-8")))
    glossary = GLOSSARY.read_text(encoding="utf-8")
    head, _, rest = glossary.partition(TERM_TABLE_HEADING)
    texts.append((f"{GLOSSARY.name} (outside the term list)", head + "\n## " + rest.split("\n## ", 1)[1]))
    return texts


def misused(texts: list[tuple[str, str]], table: list[tuple[str, list[str]]]) -> list[str]:
    found = []
    for where, text in texts:
        text = readable(text)
        for term, aliases in table:
            found += [f"{where}: {alias!r} (the edition says {term!r})" for alias in aliases if alias in text]
    return found


def test_the_term_list_is_there_and_names_each_alias_once():
    table = term_table(GLOSSARY.read_text(encoding="utf-8"))
    assert len(table) >= 20
    aliases = [alias for _, names in table for alias in names]
    assert len(aliases) == len(set(aliases)), "an alias listed twice"
    terms = {name for term, _ in table for name in term.split("、")}
    assert not terms & set(aliases), "a name is both a term and an alias"


def test_no_chinese_text_uses_a_name_the_term_list_rules_out():
    table = term_table(GLOSSARY.read_text(encoding="utf-8"))
    found = misused(chinese_texts(), table)
    assert not found, f"{len(found)} uses of a name the glossary's term list rules out:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("text, expected", [
    ("见延伸阅读一节", ["x: '延伸阅读' (the edition says '深入一步')"]),
    ("《世界英文圣经》（World English Bible）", []),  # an English gloss is not a second name
    ("`World English Bible` 和 World English Bible 译本",  # a code span is code, not prose
     ["x: 'World English Bible' (the edition says '《世界英文圣经》')"]),
    ("深入一步", []),
])
def test_the_check_catches_an_alias_and_spares_a_gloss(text, expected):
    table = [("深入一步", ["延伸阅读"]), ("《世界英文圣经》", ["World English Bible"])]
    assert misused([("x", text)], table) == expected


BUILDS_ON_EN = re.compile(r"^\*?(?:This builds on|Builds on) ")
BUILDS_ON_ZH = re.compile(r"^\*?本节以[^。，；]{1,30}为基础[。，；]")


def going_further_openings(path: Path) -> list[tuple[int, str]]:
    """(cell, first words) of each Going-further section: the text after its heading."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = []
    for index, cell in enumerate(cells):
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and re.match(r"## (?:Going further|深入一步)", text):
            rest = text.partition("\n")[2].strip() or "".join(cells[index + 1]["source"]).strip()
            found.append((index, rest))
    return found


@pytest.mark.parametrize("chapter", sorted((ROOT / "notebooks").glob("0[0-9]_*.ipynb")), ids=lambda p: p.stem)
def test_a_going_further_section_says_what_it_builds_on_in_one_wording(chapter):
    """"This builds on section 3." is 本节以第 3 节为基础。 in every chapter, never 这一节接着 or 基于."""
    english = going_further_openings(chapter)
    chinese = going_further_openings(ROOT / "notebooks" / "zh" / chapter.name)
    assert [index for index, _ in chinese] == [index for index, _ in english]
    for (index, en), (_, zh) in zip(english, chinese):
        if BUILDS_ON_EN.match(en):
            assert BUILDS_ON_ZH.match(zh), f"zh/{chapter.name} cell {index}: starts {zh[:30]!r}, not 本节以……为基础。"
