"""Inline markup inside one text: the one parser that `text` and `flow` ops share.

    **bold**   *italic*   ***both***   {color=#a33}words{/color}   :coin:

``{color=NAME}`` takes a palette name or ``#rrggbb`` and lasts until ``{/color}`` (or
the end of the text); colour spans nest. ``:name:`` is an icon from game.yaml's
``icons:`` (a name starts with a letter: ``10:30:00`` is no icon). A backslash makes the
next ``*``, ``:``, ``{`` or ``\\`` literal. A ``**`` or ``*`` without a partner, and a
``{/color}`` with nothing open, print as they are, so a stray star never turns a whole
text italic.

The parser only says what each stretch of text is; the fonts, the glyph fallback and
the icons are the text engine's (:mod:`.text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ICON_NAME = r"[A-Za-z][A-Za-z0-9_-]*"
_TOKEN = re.compile(
    r"(?P<esc>\\[*:{\\])"
    r"|(?P<star>\*\*|\*)"
    r"|(?P<open>\{colou?r=(?P<colour>[^{}\s]{1,40})\})"
    r"|(?P<close>\{/colou?r\})"
    rf"|(?P<icon>:(?P<name>{ICON_NAME}):)"
)


@dataclass(frozen=True)
class Span:
    """A stretch of text in one style, or one icon (``icon`` set, ``text`` empty)."""

    text: str
    bold: bool = False
    italic: bool = False
    colour: str | None = None
    icon: str | None = None


def _paired(positions: list[int]) -> set[int]:
    """Delimiters pair in order (1st with 2nd, 3rd with 4th); an odd last one is text."""
    return set(positions[: len(positions) // 2 * 2])


def parse_inline(text: str) -> list[Span]:
    """The spans of ``text``, adjacent ones of one style merged."""
    tokens = list(_TOKEN.finditer(text))
    toggles = _paired([i for i, m in enumerate(tokens) if m.group("star") == "**"])
    toggles |= _paired([i for i, m in enumerate(tokens) if m.group("star") == "*"])
    out: list[Span] = []
    bold = italic = False
    colours: list[str] = []
    pos = 0

    def add(chunk: str) -> None:
        if not chunk:
            return
        colour = colours[-1] if colours else None
        last = out[-1] if out else None
        if last and last.icon is None and (last.bold, last.italic, last.colour) == (bold, italic, colour):
            out[-1] = Span(last.text + chunk, bold, italic, colour)
        else:
            out.append(Span(chunk, bold, italic, colour))

    for i, m in enumerate(tokens):
        add(text[pos : m.start()])
        pos = m.end()
        if m.group("esc"):
            add(m.group("esc")[1])
        elif m.group("star"):
            if i not in toggles:
                add(m.group("star"))
            elif m.group("star") == "**":
                bold = not bold
            else:
                italic = not italic
        elif m.group("open"):
            colours.append(m.group("colour"))
        elif m.group("close"):
            if colours:
                colours.pop()
            else:
                add(m.group("close"))
        else:
            out.append(Span("", bold, italic, colours[-1] if colours else None, icon=m.group("name")))
    add(text[pos:])
    return out


def plain(text: str) -> str:
    """The words of ``text`` without markup (icons left out): what a reader copies."""
    return "".join(s.text for s in parse_inline(text))


def icon_names(text: str) -> list[str]:
    """The icons ``text`` names, each once, in order."""
    return list(dict.fromkeys(s.icon for s in parse_inline(text) if s.icon))


def colours(text: str) -> list[str]:
    """The colours ``text``'s spans name, each once (checked against the palette)."""
    return list(dict.fromkeys(s.colour for s in parse_inline(text) if s.colour))
