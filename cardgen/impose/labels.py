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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .grid import SheetPlan
from .keepout import Box, KeepOut
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

BAND_PAD_MM = 0.5
"""... and this much beyond the text's ends."""

TURNED_BASELINE_MM = 0.8
"""A label line turned to run down the left margin has its baseline this far right of
its centre (toward the pieces), so that its ink sits about the centre."""

LABEL_GUIDE_GAP = 0.3
"""A label keeps this far (mm) from a guide's line: clear of its stroke and underlay."""

SMALLEST_PT = 4.5
"""A label with no room at ``LABEL_PT`` is set smaller, in half points down to this."""

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


def place_label(plan: SheetPlan, text: str, measure: Measure, keep: KeepOut | None = None, *,
                bottom_free: bool = True) -> tuple[LabelLine, ...]:
    """Where a sheet's label goes, always clear of the printer's blank band along the
    paper edge (``EDGE_CLEARANCE``): vertically in the left margin between two horizontal
    cut lines when a row is tall enough, where no crop mark runs, else above the block's
    top marks, else (a top margin too narrow for that) between the top marks.

    When rows are short (tokens), a label too long for one row is split at its " · "
    separators over the rows from the top down, so it still says everything; only a
    part longer than any row is shortened with "…".

    ``keep`` holds the page's pieces and guides: where that place would bring the label
    over a piece (its bleed included) or across a guide, as in the zig-zag top row of
    flat-top hexes or a block whose bleed runs into the printer's band, the label goes
    where there is room (``_whole``; ``bottom_free``: the bottom margin may take it, not a
    deck header's), off the pieces where it can, smaller where it must. A label placed
    above over the pieces' outer bleed, on its white band (a butted block whose bleed
    runs into the printer's band), stays there when nothing off the pieces has room; a
    label with no room anywhere is left out."""
    lines = _margin_label(plan, text, measure)
    if keep is None or all(_fits(line, measure, keep, plan.paper, over_art=False) for line in lines):
        return lines
    where = (plan.paper, text, measure, keep)
    rows = lanes(plan)
    return (_whole(*where, over_art=False, bottom_free=bottom_free, lanes=rows)
            or (lines if all(_fits(line, measure, keep, plan.paper, over_art=line.backed) for line in lines) else ())
            or _whole(*where, over_art=True, bottom_free=bottom_free, lanes=rows)
            or _shortest(*where, bottom_free=bottom_free, lanes=rows))


def lanes(plan: SheetPlan) -> list[tuple[float, bool]]:
    """The middle of each gap between two rows of the plan's pieces (``(y, True)``) and
    between two columns (``(x, False)``): a gutter, or a gutterfold sheet's fold."""
    w, h = plan.item
    out: list[tuple[float, bool]] = []
    for starts, size, upright in ((sorted({round(s.y, 6) for s in plan.slots}), h, True),
                                  (sorted({round(s.x, 6) for s in plan.slots}), w, False)):
        out += [((a + size + b) / 2, upright) for a, b in zip(starts, starts[1:]) if b - a - size > 1e-6]
    return out


def _margin_label(plan: SheetPlan, text: str, measure: Measure) -> tuple[LabelLine, ...]:
    """The label where the plan's margins alone say it goes (``place_label``)."""
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


def line_box(line: LabelLine, measure: Measure) -> Box:
    """The box a label line covers on the page (left, top, right, bottom, mm): its text
    from over the accents to under the descenders (``BAND_EMS``), ``BAND_PAD_MM`` longer
    at each end: the white band of a backed line."""
    em = line.size_pt * 25.4 / 72
    half = measure(line.text, line.size_pt) / 2 + BAND_PAD_MM
    if line.upright:
        return (line.x - half, line.y - BAND_EMS[0] * em, line.x + half, line.y + BAND_EMS[1] * em)
    base = line.x + TURNED_BASELINE_MM
    return (base - BAND_EMS[0] * em, line.y - half, base + BAND_EMS[1] * em, line.y + half)


def _fits(line: LabelLine, measure: Measure, keep: KeepOut, paper: tuple[float, float], *, over_art: bool) -> bool:
    """Whether a line stays out of the printer's band, clear of every piece's trim and
    every guide, and (unless ``over_art``) off the pieces' bleed."""
    box = line_box(line, measure)
    inside = (box[0] >= EDGE_CLEARANCE - 1e-9 and box[1] >= EDGE_CLEARANCE - 1e-9
              and box[2] <= paper[0] - EDGE_CLEARANCE + 1e-9 and box[3] <= paper[1] - EDGE_CLEARANCE + 1e-9)
    return inside and keep.clear(box) and (over_art or not keep.on_art(box))


_MIN_STRETCH_MM = 6.0  # a free stretch shorter than this takes no part of a label
_EDGE_SLACK_MM = 0.05  # a free-placed line's band this far inside the printer's band


def _whole(paper: tuple[float, float], text: str, measure: Measure, keep: KeepOut, *, over_art: bool,
           bottom_free: bool, lanes: Sequence[tuple[float, bool]]) -> tuple[LabelLine, ...]:
    """The label whole along a paper edge, just inside the printer's blank band, in the
    free stretches there (``KeepOut.free``): the top margin, the left one (turned), the
    bottom one (``bottom_free``: not a deck header's) and the right one, then down the
    middle of ``lanes`` (the gaps between rows of pieces, ``(centre, upright)``: across the
    page, else turned); its words spread over the stretches in reading order, in the
    fewest lines; at ``LABEL_PT`` where it fits, else half a point smaller, down to
    ``SMALLEST_PT``. Over the pieces' bleed (on its white band) only if ``over_art``.
    Empty where it fits nowhere whole."""
    size = LABEL_PT
    while size >= SMALLEST_PT - 1e-9:
        fitting = [placed for placed, whole, _ in _tries(paper, text, measure, keep, size, over_art, bottom_free, lanes)
                   if whole]
        if fitting:
            return min(fitting, key=len)
        size -= 0.5
    return ()


def _shortest(paper: tuple[float, float], text: str, measure: Measure, keep: KeepOut, *, bottom_free: bool,
              lanes: Sequence[tuple[float, bool]]) -> tuple[LabelLine, ...]:
    """The label at ``SMALLEST_PT`` where it has the most room, shortened to fit; empty
    where it has none at all (a block whose trim runs 5 mm from every edge)."""
    tries = _tries(paper, text, measure, keep, SMALLEST_PT, True, bottom_free, lanes)
    return max(tries, key=lambda t: t[2])[0] if tries else ()


def _tries(paper: tuple[float, float], text: str, measure: Measure, keep: KeepOut, size: float, over_art: bool,
           bottom_free: bool, lanes: Sequence[tuple[float, bool]]) -> list[tuple[tuple[LabelLine, ...], bool, float]]:
    """The label in each band with free stretches (``_bands``): its lines, whether it is
    whole, and how much room the band had."""
    out = []
    for lo, upright in _bands(paper, size, bottom_free, lanes):
        length = paper[0] if upright else paper[1]
        stretches = [(a, b) for a, b in keep.free(lo, lo + _depth(size), 1 if upright else 0, EDGE_CLEARANCE,
                                                  length - EDGE_CLEARANCE, over_art=over_art)
                     if b - a >= _MIN_STRETCH_MM]
        if stretches:
            placed, whole = _spread(text, measure, size, stretches, lo, upright, keep)
            out.append((placed, whole, sum(b - a for a, b in stretches)))
    return out


def _depth(size: float) -> float:
    """How deep (mm) a line's band is at ``size`` pt."""
    return sum(BAND_EMS) * size * 25.4 / 72


def _bands(paper: tuple[float, float], size: float, bottom_free: bool,
           lanes: Sequence[tuple[float, bool]]) -> list[tuple[float, bool]]:
    """Where a line's band may start (mm from the top, or turned from the left), in the
    order ``_whole`` tries them."""
    pw, ph = paper
    depth = _depth(size)
    near = EDGE_CLEARANCE + _EDGE_SLACK_MM
    bands = [(near, True), (near, False)]
    if bottom_free:
        bands.append((ph - near - depth, True))
    bands.append((pw - near - depth, False))
    return bands + [(centre - depth / 2, upright) for centre, upright in lanes]


def _spread(text: str, measure: Measure, size: float, stretches: list[tuple[float, float]], lo: float,
            upright: bool, keep: KeepOut) -> tuple[tuple[LabelLine, ...], bool]:
    """The label's lines over ``stretches`` of a band starting ``lo`` mm from the top (or
    the left, turned), shortened where a part does not fit; and whether none was."""
    em = size * 25.4 / 72

    def width(t: str) -> float:
        return measure(t, size)

    out, whole = [], True
    for line, (a, b) in spread_label(text, width, stretches, 2 * BAND_PAD_MM):
        t = _shortened(line, width, b - a - 2 * BAND_PAD_MM)
        whole = whole and t == line
        centre = (a + b) / 2
        if upright:
            placed = LabelLine(t, centre, lo + BAND_EMS[0] * em, upright=True, size_pt=size)
        else:
            placed = LabelLine(t, lo + BAND_EMS[0] * em - TURNED_BASELINE_MM, centre, upright=False, size_pt=size)
        out.append(LabelLine(placed.text, placed.x, placed.y, placed.upright, size,
                             backed=keep.on_art(line_box(placed, measure))))
    return tuple(out), whole

