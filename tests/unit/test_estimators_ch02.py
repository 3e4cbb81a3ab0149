"""Chapter 2 shows the plug-in bias twice: on a few sample sizes in section 4 (core path) and on the
full table of "Going further: correcting the plug-in bias". The two must be the same samples: with
one seed, :func:`lmcore.info.entropy_growth` shuffles the text once, whatever sizes it is asked for."""

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lmcore import info


@settings(max_examples=40, deadline=None)
@given(counts=st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=30).filter(lambda c: sum(c) > 1),
       seed=st.integers(min_value=0, max_value=2**32 - 1), data=st.data())
def test_the_same_seed_gives_the_same_samples_whatever_the_sizes(counts, seed, data):
    text = Counter({f"w{i}": c for i, c in enumerate(counts) if c})
    total = sum(counts)
    every = info.entropy_growth(text, sizes=np.arange(1, total + 1), seed=seed)
    sizes = sorted(data.draw(st.sets(st.integers(min_value=1, max_value=total), min_size=1, max_size=4)))
    some = info.entropy_growth(text, sizes=sizes, seed=seed)
    at = np.array(sizes) - 1
    assert some.plugin.tolist() == every.plugin[at].tolist()
    assert some.miller_madow.tolist() == every.miller_madow[at].tolist()
    assert some.types.tolist() == every.types[at].tolist()


def test_the_chapters_english_sample_of_1000_tokens_is_the_tables():
    """The default sizes (section "Going further") hold 1,000 and 100,000: the core's sizes pick those rows."""
    rng = np.random.default_rng(1)
    text = Counter(rng.zipf(1.5, 200_000).tolist())  # a Zipf-like text of 200,000 tokens
    table = info.entropy_growth(text, seed=0)
    core = info.entropy_growth(text, sizes=[1000, 100_000, 200_000], seed=0)
    rows = [list(table.sizes).index(n) for n in (1000, 100_000, 200_000)]
    assert core.plugin.tolist() == table.plugin[rows].tolist()
    assert core.types.tolist() == table.types[rows].tolist()
