"""lmcore: the small library behind the course "How do we know a model predicts well?".

A package per topic, a module per idea. Each package has one public face, its
``__init__``: import from the package (``from lmcore.ngram import KneserNey``), never
from the module inside it. Packages sit on floors: a package imports only packages on
its own floor or below, never in a circle, only through their faces, and never an
underscore name of another package (``tests/repository/test_architecture.py`` checks this
against :data:`FLOORS`).

1. ``checks`` (the argument checks every package uses), ``i18n`` (the course's language:
   ``set_language``, ``tr``), ``info`` (entropy, cross-entropy, KL divergence, a
   distribution's perplexity, Huffman codes, estimates from samples, sources of known
   entropy), ``text`` (vocabulary, tokenizers, corpora, splits, translations, subwords),
   ``lm`` (the language-model protocol every model implements, and the framing of sentences
   with ``<s>``/``</s>`` it scores) and ``bleu`` (BLEU that
   shows its work, its signature, the paired bootstrap).
2. ``ngram`` (counting, the models, interpolation, Kneser-Ney, ARPA in and out) and
   ``neural`` (a small neural language model and its training).
3. ``evaluate`` (perplexity of any model with explicit conventions, the perplexity table,
   bits per character, sliding windows), ``shannon`` (the Shannon game, with words and
   with letters) and ``coding`` (arithmetic coding driven by any model).
4. ``fonts`` (the Chinese font figures use), ``plots``, ``widgets`` (one module per
   explorer) and ``exercises`` (the chapters' self-checks): the only modules that import
   matplotlib and ipywidgets.

Packages are imported on use (``from lmcore import info``) so that ``import lmcore`` stays light.
"""

__version__ = "0.1.0"

FLOORS: tuple[tuple[str, ...], ...] = (
    ("checks", "i18n", "info", "text", "lm", "bleu"),
    ("ngram", "neural"),
    ("evaluate", "shannon", "coding"),
    ("fonts", "plots", "widgets", "exercises"),
)
"""lmcore's packages (and single-module topics) by floor, lowest first; each imports only
from its floor or below."""
