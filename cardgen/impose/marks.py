"""Cut marks: crop marks in the paper margin, ticks in the pieces' outer bleed, and the
guides round pieces are cut along.

Pure arithmetic in page millimetres (origin top-left, y down), like the rest of the
imposition stage. Nothing here knows about sheet plans: the functions take the trim
boxes' top-left corners, sizes and bleed, so the plans (``grid``, ``duplex``) build on
this module and never the other way round.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .outlines import CircleOutline, Outline

EDGE_CLEARANCE = 5.0
"""No guide comes nearer the paper edge than this (mm): most home printers print
nothing in their outer 3–5 mm, so a mark there would be lost, or half printed."""

MIN_MARK = 1.0
"""A crop mark shorter than this (mm) is useless to a cutter, so it is omitted."""

STROKE_REACH = 0.2
"""How far (mm) the ink of a guide's stroke may reach beside its line: half the widest
stroke a writer draws a guide with (the ticks' white underlay, 1 pt = 0.35 mm). A guide
running along a line nearer the blank band than this leans inward (``Mark.lean``), and a
traced trim outline keeps this much more than ``EDGE_CLEARANCE`` from the edge."""

_EPS = 1e-9


@dataclass(frozen=True)
class Mark:
    """One crop-mark hairline segment; (x1, y1) is the end nearer the block.

    ``lean`` is (0, 0) for a stroke centred on the segment, or a unit step (±1 on one
    axis) to draw its ink wholly on that side of the segment, its edge on the line:
    what a guide on a cut line just inside the printer's blank band needs, so that its
    ink stays clear of the band and still marks the line exactly (``stroke_line``)."""

    x1: float
    y1: float
    x2: float
    y2: float
    lean: tuple[int, int] = (0, 0)


def stroke_line(m: Mark, width: float) -> tuple[float, float, float, float]:
    """The segment a writer strokes ``width`` mm wide to draw ``m``: the mark itself, or
    moved half the width toward its ``lean``."""
    dx, dy = m.lean[0] * width / 2, m.lean[1] * width / 2
    return m.x1 + dx, m.y1 + dy, m.x2 + dx, m.y2 + dy


class TrimCorner(Protocol):
    """Anything placed with its trim box's top-left at (x, y) mm: a grid slot."""

    @property
    def x(self) -> float: ...

    @property
    def y(self) -> float: ...


def crop_marks(
    paper: tuple[float, float],
    block: tuple[float, float, float, float],
    cut_xs: Sequence[float],
    cut_ys: Sequence[float],
    bleed: float,
    length: float,
    gap: float,
) -> tuple[Mark, ...]:
    """Marks above/below each vertical cut and left/right of each horizontal cut.

    They stay in the margin outside the block's bleed so they can never print over
    art, and stop short of the paper edge where home printers clip.
    """
    pw, ph = paper
    left, top, right, bottom = block
    off = bleed + gap
    shortest = min(MIN_MARK, length)

    def seg(start: float, toward_edge: float, edge: float) -> tuple[float, float] | None:
        # toward_edge is -1 (toward 0) or +1 (toward `edge`); returns (start, end).
        end = start + toward_edge * length
        limit = EDGE_CLEARANCE if toward_edge < 0 else edge - EDGE_CLEARANCE
        end = max(end, limit) if toward_edge < 0 else min(end, limit)
        if (end - start) * toward_edge + _EPS < shortest or length == 0:
            return None
        return start, end

    def clear(v: float, edge: float) -> bool:  # a cut line itself in the band gets no mark
        return EDGE_CLEARANCE - _EPS <= v <= edge - EDGE_CLEARANCE + _EPS

    marks: list[Mark] = []
    for x in (x for x in cut_xs if clear(x, pw)):
        for start, sign in ((top - off, -1), (bottom + off, 1)):
            s = seg(start, sign, ph)
            if s:
                marks.append(Mark(x, s[0], x, s[1]))
    for y in (y for y in cut_ys if clear(y, ph)):
        for start, sign in ((left - off, -1), (right + off, 1)):
            s = seg(start, sign, pw)
            if s:
                marks.append(Mark(s[0], y, s[1], y))
    return tuple(marks)


def clear_of_edges(marks: Sequence[Mark], paper: tuple[float, float],
                   clearance: float = EDGE_CLEARANCE) -> tuple[Mark, ...]:
    """``marks`` cut back to end ``clearance`` mm inside the paper edge, each keeping the
    end nearer its piece; a mark left shorter than ``MIN_MARK`` is omitted.

    The block of pieces may come as close as 4 mm to the edge, and its outer trim as
    close as ``clearance``, its bleed running into the printer's blank band (it is cut
    away anyway); the ticks in that bleed, and any guide, stop where the printer still
    prints. Their ink too: a mark running along a line less than ``STROKE_REACH`` inside
    the clear area leans away from the edge (its ink beside the line, not across it),
    and a slanted mark stops ``STROKE_REACH`` short, so that its square end does not
    poke into the band."""
    pw, ph = paper
    out = []
    for m in marks:
        along_x, along_y = abs(m.x2 - m.x1) < _EPS, abs(m.y2 - m.y1) < _EPS  # vertical, horizontal
        inset = clearance if along_x or along_y else clearance + STROKE_REACH
        lo_x, hi_x, lo_y, hi_y = inset, pw - inset, inset, ph - inset
        # Liang–Barsky: the part of the segment inside the clear rectangle
        dx, dy = m.x2 - m.x1, m.y2 - m.y1
        t0, t1 = 0.0, 1.0
        for p, q in ((-dx, m.x1 - lo_x), (dx, hi_x - m.x1), (-dy, m.y1 - lo_y), (dy, hi_y - m.y1)):
            if abs(p) < _EPS:
                if q < -_EPS:
                    t0, t1 = 1.0, 0.0
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
        if t1 - t0 < _EPS:
            continue
        lean = m.lean
        if along_x and m.x1 < lo_x + STROKE_REACH:
            lean = (1, 0)
        elif along_x and m.x1 > hi_x - STROKE_REACH:
            lean = (-1, 0)
        elif along_y and m.y1 < lo_y + STROKE_REACH:
            lean = (0, 1)
        elif along_y and m.y1 > hi_y - STROKE_REACH:
            lean = (0, -1)
        clipped = Mark(m.x1 + t0 * dx, m.y1 + t0 * dy, m.x1 + t1 * dx, m.y1 + t1 * dy, lean)
        if clipped == m or math.hypot(clipped.x2 - clipped.x1, clipped.y2 - clipped.y1) + _EPS >= MIN_MARK:
            out.append(clipped)
    return tuple(out)


TICK_INSET = 0.4
"""A bleed tick stops this far inside the bleed's outer edge (mm)."""

TICK_CLEAR = 0.75
"""... and this far from the trim (mm), so that a cut that far off still shows none of it."""


def bleed_ticks(slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float) -> tuple[Mark, ...]:
    """Short marks on the cut lines, inside the outer bleed of the pieces on a sheet.

    The crop marks in the paper margin may fall where a home printer cannot print: the
    block comes as close as 4 mm to the edge (3×3 poker cards on Letter), and most
    printers leave 3–5 mm blank. The bleed around the pieces is printed and then cut
    away, so a tick there on each cut line's extension shows where to cut without ever
    reaching a finished piece. A piece gets ticks in the bleed of each side that has no
    piece beside it (across a shared cut line, a gutter or a fold), at both ends of that
    side, so a partly filled sheet's pieces get them along their own outline, not on
    blank paper; a tick that would come within ``TICK_CLEAR`` of a piece is left out."""
    b = bleed
    if not slots or b - TICK_INSET - TICK_CLEAR < MIN_MARK:
        return ()
    w, h = item
    reach = 2 * b + _EPS  # a piece this close (butted, across a gutter or a fold) is a neighbour

    def beside(s: TrimCorner, dx: int, dy: int) -> bool:
        for t in slots:
            if dx and abs(t.y - s.y) < _EPS and 0 <= (t.x - s.x - w if dx > 0 else s.x - t.x - w) <= reach:
                return True
            if dy and abs(t.x - s.x) < _EPS and 0 <= (t.y - s.y - h if dy > 0 else s.y - t.y - h) <= reach:
                return True
        return False

    found: dict[tuple[float, ...], tuple[float, float, float, float]] = {}

    def add(*ticks: tuple[float, float, float, float]) -> None:
        for t in ticks:  # keyed rounded, so the tick two butted pieces share is drawn once
            found.setdefault(tuple(round(v, 6) for v in t), t)

    for s in slots:
        x0, y0, x1, y1 = s.x, s.y, s.x + w, s.y + h
        if not beside(s, 0, -1):
            add(*((x, y0 - TICK_CLEAR, x, y0 - b + TICK_INSET) for x in (x0, x1)))
        if not beside(s, 0, 1):
            add(*((x, y1 + TICK_CLEAR, x, y1 + b - TICK_INSET) for x in (x0, x1)))
        if not beside(s, -1, 0):
            add(*((x0 - TICK_CLEAR, y, x0 - b + TICK_INSET, y) for y in (y0, y1)))
        if not beside(s, 1, 0):
            add(*((x1 + TICK_CLEAR, y, x1 + b - TICK_INSET, y) for y in (y0, y1)))

    def clear(t: tuple[float, float, float, float]) -> bool:
        return not any(s.x - TICK_CLEAR + _EPS < x < s.x + w + TICK_CLEAR - _EPS
                       and s.y - TICK_CLEAR + _EPS < y < s.y + h + TICK_CLEAR - _EPS
                       for s in slots for x, y in ((t[0], t[1]), (t[2], t[3])))

    return tuple(Mark(*found[k]) for k in sorted(found) if clear(found[k]))


TICK_GAP = 0.5
"""Circle-guide ticks start this far (mm) outside a round piece's bleed ring."""

TICK_LENGTH = 2.5
"""How long (mm) a circle-guide tick is, at most."""


@dataclass(frozen=True)
class CutGuide:
    """A piece's trim line drawn to be cut along (with a circle punch, or checked after
    a scissors cut), and ticks pointing at it from outside its bleed, so never over the
    art: what a piece whose outline no straight cut line follows gets instead."""

    outline: Outline
    ticks: tuple[Mark, ...]  # (x1, y1) is the end nearer the piece


def circle_guides(slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float
                  ) -> tuple[CutGuide, ...]:
    """Cut guides for round pieces placed in ``slots``: the trim circle (diameter
    ``item[0]``) and four diagonal ticks in the corners of each piece's cell, pointing
    at its centre.

    Diagonals, because along the axes the bleed rings of gutter-laid neighbours
    touch: the corners of a piece's own bleed square are the only room it has alone.
    Each tick runs from ``TICK_GAP`` outside the bleed ring toward the corner of the
    bleed square, at most ``TICK_LENGTH`` long, and is omitted when shorter than
    ``MIN_MARK`` (a piece with no bleed has no room and gets the circle only)."""
    w, h = item
    r = min(w, h) / 2
    start = r + bleed + TICK_GAP
    corner = math.hypot(w / 2 + bleed, h / 2 + bleed) - 0.2  # stay inside the bleed square
    end = min(start + TICK_LENGTH, corner)
    out = []
    for s in slots:
        cx, cy = s.x + w / 2, s.y + h / 2
        ticks: tuple[Mark, ...] = ()
        if end - start + _EPS >= MIN_MARK:
            d = math.sqrt(0.5)
            ticks = tuple(Mark(cx + sx * start * d, cy + sy * start * d, cx + sx * end * d, cy + sy * end * d)
                          for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))
        out.append(CutGuide(CircleOutline(cx, cy, r), ticks))
    return tuple(out)
