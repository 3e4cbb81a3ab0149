"""lmcore: the small library behind the course "How do we know a model predicts well?".

One module per idea, on floors: a module imports only modules on its own floor or
below, never in a circle, and never another module's underscore names
(``tests/test_architecture.py`` checks all three against :data:`FLOORS`).

1. ``util``, ``i18n`` (the course's language: ``set_language``, ``tr``), ``info`` (entropy,
   cross-entropy, KL divergence, perplexity, Huffman codes),
   ``vocab`` (the ``Vocabulary``), ``lines`` (text files to ids, one sentence a line),
   ``tokenizers``, ``corpora`` and ``text`` (corpora, tokenization, splits), ``sources``
   (sources of known entropy).
2. ``counting`` (n-gram counts in numpy), ``model`` (what every n-gram model does),
   ``arpa_writer``, ``interpolation``, ``kneser_ney``, ``ngram`` (the models) and
   ``evaluate`` (perplexity with explicit conventions).
3. ``arpa`` (reading ARPA files) and ``bleu`` (BLEU that shows its work).
4. ``fonts`` (the Chinese font figures use), ``plots``, ``widgets`` (a package, one module per
   explorer) and ``exercises``: the only modules that import matplotlib and ipywidgets, and the
   chapters' self-checks.

Submodules are imported on use (``import lmcore.info``) so that the package stays light.
"""

__version__ = "0.1.0"

FLOORS: tuple[tuple[str, ...], ...] = (
    ("util", "i18n", "info", "vocab", "lines", "tokenizers", "corpora", "text", "sources", "estimators",
     "translations", "subwords", "windows"),
    ("counting", "model", "arpa_writer", "interpolation", "kneser_ney", "ngram", "evaluate",
     "shannon", "shannon_letters", "coding", "coding_levels", "neural", "units"),
    ("arpa", "bleu", "bleu_signature", "bleu_bootstrap"),
    ("fonts", "plots", "widgets", "exercises"),
)
"""lmcore's modules by floor, lowest first; a module may import only from its floor or below."""
