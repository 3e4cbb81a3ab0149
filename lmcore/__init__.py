"""lmcore: the small library behind the course "How do we know a model predicts well?".

One module per idea, each importing only the ones below it:

- ``lmcore.info``: entropy, cross-entropy, KL divergence, perplexity, Huffman codes.
- ``lmcore.vocab``: the ``Vocabulary`` that maps tokens to integer ids.
- ``lmcore.text``: corpora, tokenization, splits; ``lmcore.sources``: sources of known entropy.
- ``lmcore.ngram`` and ``lmcore.evaluate``: n-gram models and perplexity with explicit conventions.
- ``lmcore.arpa``: ARPA files, the backoff format KenLM and SRILM read.
- ``lmcore.bleu``: BLEU that shows its work.
- ``lmcore.widgets`` and ``lmcore.plots``: the only modules that import ipywidgets and matplotlib.
- ``lmcore.exercises``: instant self-checks for the chapters' exercises.

Submodules are imported on use (``import lmcore.info``) so that the package stays light.
"""

__version__ = "0.1.0"
