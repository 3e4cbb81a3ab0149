"""Point every Binder badge (README and notebooks) at your fork: python binder/set_repo.py ORG/REPO"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLUG = re.compile(r"(mybinder\.org/v2/gh/)[\w.-]+/[\w.-]+(/HEAD)")


def main(slug: str) -> None:
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", slug):
        sys.exit(f"expected ORG/REPO, got {slug!r}")
    for path in [ROOT / "README.md", *sorted((ROOT / "notebooks").glob("*.ipynb"))]:
        text = path.read_text(encoding="utf-8")
        path.write_text(SLUG.sub(rf"\g<1>{slug}\g<2>", text), encoding="utf-8")
    (ROOT / "binder" / "repo.txt").write_text(slug + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) == 2 else "")
