"""Chapter 2's entropy-rate explorer without a browser.

Observers run synchronously when a test sets ``.value``, so each assertion reads what a
student would see after the same move. Samples are 10,000 symbols long to keep this quick.
"""

import re
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from widget_support import PNG, shown_all

from lmcore import plots
from lmcore.i18n import set_language
from lmcore.info import MarkovSource, MixtureSource, estimators
from lmcore.widgets import (
    SOURCE_KINDS,
    EntropyRateExplorer,
    entropy_rate_figure,
    entropy_rate_html,
    entropy_rate_report,
    entropy_rate_source,
    two_state_sample,
)

N = 10_000

# --- the vectorised sampler ---------------------------------------------------------------


@settings(max_examples=60)
@given(st.sampled_from([0.0, 0.01, 0.1, 0.37, 0.5, 0.9, 1.0]), st.sampled_from([0.0, 0.02, 0.5, 0.63, 1.0]),
       st.integers(min_value=1, max_value=300), st.integers(min_value=0, max_value=10_000))
def test_two_state_sample_equals_the_chains_own_sampler(to_b, to_a, n, seed):
    if to_b == to_a == 0:
        return  # no stationary distribution: MarkovSource refuses it
    chain = MarkovSource([[1 - to_b, to_b], [to_a, 1 - to_a]])
    assert np.array_equal(two_state_sample(chain, n, seed=seed), chain.sample(n, seed=seed))


def test_two_state_sample_continues_a_generator_like_the_chain():
    chain = MarkovSource([[0.9, 0.1], [0.5, 0.5]])
    ours, theirs = np.random.default_rng(4), np.random.default_rng(4)
    for _ in range(3):
        assert np.array_equal(two_state_sample(chain, 500, seed=ours), chain.sample(500, seed=theirs))


def test_two_state_sample_checks_its_arguments():
    with pytest.raises(TypeError, match="chain must be a MarkovSource with two states"):
        two_state_sample(MarkovSource([[0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]]), 10)
    with pytest.raises(ValueError, match="n must be at least 1"):
        two_state_sample(entropy_rate_source("Markov chain", 0.1, 0.5), 0)
    with pytest.raises(TypeError, match="n must be an int"):
        two_state_sample(entropy_rate_source("Markov chain", 0.1, 0.5), 2.0)


# --- the pure part ------------------------------------------------------------------------


def test_markov_report_lands_near_the_exact_rate():
    report = entropy_rate_report("Markov chain", 0.1, 0.5, n_samples=3, n=N)
    assert isinstance(report.source, MarkovSource)
    assert report.result.entropy_rate == pytest.approx(0.557496, abs=1e-6)
    assert report.result.rates.shape == (3, report.result.lengths.size)
    assert report.result.lengths[-1] == N
    assert report.result.max_gap < 0.05
    assert report.picks == () and report.component_rates == ()
    # the same numbers as scoring the same samples with the chain itself
    rng = np.random.default_rng(0)
    first = report.source.sample(N, seed=rng)
    assert report.result.final[0] == pytest.approx(report.source.empirical_rate(first))


def test_mixture_report_samples_settle_on_their_own_coin():
    report = entropy_rate_report("mixture of two coins", 0.5, 0.1, n_samples=5, n=N)
    assert isinstance(report.source, MixtureSource)
    assert report.result.entropy_rate == pytest.approx(0.734498, abs=1e-6)
    assert report.component_rates == pytest.approx((1.0, 0.468996), abs=1e-6)
    assert set(report.picks) == {0, 1}
    for pick, final in zip(report.picks, report.result.final):
        assert final == pytest.approx(report.component_rates[pick], abs=0.03)
        assert abs(final - report.result.entropy_rate) > 0.2


@pytest.mark.parametrize("kind, first, second, error, words", [
    ("Markov chain", 0.0, 0.0, ValueError, "never leaves the state"),
    ("Markov chain", 1.5, 0.5, ValueError, "P(a → b) must be between 0 and 1"),
    ("mixture of two coins", 0.5, -0.1, ValueError, "coin 2: P(b) must be between 0 and 1"),
    ("Markov chain", "0.1", 0.5, TypeError, "P(a → b) must be a number, got str"),
    ("a die", 0.1, 0.5, ValueError, "kind must be one of"),
])
def test_bad_sources_are_refused_with_the_reason(kind, first, second, error, words):
    with pytest.raises(error) as raised:
        entropy_rate_report(kind, first, second, n=100)
    assert words in str(raised.value)


def test_report_checks_the_number_of_samples():
    with pytest.raises(ValueError, match="n_samples must be at least 1"):
        entropy_rate_report("Markov chain", 0.1, 0.5, n_samples=0, n=100)


def test_extreme_chains_have_rate_zero():
    # always switching: only the first symbol (1 bit, a or b from pi = (1/2, 1/2)) is news, 1 bit in 1000;
    # a state never left (pi = (1, 0)): nothing is news, and 0 shows as 0.0000, never -0.0000
    for first, second, final in [(1.0, 1.0, "0.0010"), (0.0, 0.3, "0.0000")]:
        report = entropy_rate_report("Markov chain", first, second, n_samples=2, n=1000)
        assert report.result.entropy_rate == pytest.approx(0.0, abs=1e-12)
        assert shown_all(entropy_rate_html(report), "lmcore-sample-rate") == [final, final]


# --- render -------------------------------------------------------------------------------


def test_html_shows_the_reports_numbers():
    report = entropy_rate_report("Markov chain", 0.1, 0.5, n_samples=4, n=N)
    page = entropy_rate_html(report)
    assert shown_all(page, "lmcore-exact-rate") == ["0.5575"]
    assert shown_all(page, "lmcore-sample-rate") == [f"{x:.4f}" for x in report.result.final]
    assert shown_all(page, "lmcore-gap") == [f"{x:+.4f}" for x in report.result.gaps]
    assert shown_all(page, "lmcore-max-gap") == [f"{report.result.max_gap:.4f}"]
    assert "P(a) = 0.8333" in page and "coin picked" not in page
    mixture = entropy_rate_html(entropy_rate_report("mixture of two coins", 0.5, 0.1, n_samples=2, n=N))
    assert "coin picked" in mixture and "H₂ = 0.4690" in mixture


def test_figure_has_a_line_per_possible_sample_and_the_exact_rate():
    report = entropy_rate_report("mixture of two coins", 0.5, 0.1, n_samples=3, n=N)
    figure = entropy_rate_figure(report)
    axes = figure.axes[0]
    assert len(axes.lines) == 8 + 1 + 2  # samples (5 of them empty), H, the two coins' rates
    assert [len(line.get_xdata()) for line in axes.lines[:4]] == [report.result.lengths.size] * 3 + [0]
    assert axes.lines[8].get_ydata()[0] == pytest.approx(report.result.entropy_rate)
    assert axes.get_xscale() == "log" and "log scale" in axes.get_xlabel()
    plt.close(figure)


# --- the explorer -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def explorer():
    return EntropyRateExplorer(n=N)


def test_explorer_starts_with_the_chapters_chain(explorer):
    assert explorer.kind.value == "Markov chain"
    assert (explorer.first.value, explorer.second.value) == (0.1, 0.5)
    assert shown_all(explorer.output.value, "lmcore-exact-rate") == ["0.5575"]
    assert explorer.figure.value[:4] == PNG
    assert explorer.first.continuous_update and explorer.first.layout.width == "610px"
    assert "A picture of the explorer" in explorer._repr_mimebundle_()["text/html"]


def test_sliders_change_the_source_and_the_shown_numbers(explorer):
    explorer.kind.value = "Markov chain"
    explorer.first.value, explorer.second.value = 0.5, 0.5  # a fair coin, in chain's clothing
    assert shown_all(explorer.output.value, "lmcore-exact-rate") == ["1.0000"]
    expected = entropy_rate_report("Markov chain", 0.5, 0.5, explorer.n_samples.value, N, explorer.seed)
    assert shown_all(explorer.output.value, "lmcore-sample-rate") == [f"{x:.4f}" for x in expected.result.final]
    explorer.n_samples.value = 2
    assert len(shown_all(explorer.output.value, "lmcore-sample-rate")) == 2
    explorer.n_samples.value = 5


def test_new_samples_button_draws_other_samples(explorer):
    explorer.kind.value = "Markov chain"
    explorer.first.value, explorer.second.value = 0.1, 0.5
    before = shown_all(explorer.output.value, "lmcore-sample-rate")
    seed = explorer.seed
    explorer.new_samples.click()
    assert explorer.seed == seed + 1
    assert shown_all(explorer.output.value, "lmcore-sample-rate") != before
    assert shown_all(explorer.output.value, "lmcore-exact-rate") == ["0.5575"]


def test_switching_to_the_mixture_relabels_and_resets_the_sliders(explorer):
    explorer.kind.value = "mixture of two coins"
    names = SOURCE_KINDS["mixture of two coins"]
    assert (explorer.first.description, explorer.second.description) == names[:2]
    assert (explorer.first.value, explorer.second.value) == names[2:]
    assert shown_all(explorer.output.value, "lmcore-exact-rate") == ["0.7345"]
    assert explorer.result.picks and len(explorer._levels) == 3
    explorer.kind.value = "Markov chain"
    assert explorer.first.description == "P(a → b)"


def test_a_chain_that_never_moves_gets_a_message_not_a_traceback(explorer):
    explorer.kind.value = "Markov chain"
    explorer.first.value = 0.0
    explorer.second.value = 0.0
    assert explorer.result is None and "never leaves" in explorer.error
    assert 'class="lmcore-message"' in explorer.output.value and "not ergodic" in explorer.output.value
    explorer.second.value = 0.5  # a state it never leaves: fine again, rate 0
    assert explorer.result is not None and shown_all(explorer.output.value, "lmcore-exact-rate") == ["0.0000"]
    explorer.first.value = 0.1


def test_explorer_refuses_bad_arguments():
    with pytest.raises(ValueError, match="kind must be one of"):
        EntropyRateExplorer(kind="dice", n=100)
    with pytest.raises(ValueError, match="n_samples must be between 1 and 8"):
        EntropyRateExplorer(n=100, n_samples=9)


def test_report_matches_estimators_for_the_same_samples():
    report = entropy_rate_report("Markov chain", 0.3, 0.2, n_samples=2, n=2000, seed=7)
    rng = np.random.default_rng(7)
    samples = [report.source.sample(2000, seed=rng) for _ in range(2)]
    again = estimators.sample_rates(report.source, samples)
    np.testing.assert_allclose(report.result.rates, again.rates)


# --- in Chinese: the same explorer, its texts and figure in Chinese, the same numbers --------------


@pytest.fixture
def chinese():
    set_language("zh")
    yield
    set_language("en")


def numbers(page: str) -> list[tuple[str, str]]:
    """Every number a page shows in an ``lmcore-...`` span, with the span's class."""
    return re.findall(r'<span class="(lmcore-[^"]+)">([^<]*)</span>', page)


def test_the_explorer_in_chinese_reads_chinese_with_the_english_numbers_and_no_missing_glyph(chinese):
    def english_page(explorer) -> str:
        set_language("en")
        try:
            return entropy_rate_html(entropy_rate_report(explorer.kind.value, explorer.first.value,
                                                         explorer.second.value, explorer.n_samples.value, N,
                                                         explorer.seed))
        finally:
            set_language("zh")

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph ("Glyph ... missing from font") fails the test
        explorer = EntropyRateExplorer(n=N)
        assert (explorer.kind.description, explorer.kind.label, explorer.kind.value) == ("信源", "马尔可夫链",
                                                                                         "Markov chain")
        assert (explorer.n_samples.description, explorer.new_samples.description) == ("样本", "重新抽样")
        markov = explorer.output.value
        assert numbers(markov) == numbers(english_page(explorer))
        assert "精确熵率 H = " in markov and "平稳分布：P(a) = 0.8333，P(b) = 0.1667。" in markov
        assert "与 H 的差距" in markov and f"n = {N:,} 时的比特/符号" in markov
        explorer.first.value, explorer.second.value = 0.0, 0.0
        frozen = explorer.output.value
        assert "没有可显示的熵率：P(a → b) = P(b → a) = 0：这条链永远停留在它的起始状态。" in frozen
        assert "不是遍历的" in frozen and explorer.result is None and "not ergodic" in explorer.error  # English
        explorer.kind.value = "mixture of two coins"
        explorer.new_samples.click()
        mixture = explorer.output.value
    assert numbers(mixture) == numbers(english_page(explorer))
    assert "混合信源的熵率 H = (H₁ + H₂) / 2 = " in mixture and "选中的硬币" in mixture
    assert (explorer.first.description, explorer.second.description) == ("硬币 1：P(b)", "硬币 2：P(b)")
    assert "bits" not in re.sub("<[^>]+>", " ", mixture)


def test_the_figure_in_chinese_has_chinese_labels_and_no_missing_glyph(chinese):
    report = entropy_rate_report("mixture of two coins", 0.5, 0.1, n_samples=2, n=N)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure = entropy_rate_figure(report)
        assert plots.figure_png(figure)[:4] == PNG
    axes = figure.axes[0]
    assert axes.get_title() == "两枚硬币的混合信源" and axes.get_xlabel() == "样本长度 n（对数刻度）"
    assert axes.get_ylabel() == "−(1/n) log₂ p(x₁…xₙ)，比特"
    assert [text.get_text() for text in axes.get_legend().get_texts()] == ["样本", "精确熵率 H", "各枚硬币的熵率"]
    set_language("en")
    english = entropy_rate_figure(report)
    assert [np.asarray(line.get_ydata()).tolist() for line in axes.lines] == [
        np.asarray(line.get_ydata()).tolist() for line in english.axes[0].lines]
    plt.close(figure)
    plt.close(english)


def test_a_kind_that_is_no_str_is_named_among_the_kinds():
    with pytest.raises(ValueError, match=r"^kind must be one of \['Markov chain', 'mixture of two coins'\], got \["):
        entropy_rate_source(["Markov chain"], 0.1, 0.5)  # was TypeError: unhashable type: 'list'
