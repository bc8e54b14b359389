"""The small label at the edge of each sheet ("Hâpy · Cards · front 1/4 · A4 · 100% ·
duplex long-edge"): its words in the kit's language, and where its lines go.

The words are the tool's, not a game's: they live in cardgen's own locale files
(``locales/<lang>.yaml``, read by cardgen/toolwords.py), and a language without a file
falls back to English. A game may set any of them in its own locale files under
``sheet.<word>`` (e.g. ``sheet.front: Vorderseite``), which wins.

Where the label goes is geometry like the rest of the imposition: a line runs down the
left margin between two cut lines, where no crop mark runs, or across the top margin;
text widths come from a ``measure(text, size_pt) -> mm`` the caller passes in, so this
module needs no font.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .grid import SheetPlan

WORDS = ("front", "back", "page", "of", "duplex_long", "duplex_short", "fold_here", "backs_shifted", "decimal")
LOCALE_KEYS = frozenset(f"sheet.{word}" for word in WORDS)  # optional in a game's locale files


def sheet_words(strings: Mapping[str, str]) -> dict[str, str]:
    """The label words of a language, from its strings (``sheet.<word>``), which the
    loader fills from cardgen's own locale files where the game sets none."""
    return {word: strings[f"sheet.{word}"] for word in WORDS}


def shifted(words: Mapping[str, str], x: float, y: float) -> str:
    """The back offset, as the label says it (with the language's decimal sign)."""
    def num(v: float) -> str:
        return f"{v:g}".replace(".", words["decimal"])
    return words["backs_shifted"].format(x=num(x), y=num(y))


def label_text(*parts: str) -> str:
    """A sheet label's parts in one line, " · " between them."""
    return " · ".join(parts)


LABEL_PT = 6.0
"""The size (pt) a sheet label is set in."""

_LABEL_GAP_MM = 10.0  # a row shorter than this (the gap between two bleeds) takes no label
_LABEL_CENTRE_MM = 6.1  # a side label's centre from the paper edge: its 6 pt line then clears 5 mm

Measure = Callable[[str, float], float]
"""The width (mm) of a text at a size (pt) in the label's font."""


@dataclass(frozen=True)
class LabelLine:
    """One line of a sheet label, already shortened to its room, centred on (x, y) mm."""

    text: str
    x: float
    y: float
    upright: bool  # False: turned a quarter, running down the left margin
    size_pt: float = LABEL_PT


def spread_label(text: str, width: Callable[[str], float], gaps: list[tuple[float, float]],
                 margin: float) -> list[tuple[str, tuple[float, float]]]:
    """A sheet label's lines, each with the row gap ``(top, bottom)`` it goes in.

    The whole label in the tallest gap when it fits there (less ``margin``); else its
    words packed in order over the gaps from the top down (a line breaks at a space,
    which it drops, or at a " · " separator, whose dot ends the line so that the pieces
    read as one label), the last gap taking whatever is left (to be shortened)."""
    tallest = max(gaps, key=lambda g: g[1] - g[0])
    if len(gaps) == 1 or width(text) <= tallest[1] - tallest[0] - margin:
        return [(text, tallest)]
    words = [(" · " if k and not i else " ", word) for k, part in enumerate(text.split(" · "))
             for i, word in enumerate(part.split(" "))]
    out: list[tuple[str, tuple[float, float]]] = []
    line = ""
    for sep, word in words:
        joined = line + sep + word if line else word
        gap = gaps[len(out)]
        ends = line + " ·" if sep == " · " else line
        if not line or width(joined) <= gap[1] - gap[0] - margin or len(out) == len(gaps) - 1:
            line = joined
        elif width(ends) <= gap[1] - gap[0] - margin:
            out.append((ends, gap))
            line = word
        else:
            out.append((line, gap))
            line = word
    out.append((line, gaps[len(out)]))
    return out


def _shortened(text: str, width: Callable[[str], float], room: float) -> str:
    """``text`` cut with "…" until it is at most ``room`` mm wide."""
    while len(text) > 1 and width(text) > room:
        text = text[:-2].rstrip() + "…"
    return text


def place_label(plan: SheetPlan, text: str, measure: Measure) -> tuple[LabelLine, ...]:
    """Where a sheet's label goes: vertically in the left margin between two horizontal
    cut lines when a row is tall enough, where no crop mark runs, else above the block's
    top marks.

    When rows are short (tokens), a label too long for one row is split at its " · "
    separators over the rows from the top down, so it still says everything; only a
    part longer than any row is shortened with "…"."""
    def width(t: str) -> float:
        return measure(t, LABEL_PT)

    ys = plan.cut_ys
    gaps = [(top, bottom) for top, bottom in zip(ys, ys[1:]) if bottom - top >= _LABEL_GAP_MM]
    top, bottom = max(zip(ys, ys[1:]), key=lambda p: p[1] - p[0]) if len(ys) > 1 else (0.0, 0.0)
    block_top = min(s.y for s in plan.slots) - plan.bleed
    if bottom - top >= 50 or block_top < 14:
        # as far from the paper's edge as the printers' blank band (up to 5 mm) asks, where
        # the margin allows, and never closer than 1.2 mm to the bleed
        room = min(s.x for s in plan.slots) - plan.bleed
        x = max(2.5, min(_LABEL_CENTRE_MM, room - 2.3))
        return tuple(LabelLine(_shortened(line, width, b - t - 4.0), x, (t + b) / 2, upright=False)
                     for line, (t, b) in spread_label(text, width, gaps or [(top, bottom)], 4.0))
    return (LabelLine(_shortened(text, width, plan.paper[0] - 20.0), plan.paper[0] / 2, block_top - 9.0,
                      upright=True),)
