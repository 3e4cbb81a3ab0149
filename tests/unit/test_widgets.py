"""The explorers without a browser: set a control's value, read the shown numbers.

Observers run synchronously when a test sets ``.value``, so every assertion reads
exactly what a student would see after the same move.
"""

import base64
import html
import math
import re
import warnings

import ipywidgets as widgets
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from widget_support import PNG, shown, spans

from lmcore import evaluate, info, ngram, plots
from lmcore.widgets import (
    PRESETS,
    LambdaExplorer,
    ProbabilityExplorer,
    distribution_from_weights,
    distribution_html,
    distribution_report,
    lambda_report,
    perplexity_grid,
    synthetic_order_probs,
)
from lmcore.widgets.base import FIGURE_ALT, STATIC_NOTE, ExplorerFigure, fit_to_column, static_html, table_html


@pytest.fixture(scope="module")
def arrays():
    return synthetic_order_probs(n_tokens=3000, seed=1)


def make_lambda_explorer(arrays):
    heldout, test = arrays
    return LambdaExplorer(heldout, test, initial_lambdas=(0.1, 0.3), grid_step=0.05)


@pytest.fixture
def lambda_explorer(arrays):
    """A fresh explorer, for tests that move its sliders or click its button."""
    return make_lambda_explorer(arrays)


@pytest.fixture(scope="module")
def untouched_lambda_explorer(arrays):
    """One explorer shared by the tests that only read it (building one draws its map: ~0.4 s)."""
    return make_lambda_explorer(arrays)


# --- pure functions -------------------------------------------------------------------


def test_horse_race_report_and_huffman_code():
    preset = PRESETS["horse race"]
    report = distribution_report(preset.p, preset.m, preset.labels)
    assert report.entropy == 2.0 and report.perplexity == 4.0
    assert report.cross_entropy == 3.0 and report.model_perplexity == 8.0
    assert report.kl_divergence == pytest.approx(1.0, abs=1e-12)
    assert [report.code[label] for label in preset.labels] == [
        "0", "10", "110", "1110", "111100", "111101", "111110", "111111"]
    assert report.expected_code_length == 2.0


@pytest.mark.parametrize("name, bits", [("fair coin", "1.0000"), ("8 teams", "3.0000"),
                                        ("horse race", "2.0000"), ("rain forecast", "0.8113")])
def test_presets_give_the_course_numbers(name, bits):
    page = distribution_html(distribution_report(PRESETS[name].p, PRESETS[name].m))
    assert shown(page, "lmcore-entropy") == bits


def test_pizza_preset_is_honest_about_everything_else():
    preset = PRESETS["pizza toppings (Shannon game)"]
    assert dict(zip(preset.labels, preset.p)) == {
        "mushrooms": 0.1, "pepperoni": 0.1, "anchovies": 0.01, "fried rice": 0.0001, "everything else": 0.7899}
    assert "lumped" in preset.story
    assert distribution_report(preset.p).entropy == pytest.approx(info.entropy(preset.p))


def test_dict_input_uses_keys_as_labels():
    report = distribution_report({"rain": 0.25, "no rain": 0.75}, {"rain": 0.5, "no rain": 0.5})
    assert report.labels == ("rain", "no rain")
    assert report.kl_divergence == pytest.approx(1 - 0.8112781244591328)


def test_certain_outcome_and_impossible_model_are_explained():
    report = distribution_from_weights([1, 0], [0, 1], ["heads", "tails"])
    assert report.entropy == 0 and report.perplexity == 1
    assert report.cross_entropy == math.inf and report.kl_divergence == math.inf
    assert report.impossible_under_model == ("heads",)
    page = distribution_html(report)
    assert shown(page, "lmcore-cross-entropy") == "∞"
    assert "H(p) = 0: one outcome is certain" in page
    assert "the model gives probability 0 to heads, which does happen" in page


def test_weights_are_normalised_and_bad_weights_named():
    assert distribution_from_weights([2, 6]).p.tolist() == [0.25, 0.75]
    with pytest.raises(ValueError, match="all weights of p are 0"):
        distribution_from_weights([0, 0])
    report = distribution_from_weights([1, 1], [0, 0])
    assert report.m is None and "weights are all 0" in report.notes[-1]
    with pytest.raises(ValueError, match="p: probabilities sum to 0.9"):
        distribution_report([0.5, 0.4])
    with pytest.raises(ValueError, match="labels has 1 entries"):
        distribution_report([0.5, 0.5], labels=["a"])


def test_lambda_report_is_lmcore_evaluate(arrays):
    heldout, _ = arrays
    report = lambda_report(heldout, (0.1, 0.3, 0.6))
    assert report.perplexity == ngram.interpolated_perplexity(heldout, [0.1, 0.3, 0.6])
    by_hand = math.exp(-np.mean(np.log(heldout @ np.array([0.1, 0.3, 0.6]))))
    assert report.perplexity == pytest.approx(by_hand, rel=1e-12)
    assert report.cross_entropy == pytest.approx(math.log2(by_hand))
    assert report.n_tokens == len(heldout) and report.n_impossible == 0 and report.message is None


def test_lambda_report_zero_probability_is_a_message(arrays):
    heldout, _ = arrays
    report = lambda_report(heldout, (0.0, 1.0, 0.0))
    assert report.perplexity == math.inf and report.n_impossible == int((heldout[:, 1] == 0).sum())
    assert report.message.startswith("∞ — some held-out token gets probability 0 under these weights")
    assert "Give some weight to λ1" in report.message
    assert report.message == f"∞ — {report.reason}"  # the reason alone, for renderers that show ∞ themselves
    assert report.reason.startswith("some held-out token") and "Give some weight to λ1" in report.reason


def test_lambda_report_rejects_bad_weights(arrays):
    heldout, _ = arrays
    with pytest.raises(ValueError, match="sum to 1.1"):
        lambda_report(heldout, (0.5, 0.6, 0.0))
    with pytest.raises(ValueError, match="one weight per order"):
        lambda_report(heldout, (0.5, 0.5))


def test_grid_matches_lambda_report_and_blanks_invalid_half(arrays):
    heldout, _ = arrays
    grid = perplexity_grid(heldout, step=0.1)
    assert grid.perplexity.shape == (11, 11)
    for i, j in [(0, 10), (3, 1), (2, 5), (5, 5)]:  # (λ2 row, λ1 column)
        l1, l2 = grid.lambda1[j], grid.lambda2[i]
        expected = lambda_report(heldout, (l1, l2, max(0.0, 1 - l1 - l2))).perplexity
        assert grid.perplexity[i, j] == pytest.approx(expected, rel=1e-5)
    assert np.isnan(grid.perplexity[6, 5]) and np.isnan(grid.perplexity[10, 10])
    assert np.isinf(grid.perplexity[10, 0])  # all weight on the bigram: unseen bigrams get 0
    assert sum(grid.best_lambdas) == pytest.approx(1)


# --- the probability explorer ---------------------------------------------------------


@pytest.mark.parametrize("name, bits", [("horse race", "2.0000"), ("rain forecast", "0.8113"),
                                        ("8 teams", "3.0000"), ("fair coin", "1.0000")])
def test_probability_explorer_shows_preset_entropy(name, bits):
    explorer = ProbabilityExplorer(preset=name)
    assert shown(explorer.output.value, "lmcore-entropy") == bits
    assert bytes(explorer.figure.value).startswith(PNG)


def test_probability_explorer_follows_sliders_and_presets():
    explorer = ProbabilityExplorer(preset="horse race")
    old_slider = explorer.p_sliders[0]
    explorer.preset.value = "rain forecast"
    assert old_slider.comm is None  # closed, not leaked
    assert len(explorer.p_sliders) == 2 and explorer.p_sliders[0].description == "rain"
    assert shown(explorer.output.value, "lmcore-entropy") == "0.8113"
    assert shown(explorer.output.value, "lmcore-cross-entropy") == "1.0000"
    explorer.p_sliders[0].value = 0.75  # weights 0.75 and 0.75: a fair chance of rain
    assert explorer.result.p.tolist() == [0.5, 0.5]
    assert shown(explorer.output.value, "lmcore-entropy") == "1.0000"
    assert shown(explorer.output.value, "lmcore-kl") == "0.0000"


def test_probability_explorer_huffman_checkbox():
    explorer = ProbabilityExplorer(preset="horse race")
    assert "Huffman code word" not in explorer.output.value
    explorer.show_code.value = True
    assert "<code>111100</code>" in explorer.output.value
    assert shown(explorer.output.value, "lmcore-code-length") == "2.0000"


def test_probability_explorer_bad_states_are_messages_not_tracebacks():
    explorer = ProbabilityExplorer(preset="fair coin")
    explorer.p_sliders[1].value = 0.0                      # tails never happens
    assert shown(explorer.output.value, "lmcore-entropy") == "0.0000"
    explorer.m_sliders[0].value = 0.0                      # the model rules out heads
    assert shown(explorer.output.value, "lmcore-cross-entropy") == "∞"
    assert "gives probability 0 to heads" in explorer.output.value
    explorer.p_sliders[0].value = 0.0                      # no weight left at all
    assert explorer.result is None and "all weights of p are 0" in explorer.error
    assert "Not a distribution yet" in explorer.output.value
    explorer.p_sliders[0].value = 0.3                      # and back
    assert explorer.error is None and shown(explorer.output.value, "lmcore-entropy") == "0.0000"


def test_probability_explorer_updates_do_not_pile_up_figures():
    explorer = ProbabilityExplorer(preset="horse race")
    figures_before = len(plt.get_fignums())
    first_picture = explorer.figure.value
    for step in range(20):
        explorer.p_sliders[step % 8].value = 0.05 * (step + 1)
    explorer.preset.value = "fair coin"
    assert len(plt.get_fignums()) == figures_before
    assert bytes(explorer.figure.value) != bytes(first_picture) and bytes(explorer.figure.value).startswith(PNG)


def test_probability_explorer_displays_as_its_widget():
    explorer = ProbabilityExplorer()
    bundle = explorer._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.widget.model_id
    assert bundle["text/plain"].startswith("ProbabilityExplorer: an interactive widget")
    assert "lmcore-result" in explorer.output._dom_classes
    with pytest.raises(ValueError, match="preset must be one of"):
        ProbabilityExplorer(preset="dice")


def test_probability_explorer_carries_a_static_picture_of_what_it_shows():
    explorer = ProbabilityExplorer(preset="rain forecast")
    explorer.p_sliders[0].value = 0.75  # the picture is of the state when displayed: rain as likely as not
    page = explorer._repr_mimebundle_()["text/html"]
    assert page.startswith('<div class="lmcore-static"') and STATIC_NOTE in page
    assert shown(page, "lmcore-entropy") == "1.0000" == shown(explorer.output.value, "lmcore-entropy")
    picture = re.search(r'src="data:image/png;base64,([^"]+)"', page).group(1)
    assert base64.b64decode(picture) == explorer.figure.value
    assert "rain: <b>0.7500</b>" in page and "Example: <b>rain forecast</b>" in page
    assert "☐ Show the Huffman code" in page


def test_static_picture_follows_the_layout_and_skips_hidden_boxes():
    hidden = widgets.HBox([widgets.HTML("secret")], layout=widgets.Layout(display="none"))
    page = static_html(widgets.VBox([widgets.HBox([widgets.HTML("a"), widgets.Button(description="go")]), hidden]))
    assert "flex-direction: row" in page and "flex-direction: column" in page
    assert "<button disabled>go</button>" in page and "secret" not in page


def test_the_picture_says_run_this_cell_and_what_its_figure_shows_and_fits_any_column():
    from lmcore.i18n import set_language, tr

    explorer = ProbabilityExplorer(preset="horse race")
    bundle = explorer._repr_mimebundle_()
    page = bundle["text/html"]
    assert "run this cell in Jupyter" in page and "Run the notebook" not in page
    assert bundle["text/plain"] == "ProbabilityExplorer: an interactive widget (run this cell in Jupyter to use it)"
    alt = html.unescape(re.search(r'<img [^>]*alt="([^"]*)"', page).group(1))
    assert alt == explorer.figure.tooltip and alt.startswith("Bar chart: each outcome's probability")
    assert alt != str(FIGURE_ALT)
    assert isinstance(explorer.figure, ExplorerFigure) and explorer.figure.description == ""  # the front end reads it
    assert re.search(r'<img [^>]*style="width: 560px; max-width: 100%; height: auto"', page)
    # Every box and HTML of the live explorer may shrink to the column; pictures' rows wrap.
    def parts(widget):
        yield widget
        for child in getattr(widget, "children", ()):
            yield from parts(child)
    assert all(part.layout.max_width == "100%" for part in parts(explorer.widget))
    assert all(part.layout.min_width == "0" for part in parts(explorer.widget) if isinstance(part, widgets.Box))
    assert "flex-wrap: wrap" in static_html(widgets.HBox([widgets.HTML("a"), widgets.HTML("b")]))
    # A table scrolls in its own named, focusable box where it is wider than the column.
    table = table_html(["order", "count"], [["1", "2"]], label="n-grams")
    assert table.startswith('<div class="lmcore-scroll" role="region" tabindex="0" aria-label="n-grams"')
    assert "overflow-x: auto" in table and "local" in table and '<th scope="col"' in table
    box = widgets.VBox([widgets.HTML("x")], layout=widgets.Layout(max_width="50%"))
    fit_to_column(box)
    assert box.layout.max_width == "50%" and box.children[0].layout.max_width == "100%"  # set widths are kept
    set_language("zh")
    try:
        chinese = ProbabilityExplorer(preset="horse race")._repr_mimebundle_()["text/html"]
        assert tr(STATIC_NOTE) in chinese and "运行这个单元格" in chinese
    finally:
        set_language("en")

# --- the λ explorer -----------------------------------------------------------------------


def test_lambda_explorer_shows_the_pure_functions_number(lambda_explorer, arrays):
    heldout, _ = arrays
    assert lambda_explorer.lambdas == (0.1, 0.3, 0.6)
    expected = lambda_report(heldout, (0.1, 0.3, 0.6)).perplexity
    assert expected == ngram.interpolated_perplexity(heldout, [0.1, 0.3, 0.6])
    assert lambda_explorer.result.perplexity == expected
    assert shown(lambda_explorer.output.value, "lmcore-heldout-perplexity") == f"{expected:.4f}"
    lambda_explorer.lambda1.value = 0.25
    assert lambda_explorer.lambdas[2] == pytest.approx(0.45) and 'aria-valuenow="0.45"' in lambda_explorer.lambda3.value
    expected = lambda_report(heldout, (0.25, 0.3, 0.45)).perplexity
    assert shown(lambda_explorer.output.value, "lmcore-heldout-perplexity") == f"{expected:.4f}"


def test_lambda_explorer_marks_em_optimum(untouched_lambda_explorer, arrays):
    heldout, _ = arrays
    explorer = untouched_lambda_explorer
    trace = ngram.fit_interpolation_weights(heldout)
    assert explorer.em_lambdas == trace.lambdas
    best = lambda_report(heldout, trace.lambdas).perplexity
    assert f"perplexity {best:.4f}" in explorer.output.value
    # EM's optimum is no worse than any grid point.
    assert best <= np.nanmin(explorer.grid.perplexity) * (1 + 1e-4)


def test_lambda_sum_never_exceeds_one(lambda_explorer):
    lambda_explorer.lambda2.value = 0.95  # λ1 is 0.1: λ2 stops at 0.9
    assert lambda_explorer.lambda2.value == pytest.approx(0.9)
    assert lambda_explorer.lambdas[2] == 0.0 and ">0.00</span></div>" in lambda_explorer.lambda3.value
    assert "cannot exceed 1" in lambda_explorer.message.value and "λ2 stopped at 0.90" in lambda_explorer.message.value
    lambda_explorer.lambda1.value = 0.05  # a legal move clears the message
    assert lambda_explorer.message.value == "" and lambda_explorer.lambdas == (0.05, 0.9, 0.05)


def test_lambda_explorer_infinite_perplexity_is_readable_and_keeps_the_test_set(lambda_explorer, arrays):
    _, test = arrays
    lambda_explorer.lambda1.value = 0.0
    lambda_explorer.lambda2.value = 1.0  # everything on the bigram, which gives unseen bigrams 0
    assert lambda_explorer.result.perplexity == math.inf
    text = re.sub("<[^>]+>", "", lambda_explorer.output.value)
    assert "∞ — some held-out token gets probability 0 under these weights" in text
    # The test set would say ∞ too: the button says so before it is pressed, and a press does not spend it.
    assert lambda_explorer.test_button.tooltip.startswith("Not yet: at λ = (0.00, 1.00, 0.00)")
    lambda_explorer.test_button.click()
    assert lambda_explorer.test_result is None and not lambda_explorer.test_button.disabled
    text = re.sub("<[^>]+>", "", lambda_explorer.test_output.value)
    assert "the test-set perplexity would be ∞" in text and "Give some weight to λ1: that order never" in text
    lambda_explorer.lambda2.value = 0.9
    lambda_explorer.lambda1.value = 0.1  # a finite choice: the note goes, the one use is there
    assert lambda_explorer.test_output.value == "" and lambda_explorer.test_button.tooltip.startswith("Use the test")
    lambda_explorer.test_button.click()
    assert lambda_explorer.test_result.perplexity == lambda_report(test, (0.1, 0.9, 0.0)).perplexity < math.inf
    assert lambda_explorer.test_button.disabled


def test_the_test_set_is_wasted_only_where_the_weights_can_give_infinity():
    from lmcore.widgets.lambdas import wasted_test_set

    heldout = np.array([[0.5, 0.0, 0.0], [0.25, 0.5, 1.0], [0.1, 0.2, 0.0]])  # only the unigram is never 0
    assert wasted_test_set(heldout, (0.01, 0.5, 0.49)) is None
    assert wasted_test_set(heldout, (0.0, 0.5, 0.5)).endswith("Give some weight to λ1: that order never gives "
                                                               "probability 0.")
    no_safe_order = np.array([[0.5, 0.0, 0.0], [0.0, 0.5, 1.0]])  # every order gives some token 0 ...
    assert wasted_test_set(no_safe_order, (0.5, 0.5, 0.0)) is None  # ... so only an ∞ held-out counts
    assert "Give some weight" not in wasted_test_set(no_safe_order, (1.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="lambdas must have 3 weights"):
        wasted_test_set(heldout, (0.5, 0.5))


def test_lambda3_is_shown_not_a_control_and_the_sliders_have_names(untouched_lambda_explorer):
    explorer = untouched_lambda_explorer
    assert isinstance(explorer.lambda3, widgets.HTML) and "lmcore-lambda3" in explorer.lambda3._dom_classes
    meter = explorer.lambda3.value
    assert 'role="meter"' in meter and 'aria-label="λ3, trigram weight (1 − λ1 − λ2)"' in meter
    assert 'aria-valuenow="0.60"' in meter and "tabindex" not in meter and ">0.60</span>" in meter
    script = naming_script(explorer)
    assert '"lmcore-lambda1": "λ1, unigram weight"' in script and '"lmcore-lambda2": "λ2, bigram weight"' in script
    assert "aria-valuenow" in script and "lmcore-explorer" in explorer.widget._dom_classes


def naming_script(explorer) -> str:
    """The script that names ``explorer``'s slider handles in the page, added when it is displayed (once)."""
    explorer._repr_mimebundle_()
    explorer._repr_mimebundle_()
    [script] = [output["data"]["application/javascript"] for child in explorer.widget.children
                if isinstance(child, widgets.Output) for output in child.outputs]
    return script


def test_test_set_is_used_once(lambda_explorer, arrays):
    _, test = arrays
    assert lambda_explorer.test_output.value == "" and not lambda_explorer.test_button.disabled
    lambda_explorer.lambda1.value = 0.2
    lambda_explorer.test_button.click()
    expected = lambda_report(test, (0.2, 0.3, 0.5)).perplexity
    assert lambda_explorer.test_result.perplexity == expected
    assert shown(lambda_explorer.test_output.value, "lmcore-test-perplexity") == f"{expected:.4f}"
    assert "optimistic" in lambda_explorer.test_output.value and lambda_explorer.test_button.disabled
    lambda_explorer.lambda1.value = 0.3  # later moves do not re-use the test set
    lambda_explorer.test_button.click()
    assert lambda_explorer.test_result.lambdas == (0.2, 0.3, 0.5)


def test_no_test_set_means_no_button(arrays):
    explorer = LambdaExplorer(arrays[0], grid_step=0.1)
    assert explorer.test_button.disabled and explorer.lambdas == (0.33, 0.33, 0.34)


def test_lambda_explorer_updates_do_not_pile_up(lambda_explorer):
    figures_before = len(plt.get_fignums())
    pictures = set()
    for step in range(20):
        lambda_explorer.lambda1.value = 0.01 * (step % 10)
        pictures.add(bytes(lambda_explorer.map.value))
    assert len(plt.get_fignums()) == figures_before
    assert len(pictures) == 10 and all(p.startswith(PNG) for p in pictures)


def test_lambda_explorer_rejects_wrong_shapes():
    with pytest.raises(ValueError, match="heldout_order_probs must have 3 columns"):
        LambdaExplorer(np.full((10, 2), 0.5))
    with pytest.raises(ValueError, match="heldout_order_probs has probabilities above 1"):
        LambdaExplorer(np.full((10, 3), 2.0))
    with pytest.raises(ValueError, match="initial_lambdas"):
        LambdaExplorer(np.full((10, 3), 0.5), initial_lambdas=(0.7, 0.7))


def test_lambda_explorer_from_an_interpolated_model():
    from lmcore import ngram, text

    model = ngram.Interpolated(3).fit(text.TOY_TRAIN)
    explorer = LambdaExplorer.from_model(model, text.TOY_TEST, text.TOY_TEST, initial_lambdas=(0.2, 0.3),
                                         grid_step=0.1)
    assert model.lambdas is None  # the model is not changed
    order_probs = model.order_probs(text.TOY_TEST)
    model.lambdas = (0.2, 0.3, 0.5)
    assert explorer.result.perplexity == pytest.approx(evaluate.perplexity(model, text.TOY_TEST), rel=1e-12)
    assert explorer.em_lambdas == ngram.fit_interpolation_weights(order_probs).lambdas


def test_lambda_explorer_displays_as_its_widget(untouched_lambda_explorer):
    explorer = untouched_lambda_explorer
    bundle = explorer._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.widget.model_id
    assert "lmcore-lambda1" in explorer.lambda1._dom_classes
    page = bundle["text/html"]
    assert shown(page, "lmcore-heldout-perplexity") == shown(explorer.output.value, "lmcore-heldout-perplexity")
    assert page.count("<img") == 1 and "<button disabled>" in page  # the map, and the test button not yet used


# --- plots ------------------------------------------------------------------------------


def test_plots_return_figures_and_close_nothing():
    before = len(plt.get_fignums())
    figures = [
        plots.bar_distribution([0.5, 0.5], ["heads", "tails"], m=[0.8, 0.2], title="coin"),
        plots.surprisal_along(["the", "cat", "sat"], [2.0, 9.5, math.inf]),
        plots.learning_curve([1000, 10000], {1: [900, 700], "bigram": [800, 400]}),
        plots.perplexity_bars({"unigram": 962.1, "bigram": math.inf}),
        plots.lambda_triangle_map(np.linspace(0, 1, 3), np.linspace(0, 1, 3),
                                  np.array([[9, 5, 7], [4, 3, np.nan], [np.inf, np.nan, np.nan]]),
                                  current=(0.5, 0.5), optimum=(0.4, 0.3)),
    ]
    assert len(plt.get_fignums()) == before + len(figures)
    for figure in figures:
        assert isinstance(figure, matplotlib.figure.Figure)
        assert plots.figure_png(figure).startswith(PNG)
        plt.close(figure)
    with pytest.raises(ValueError, match="labels has 1 entries"):
        plots.bar_distribution([0.5, 0.5], ["a"])
    with pytest.raises(ValueError, match="perplexity has shape"):
        plots.lambda_triangle_map([0, 1], [0, 1], np.ones((3, 3)))


# --- readable widgets: line spacing, bold only where it belongs, sliders that follow the drag -----


def test_every_explorer_text_has_ordinary_line_spacing(lambda_explorer):
    # JupyterLab gives HTML widgets a 28 px line height; wrapped text would be double-spaced.
    probability = ProbabilityExplorer(preset="horse race")
    lambda_explorer.lambda2.value = 0.95  # a notice in the message box
    lambda_explorer.test_button.click()
    for html_widget in (probability.output, probability.story, lambda_explorer.output, lambda_explorer.message,
                        lambda_explorer.test_output):
        assert html_widget.value.startswith('<div class="lmcore-text" style="line-height: 1.4'), html_widget.value[:80]


def test_lambda_report_bolds_the_number_not_the_clause(untouched_lambda_explorer):
    page = untouched_lambda_explorer.output.value
    bold = re.findall(r"<b>(.*?)</b>", page)
    assert bold == [f'<span class="lmcore-heldout-perplexity">{shown(page, "lmcore-heldout-perplexity")}</span>']
    assert "(cross-entropy" in page


def test_sliders_follow_the_drag_and_are_wide_enough_for_a_step(untouched_lambda_explorer):
    from lmcore.widgets.base import SLIDER_TRACK_PX

    probability = ProbabilityExplorer(preset="fair coin")
    # The λ sliders leave 100 px for the readout and the track's margins. The probability explorer's,
    # p's beside m's on a 1280 x 720 slide, leave what they take in JupyterLab 4: a 72 px readout and
    # 2 x 12 px (tests/browser/test_browser.py measures their track).
    sliders = [(untouched_lambda_explorer.lambda1, 100, SLIDER_TRACK_PX),
               (untouched_lambda_explorer.lambda2, 100, SLIDER_TRACK_PX),
               *((slider, 72 + 2 * 12, 400) for slider in probability.p_sliders + probability.m_sliders)]
    for slider, readout, least in sliders:
        assert slider.continuous_update, slider.description
        width = int(slider.layout.width.removesuffix("px"))
        description = int(slider.style.description_width.removesuffix("px"))
        track = width - description - readout
        assert track >= least >= 4 * 100, slider.description  # a step of 0.01 of the range is at least 4 px
    p_and_m = 2 * int(probability.p_sliders[0].layout.width.removesuffix("px")) + 12
    assert p_and_m <= 1198  # side by side in a slide's column (tests/browser/test_browser_slides.py)


def test_lambda_map_reads_well(untouched_lambda_explorer):
    explorer = untouched_lambda_explorer
    figure = plots.lambda_triangle_map(explorer.grid.lambda1, explorer.grid.lambda2, explorer.grid.perplexity,
                                       current=(0.1, 0.3), optimum=explorer.em_lambdas)
    ax, colour_bar = figure.axes
    assert "perplexity for each (λ1, λ2)" in ax.get_title()
    ticks = [t for t in colour_bar.get_yticks() if colour_bar.get_ylim()[0] <= t <= colour_bar.get_ylim()[1]]
    assert len(ticks) >= 4, ticks  # a colour bar with two ticks cannot be read
    assert "log colour scale" in colour_bar.get_ylabel()
    (image,) = ax.get_images()
    assert image.get_clip_path() is not None  # cut along λ1 + λ2 = 1, not a staircase of grid cells
    plt.close(figure)


@pytest.mark.parametrize("low, high", [(81.57, 112.3), (3.0, 3.5), (2.0, 2000.0), (0.5, 0.51)])
def test_nice_ticks_are_round_and_inside(low, high):
    ticks = plots.nice_ticks(low, high)
    assert 1 <= len(ticks) <= 12 and all(low - 1e-9 <= t <= high + 1e-9 for t in ticks)
    assert ticks == sorted(ticks) and len({f"{t:g}" for t in ticks}) == len(ticks)


def test_learning_curve_says_its_axes_are_log():
    figure = plots.learning_curve([1000, 10000], {1: [900, 700]})
    ax = figure.axes[0]
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert "log scale" in ax.get_xlabel() and "log scale" in ax.get_ylabel()
    plt.close(figure)


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_weights_sit_on_the_slider_grid(name):
    # A slider that follows the drag sends its value, rounded to its step, back when it is displayed:
    # a preset off the grid would change by itself.
    from lmcore.widgets.probability import WEIGHT_STEP, slider_weights

    preset = PRESETS[name]
    for probabilities in (preset.p, preset.m):
        weights = np.array(slider_weights(probabilities))
        assert np.allclose(np.round(weights / WEIGHT_STEP) * WEIGHT_STEP, weights, rtol=0, atol=1e-12)
        assert weights.max() <= 1 and np.allclose(weights / weights.sum(), probabilities, rtol=1e-12, atol=0)
    explorer = ProbabilityExplorer(preset=name)
    assert [s.value for s in explorer.p_sliders] == list(slider_weights(preset.p))
    assert explorer.result.entropy == pytest.approx(info.entropy(preset.p), abs=1e-12)


# --- the Chinese edition: the same explorers, numbers and figures, in Chinese ----------------------


def figure_texts(figure) -> str:
    """Every text of a figure (title, axis labels, tick labels, legend, colour bar), drawn once so that all exist."""
    figure.canvas.draw()
    return "\n".join(text.get_text() for text in figure.findobj(matplotlib.text.Text))


def test_probability_explorer_in_chinese_shows_the_english_numbers(chinese):
    from lmcore.i18n import set_language

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing Chinese glyph ("Glyph ... missing from font") fails the test
        explorer = ProbabilityExplorer(preset="horse race", show_code=True)
        explorer.p_sliders[0].value = 0.3
        explorer.m_sliders[4].value = 0.0  # the model rules out a horse that can win
        explorer.preset.value = "rain forecast"  # values stay English; the menu shows Chinese
        explorer.preset.value = "horse race"
        explorer.p_sliders[0].value = 0.3
        explorer.m_sliders[4].value = 0.0
        texts = figure_texts(explorer._redraw.figure)
    page, result = explorer.output.value, explorer.result
    assert explorer.preset.label == "赛马" and explorer.preset.description == "示例"
    assert explorer.p_sliders[0].description == "1 号马" and explorer.show_code.description == "显示哈夫曼编码"
    assert "熵 H(p) = " in page and "哈夫曼码字" in page and "比特" in page
    assert "模型给“5 号马”的概率为 0，而它确实会发生" in page  # the message
    assert "1 号马" in texts and "概率" in texts and "p（实际发生的情况）" in texts and "m（模型）" in texts
    # What the result holds and prints stays English: the code reads the same in both editions.
    assert result.labels[4] == "horse 5" and "the model gives probability 0 to horse 5" in result.notes[-1]
    assert result.code["horse 5"] == "111100"

    set_language("en")
    english = ProbabilityExplorer(preset="horse race", show_code=True)
    english.p_sliders[0].value = 0.3
    english.m_sliders[4].value = 0.0
    assert spans(page) == spans(english.output.value) and len(spans(page)) == 5
    assert spans(page)["lmcore-cross-entropy"] == "∞"
    assert re.findall(r"\d+\.\d+", page) == re.findall(r"\d+\.\d+", english.output.value)  # the table's too
    assert result.entropy == english.result.entropy and result.code == english.result.code
    assert result.notes == english.result.notes
    assert "1 号马" not in english.output.value and "the model gives probability 0 to horse 5" in english.output.value


def test_probability_explorer_in_chinese_explains_a_bad_state_and_its_picture(chinese):
    explorer = ProbabilityExplorer(preset="fair coin")
    explorer.m_sliders[0].value = 0.0
    explorer.m_sliders[1].value = 0.0  # the model's weights all 0
    assert "模型的权重全为 0" in explorer.output.value
    for slider in explorer.p_sliders:
        slider.value = 0.0
    assert "还不是一个分布：p 的权重全为 0" in explorer.output.value
    assert explorer.error == "all weights of p are 0: give at least one outcome a positive weight"  # English
    bundle = explorer._repr_mimebundle_()
    assert bundle["text/plain"].startswith("ProbabilityExplorer：交互式探索器")
    page = bundle["text/html"]
    from lmcore.i18n import tr

    assert tr(STATIC_NOTE).startswith("这是探索器初始状态的静态图") and tr(STATIC_NOTE) in page
    assert "示例：<b>均匀硬币</b>" in page and "☐ 显示哈夫曼编码" in page and "正面：<b>" in page
    assert 'alt="柱状图：每个结果在 p 下的概率' in page  # what the figure shows, in Chinese
    assert "<b>p：实际发生的情况</b>" in page and "均匀硬币：每次抛掷 1 比特" in page  # a heading, the story


def test_lambda_explorer_in_chinese_shows_the_english_numbers(chinese, arrays):
    from lmcore.i18n import set_language

    heldout, test = arrays
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        explorer = LambdaExplorer(heldout, test, initial_lambdas=(0.1, 0.3), grid_step=0.1)
        explorer.lambda1.value = 0.25
        first = explorer.output.value
        explorer.lambda2.value = 0.9  # stopped at 0.75: a notice
        notice = explorer.message.value
        explorer.lambda1.value, explorer.lambda2.value = 0.0, 1.0  # ∞, with the reason
        explorer.test_button.click()  # not spent: why not yet
        not_yet, tooltip = explorer.test_output.value, explorer.test_button.tooltip
        text = re.sub("<[^>]+>", "", explorer.output.value)
        explorer.lambda2.value, explorer.lambda1.value = 0.9, 0.1
        explorer.test_button.click()
        texts = figure_texts(explorer._map_figure)
    assert explorer.lambda1.description == "λ1（一元模型）"
    assert explorer.test_button.description == "测试集已用过（仅一次）"
    assert "λ = (0.25, 0.30, 0.45) 时的验证集困惑度：" in first and "EM 最优解（迭代" in first
    assert "λ1 + λ2 不能超过 1（否则 λ3 为负），所以 λ2 停在了 0.75。" in notice
    assert "∞ — 在这组权重下，有验证集词元的概率为 0" in text and "请给 λ1 一些权重" in text
    assert "还不行：在 λ = (0.00, 1.00, 0.00) 下" in not_yet and "请给 λ1 一些权重：这一阶从不给出概率 0。" in not_yet
    assert tooltip.startswith("还不行：") and "为什么只看一次" in explorer.test_output.value
    assert 'aria-label="λ3，三元模型权重（1 − λ1 − λ2）"' in explorer.lambda3.value
    assert '"λ1，一元模型权重"' in naming_script(explorer)
    assert "λ1（一元模型权重）" in texts and "EM 最优解" in texts and "你的 λ" in texts
    assert "每组 (λ1, λ2) 的验证集困惑度" in texts and "验证集困惑度（对数色标）" in texts
    assert explorer.result.reason is None and explorer.test_result.perplexity < math.inf  # English in the results

    set_language("en")
    english = LambdaExplorer(heldout, test, initial_lambdas=(0.1, 0.3), grid_step=0.1)
    english.lambda1.value = 0.25
    assert spans(first) == spans(english.output.value)
    assert re.findall(r"\d+\.\d+", first) == re.findall(r"\d+\.\d+", english.output.value)  # EM's numbers too
    english.lambda2.value = 0.9
    english.lambda1.value, english.lambda2.value = 0.0, 1.0
    english.test_button.click()
    english.lambda2.value, english.lambda1.value = 0.9, 0.1
    english.test_button.click()
    assert spans(explorer.output.value) == spans(english.output.value)
    assert spans(explorer.test_output.value) == spans(english.test_output.value)
    assert explorer.result == english.result and explorer.test_result == english.test_result
    assert explorer.em_lambdas == english.em_lambdas


@pytest.mark.parametrize("m_weights, error, words", [
    ([1, math.nan], ValueError, "^m contains NaN$"),
    ([1, -1], ValueError, r"^m has negative weights: \[-1.0\]$"),
    ([1, math.inf], ValueError, "^m contains an infinite value$"),
    ([], ValueError, "^m is empty$"),
])
def test_a_model_of_bad_weights_is_named_not_called_all_zero(m_weights, error, words):
    # each was left out with the note "The model's weights are all 0", which they were not
    with pytest.raises(error, match=words):
        distribution_from_weights([1, 1], m_weights)


def test_labels_of_a_distribution_are_text_and_the_synthetic_sizes_are_ints():
    with pytest.raises(TypeError, match=r"^labels must contain only str tokens, got NoneType None$"):
        distribution_report([0.5, 0.5], labels=["rain", None])  # was a label None
    with pytest.raises(TypeError, match=r"^labels must be a sequence of tokens \(e.g. a list of str\), got int$"):
        distribution_from_weights([1, 1], labels=2)  # was TypeError: 'int' object is not iterable
    with pytest.raises(TypeError, match="^n_tokens must be an int, got NoneType$"):
        synthetic_order_probs(None)  # was an AxisError
