"""Hexagonal pieces packed in offset rows (a honeycomb): neighbours share their cut
edges, and one bleed runs around the packed block, instead of each hex wasting the
corners of a rectangle.

A hex's size is its flat-to-flat width ``f``; its corner-to-corner width is
``2 f / √3``. Pointy-top hexes sit in rows ``1.5 R`` apart (``R = f / √3``), every
other row shifted by half a hex; flat-top hexes are the same turned a quarter, in
columns. Slots are the hexes' bounding boxes, as everywhere in ``impose``.
Millimetres, origin top-left, y down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..base.errors import CardgenError
from .grid import SheetPlan, Slot, fmt_mm

_EPS = 1e-9


@dataclass(frozen=True)
class HoneycombPlan(SheetPlan):
    """A sheet of hexes in offset rows (or columns, flat-top). ``cut_xs``/``cut_ys`` hold
    only the block's outer trim extents: no straight cut line crosses a honeycomb."""

    pointy: bool = True


def hex_box(flat: float, pointy: bool) -> tuple[float, float]:
    """The bounding box (w, h) of a hex ``flat`` mm across its flats."""
    corners = 2 * flat / math.sqrt(3)
    return (flat, corners) if pointy else (corners, flat)


def _rows(room_w: float, room_h: float, flat: float) -> list[tuple[float, float]]:
    """Pointy-top hex bounding-box positions (relative to the block's top-left) whose
    block fits ``room_w`` × ``room_h``; the better of "every row full, odd rows
    shifted" and "odd rows one short"."""
    r = flat / math.sqrt(3)
    rows = max(0, math.floor((room_h - 2 * r + _EPS) / (1.5 * r)) + 1) if room_h + _EPS >= 2 * r else 0
    best: list[tuple[float, float]] = []
    for short in (False, True):
        n = math.floor((room_w - (0 if short or rows < 2 else flat / 2) + _EPS) / flat)
        if n <= 0:
            continue
        spots = [(k * flat + (flat / 2 if row % 2 else 0.0), row * 1.5 * r)
                 for row in range(rows) for k in range(n - (1 if short and row % 2 else 0))]
        if len(spots) > len(best):
            best = spots
    return best


def lattice(x: float, y: float, flat: float, pointy: bool) -> tuple[int, int]:
    """A hex's (col, row) in the honeycomb from its box's place in the block: pointy-top,
    columns count half hexes and rows rows (edge neighbours at (±2, 0) and (±1, ±1));
    flat-top, columns count columns and rows half hexes ((0, ±2) and (±1, ±1)). Mirroring
    the block (a back page) maps the lattice onto itself, col to cols - 1 - col."""
    r = flat / math.sqrt(3)
    if pointy:
        return round(x / (flat / 2)), round(y / (1.5 * r))
    return round(x / (1.5 * r)), round(y / (flat / 2))


def plan_honeycomb(paper: tuple[float, float], flat: float, pointy: bool, bleed: float, *,
                   min_margin: float = 4.0, trim_margin: float | None = None,
                   name: str = "item", paper_name: str = "paper") -> HoneycombPlan:
    """As many hexes as fit on ``paper`` in a honeycomb, centred, the block plus its
    bleed at least ``min_margin`` from every edge; or, given a ``trim_margin`` and in a
    direction where that costs a row or column, its traced trim ``trim_margin`` from the
    edges, the outer bleed running into the printer's blank band (as in
    ``grid.count_along``)."""
    pw, ph = (float(v) for v in paper)
    w, h = hex_box(flat, pointy)

    def room(length: float) -> float:
        inside = length - 2 * min_margin - 2 * bleed
        return inside if trim_margin is None else max(inside, length - 2 * trim_margin)

    spots = _rows(room(pw), room(ph), flat) if pointy else [(y, x) for x, y in _rows(room(ph), room(pw), flat)]
    if not spots:
        raise CardgenError(f"{name} hex {fmt_mm(flat)} mm across the flats (+{fmt_mm(bleed)} mm bleed) does not fit "
                           f"on {paper_name} with {fmt_mm(min_margin)} mm margins")
    right = max(x for x, _ in spots) + w
    bottom = max(y for _, y in spots) + h
    x0, y0 = (pw - right) / 2, (ph - bottom) / 2
    # row after row, so that the first slots (a part-filled sheet) touch: pointy-top rows
    # are rows; flat-top, a row is a zig-zag band of columns shifted by half a hex
    band = h if not pointy else 1.5 * flat / math.sqrt(3)
    order = sorted(spots, key=lambda p: (math.floor((p[1] + _EPS) / band), round(p[0], 6)))
    slots = tuple(Slot(i, *lattice(x, y, flat, pointy), x=x0 + x, y=y0 + y) for i, (x, y) in enumerate(order))
    cols, rows = max(s.col for s in slots) + 1, max(s.row for s in slots) + 1
    return HoneycombPlan(paper=(pw, ph), item=(w, h), bleed=float(bleed), gutter=0.0, cols=cols, rows=rows,
                         slots=slots, cut_xs=(x0, x0 + right), cut_ys=(y0, y0 + bottom), marks=(), pointy=pointy)


def compact_honeycomb(plan: HoneycombPlan, n_items: int) -> HoneycombPlan:
    """The plan for a one-sided sheet holding only ``n_items``: its first slots, moved
    to the middle of the paper."""
    if n_items >= len(plan.slots):
        return plan
    kept = plan.slots[:max(1, n_items)]
    w, h = plan.item
    left, top = min(s.x for s in kept), min(s.y for s in kept)
    right, bottom = max(s.x for s in kept) + w, max(s.y for s in kept) + h
    dx = (plan.paper[0] - (right - left)) / 2 - left
    dy = (plan.paper[1] - (bottom - top)) / 2 - top
    slots = tuple(Slot(s.index, s.col, s.row, s.x + dx, s.y + dy, s.rotation) for s in kept)
    return HoneycombPlan(paper=plan.paper, item=plan.item, bleed=plan.bleed, gutter=0.0, cols=plan.cols,
                         rows=max(s.row for s in slots) + 1, slots=slots, cut_xs=(left + dx, right + dx),
                         cut_ys=(top + dy, bottom + dy), marks=(), pointy=plan.pointy)
