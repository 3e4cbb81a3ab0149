"""One lmcore run of ``bench_scale.py``, written as a user would: from the training text file
to the test perplexity, in a fresh process that the benchmark times and measures as a whole.

Run:  python benchmarks/scale_lmcore.py ORDER TRAIN.txt TEST.txt [text|lists]

- ``text`` (the default): ``KneserNey(ORDER).fit_text(TRAIN.txt)``, which reads the file in
  chunks straight to vocabulary ids, and ``evaluate(model, read_sentences(TEST.txt))``.
- ``lists``: the file read into token lists first (``[line.split() for line in f]``) and
  ``KneserNey(ORDER).fit(lists)``: the only way before ``fit_text``, kept to measure it.

Both split lines at whitespace, one line a sentence, as KenLM's ``lmplz`` and ``query`` read
them. Prints one JSON line: the perplexity, the number of test tokens (with ``</s>``) and
of unknown ones. It imports only what such a script needs (no nltk, no benchmark helpers),
so that Python's start and imports are measured as a user pays them.
"""

from __future__ import annotations

import json
import sys


def main(order: int, train: str, test: str, via: str = "text") -> dict:
    from lmcore.evaluate import evaluate
    from lmcore.ngram import KneserNey

    if via == "text":
        from lmcore.text import read_sentences

        model = KneserNey(order).fit_text(train)
        test_sentences = read_sentences(test)
    elif via == "lists":
        with open(train, encoding="utf-8") as f:
            sentences = [line.split() for line in f]
        model = KneserNey(order).fit(sentences)
        del sentences
        with open(test, encoding="utf-8") as f:
            test_sentences = [line.split() for line in f]
    else:
        raise SystemExit(f"unknown way {via!r}: text or lists")
    result = evaluate(model, test_sentences)
    return {"perplexity": result.perplexity, "n_tokens": result.n_tokens, "n_oov": result.n_oov}


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        raise SystemExit(__doc__.split("\n\n")[1])
    print(json.dumps(main(int(sys.argv[1]), *sys.argv[2:])))
