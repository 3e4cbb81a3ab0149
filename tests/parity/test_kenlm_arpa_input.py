"""lmcore's ARPA reader refuses the numbers KenLM refuses, and reads the ones KenLM reads to KenLM's scores.

Each case edits one number of a small file KenLM can read (tabs between fields, nothing before
``\\data\\``): a 2-gram's or a 1-gram's log10 probability, or a 1-gram's log10 backoff. KenLM
(``kenlm.Model``, default configuration) either refuses the file or scores sentences; lmcore's
:func:`read_arpa` must refuse the same files (with the line) and give the same per-token log10s
(KenLM holds single precision: to 1e-6 relative; a log10 below -324 is probability 0 in
lmcore, which scores in probabilities, and KenLM keeps it).
"""

import math

import numpy as np
import optional_extras
import pytest

from lmcore.ngram import read_arpa

optional_extras.require("kenlm")
import kenlm  # noqa: E402  (after the guard: an optional extra)

pytestmark = pytest.mark.kenlm

BASE = """\\data\\
ngram 1=5
ngram 2=3

\\1-grams:
-99\t<s>\t-0.30103
-0.5\ta\t{backoff_a}
{prob_b}\tb
-0.69897\t</s>
-2.0\t<unk>

\\2-grams:
-0.1\t<s> a
{prob_ab}\ta b
-0.4\ta </s>

\\end\\
"""
LINES = {"prob_ab": 14, "prob_b": 8, "backoff_a": 7}  # the line each field is on
DEFAULTS = {"prob_ab": "-0.3", "prob_b": "-1.0", "backoff_a": "-0.2"}
SENTENCES = ["a b", "a a", "b", "b a b", "zz b", "a"]  # every edited number is used by one of them

VALUES = [
    # numbers KenLM reads
    "-0.5", "-.5", "-5.", "-1e2", "-1E-2", "-99", "-99.5", "0", "0.0", "-0", "-inf", "-1e400", "-3e38",
    "-1e39", "1e-50", "-1e-400", "+0", "2.0", "+0.5", "1",
    # and what it does not read as a number (float() reads most of these)
    "nan", "NaN", "-nan", "inf", "+inf", "1e400", "-Inf", "-INF", "-Infinity", "-infinity", "-1_0",
    "0x10", "-0x1p-2", "--1", "-", ".", "-1e", "x", "-\u0663", "\uff0d\uff11",
]
CASES = [(field, value) for field in LINES for value in VALUES]


def kenlm_log10s(path):
    """KenLM's per-token log10s of SENTENCES, or None if it refuses the file."""
    try:
        model = kenlm.Model(str(path))
    except (OSError, RuntimeError, ValueError):
        return None
    return np.array([p for s in SENTENCES for p, _, _ in model.full_scores(s, bos=True, eos=True)])


@pytest.mark.parametrize("field, value", CASES)
def test_lmcore_refuses_what_kenlm_refuses_and_reads_the_rest_alike(tmp_path, field, value):
    path = tmp_path / "edited.arpa"
    path.write_text(BASE.format(**{**DEFAULTS, field: value}), encoding="utf-8")
    theirs = kenlm_log10s(path)
    if theirs is None:
        with pytest.raises(ValueError, match=f"edited.arpa, line {LINES[field]}: "):
            read_arpa(path)
        return
    ours = read_arpa(path).token_logprobs([s.split() for s in SENTENCES]) / math.log(10)
    # lmcore scores in probabilities: a log10 below double's smallest number (-3e38) is probability 0
    theirs = np.where(theirs < math.log10(np.finfo(float).smallest_subnormal), -np.inf, theirs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)


def test_the_cases_hold_both_kinds(tmp_path):
    """KenLM reads some edits of each field and refuses others (else the cases would test little)."""
    for field in LINES:
        read = []
        for value in VALUES:
            path = tmp_path / f"{field}.arpa"
            path.write_text(BASE.format(**{**DEFAULTS, field: value}), encoding="utf-8")
            read.append(kenlm_log10s(path) is not None)
        assert 5 < sum(read) < len(VALUES) - 5, field
