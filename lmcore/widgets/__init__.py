"""Widgets that teach: drag a slider, watch entropy, cross-entropy or perplexity move.

One module per explorer, each holding its pure functions, its renderers and its
widget class; this face exports them all (``from lmcore.widgets import LambdaExplorer``):

- ``probability``: entropy, cross-entropy, KL divergence and Huffman codes of a few outcomes
  (:class:`ProbabilityExplorer`, chapters 0 and 2);
- ``shannon_game``: the Shannon game against n-gram models (:class:`ShannonGameExplorer`, chapter 1);
- ``letter_game``: Shannon's 1951 letter game and his bounds (:class:`LetterGameExplorer`, chapter 1);
- ``entropy_rate``: a source's running bits per symbol against its entropy rate
  (:class:`EntropyRateExplorer`, chapter 2);
- ``cross_entropy``: cross-entropy of a model against data, measured from one sample
  (:class:`CrossEntropyExplorer`, chapter 3);
- ``compression``: arithmetic coding, an interval narrowing symbol by symbol
  (:class:`CompressionExplorer`, chapter 3);
- ``branching``: perplexity as a branching factor (:class:`BranchingExplorer`, chapter 4);
- ``fairness``: which perplexities may be compared (:class:`FairnessExplorer`, chapter 4);
- ``lambdas``: interpolation weights λ against held-out perplexity (:class:`LambdaExplorer`, chapter 5);
- ``bleu``: BLEU count by count, clipping and brevity penalty (:class:`BleuExplorer`, chapter 6);
- ``context_window``: sliding windows, stride against window (:class:`ContextWindowExplorer`, chapter 7);
- ``base``: what they share (the display hook, number and HTML helpers, the static picture).

Every widget here follows one pattern, so that it can be tested without a browser
and trusted in one:

1. a pure function ``<topic>_report`` computes a result dataclass from the widget's state
   (:func:`distribution_report`, :func:`lambda_report`, :func:`branching_report`,
   :func:`fairness_report`, ...; a grid or a sample the explorer needs once:
   :func:`perplexity_grid`, :func:`fairness_grid`, :func:`distribution_from_weights`);
2. render functions ``<topic>_html`` and ``<topic>_figure`` turn the result into HTML and a
   matplotlib figure (:func:`distribution_html`, :func:`distribution_figure`, :func:`lambda_html`,
   :func:`branching_html`, :func:`fairness_html`, ...);
3. the explorer class only wires controls to them with ``observe(..., names="value")``.

Figures go to an ``ipywidgets.Image`` as PNG bytes and numbers to an ``HTML``
widget, both set from the kernel side: updates replace the picture in place (no
flicker, no growing pile of figures) and strict nbval sees no captured output.
Slow work happens when an explorer is built; a slider move redraws only what
moved (:class:`lmcore.plots.QuickRedraw`), in about 10 ms.
Only core ipywidgets are used, so the explorers work in JupyterLab, Notebook 7,
VS Code and Colab. Result widgets carry CSS classes (``lmcore-result``,
``lmcore-heldout-perplexity``, ...) as stable hooks for the browser test.

>>> explorer = ProbabilityExplorer(preset="rain forecast")
>>> f"{explorer.result.entropy:.4f}"
'0.8113'
>>> explorer.p_sliders[0].value = 0.75      # rain as likely as no rain: 1 bit
>>> f"{explorer.result.entropy:.4f}"
'1.0000'
"""

from lmcore.widgets.bleu import (
    BLEU_PRESETS,
    MAX_REFERENCES,
    BleuExplorer,
    BleuPreset,
    BleuReport,
    bleu_html,
    bleu_report,
)
from lmcore.widgets.branching import (
    BranchingExplorer,
    BranchingReport,
    branching_figure,
    branching_html,
    branching_report,
)
from lmcore.widgets.compression import (
    MAX_MESSAGE,
    CompressionExplorer,
    CompressionReport,
    compression_html,
    compression_report,
    narrowing_figure,
    narrowing_svg,
)
from lmcore.widgets.context_window import (
    ContextWindowExplorer,
    WindowReport,
    window_figure,
    window_html,
    window_report,
)
from lmcore.widgets.cross_entropy import (
    CROSS_ENTROPY_PRESETS,
    CrossEntropyExplorer,
    CrossEntropyPreset,
    CrossEntropyReport,
    cross_entropy_html,
    cross_entropy_report,
)
from lmcore.widgets.entropy_rate import (
    SOURCE_KINDS,
    EntropyRateExplorer,
    EntropyRateReport,
    entropy_rate_figure,
    entropy_rate_html,
    entropy_rate_report,
    entropy_rate_source,
    two_state_sample,
)
from lmcore.widgets.fairness import (
    FairnessExplorer,
    FairnessReport,
    FairnessRow,
    fairness_grid,
    fairness_html,
    fairness_report,
)
from lmcore.widgets.lambdas import (
    LambdaExplorer,
    LambdaGrid,
    LambdaReport,
    lambda_html,
    lambda_report,
    perplexity_grid,
    synthetic_order_probs,
)
from lmcore.widgets.letter_game import LetterGameExplorer, LetterReport, letter_html, letter_report
from lmcore.widgets.probability import (
    PRESETS,
    DistributionReport,
    Preset,
    ProbabilityExplorer,
    distribution_figure,
    distribution_from_weights,
    distribution_html,
    distribution_report,
)
from lmcore.widgets.shannon_game import (
    GameSetup,
    ShannonGameExplorer,
    css_name,
    format_probability,
    game_html,
    sentence_tokens,
)

__all__ = [
    "PRESETS", "Preset", "DistributionReport", "distribution_report", "distribution_from_weights",
    "distribution_html", "distribution_figure", "ProbabilityExplorer",
    "LambdaReport", "LambdaGrid", "lambda_report", "perplexity_grid", "lambda_html",
    "synthetic_order_probs", "LambdaExplorer",
    "BranchingReport", "branching_report", "branching_html", "branching_figure", "BranchingExplorer",
    "FairnessRow", "fairness_grid", "FairnessReport", "fairness_report", "fairness_html", "FairnessExplorer",
    "SOURCE_KINDS", "two_state_sample", "entropy_rate_source", "EntropyRateReport", "entropy_rate_report",
    "entropy_rate_html", "entropy_rate_figure", "EntropyRateExplorer",
    "GameSetup", "sentence_tokens", "format_probability", "css_name", "game_html", "ShannonGameExplorer",
    "LetterReport", "letter_report", "letter_html", "LetterGameExplorer",
    "MAX_REFERENCES", "BleuPreset", "BLEU_PRESETS", "BleuReport", "bleu_report", "bleu_html", "BleuExplorer",
    "CROSS_ENTROPY_PRESETS", "CrossEntropyPreset", "CrossEntropyReport", "cross_entropy_report",
    "cross_entropy_html", "CrossEntropyExplorer",
    "MAX_MESSAGE", "CompressionReport", "compression_report", "narrowing_figure", "narrowing_svg",
    "compression_html", "CompressionExplorer",
    "WindowReport", "window_report", "window_html", "window_figure", "ContextWindowExplorer",
]
