"""Paired bootstrap resampling of corpus BLEU, 1,000 resamples: lmcore.bleu against sacrebleu.

The data: two real translations, the King James Version (system A) and the World English Bible
(system B), scored against Young's Literal Translation on N_VERSES verses drawn with seed 0
(``lmcore.text``). Both tools draw the same resamples (NumPy's generator seeded 12345,
sacrebleu's default), so their numbers must agree before the times are printed.

Timed, best of REPEATS runs each:
- end to end, from the verse strings: sacrebleu's ``PairedTest(test_type="bs")`` against lmcore's
  ``sentence_stats_matrix`` for both systems followed by ``paired_bootstrap``;
- the resampling alone, the statistics already extracted: the lines of sacrebleu's
  ``_paired_bs_test`` that score every resample (``stats[indices]``, then one
  ``_compute_score_from_stats`` per resample and system) against ``paired_bootstrap`` on the two
  matrices. Both loops' per-resample scores are checked equal.

    python benchmarks/bench_bleu_bootstrap.py
"""


import numpy as np
from common import timed
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from lmcore.bleu import paired_bootstrap, sentence_stats_matrix
from lmcore.text import sample_verses

N_VERSES, N_RESAMPLES, REPEATS = 2_000, 1_000, 3


def main():
    sample = sample_verses(["kjv", "web", "ylt"], N_VERSES, seed=0)
    kjv, web, ylt = (list(sample.texts[code]) for code in ("kjv", "web", "ylt"))
    references = [[r] for r in ylt]

    def sacrebleu_paired():
        test = PairedTest([("KJV", kjv), ("WEB", web)], {"BLEU": BLEU(smooth_method="none")}, [ylt],
                          test_type="bs", n_samples=N_RESAMPLES)
        return test()[1]["BLEU"]

    def lmcore_paired():
        return paired_bootstrap(sentence_stats_matrix(kjv, references), sentence_stats_matrix(web, references),
                                n_resamples=N_RESAMPLES)

    metric = BLEU(smooth_method="none")
    stats_a = np.array(metric._extract_corpus_statistics(kjv, [ylt]))  # what sacrebleu's loop starts from
    stats_b = np.array(metric._extract_corpus_statistics(web, [ylt]))

    def sacrebleu_resampling():
        indices = np.random.default_rng(12345).choice(N_VERSES, size=(N_RESAMPLES, N_VERSES), replace=True)
        a, b = stats_a.astype("float32"), stats_b.astype("float32")
        return ([metric._compute_score_from_stats(s.sum(0)).score for s in a[indices]],
                [metric._compute_score_from_stats(s.sum(0)).score for s in b[indices]])

    matrix_a, matrix_b = sentence_stats_matrix(kjv, references), sentence_stats_matrix(web, references)
    assert np.array_equal(matrix_a, stats_a) and np.array_equal(matrix_b, stats_b), "different statistics"

    (base, system), sacrebleu_time = timed(sacrebleu_paired, repeat=REPEATS)
    ours, lmcore_time = timed(lmcore_paired, repeat=REPEATS)
    (loop_a, loop_b), sacrebleu_loop_time = timed(sacrebleu_resampling, repeat=REPEATS)
    _, lmcore_loop_time = timed(lambda: paired_bootstrap(matrix_a, matrix_b, n_resamples=N_RESAMPLES), repeat=REPEATS)

    for lmcore_value, sacrebleu_value in [(100 * ours.mean_a, base.mean), (100 * ours.half_width_a, base.ci),
                                          (100 * ours.mean_b, system.mean), (100 * ours.half_width_b, system.ci),
                                          (ours.sacrebleu_p_value, system.p_value)]:
        assert abs(lmcore_value - sacrebleu_value) < 1e-4, (lmcore_value, sacrebleu_value)
    assert np.allclose(100 * ours.scores_a, loop_a, atol=1e-4) and np.allclose(100 * ours.scores_b, loop_b, atol=1e-4)

    low, high = ours.interval
    print(f"paired bootstrap, {N_RESAMPLES:,} resamples of {N_VERSES:,} verses: KJV (A) and WEB (B) against YLT, "
          f"best of {REPEATS}")
    print(f"  sacrebleu: A {base.mean:.4f} ± {base.ci:.4f}, B {system.mean:.4f} ± {system.ci:.4f}, "
          f"p = {system.p_value:.4f}")
    print(f"  lmcore:    A {100 * ours.mean_a:.4f} ± {100 * ours.half_width_a:.4f}, "
          f"B {100 * ours.mean_b:.4f} ± {100 * ours.half_width_b:.4f}, p = {ours.sacrebleu_p_value:.4f}; "
          f"B - A = {100 * ours.delta:+.4f}, 95% interval [{100 * low:+.4f}, {100 * high:+.4f}] (0-100 scale)")
    for what, theirs, mine in (("end to end, from strings", sacrebleu_time, lmcore_time),
                               ("resampling alone", sacrebleu_loop_time, lmcore_loop_time)):
        print(f"  {what:25} sacrebleu {theirs * 1000:8.1f} ms   lmcore {mine * 1000:8.1f} ms   "
              f"lmcore takes {mine / theirs:.3f} of sacrebleu's time ({theirs / mine:.1f}x faster)")


if __name__ == "__main__":
    main()
