"""Chapter 6's figures (lmcore.plots.ngram_matches and score_histograms): the green boxes are
exactly BLEU's clipped matches, the titles and labels follow the course's language, and odd
input gets a named error."""

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgb

from lmcore import bleu, plots
from lmcore.i18n import set_language


@pytest.fixture(autouse=True)
def english_and_closed_afterwards():
    yield
    set_language("en")
    plt.close("all")


def boxes(ax) -> dict[int, list[bool]]:
    """{row: [green?, ...]} of one panel: the n-gram boxes (the row labels have no box)."""
    rows: dict[int, list[bool]] = {}
    for text in ax.texts:
        patch = text.get_bbox_patch()
        if patch is not None:
            rows.setdefault(round(text.get_position()[1]), []).append(
                patch.get_facecolor()[:3] == to_rgb(plots.MATCHED_COLOR))
    return rows


CASES = [
    ("我 是 一位 老师", ["我 是 一个 学生"]),
    ("我 是 一位 老师", ["我 是 一个 学生", "我 是 一位 学生 。"]),
    ("the the the the the the the", ["the cat is on the mat", "there is a cat on the mat"]),
    ("a a a a b b", ["a b b b", "a a c"]),
    ("the cat the cat the", ["the cat sat on the mat"]),
]


@pytest.mark.parametrize("hypothesis, references", CASES)
@pytest.mark.parametrize("max_order", [2, 4])
def test_the_green_boxes_are_the_clipped_matches_and_all_boxes_the_totals(hypothesis, references, max_order):
    hyp, refs = hypothesis.split(), [ref.split() for ref in references]
    fig = plots.ngram_matches(hyp, [refs], max_order=max_order)
    rows = boxes(fig.axes[0])
    stats = bleu.sentence_stats(hyp, refs, max_order=max_order)
    for n in range(1, max_order + 1):
        row = rows.get(max_order - n, [])
        assert (sum(row), len(row)) == (stats.matches[n - 1], stats.totals[n - 1]), f"order {n}"


def test_random_sentences_agree_with_bleu():
    rng = np.random.default_rng(6)
    for _ in range(20):
        hyp = list(rng.choice(list("abc"), rng.integers(1, 9)))
        refs = [list(rng.choice(list("abcd"), rng.integers(1, 9))) for _ in range(rng.integers(1, 4))]
        fig = plots.ngram_matches(hyp, [refs], max_order=3)
        rows, stats = boxes(fig.axes[0]), bleu.sentence_stats(hyp, refs, max_order=3)
        assert [sum(rows.get(3 - n, [])) for n in (1, 2, 3)] == list(stats.matches)
        plt.close(fig)


def test_one_panel_per_reference_set_with_titles_in_the_course_language():
    hyp, ref1, ref2 = "我 是 一位 老师".split(), "我 是 一个 学生".split(), "我 是 一位 学生 。".split()
    fig = plots.ngram_matches(hyp, [[ref1], [ref1, ref2]])
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["hypothesis “我 是 一位 老师” against reference “我 是 一个 学生”",
                      "hypothesis “我 是 一位 老师” against references “我 是 一个 学生” and “我 是 一位 学生 。”"]
    assert [sum(row) for row in boxes(fig.axes[1]).values()] == [3, 2]  # 一位 and 是 一位 now match
    set_language("zh")
    fig = plots.ngram_matches(hyp, [[ref1, ref2, ref1]])
    assert fig.axes[0].get_title() == ("候选译文“我 是 一位 老师”对照参考译文“我 是 一个 学生”、“我 是 一位 学生 。”"
                                       "和“我 是 一个 学生”")
    assert {t.get_text() for t in fig.axes[0].texts} >= {"一元组", "二元组"}


@pytest.mark.parametrize("hyp, sets, max_order", [([], [[["a"]]], 2), (["a"], [], 2), (["a"], [[]], 2),
                                                  (["a"], [[["a"]]], 5), (["a"], [[["a"]]], 0)])
def test_odd_input_gets_a_named_error(hyp, sets, max_order):
    with pytest.raises(ValueError, match="ngram_matches|max_order"):
        plots.ngram_matches(hyp, sets, max_order=max_order)


def test_histograms_share_their_bins_and_follow_the_course_language():
    scores = {"WEB": [0.05, 0.52, 0.53, 1.0], "BWE": [0.0, 0.03, 0.11]}
    fig = plots.score_histograms(scores, xlabel="sentence BLEU against KJV, Darby and YLT (exp smoothing, "
                                                "effective order)", ylabel="verses", title="200 verses")
    ax = fig.axes[0]
    heights = [patch.get_path().vertices for patch in ax.patches]
    assert len(heights) == 2 and [t.get_text() for t in ax.get_legend().get_texts()] == ["WEB", "BWE"]
    xs = [sorted(set(np.round(v[:, 0], 10))) for v in heights]
    assert xs[0] == xs[1] == list(np.round(np.linspace(0, 1, 21), 10))  # the same 20 bins from 0 to 1
    assert [v[:, 1].max() for v in heights] == [2, 2]  # 0.52 and 0.53 share a bin; 0.0 and 0.03 too
    assert ax.get_title() == "200 verses"
    set_language("zh")
    ax = plots.score_histograms(scores, xlabel="sentence BLEU against KJV, Darby and YLT (exp smoothing, "
                                               "effective order)", ylabel="verses").axes[0]
    assert ax.get_xlabel() == "句子级 BLEU，参考译文为 KJV、Darby 和 YLT（exp 平滑，有效阶数）"
    assert ax.get_ylabel() == "经文节数"
    assert plots.score_histograms({"A": [0.5]}, xlabel="x").axes[0].get_ylabel() == "句子数"


@pytest.mark.parametrize("scores", [{}, {"A": [1.2]}, {"A": [-0.1]}, {"A": [np.nan]},
                                    {str(i): [0.5] for i in range(6)}])
def test_histograms_refuse_what_they_cannot_show(scores):
    with pytest.raises(ValueError, match="score_histograms|between 0 and 1"):
        plots.score_histograms(scores, xlabel="x")
    assert not plt.get_fignums()  # nothing half drawn is left open


def test_every_order_draws_one_box_per_ngram():
    for max_order, n_words in itertools.product(range(1, 5), range(1, 6)):
        fig = plots.ngram_matches(["w"] * n_words, [[["w"]]], max_order=max_order)
        assert sum(len(row) for row in boxes(fig.axes[0]).values()) == sum(max(0, n_words - n + 1)
                                                                           for n in range(1, max_order + 1))
        plt.close(fig)
