"""Every explorer in a real browser: JupyterLab, driven in Debian's chromium by Playwright.

What plain pytest cannot see: that the widgets render in a front end, that a key press, a
click or a typed word reaches the kernel, and that the number on the page then equals the one
lmcore's pure functions give here. The module serves a copy of
``tests/browser/explorers_demo.ipynb`` (outputs stripped), opens it once and runs all its cells
(one page, one kernel, one import of ``lmcore.widgets`` for all the tests below); then each test
acts on its own explorer as a student would, with every locator scoped to that explorer, and
saves a screenshot of it. The tests change only their own explorer (or put it back), so they pass
in any order. The last test audits the page's accessibility with axe-core (``axe-playwright-python``).
Only 127.0.0.1 is reachable from the page; the browser is the system's chromium (never one
downloaded by Playwright). Skipped where chromium or playwright is missing, unless
``LMCORE_REQUIRE_EXTRAS`` is set (CI), where that fails.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import optional_extras
import pytest
from browser_support import ROOT, UI_TIMEOUT_MS, launch_chromium, local_only_context, run_all_cells

pytestmark = pytest.mark.browser

NOTEBOOK = ROOT / "tests" / "browser" / "explorers_demo.ipynb"
N_CODE_CELLS = 10

# Milliseconds from now (just before a key press) to the first change of an explorer's result.
WATCH_RESULT = """root => {
    const result = document.querySelector(root + " .lmcore-result");
    const start = performance.now();
    window.lmcoreResultChanged = new Promise(resolve => {
        new MutationObserver((changes, observer) => { observer.disconnect(); resolve(performance.now() - start); })
            .observe(result, {childList: true, subtree: true, characterData: true});
    });
}"""


# Every request JupyterLab and the explorers make off 127.0.0.1 (aborted): the last test wants none.
ASKED_OUTSIDE: list[str] = []


@pytest.fixture(scope="module")
def explorers(jupyterlab):
    """The demo notebook open in JupyterLab with every cell run: the page, shared by this module's tests."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=UI_TIMEOUT_MS)
    base, token = jupyterlab
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = local_only_context(browser, ASKED_OUTSIDE, viewport={"width": 1400, "height": 1400}).new_page()
            page.set_default_timeout(UI_TIMEOUT_MS)
            run_all_cells(page, base, token, NOTEBOOK.name, n_code_cells=N_CODE_CELLS)
            yield page
        finally:
            browser.close()


def save_screenshot(explorer, name: str, tmp_path: Path) -> Path:
    """A picture of ``explorer`` alone, kept in /tmp for a human to look at after the run."""
    picture = tmp_path / f"{name}.png"
    explorer.screenshot(path=str(picture))
    copy = Path(f"/tmp/{name}.png")
    shutil.copyfile(picture, copy)
    return copy


# --- Chapters 2, 4 and 5: the probability, λ and branching explorers ---------------------------

N_TOKENS, SEED, START_LAMBDAS, START_K = 5000, 0, (0.1, 0.3, 0.6), 10  # the notebook's inputs
MIN_TRACK_PX = 400  # a step of 0.01 of a slider's range is then at least 4 px
# Where the keyboard's focus is, seen from the λ explorer.
FOCUS_IN_LAMBDAS = """() => {
  const focused = document.activeElement, root = document.querySelector('.lmcore-lambda-explorer');
  return {inside: root.contains(focused), lambda3: !!focused.closest('.lmcore-lambda3'),
          button: !!focused.closest('.lmcore-test-button'), what: focused.className || focused.tagName};
}"""
# keydown -> the explorer's new picture and numbers are both on the page (performance.now() in the page)
LATENCY_PROBE = """() => {
  window.lmcoreLatency = {down: [], picture: [], numbers: []};
  document.addEventListener('keydown', () => window.lmcoreLatency.down.push(performance.now()), true);
  const root = document.querySelector('.lmcore-branching-explorer');
  new MutationObserver(changes => {
    for (const change of changes) {
      const which = change.target.tagName === 'IMG' ? 'picture' : 'numbers';
      window.lmcoreLatency[which].push(performance.now());
    }
  }).observe(root, {subtree: true, attributes: true, attributeFilter: ['src'], childList: true,
                    characterData: true});
}"""


def test_a_keyboard_step_moves_the_entropy_and_the_lambda_perplexity(explorers, tmp_path):
    """The λ explorer by keyboard: λ1 to 0 (∞), where the test-set button keeps its one use and says
    why; eleven ArrowRight steps back, each slider named and saying the value it shows, λ3 shown but
    no tab stop on the way from λ2 to the button, then the test set once. Then ArrowRight on horse 1's
    weight: the perplexity and entropy shown are lmcore's; sliders are wide enough to hit one step,
    wrapped text single-spaced."""
    from playwright.sync_api import expect

    from lmcore.widgets import PRESETS, distribution_from_weights, lambda_report, synthetic_order_probs
    from lmcore.widgets.probability import WEIGHT_STEP, slider_weights

    heldout, test = synthetic_order_probs(n_tokens=N_TOKENS, seed=SEED)
    start_perplexity = lambda_report(heldout, START_LAMBDAS).perplexity
    assert lambda_report(heldout, (0.0, 0.3, 0.7)).reason is not None  # λ1 = 0: ∞
    moved_lambdas = (0.11, 0.3, 0.59)  # λ1 eleven steps (0.01) up from 0; λ3 takes the rest
    moved_perplexity = lambda_report(heldout, moved_lambdas).perplexity
    test_perplexity = lambda_report(test, moved_lambdas).perplexity
    horse_race = PRESETS["horse race"]
    start_weights = slider_weights(horse_race.p)  # what the sliders start at (on their 0.0001 grid)
    moved_weights = [start_weights[0] + WEIGHT_STEP, *start_weights[1:]]  # horse 1 one step to the right
    moved_entropy = distribution_from_weights(moved_weights, horse_race.m).entropy

    lambdas = explorers.locator(".lmcore-lambda-explorer")
    heldout_perplexity = lambdas.locator(".lmcore-heldout-perplexity")
    lambda1, lambda2 = (lambdas.locator(f".lmcore-lambda{i} .noUi-handle") for i in (1, 2))
    test_button, test_result = lambdas.locator(".lmcore-test-button"), lambdas.locator(".lmcore-test-result")
    expect(heldout_perplexity).to_have_text(f"{start_perplexity:.4f}")
    expect(lambda1).to_have_attribute("aria-label", "λ1, unigram weight")  # what a screen reader says
    expect(lambda2).to_have_attribute("aria-label", "λ2, bigram weight")
    lambda1.focus()
    explorers.keyboard.press("Home")  # λ1 = 0: unseen bigrams and trigrams get probability 0
    expect(lambdas.locator(".lmcore-lambda1 .widget-readout")).to_have_text("0.00")
    expect(heldout_perplexity).to_have_text("∞")
    expect(test_button).to_have_attribute("title", re.compile(r"^Not yet: at λ = \(0\.00, 0\.30, 0\.70\)"))
    test_button.focus()
    explorers.keyboard.press("Enter")  # not spent: the reason instead
    expect(test_result).to_contain_text("the test-set perplexity would be ∞")
    expect(test_button).to_be_enabled()
    lambda1.focus()
    for _ in range(11):
        explorers.keyboard.press("ArrowRight")
    expect(lambdas.locator(".lmcore-lambda1 .widget-readout")).to_have_text("0.11")
    expect(lambda1).to_have_attribute("aria-valuenow", "0.11")  # noUiSlider's own would say 0.1
    meter = lambdas.locator(".lmcore-lambda3 [role='meter']")
    expect(meter).to_have_attribute("aria-valuenow", "0.59")
    expect(meter).to_contain_text("0.59")
    expect(heldout_perplexity).to_have_text(f"{moved_perplexity:.4f}")
    expect(test_result).to_have_text("")  # the reason went with the ∞
    assert f"{moved_perplexity:.4f}" != f"{start_perplexity:.4f}"

    # From λ2, Tab passes λ3 (shown, no control) and reaches the button, never leaving the explorer.
    lambda2.focus()
    stops = []
    for _ in range(4):
        explorers.keyboard.press("Tab")
        stops.append(explorers.evaluate(FOCUS_IN_LAMBDAS))
        if stops[-1]["button"]:
            break
    assert stops[-1]["button"] and all(stop["inside"] and not stop["lambda3"] for stop in stops), stops
    explorers.keyboard.press("Enter")  # the test set, once
    expect(lambdas.locator(".lmcore-test-perplexity")).to_have_text(f"{test_perplexity:.4f}")
    expect(test_button).to_be_disabled()
    expect(lambdas.locator(".lmcore-map img, img.lmcore-map")).to_have_count(1)

    # The probability explorer: the horse race's 2 bits move when horse 1's weight does.
    probability = explorers.locator(".lmcore-probability-explorer")
    entropy = probability.locator(".lmcore-entropy")
    expect(entropy).to_have_text("2.0000")
    probability.locator(".lmcore-p-weight .noUi-handle").first.focus()
    explorers.keyboard.press("ArrowRight")
    expect(entropy).to_have_text(f"{moved_entropy:.4f}")
    assert f"{moved_entropy:.4f}" != "2.0000"

    # Sliders wide enough to hit one step; wrapped text single-spaced, not at the 28 px of a control.
    for slider in (".lmcore-lambda1", ".lmcore-p-weight", ".lmcore-k", ".lmcore-skew"):
        track = explorers.locator(f"{slider} .noUi-target").first.bounding_box()
        assert track["width"] >= MIN_TRACK_PX, f"{slider}: track {track['width']:.0f} px"
    spacing = explorers.locator(".lmcore-branching-explorer .lmcore-result .lmcore-text").evaluate(
        "e => parseFloat(getComputedStyle(e).lineHeight) / parseFloat(getComputedStyle(e).fontSize)")
    assert spacing < 1.6, f"line height {spacing:.2f} times the font size"
    print(f"screenshots: {save_screenshot(lambdas, 'lmcore-lambda-explorer', tmp_path)}, "
          f"{save_screenshot(probability, 'lmcore-probability-explorer', tmp_path)}")


def test_the_branching_explorer_shows_each_change_of_k(explorers, tmp_path):
    """Five ArrowRight steps on k: each shows lmcore's perplexity and a new picture (the page times it, for
    the printout; the goal of 100 ms is benchmarks/bench_widgets.py --browser's to measure)."""
    from playwright.sync_api import expect

    from lmcore.widgets import branching_report

    branching = explorers.locator(".lmcore-branching-explorer")
    expect(branching.locator(".lmcore-perplexity")).to_have_text(f"{START_K:.4f}")
    explorers.evaluate(LATENCY_PROBE)
    latencies = []
    branching.locator(".lmcore-k .noUi-handle").focus()
    for k in range(START_K + 1, START_K + 6):
        explorers.evaluate("() => { for (const key in window.lmcoreLatency) window.lmcoreLatency[key] = []; }")
        explorers.keyboard.press("ArrowRight")
        expect(branching.locator(".lmcore-perplexity")).to_have_text(f"{branching_report(k).perplexity:.4f}")
        explorers.wait_for_function("() => lmcoreLatency.picture.length && lmcoreLatency.numbers.length")
        times = explorers.evaluate("() => window.lmcoreLatency")
        latencies.append(max(times["picture"][-1], times["numbers"][-1]) - times["down"][0])
    expect(branching.locator(".lmcore-k .widget-readout")).to_have_text(str(START_K + 5))
    latencies.sort()
    print(f"branching explorer, change of k -> shown: median {latencies[2]:.0f} ms "
          f"(of {', '.join(f'{t:.0f}' for t in latencies)} ms; the goal is under 100 ms); "
          f"screenshot: {save_screenshot(branching, 'lmcore-branching-explorer', tmp_path)}")


# --- Chapter 1: the Shannon game and the letter game -------------------------------------------

CORPUS, GAME_SEED, ORDERS = "english_letters", 1, (("unigram", 1), ("bigram", 2), ("trigram", 3))
GUESSES = ["Therefore", "lord", "do"]  # typed as a student would: right (with a capital), then two wrong words


def test_three_typed_guesses_show_the_pure_functions_ranks_and_probabilities(explorers, tmp_path):
    """Three words typed and sent with *Guess*: every model's rank, probability and tally are
    ``lmcore.shannon.play``'s; an empty guess gets a message; two clicks in the letter game count."""
    from playwright.sync_api import expect

    from lmcore import shannon, text
    from lmcore.ngram import KneserNey
    from lmcore.widgets import css_name, format_probability

    english = text.split_sentences(text.load_corpus(CORPUS), seed=0)
    models = {name: KneserNey(n).fit(english.train) for name, n in ORDERS}
    sentence = shannon.draw_sentence(english.test, GAME_SEED, 6, 14)
    steps = shannon.play(sentence, GUESSES, models)

    game = explorers.locator(".lmcore-shannon-game")
    result = game.locator(".lmcore-shannon-result")
    expect(result).to_contain_text("Sentence number 1")
    guess_box = game.locator(".lmcore-shannon-guess input")
    for typed, step in zip(GUESSES, steps):
        guess_box.fill(typed)
        game.locator(".lmcore-shannon-guess-button").click()
        expect(game.locator(".lmcore-step")).to_have_text(str(step.position + 1))
        for prediction, total_bits in zip(step.predictions, step.model_bits):
            name = css_name(prediction.name)
            expect(game.locator(f".lmcore-rank-{name}")).to_have_text(str(prediction.rank))
            expect(game.locator(f".lmcore-prob-{name}")).to_have_text(format_probability(prediction.prob))
            expect(game.locator(f".lmcore-tally-bits-{name}")).to_have_text(f"{total_bits:.2f}")
        expect(game.locator(".lmcore-tally-you")).to_have_text(str(step.hits))
        expect(guess_box).to_have_value("")
    expect(result).to_contain_text(" ".join(sentence[:3]))
    assert steps[0].hit and not steps[1].hit  # "Therefore" was right, "lord" was not
    # An empty guess gets a message in the widget, and no step.
    game.locator(".lmcore-shannon-guess-button").click()
    expect(result.locator(".lmcore-message")).to_contain_text("guess is empty")
    expect(game.locator(".lmcore-step")).to_have_text("3")

    # The letter game: a wrong symbol, then the right one: 2 tries for the first symbol.
    letters = explorers.locator(".lmcore-letter-game")
    letters.locator(".lmcore-letter-a").click()
    expect(letters.locator(".lmcore-letter-a")).to_be_disabled()
    letters.locator(".lmcore-letter-t").click()
    expect(letters.locator(".lmcore-done")).to_have_text("1")
    expect(letters.locator(".lmcore-upper")).to_have_text("0.0000")  # q_2 = 1: the bounds are 2 and 0
    expect(letters.locator(".lmcore-letter-result")).to_contain_text("(yours) do not fall like that yet")
    print(f"screenshots: {save_screenshot(game, 'lmcore-shannon-game', tmp_path)}, "
          f"{save_screenshot(letters, 'lmcore-letter-game', tmp_path)}")


# --- Chapter 2: the entropy-rate explorer ------------------------------------------------------

RATE_N, RATE_SAMPLES = 100_000, 5  # the notebook's inputs


def rate_and_samples(kind: str, first: float, second: float, seed: int) -> tuple[str, list[str]]:
    """The exact rate and each sample's bits per symbol, as the page shows them."""
    from lmcore.widgets import entropy_rate_report

    result = entropy_rate_report(kind, first, second, RATE_SAMPLES, RATE_N, seed).result
    return f"{result.entropy_rate:.4f}", [f"{x:.4f}" for x in result.final]


def test_a_student_moves_the_chain_and_switches_to_the_mixture(explorers, tmp_path):
    """One keyboard step on P(a → b), *new samples*, then the mixture of two coins: after each, the
    exact rate and the samples' bits per symbol are ``entropy_rate_report``'s."""
    from playwright.sync_api import expect

    start_rate, start_samples = rate_and_samples("Markov chain", 0.1, 0.5, seed=0)
    moved_rate, moved_samples = rate_and_samples("Markov chain", 0.11, 0.5, seed=0)
    _, fresh_samples = rate_and_samples("Markov chain", 0.11, 0.5, seed=1)
    mixture_rate, mixture_samples = rate_and_samples("mixture of two coins", 0.5, 0.1, seed=1)
    assert moved_rate != start_rate and moved_samples != start_samples and fresh_samples != moved_samples

    root = ".lmcore-entropy-rate-explorer"
    explorer = explorers.locator(root)
    rate = explorer.locator(".lmcore-exact-rate")
    samples = explorer.locator(".lmcore-sample-rate")
    expect(rate).to_have_text(start_rate)
    expect(samples).to_have_text(start_samples)
    expect(explorer.locator(".lmcore-figure img, img.lmcore-figure")).to_have_count(1)
    # One keyboard step on P(a -> b): 0.10 -> 0.11; a new chain, its rate and fresh scores.
    explorer.locator(".lmcore-first .noUi-handle").focus()
    explorers.evaluate(WATCH_RESULT, root)
    explorers.keyboard.press("ArrowRight")
    expect(rate).to_have_text(moved_rate)
    shown_after = explorers.evaluate("window.lmcoreResultChanged")
    expect(explorer.locator(".lmcore-first .widget-readout")).to_have_text("0.11")
    expect(samples).to_have_text(moved_samples)
    # New samples: the next seed, the same chain.
    explorer.locator(".lmcore-new-samples").click()
    expect(samples).to_have_text(fresh_samples)
    expect(rate).to_have_text(moved_rate)
    # The mixture: relabelled sliders, its rate between the coins', and a "coin picked" column.
    explorer.locator(".lmcore-source-kind select").select_option("mixture of two coins")
    expect(rate).to_have_text(mixture_rate)
    expect(samples).to_have_text(mixture_samples)
    expect(explorer.locator(".lmcore-first .widget-label")).to_have_text("coin 1: P(b)")
    expect(explorer.locator(".lmcore-result")).to_contain_text("coin picked")
    print(f"key press to new numbers on the page: {shown_after:.0f} ms; "
          f"screenshot: {save_screenshot(explorer, 'lmcore-entropy-rate-explorer', tmp_path)}")


# --- Chapter 3: the cross-entropy and compression explorers ------------------------------------

def test_a_student_moves_swaps_and_codes(explorers, tmp_path):
    """m(money) one step left, *swap p and m*, then a message typed and coded: the cross-entropy,
    KL divergence and code shown are ``cross_entropy_report``'s and ``compression_report``'s."""
    from playwright.sync_api import expect

    from lmcore.widgets import CROSS_ENTROPY_PRESETS, compression_report, cross_entropy_report

    toy = CROSS_ENTROPY_PRESETS["toy corpus, add-one unigram"]
    moved_m = (*toy.m[:-1], round(toy.m[-1] - 0.01, 2))  # money's weight one step (0.01) to the left
    moved = cross_entropy_report(toy.p, moved_m)
    swapped = cross_entropy_report(moved_m, toy.p)
    code = compression_report("BAB", 0.8).narrowing.code

    explorer = explorers.locator(".lmcore-cross-entropy-explorer")
    cross = explorer.locator(".lmcore-cross-entropy")
    expect(cross).to_have_text("3.0028")
    explorer.locator(".lmcore-m-weight .noUi-handle").nth(7).focus()  # m(money)
    explorers.keyboard.press("ArrowLeft")
    expect(explorer.locator(".lmcore-m-weight .widget-readout").nth(7)).to_have_text("0.19")
    expect(cross).to_have_text(f"{moved.cross_entropy:.4f}")
    expect(explorer.locator(".lmcore-kl")).to_have_text(f"{moved.kl:.4f}")

    explorer.locator(".lmcore-swap").click()  # H(m, p): p gives money probability 0, m expects it
    expect(cross).to_have_text("∞" if swapped.cross_entropy == float("inf") else f"{swapped.cross_entropy:.4f}")
    expect(explorer.locator(".lmcore-message")).to_contain_text("money")

    compression = explorers.locator(".lmcore-compression-explorer")
    compression.locator(".lmcore-message-text input").fill("BAB")
    compression.locator(".lmcore-code-button").click()
    expect(compression.locator(".lmcore-code")).to_have_text(code)
    picture = compression.locator("svg.lmcore-narrowing")
    expect(picture).to_have_attribute("aria-label", re.compile(r"^'BAB': final width"))
    print(f"screenshots: {save_screenshot(explorer, 'lmcore-cross-entropy-explorer', tmp_path)}, "
          f"{save_screenshot(compression, 'lmcore-compression-explorer', tmp_path)}")


# --- Chapter 6: the BLEU explorer --------------------------------------------------------------

REFERENCE = "我 是 一个 学生"  # the explorer's first preset: course example 1, tokenize "none", N = 2
TYPED = "我 是 一位 学生"
# Set up in the page before the last keystroke: the time of that keystroke ("input" event) and the
# time the result first shows the expected sacrebleu score (a mutation of the result's HTML).
WATCH_BLEU = """expected => {
    const root = document.querySelector('.lmcore-bleu-explorer');
    const result = root.querySelector('.lmcore-result');
    const box = root.querySelector('.lmcore-bleu-hypothesis input');
    window.lmcoreTiming = {};
    box.addEventListener('input', () => { window.lmcoreTiming.typed = performance.now(); }, {once: true});
    new MutationObserver(() => {
        const shown = root.querySelector('.lmcore-sacrebleu-score');
        if (shown && shown.textContent === expected && window.lmcoreTiming.shown === undefined) {
            window.lmcoreTiming.shown = performance.now();
        }
    }).observe(result, {subtree: true, childList: true, characterData: true});
}"""


def sacrebleu(hypothesis: str, tokenize: str) -> float:
    from sacrebleu.metrics import BLEU

    return BLEU(tokenize=tokenize, smooth_method="none", max_ngram_order=2).corpus_score(
        [hypothesis], [[REFERENCE]]).score


def test_typing_a_hypothesis_shows_sacrebleus_score(explorers, tmp_path):
    """A hypothesis typed key by key: the scores shown are sacrebleu's and lmcore's, within a
    second of the last key; the same text unspaced under the zh tokenizer scores as characters."""
    from playwright.sync_api import expect

    from lmcore.bleu import sentence_bleu

    expected_sacrebleu = sacrebleu(TYPED, "none")
    expected_lmcore = sentence_bleu(TYPED, [REFERENCE], max_order=2, tokenize="none").score

    explorer = explorers.locator(".lmcore-bleu-explorer")
    score = explorer.locator(".lmcore-bleu-score")
    shown_sacrebleu = explorer.locator(".lmcore-sacrebleu-score")
    expect(score).to_have_text("0.4082")  # the course's number, before any edit
    expect(shown_sacrebleu).to_have_text(f"{sacrebleu('我 是 一位 老师', 'none'):.2f}")
    # Type the new hypothesis as a student would, key by key; time the last key.
    box = explorer.locator(".lmcore-bleu-hypothesis input")
    box.fill("")
    box.press_sequentially(TYPED[:-1], delay=30)
    explorers.evaluate(WATCH_BLEU, f"{expected_sacrebleu:.2f}")
    box.press_sequentially(TYPED[-1])
    expect(shown_sacrebleu).to_have_text(f"{expected_sacrebleu:.2f}")
    expect(score).to_have_text(f"{expected_lmcore:.4f}")
    assert f"{expected_lmcore:.4f}" != "0.4082"
    expect(explorer.locator(".lmcore-p1")).to_have_text("0.7500")
    latency = explorers.evaluate("window.lmcoreTiming.shown - window.lmcoreTiming.typed")

    # The same text, unspaced, under the zh tokenizer: characters are the tokens.
    box.fill(TYPED.replace(" ", ""))
    explorer.locator(".lmcore-bleu-tokenize select").select_option("zh")
    expect(shown_sacrebleu).to_have_text(f"{sacrebleu(TYPED.replace(' ', ''), 'zh'):.2f}")
    print(f"one keystroke to its score on the page: {latency:.0f} ms; "
          f"screenshot: {save_screenshot(explorer, 'lmcore-bleu-explorer', tmp_path)}")


# --- Chapter 7: the context-window explorer ----------------------------------------------------

K, N = 10, 3000  # the notebook's table: log-probabilities with 0 to 10 tokens of context
POSITIONS = np.arange(N) % 120
TABLE = np.log(0.05 + 0.06 * np.arange(K + 1))[:, None] + np.log(np.linspace(0.9, 1.0, N))[None, :]


def passes_and_perplexity(window: int, stride: int) -> tuple[str, str]:
    """The passes and the perplexity per token, as the page shows them."""
    from lmcore.widgets import window_report

    report = window_report(TABLE, POSITIONS, N, window, stride)
    return f"{report.score.plan.n_passes:,}", f"{report.score.perplexity:.4f}"


def test_a_student_shortens_the_stride_then_the_window(explorers, tmp_path):
    """The stride one step down, then the window until it is shorter than the stride was, which
    pulls the stride down with it: after each move the numbers are ``window_report``'s."""
    from playwright.sync_api import expect

    settings = [(16, 16), (16, 15), (15, 15), (14, 14)]
    numbers = {setting: passes_and_perplexity(*setting) for setting in settings}
    assert len(set(numbers.values())) == len(settings)

    root = ".lmcore-context-window-explorer"
    explorer = explorers.locator(root)

    def shows(window: int, stride: int) -> None:
        expect(explorer.locator(".lmcore-passes")).to_have_text(numbers[window, stride][0])
        expect(explorer.locator(".lmcore-window-perplexity")).to_have_text(numbers[window, stride][1])
        expect(explorer.locator(".lmcore-stride .widget-readout")).to_have_text(str(stride))
        expect(explorer.locator(".lmcore-window .widget-readout")).to_have_text(str(window))

    shows(16, 16)
    expect(explorer.locator(".lmcore-figure img, img.lmcore-figure")).to_have_count(1)
    # One keyboard step on the stride, timed by the page from the key press to the new numbers.
    explorer.locator(".lmcore-stride .noUi-handle").focus()
    explorers.evaluate(WATCH_RESULT, root)
    explorers.keyboard.press("ArrowLeft")
    shows(16, 15)
    shown_after = explorers.evaluate("window.lmcoreResultChanged")
    # The window down to 15: the stride fits and stays; down to 14: the stride follows it.
    explorer.locator(".lmcore-window .noUi-handle").focus()
    explorers.keyboard.press("ArrowLeft")
    shows(15, 15)
    explorers.keyboard.press("ArrowLeft")
    shows(14, 14)
    print(f"key press to new numbers on the page: {shown_after:.0f} ms; "
          f"screenshot: {save_screenshot(explorer, 'lmcore-context-window-explorer', tmp_path)}")


# --- Every explorer: the keyboard and an accessibility audit (axe-core) --------------------------

EXPLORER_ROOTS = ("[class*='lmcore-'][class*='-explorer']", ".lmcore-shannon-game", ".lmcore-letter-game")
SERIOUS = ("serious", "critical")
# Each slider handle's name and value as a screen reader gets them, beside the slider's description.
HANDLES = """roots => [...document.querySelectorAll(roots.join(','))].flatMap(root =>
    [...root.querySelectorAll('.widget-slider')].map(slider => {
        const handle = slider.querySelector('.noUi-handle');
        return {description: slider.querySelector('.widget-label').textContent.trim(),
                name: handle.getAttribute('aria-label'), now: handle.getAttribute('aria-valuenow'),
                text: handle.getAttribute('aria-valuetext'),
                readout: slider.querySelector('.widget-readout').textContent};
    }))"""
FOCUSED_HANDLE = "() => { const e = document.activeElement; return !!e && e.matches('.lmcore-skew .noUi-handle'); }"


def test_a_keyboard_reaches_and_moves_a_slider_and_axe_finds_nothing_serious_in_the_explorers(explorers):
    """Tab from the branching explorer's k to its skew slider, ArrowRight: the perplexity shown is lmcore's;
    ArrowLeft puts it back. Then axe-core on every explorer: no serious or critical violation but the
    one ipywidgets owns (its slider handles have no name), and every control has a label."""
    optional_extras.require("axe")
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import expect

    from lmcore.widgets import branching_report

    branching = explorers.locator(".lmcore-branching-explorer")
    k = int(branching.locator(".lmcore-k .widget-readout").text_content())
    skew = float(branching.locator(".lmcore-skew .widget-readout").text_content())
    branching.locator(".lmcore-k .noUi-handle").focus()
    for _ in range(3):  # the k slider's readout (editable) may come first
        explorers.keyboard.press("Tab")
        if explorers.evaluate(FOCUSED_HANDLE):
            break
    assert explorers.evaluate(FOCUSED_HANDLE), "Tab does not reach the skew slider"
    explorers.keyboard.press("ArrowRight")
    moved = branching_report(k, round(skew + 0.01, 2)).perplexity
    expect(branching.locator(".lmcore-skew .widget-readout")).to_have_text(f"{skew + 0.01:.2f}")
    expect(branching.locator(".lmcore-perplexity")).to_have_text(f"{moved:.4f}")
    assert f"{moved:.4f}" != f"{branching_report(k, skew).perplexity:.4f}"
    explorers.keyboard.press("ArrowLeft")
    expect(branching.locator(".lmcore-skew .widget-readout")).to_have_text(f"{skew:.2f}")

    # Every control has a name: a slider, menu or text box its description, a button its text.
    unnamed = explorers.evaluate("""roots => [...document.querySelectorAll(roots.join(','))].flatMap(root =>
        [...root.querySelectorAll('.widget-slider, .widget-dropdown, .widget-text, .widget-button, button')]
            .filter(c => !(c.querySelector('.widget-label')?.textContent.trim() || c.textContent.trim()
                           || c.getAttribute('title')))
            .map(c => c.outerHTML.slice(0, 120)))""", list(EXPLORER_ROOTS))
    assert unnamed == [], f"controls with no label: {unnamed}"

    # Every slider handle is named (ipywidgets names none: lmcore.widgets.base.name_sliders does), after
    # its description unless its explorer gives a longer name, and says the value its readout shows.
    handles = explorers.evaluate(HANDLES, list(EXPLORER_ROOTS))
    assert len(handles) >= 12, handles
    longer = {"λ1 (unigram)": "λ1, unigram weight", "λ2 (bigram)": "λ2, bigram weight"}
    for handle in handles:
        assert handle["name"] == longer.get(handle["description"], handle["description"]), handle
        assert handle["now"] == handle["text"] == handle["readout"], handle

    include = [[root] for root in EXPLORER_ROOTS]
    audit = Axe().run(explorers, context={"include": include}).response
    assert audit["testEngine"]["name"] == "axe-core"
    assert audit["passes"] and audit["inapplicable"] is not None  # the audit ran
    findings = [f"{violation['impact']} {violation['id']}: {node['html'][:120]}" for violation in audit["violations"]
                if violation["impact"] in SERIOUS for node in violation["nodes"]]
    assert findings == [], "serious or critical accessibility violations in the explorers:\n" + "\n".join(findings)
    assert "aria-input-field-name" in {rule["id"] for rule in audit["passes"]}  # axe checked the handles' names

    page_audit = Axe().run(explorers).response  # the whole JupyterLab page: its own findings, for the record
    lab = sorted({f"{v['impact']} {v['id']} ({len(v['nodes'])})" for v in page_audit["violations"]
                  if v["impact"] in SERIOUS})
    print(f"axe-core {audit['testEngine']['version']}: explorers: no serious or critical violation, {len(handles)} "
          f"slider handles named; JupyterLab page (incl. the explorers): {lab}")


def test_jupyterlab_and_the_explorers_ask_nothing_of_the_internet(explorers):
    """Every request the page made so far (JupyterLab, the notebook, every explorer built and moved by the
    tests above) went to 127.0.0.1: a class on a network that blocks the rest sees no difference."""
    assert explorers.locator(".lmcore-explorer").count() >= 6  # the page is the one the tests above used
    assert ASKED_OUTSIDE == [], f"requests off 127.0.0.1: {sorted(set(ASKED_OUTSIDE))}"
