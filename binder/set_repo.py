"""Point every Binder badge (both READMEs, both editions' notebooks) and the READMEs' clone
line at your fork: python binder/set_repo.py ORG/REPO"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLUG = re.compile(r"(mybinder\.org/v2/gh/)[\w.-]+/[\w.-]+(/HEAD)")
CLONE = re.compile(r"(git clone https://github\.com/)[\w.-]+/[\w.-]+?(\.git)")


def main(slug: str) -> None:
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", slug):
        sys.exit(f"expected ORG/REPO, got {slug!r}")
    readmes = [path for path in (ROOT / "README.md", ROOT / "README.zh-CN.md") if path.exists()]
    for path in [*readmes, *sorted((ROOT / "notebooks").rglob("*.ipynb"))]:
        text = path.read_text(encoding="utf-8")
        text = SLUG.sub(rf"\g<1>{slug}\g<2>", text)
        path.write_text(CLONE.sub(rf"\g<1>{slug}\g<2>", text), encoding="utf-8")
    (ROOT / "binder" / "repo.txt").write_text(slug + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) == 2 else "")
