"""Write binder/requirements.txt and binder/pinned-requires.json from the environment it runs in.

Run it in a fresh virtual environment made with the Python of binder/runtime.txt, after
``pip install -r requirements.txt notebook`` (README, section Binder)::

    python binder/pin.py

- ``requirements.txt``: every installed distribution pinned with ``==``, except lmcore itself
  (postBuild installs it from the repository) and the installers pip leaves out of ``pip freeze``;
- ``pinned-requires.json``: for each pin, what that release requires (its ``Requires-Dist``).
  With it, tests/repository/test_binder.py checks that the pins satisfy one another as pip's
  resolver would, with no network and whatever releases the testing machine has installed.
"""

from __future__ import annotations

import json
import re
import sys
from importlib import metadata
from pathlib import Path

BINDER = Path(__file__).resolve().parent
NOT_PINNED = {"lmcore", "pip", "setuptools", "wheel", "distribute"}  # the last four as `pip freeze` leaves out
HEADER = "# Every package of the tested environment, pinned: written by binder/pin.py (README, section Binder).\n"


def normalize(name: str) -> str:
    """PEP 503: ``Jinja2``, ``jupyter_core`` and ``jupyter.core`` name one project each."""
    return re.sub(r"[-_.]+", "-", name).lower()


def record_of(distributions) -> dict[str, dict]:
    """{normalized name: {"name", "version", "requires"}} for ``distributions`` (importlib.metadata's)."""
    record = {}
    for distribution in distributions:
        name = distribution.metadata["Name"]
        if normalize(name) in NOT_PINNED:
            continue
        record[normalize(name)] = {"name": name, "version": distribution.version,
                                   "requires": sorted(distribution.requires or [])}
    return dict(sorted(record.items()))


def pins_text(record: dict[str, dict]) -> str:
    """The text of binder/requirements.txt for ``record``: a header and one ``name==version`` per line."""
    return HEADER + "".join(f"{entry['name']}=={entry['version']}\n" for entry in record.values())


def main() -> None:
    record = record_of(metadata.distributions())
    if "notebook" not in record:
        sys.exit("install `notebook` beside requirements.txt first: repo2docker's image has it "
                 "(README, section Binder)")
    (BINDER / "pinned-requires.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n",
                                                 encoding="utf-8")
    (BINDER / "requirements.txt").write_text(pins_text(record), encoding="utf-8")
    print(f"pinned {len(record)} packages in binder/requirements.txt and binder/pinned-requires.json")


if __name__ == "__main__":
    main()
