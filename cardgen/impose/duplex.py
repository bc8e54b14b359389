"""Backs: where each front's back goes, mirrored for a duplex printer's flip, or beside
it on a gutterfold sheet that is folded instead of printed on both sides.

Millimetres, origin top-left, y down, as in ``grid``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..base.errors import CardgenError
from .grid import SheetPlan, Slot, count_along, fmt_mm
from .marks import EDGE_CLEARANCE, MIN_MARK, TICK_CLEAR, Mark, crop_marks

_EPS = 1e-9


def back_slots(plan: SheetPlan, duplex: str) -> tuple[Slot, ...]:
    """Where each front's back goes on the back page, for a duplex printer.

    ``back_slots(plan, d)[i]`` belongs to front slot ``i`` (same index). Long-edge
    flip on portrait paper mirrors columns. Short-edge flip mirrors rows and turns
    each back 180° so it is upright when the cut card is turned over left-to-right.
    """
    pw, ph = plan.paper
    w, h = plan.item
    if duplex == "long":
        return tuple(
            Slot(s.index, plan.cols - 1 - s.col, s.row, pw - s.x - w, s.y, 0)
            for s in plan.slots
        )
    if duplex == "short":
        return tuple(
            Slot(s.index, s.col, plan.rows - 1 - s.row, s.x, ph - s.y - h, 180)
            for s in plan.slots
        )
    raise ValueError(f"duplex must be 'long' or 'short', not {duplex!r}")


@dataclass(frozen=True)
class FoldPlan:
    """A gutterfold sheet: landscape paper, fronts left of a vertical fold line and
    their backs mirrored to the right of it, so folding the sheet puts each back behind
    its front with no duplex printer involved."""

    plan: SheetPlan  # landscape paper; slots are the fronts
    backs: tuple[Slot, ...]  # backs[i] belongs to plan.slots[i]
    fold_x: float
    fold_marks: tuple[Mark, ...]


def plan_gutterfold(paper: tuple[float, float], item: tuple[float, float], bleed: float, *,
                    min_margin: float = 4.0, trim_margin: float | None = None, mark_length: float = 6.0,
                    mark_gap: float = 1.0, name: str = "item", paper_name: str = "paper") -> FoldPlan:
    """Fronts and mirrored backs on one side of a landscape sheet, folded down the middle.

    Each half holds a butted grid flush against the fold, with one bleed on each side of
    the fold line so the fronts' and backs' bleeds meet exactly at the fold. As on a
    duplex sheet (``grid.count_along``), a ``trim_margin`` lets the outer bleed run into
    the printer's blank band where that fits another row or column, the trim kept that
    far from the edges (None, the default: the bleed stays inside ``min_margin``); the
    fold's own bleed always stays."""
    pw, ph = max(paper), min(paper)
    w, h = float(item[0]), float(item[1])
    fold = pw / 2
    cols = max(0, math.floor((fold - bleed - min_margin - bleed + _EPS) / w))
    if trim_margin is not None:
        cols = max(cols, math.floor((fold - bleed - trim_margin + _EPS) / w))
    rows = count_along(ph, h, bleed, 0.0, min_margin, trim_margin)
    if cols * rows == 0:
        raise CardgenError(
            f"{name} {fmt_mm(w)}×{fmt_mm(h)} mm (+{fmt_mm(bleed)} mm bleed) does not fit half a {paper_name} sheet "
            f"for gutterfold with {fmt_mm(min_margin)} mm margins"
        )
    y0 = (ph - rows * h) / 2
    right = fold - bleed  # the fronts' block ends one bleed before the fold
    fronts = tuple(
        Slot(index=r * cols + c, col=c, row=r, x=right - (cols - c) * w, y=y0 + r * h)
        for r in range(rows)
        for c in range(cols)
    )
    backs = tuple(Slot(s.index, cols - 1 - s.col, s.row, pw - s.x - w, s.y, 0) for s in fronts)
    left = right - cols * w
    cut_xs = tuple(left + k * w for k in range(cols + 1)) + tuple(pw - (left + k * w) for k in range(cols, -1, -1))
    cut_ys = tuple(y0 + k * h for k in range(rows + 1))
    block = (left, y0, pw - left, y0 + rows * h)
    marks = crop_marks((pw, ph), block, cut_xs, cut_ys, bleed, mark_length, mark_gap)
    into = mark_length if bleed >= TICK_CLEAR else 0.0  # the fold lies a bleed from every piece
    fold_marks = tuple(
        Mark(fold, y1, fold, y2)
        for y1, y2 in ((max(EDGE_CLEARANCE, y0 - bleed - mark_gap - mark_length), y0 - bleed - mark_gap),
                       (y0 + rows * h + bleed + mark_gap, min(ph - EDGE_CLEARANCE, y0 + rows * h + bleed + mark_gap + mark_length)))
        if y2 - y1 >= MIN_MARK
    ) or tuple(  # no room in the margin: from the printer's band into the outer bleed, like the ticks,
        # and on along the fold between the rows' bleeds when the block comes that close
        Mark(fold, y1, fold, y2)
        for y1, y2 in ((EDGE_CLEARANCE, max(y0 - TICK_CLEAR, EDGE_CLEARANCE + into)),
                       (min(y0 + rows * h + TICK_CLEAR, ph - EDGE_CLEARANCE - into), ph - EDGE_CLEARANCE))
        if y2 - y1 >= MIN_MARK
    )
    plan = SheetPlan(paper=(pw, ph), item=(w, h), bleed=bleed, gutter=0.0, cols=cols, rows=rows, slots=fronts,
                     cut_xs=cut_xs, cut_ys=cut_ys, marks=marks)
    return FoldPlan(plan=plan, backs=backs, fold_x=fold, fold_marks=fold_marks)
