"""Information without text: measures of distributions, estimates from samples, sources of known entropy.

- ``measures``: entropy, cross-entropy ``H(p, m)``, KL divergence, a distribution's perplexity,
  surprisal, unit conversion, Huffman codes (chapters 2 and 3).
- ``estimators``: plug-in and Miller-Madow entropy from samples, block entropies, rate convergence.
- ``sources``: i.i.d., Markov and mixture sources whose entropy rate is a formula.

Their arguments are checked by :mod:`lmcore.checks` (``check_distribution``, ``check_base``,
``PROBABILITY_SUM_TOLERANCE``), with the same errors as in every other package.
"""

from __future__ import annotations

from lmcore.info.estimators import (
    EntropyGrowth,
    SampleRates,
    block_entropy,
    block_entropy_rates,
    entropy_growth,
    log_spaced,
    miller_madow_correction,
    miller_madow_entropy,
    plugin_entropy,
    rate_convergence,
    sample_rates,
    type_counts,
)
from lmcore.info.measures import (
    Distribution,
    convert,
    cross_entropy,
    distribution_perplexity,
    entropy,
    expected_code_length,
    huffman_code,
    kl_divergence,
    perplexity_from_logprobs,
    surprisal,
)
from lmcore.info.sources import IIDSource, MarkovSource, MixtureSource

__all__ = [
    "Distribution", "surprisal", "entropy", "cross_entropy", "kl_divergence", "distribution_perplexity",
    "perplexity_from_logprobs", "convert", "huffman_code", "expected_code_length", "type_counts",
    "plugin_entropy", "miller_madow_correction", "miller_madow_entropy", "EntropyGrowth", "entropy_growth",
    "block_entropy", "block_entropy_rates", "log_spaced", "SampleRates", "sample_rates", "rate_convergence",
    "IIDSource", "MarkovSource", "MixtureSource",
]
