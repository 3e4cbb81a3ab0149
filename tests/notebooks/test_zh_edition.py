"""The Chinese edition (notebooks/zh/) against the English chapters, cell by cell, so that the two
cannot drift apart, and the Chinese chapters speak Chinese from start to end.

- Every English chapter has its Chinese copy under the same file name, and no other.
- The same cells in the same order. The code is the same program: the same syntax tree once every
  string literal is blanked (and comments, which the tree does not hold). The Chinese edition writes
  its comments and printed labels in Chinese; a plain string literal it changes must hold Chinese
  (data and API values such as ``"english"`` or ``tokenize="13a"`` cannot change), while the text
  and the field widths of an f-string are free, so that Chinese tables line up.
- Stored executed, with the same outputs: of the same kinds, with no error, and every cell's printed
  text (and plain results, and lmcore's HTML) holds exactly the numbers of the English cell's.
  nbval re-executes the English edition only (the time budget: the suite under 90 s on two cores);
  the Chinese code is that program, run by ``classroom/execute.py``, and this number-for-number check
  is the proof that its stored outputs are right.
- No English prose in a Chinese output: an English word there must be a code identifier, a unit or
  a proper name (``ENGLISH_NAMES``), a Python value as its repr prints it, an English example in
  Chinese quotes “...”, or a formula or call such as ``P(of | the son)``.
- The prose is Chinese and says the same things: every decimal number of an English cell appears
  in its Chinese cell, the same headings open the same cells, the same answers stay folded, the
  same chapters are linked.

Change an English chapter, and this test fails until its Chinese copy follows.
"""

from __future__ import annotations

import ast
import html
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from lmcore.text import TOY_TEST, TOY_TRAIN

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
CHINESE_DIR = ROOT / "notebooks" / "zh"
SWITCH_EN, SWITCH_ZH = 'set_language("en")', 'set_language("zh")'
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef“”‘’…—]")  # characters, and Chinese punctuation
DECIMAL = re.compile(r"(?<![\w.])\d[\d,]*\.\d+(?:e[+-]?\d+)?")  # 9.0418, 8,842.5, 3.96e+07; not 1.2.3 parts
CHAPTER_LINK = re.compile(r"\]\((\d\d_[a-z_]+\.ipynb)")  # a link to a chapter of the same edition
HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)
# A printed number: 79,162, 0.4082, -0.0021, 1e-100, 95 in 95%; not a digit of a name (F0, log2,
# p_1, 13a) or of an order's name (4-gram, which Chinese writes 四元 or 4 阶).
NUMBER = re.compile(r"(?<![A-Za-z_\d.,])[-+]?\d+(?:,\d{3})*(?:\.\d+)?(?:e[-+]?\d+)?(?![\d.,]\d|\d|-?[A-Za-z]| ?阶)")
WIDGET = "application/vnd.jupyter.widget-view+json"


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def program(code: str) -> tuple[ast.Module, list[str]]:
    """A code cell's syntax tree and its lines of IPython magic (``%...``, ``!...``), which are not Python."""
    magic = [line for line in code.splitlines() if line.lstrip().startswith(("%", "!"))]
    python = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in code.splitlines())
    return ast.parse(python), magic


def in_fstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are literal text or field specs of an f-string: free to differ."""
    free = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            free.update(id(part) for part in node.values if isinstance(part, ast.Constant))
        elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            free.update(id(part) for part in ast.walk(node.format_spec))
    return free


class _Blank(ast.NodeTransformer):
    """The tree with every string's text taken out: f-strings keep only their fields' expressions."""

    def visit_JoinedStr(self, node):
        fields = [self.visit(part) for part in node.values if isinstance(part, ast.FormattedValue)]
        return ast.JoinedStr(values=fields)

    def visit_FormattedValue(self, node):
        return ast.FormattedValue(value=self.visit(node.value), conversion=node.conversion, format_spec=None)

    def visit_Constant(self, node):
        return ast.Constant(value="") if isinstance(node.value, str) else node


def blanked(tree: ast.AST) -> str:
    return ast.dump(_Blank().visit(tree))


def changed_literals(en_tree: ast.AST, zh_tree: ast.AST) -> list[tuple[str, str]]:
    """(English, Chinese) for each plain string literal the Chinese code changed (trees of one shape)."""
    free = in_fstrings(en_tree)
    return [(en.value, zh.value) for en, zh in zip(ast.walk(en_tree), ast.walk(zh_tree))
            if isinstance(en, ast.Constant) and isinstance(en.value, str) and id(en) not in free
            and en.value != zh.value]


def printed_texts(outputs: list[dict], explorers: bool = True) -> list[str]:
    """What a cell shows as text: its printout, plain results, and HTML without its tags (images and
    the explorers' front-end models are not text); with ``explorers=False``, not what an explorer
    shows (its texts are lmcore's catalog's, checked by tests/notebooks/test_i18n.py)."""
    texts = []
    for output in outputs:
        if not explorers and WIDGET in output.get("data", {}):
            continue
        if output["output_type"] == "stream":
            texts.append("".join(output["text"]))
        elif output["output_type"] == "error":
            texts.append(f"{output['ename']}: {output['evalue']}")
        else:
            data = output.get("data", {})
            if "text/html" in data:
                texts.append(html.unescape(re.sub(r"<[^>]+>", " ", "".join(data["text/html"]))))
            if "text/plain" in data and (WIDGET in data or "text/html" not in data) and "image/png" not in data:
                texts.append("".join(data["text/plain"]))
    return texts


def kinds(outputs: list[dict]) -> list[tuple]:
    """The output kinds in order (one entry for consecutive pieces of one stream: the kernel may split a print)."""
    found = []
    for output in outputs:
        kind = (output["output_type"], output.get("name")) if "data" not in output else (
            output["output_type"], tuple(sorted(output["data"])))
        if not (found and kind[0] == "stream" and found[-1] == kind):
            found.append(kind)
    return found


def numbers(texts: list[str]) -> Counter:
    return Counter(NUMBER.findall("\n".join(texts)))


def test_every_chapter_has_its_chinese_copy_and_no_other():
    assert ENGLISH
    chinese = sorted(path.name for path in CHINESE_DIR.glob("*.ipynb"))
    assert chinese == [path.name for path in ENGLISH]


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_the_code_is_the_english_program_and_prints_the_same_numbers(english):
    en_cells, zh_cells = cells(english), cells(CHINESE_DIR / english.name)
    assert [c["cell_type"] for c in zh_cells] == [c["cell_type"] for c in en_cells], "cells added, removed or moved"
    switches = [i for i, cell in enumerate(en_cells) if cell["cell_type"] == "code" and SWITCH_EN in source(cell)]
    assert len(switches) == 1 and source(en_cells[switches[0]]).count(SWITCH_EN) == 1, "one language switch"
    assert SWITCH_ZH in source(zh_cells[switches[0]]), "the Chinese chapter switches to Chinese"
    for index, (en, zh) in enumerate(zip(en_cells, zh_cells)):
        if en["cell_type"] != "code":
            continue
        where = f"{english.name} cell {index}"
        (en_tree, en_magic), (zh_tree, zh_magic) = program(source(en)), program(source(zh))
        assert zh_magic == en_magic and blanked(zh_tree) == blanked(en_tree), f"{where}: the code differs"
        for en_text, zh_text in changed_literals(en_tree, zh_tree):
            if (en_text, zh_text) == ("en", "zh"):
                continue
            assert CJK.search(zh_text) or zh_text.split() == en_text.split(), (
                f"{where}: {en_text!r} became {zh_text!r}; a literal may change only to Chinese text")
        assert zh["execution_count"] is not None, f"{where}: not executed"
        assert not any(o["output_type"] == "error" for o in zh["outputs"]), f"{where}: an error"
        assert kinds(zh["outputs"]) == kinds(en["outputs"]), f"{where}: outputs of other kinds"
        en_numbers, zh_numbers = (numbers(printed_texts(cell["outputs"], explorers=False)) for cell in (en, zh))
        assert zh_numbers == en_numbers, (f"{where}: numbers only in the English output {en_numbers - zh_numbers}, "
                                          f"only in the Chinese {zh_numbers - en_numbers}")


# English a Chinese output may show: units and abbreviations, proper names (people, tools, corpora,
# Bible translations), and what Python and numpy print.
ENGLISH_NAMES = frozenset("""
    log ln exp KL bit bits KiB MiB PP BP BLEU chrF BPE MLE KN EM OOV WSJ PKU UTF ASCII IPython Jupyter JupyterLab Binder
    Shannon Huffman Kneser Ney Kneser-Ney Miller Madow Miller-Madow Koehn Karpathy McMillan Breiman Brown AdamW
    Python numpy matplotlib ipywidgets nltk sacrebleu lmcore KenLM SRILM jieba tokenizers constriction gzip bz2 lzma
    WEB KJV ASV DAR YLT BWE nan inf True False None
""".split())
QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|“[^”]*”|‘[^’]*’|</?[a-z]+>")  # a repr's string, a quoted example, <s>
CALLED = re.compile(r"[A-Za-z_][\w.]*\((?:[^()\n]|\([^()\n]*\))*\)")  # P(of | the son), KneserNey(3)
SETTINGS = re.compile(r"[\w.#-]+(?:[:|][\w.#-]+)+")  # a signature nrefs:1|case:mixed|tok:13a, or spent:0.1667
# A word; one with a digit or an underscore (bz2, log2, min_count, p_1) is a name in code, not prose.
LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_'’-]*")


TOY_WORDS = " ".join(word for sentence in (*TOY_TRAIN, *TOY_TEST) for word in sentence)
VERSE = ("But whoever keeps his word, God's love has most assuredly been perfected in him. "
         "This is how we know that we are in him:")
# English shown as data where no literal can put it in quotes: (chapter, a piece of the cell's code): the text.
ENGLISH_EXAMPLES = {
    ("01_shannon_game", "shannon.PIZZA"): "mushrooms pepperoni anchovies fried rice and",  # the lecture's pizza example
    ("01_shannon_game", "shannon.play(sentence"):  # a test sentence (Proverbs 1:15) in a table beside the guesses
        "my son don't walk in the way with them",
    ("03_cross_entropy", "CrossEntropyExplorer"): TOY_WORDS,  # the explorer's table of the toy corpus
    ("04_perplexity", "groups[0][0]"):  # a test sentence (Nehemiah 5:2) and the same with two words swapped
        "for there were that said we our sons and our daughters are many let us get grain that we may eat and live",
    ("04_perplexity", "model.outcomes"): TOY_WORDS,
    ("05_smoothing_interpolation", "sentence = test[42]"):  # a test sentence, Proverbs 22:13
        "the sluggard says there is a lion outside",
    ("06_bleu", "salad[0]"): VERSE,  # 1 John 2:5 in the WEB, its words sorted
    ("06_bleu", "raw[marked][0]"): VERSE,  # the same verse, raw and cleaned
    ("07_neural_models", "text.TOY_TEST[0]"): TOY_WORDS,  # a table's header: the toy test sentence
}


def shown_examples(chapter: str, code: str) -> set[str]:
    """The words of the English examples that this cell shows as data."""
    return {word for (name, piece), example in ENGLISH_EXAMPLES.items() if name == chapter and piece in code
            for word in re.findall(r"[A-Za-z]+(?:'[a-z]+)?", example) + re.findall(r"[A-Za-z]+", example)}


def code_names(code: str) -> set[str]:
    """The names a cell's code uses, and its literals that are names too ("english", "13a", "add-one")."""
    tree, _ = program(code)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.update(node.name.split("."))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"[\w.:|/-]+", node.value):
            names.add(node.value)
    return {part for name in names for part in [name, *re.split(r"[._:|/]", name)] if part}


def english_prose(text: str, allowed: set[str]) -> list[str]:
    """The English words of ``text`` that are none of: ``allowed``, a quoted value or example, a formula."""
    text = SETTINGS.sub(" ", CALLED.sub(" ", QUOTED.sub(" ", text)))
    words = [word.strip("'’-") for word in LATIN_WORD.findall(text) if not re.search(r"[0-9_]", word)]
    return [word for word in words if len(word) > 1 and word not in allowed and word.lower() not in allowed]


@pytest.mark.parametrize("english", ENGLISH, ids=lambda path: path.stem)
def test_the_chinese_outputs_hold_no_english_prose(english):
    allowed_everywhere = ENGLISH_NAMES | {name.lower() for name in ENGLISH_NAMES}
    found = {}
    for index, cell in enumerate(cells(CHINESE_DIR / english.name)):
        if cell["cell_type"] == "code":
            code = source(cell)
            allowed = allowed_everywhere | code_names(code) | shown_examples(english.stem, code)
            words = [word for text in printed_texts(cell["outputs"]) for word in english_prose(text, allowed)]
            if words:
                found[index] = sorted(set(words))[:12]
    assert not found, f"zh/{english.name}: English words in the outputs of cells {found}"


def test_each_english_example_is_shown_by_its_cell():
    """An entry of ENGLISH_EXAMPLES whose cell is gone or no longer shows it would allow English for nothing."""
    for (chapter, piece), example in ENGLISH_EXAMPLES.items():
        shown = [cell for cell in cells(CHINESE_DIR / f"{chapter}.ipynb") if cell["cell_type"] == "code"
                 and piece in source(cell)]
        assert len(shown) == 1, f"{chapter}: {len(shown)} cells with {piece!r}"
        words = set(LATIN_WORD.findall(" ".join(printed_texts(shown[0]["outputs"]))))
        assert words & set(example.split()) - code_names(source(shown[0])), f"{chapter}: {piece!r} shows none of it"


def test_the_comparisons_see_a_change():
    """The checks above on small cases: each can fail."""
    en, zh = ast.parse('print(f"perplexity {pp:.4f}", "english")'), ast.parse('print(f"困惑度 {pp:8.4f}", "english")')
    assert blanked(en) == blanked(zh) and changed_literals(en, zh) == []
    assert blanked(en) != blanked(ast.parse('print(f"困惑度 {pp + 1:.4f}", "english")'))
    assert changed_literals(ast.parse('load("english")'), ast.parse('load("chinese")')) == [("english", "chinese")]
    assert numbers(["train 27,598 sentences, 0.4082 (95%), 1e-100; F0 log2 p_1 13a 4-gram"]) == Counter(
        ["27,598", "0.4082", "95", "1e-100"])
    assert numbers(["[16, 3]; B - A = -0.0021; 3 阶", "400.5501\n阶数 2"]) == Counter(["16", "3", "-0.0021", "400.5501",
                                                                                  "2"])
    assert english_prose("训练文本：27,598 sentences", set()) == ["sentences"]
    assert english_prose("“the sea ate” 60.44 比特 P(of | the son) 'outside' <unk> KneserNey(3)", set()) == []


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
