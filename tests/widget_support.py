"""What the explorers' unit tests share: reading a page as the student sees it.

A test module imports what it needs (``from widget_support import PNG, shown``; pytest
puts ``tests/`` on the path, as for ``browser_support``).
"""

from __future__ import annotations

import re

#: The first bytes of a PNG image: what an explorer's figure output starts with.
PNG = b"\x89PNG"


def shown_all(html: str, css_class: str) -> list[str]:
    """The texts of every span with this CSS class, in order, as the browser would show them.

    >>> shown_all('<span class="a">1</span> <span class="a">2</span>', "a")
    ['1', '2']
    """
    return re.findall(rf'<span class="{css_class}">([^<]*)</span>', html)


def shown(html: str, css_class: str) -> str:
    """The text of the one span with this CSS class, as the browser would show it.

    >>> shown('<p>H = <span class="lmcore-h">1.5</span> bits</p>', "lmcore-h")
    '1.5'
    """
    found = shown_all(html, css_class)
    assert len(found) == 1, f"{len(found)} spans of class {css_class} in {html[:300]}"
    return found[0]


def spans(html: str) -> dict[str, str]:
    """Every number the page shows in an ``lmcore-...`` span, by CSS class.

    >>> spans('<span class="lmcore-ppl">8.00</span><span class="other">x</span>')
    {'lmcore-ppl': '8.00'}
    """
    return dict(re.findall(r'<span class="(lmcore-[\w-]+)">([^<]*)</span>', html))


def visible_text(html: str) -> str:
    """What the page reads as, tags dropped and spaces collapsed.

    >>> visible_text("<p>H =  <b>1.5</b>\\n bits</p>")
    'H = 1.5 bits'
    """
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())
