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
from .marks import EDGE_CLEARANCE, TICK_CLEAR

WORDS = ("front", "back", "page", "of", "duplex_long", "duplex_short", "fold_here", "backs_shifted", "decimal",
         "file_cards", "file_gutterfold", "file_sheets", "file_printshop",  # file_*: a PDF's title
         "two_sided", "one_sided")  # a print-shop file's title says which it is
LOCALE_KEYS = frozenset(f"sheet.{word}" for word in WORDS)  # optional in a game's locale files


def sheet_words(strings: Mapping[str, str]) -> dict[str, str]:
    """The label words of a language, from its strings (``sheet.<word>``), which the
    loader fills from cardgen's own locale files where the game sets none."""
    return {word: strings[f"sheet.{word}"] for word in WORDS}


MINUS = "\u2013"
"""The label's minus sign: the en dash, the typographic stand-in for U+2212 MINUS SIGN,
which the shipped Noto Sans (2.004) has no glyph for."""


def shifted(words: Mapping[str, str], x: float, y: float) -> str:
    """The back offset, as the label says it: the language's decimal sign, a minus sign
    rather than a hyphen (``MINUS``), and the pair with its unit as one unit (no-break
    spaces from the first value on), so that a label spread over rows never splits
    "0.5, –1 mm"."""
    def num(v: float) -> str:
        return f"{v:g}".replace("-", MINUS).replace(".", words["decimal"])
    template = words["backs_shifted"]
    at = template.find("{x}")
    head, tail = (template[:at], template[at:]) if at >= 0 else ("", template)
    return head.format(x=num(x), y=num(y)) + tail.format(x=num(x), y=num(y)).replace(" ", "\u00a0")


def label_text(*parts: str) -> str:
    """A sheet label's parts in one line, " · " between them."""
    return " · ".join(parts)


LABEL_PT = 6.0
"""The size (pt) a sheet label is set in."""

_LABEL_GAP_MM = 10.0  # a row shorter than this (the gap between two bleeds) takes no label
_LABEL_HALF_MM = 2.0  # half a 6 pt line's box, ascender to descender, with room to spare
_LABEL_CENTRE_MM = EDGE_CLEARANCE + _LABEL_HALF_MM  # a margin label's centre: its line clears the printer's blank band
_BLEED_GAP_MM = 1.2  # and never closer than this to the pieces' bleed
_TOP_LABEL_MM = 9.0  # a top label's centre above the block's bleed: beyond the crop marks

BAND_EMS = (0.9, 0.3)
"""The white band behind a label on the pieces' bleed reaches this far above and below
its baseline, in ems of its size: from over the accents to under the descenders."""

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
    backed: bool = False  # over the pieces' outer bleed: drawn on a white band, so it reads on dark art


def spread_label(text: str, width: Callable[[str], float], gaps: list[tuple[float, float]],
                 margin: float) -> list[tuple[str, tuple[float, float]]]:
    """A sheet label's lines, each with the row gap ``(top, bottom)`` it goes in.

    The whole label in the tallest gap when it fits there (less ``margin``); else its
    words packed in order over the gaps from the top down (a line breaks at a space,
    which it drops, or at a " · " separator, whose dot ends the line, or starts the next
    where the line has no room for it, so that the pieces read as one label), the last
    gap taking whatever is left (to be shortened)."""
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
        else:  # no room for the dot at the line's end: it starts the next line instead
            out.append((line, gap))
            line = "· " + word if sep == " · " else word
    out.append((line, gaps[len(out)]))
    return out


def _shortened(text: str, width: Callable[[str], float], room: float) -> str:
    """``text`` cut with "…" until it is at most ``room`` mm wide."""
    while len(text) > 1 and width(text) > room:
        text = text[:-2].rstrip() + "…"
    return text


def place_label(plan: SheetPlan, text: str, measure: Measure) -> tuple[LabelLine, ...]:
    """Where a sheet's label goes, always clear of the printer's blank band along the
    paper edge (``EDGE_CLEARANCE``): vertically in the left margin between two horizontal
    cut lines when a row is tall enough, where no crop mark runs, else above the block's
    top marks, else (a top margin too narrow for that) between the top marks.

    When rows are short (tokens), a label too long for one row is split at its " · "
    separators over the rows from the top down, so it still says everything; only a
    part longer than any row is shortened with "…"."""
    def width(t: str) -> float:
        return measure(t, LABEL_PT)

    ys = plan.cut_ys
    gaps = [(top, bottom) for top, bottom in zip(ys, ys[1:]) if bottom - top >= _LABEL_GAP_MM]
    top, bottom = max(zip(ys, ys[1:]), key=lambda p: p[1] - p[0]) if len(ys) > 1 else (0.0, 0.0)
    pw = plan.paper[0]
    block_top = min(s.y for s in plan.slots) - plan.bleed
    room = min(s.x for s in plan.slots) - plan.bleed  # the left margin, to the bleed
    side_fits = room - _BLEED_GAP_MM - _LABEL_HALF_MM >= _LABEL_CENTRE_MM - 1e-9
    top_fits = block_top - _TOP_LABEL_MM - _LABEL_HALF_MM >= EDGE_CLEARANCE - 1e-9
    if side_fits and (bottom - top >= 50 or not top_fits):
        return tuple(LabelLine(_shortened(line, width, b - t - 4.0), _LABEL_CENTRE_MM, (t + b) / 2, upright=False)
                     for line, (t, b) in spread_label(text, width, gaps or [(top, bottom)], 4.0))
    if top_fits:
        return (LabelLine(_shortened(text, width, pw - 20.0), pw / 2, block_top - _TOP_LABEL_MM, upright=True),)
    # a narrow top margin: the label between the crop marks there, spread over the gaps
    # between the vertical cut lines from the left, clear of the band and of the bleed
    xs = [EDGE_CLEARANCE, *(x for x in plan.cut_xs if EDGE_CLEARANCE < x < pw - EDGE_CLEARANCE),
          pw - EDGE_CLEARANCE]
    spans = [(a, b) for a, b in zip(xs, xs[1:]) if b - a >= _LABEL_GAP_MM] or [(EDGE_CLEARANCE, pw - EDGE_CLEARANCE)]
    # (when the block's bleed comes within a label's height of the printer's band, as with
    # an outer bleed run into it, the label lies on that bleed, which is cut away: on a
    # white band where that band stays as far from the trim as the cut ticks do)
    y = max(_LABEL_CENTRE_MM, (EDGE_CLEARANCE + block_top - _BLEED_GAP_MM) / 2)
    below = y + BAND_EMS[1] * LABEL_PT * 25.4 / 72
    backed = block_top - 1e-9 < below <= block_top + plan.bleed - TICK_CLEAR + 1e-9
    return tuple(LabelLine(_shortened(line, width, b - a - 2.0), (a + b) / 2, y, upright=True, backed=backed)
                 for line, (a, b) in spread_label(text, width, spans, 2.0))
