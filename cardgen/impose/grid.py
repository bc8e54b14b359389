"""Sheet plans: where each piece's trim box goes on a sheet, where the cut lines run,
and which pieces go on which sheet.

Pure arithmetic, no drawing and no I/O, so it can be tested exhaustively. Every value
is in millimetres with the origin at the TOP-LEFT of the paper and y growing downward;
the drawing module converts to PDF points (origin bottom-left) later. Portrait paper
only, because the duplex rules (``duplex``: long edge mirrors columns, short edge
mirrors rows) are stated for portrait sheets.

Two layouts are considered:

* gutter: items sit ``2 * bleed`` apart, so each keeps its own full bleed and can be
  cut cleanly on both of its own trim lines (more cuts, fewer items);
* butted: items touch, neighbours share cut lines and bleed exists only around the
  outside of the block (fewer cuts, more items, but a mis-cut shows the neighbour).

The gutter layout is chosen whenever it fits at least as many items as the butted one.

The block keeps its bleed inside the sheet's margins (4 mm): the trim, the art and the
guides drawn in the bleed all lie where a home printer prints. A caller may let the
outermost pieces' bleed run deeper into the printer's blank band for one more row or
column (``trim_margin``, see :func:`count_along`); the kits never do, since a printer
that starts at 5 mm would then print the trim on its very edge and drop the guides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..base.errors import CardgenError
from .marks import Mark, crop_marks

_EPS = 1e-9
"""Tolerance for 'fits exactly' so that float noise never drops a row."""

_MIN_GUTTER = 1e-6
"""A gutter narrower than a nanometre is no gutter: plan a butted grid instead, so
the two trim lines of neighbours never become near-duplicate cut lines."""


@dataclass(frozen=True)
class Slot:
    """Where one item's trim box sits on a page."""

    index: int  # 0-based, row-major on the front page
    col: int
    row: int
    x: float  # trim box top-left on the page
    y: float
    rotation: int = 0  # 0 or 180: how the face is turned inside its trim box


@dataclass(frozen=True)
class SheetPlan:
    """Everything the drawing layer needs to lay out one kind of sheet."""

    paper: tuple[float, float]
    item: tuple[float, float]  # trim size w, h
    bleed: float
    gutter: float  # 0 = butted grid; else 2*bleed so each item keeps its own bleed
    cols: int
    rows: int
    slots: tuple[Slot, ...]  # front positions
    cut_xs: tuple[float, ...]  # every vertical cut line x (sorted, unique)
    cut_ys: tuple[float, ...]
    marks: tuple[Mark, ...]

    @property
    def per_sheet(self) -> int:
        """How many items one sheet holds."""
        return len(self.slots)


def fmt_mm(v: float) -> str:
    """Millimetres as a user would write them: 63, 63.5, 3.175."""
    return f"{v:g}"


def fitting(avail: float, item: float, bleed: float, gutter: float) -> int:
    """How many items fit in one dimension of ``avail`` printable millimetres.

    The printed extent of n items is n*item + (n-1)*gutter + 2*bleed.
    """
    room = avail - 2 * bleed + gutter
    return max(0, math.floor((room + _EPS) / (item + gutter)))


def count_along(length: float, item: float, bleed: float, gutter: float, min_margin: float,
                trim_margin: float | None) -> int:
    """How many items fit along ``length`` mm of paper: with the block's outer bleed
    ``min_margin`` from both edges, or, when that fits more, with only the trim
    ``trim_margin`` from them (the outer bleed running into the printer's blank band,
    clipped there or by the paper edge, which is harmless: it is cut away).

    The second is what a home printer allows: it must print the pieces up to their trim
    (``trim_margin`` is where guides may go, ``EDGE_CLEARANCE``), while the bleed beyond
    only covers a cut that strays outward. 40 mm tiles with 3 mm bleed go 5 across A4
    this way (200 mm of trim, 5 mm from each edge) instead of 4. ``trim_margin`` None
    (the default, and what every kit uses): the bleed always stays inside
    ``min_margin``."""
    inside = fitting(length - 2 * min_margin, item, bleed, gutter)
    return inside if trim_margin is None else max(inside, fitting(length - 2 * trim_margin, item, 0.0, gutter))


def plan_sheet(
    paper: tuple[float, float],
    item: tuple[float, float],
    bleed: float,
    *,
    min_margin: float = 4.0,
    mark_length: float = 6.0,
    mark_gap: float = 1.0,
    name: str = "item",
    paper_name: str = "paper",
    own_bleed: bool = False,
    trim_margin: float | None = None,
) -> SheetPlan:
    """Lay out as many ``item``-sized trim boxes as fit on ``paper``, centred.

    The whole printed area (trim block plus bleed all round) stays at least
    ``min_margin`` from every paper edge, because home printers cannot print there,
    unless that costs a row or column (below). The default is 4 mm rather than 5 mm
    so that 63×88 mm poker cards with 3 mm bleed fit 3×3 on US Letter too (only 3×2
    with 5 mm), and bleed clipped by a printer's unprintable edge does no harm
    because bleed is cut away anyway.
    The grid is centred exactly so that mirroring it for duplex backs maps grid
    positions onto grid positions. Raises CardgenError if not even one item fits.

    Crop marks lie only in the paper margin, outside the block's bleed: each starts
    ``bleed + mark_gap`` beyond the block's outer trim edge and runs outward
    ``mark_length``, clipped to end ``EDGE_CLEARANCE`` (5 mm) from the paper edge,
    where home printers stop printing. A mark clipped below ``MIN_MARK`` (1 mm, or
    ``mark_length`` if that is smaller) is omitted rather than drawn as a useless dot:
    where the block comes closer than 6 mm plus its bleed to the edge the margin has
    no crop marks, and the ticks in the pieces' outer bleed show the cut lines.

    ``own_bleed`` forces the gutter layout whatever it costs: round tokens cannot share
    cut lines, so each keeps its own bleed ring and room for its cut guides.

    In a direction where keeping the bleed inside ``min_margin`` costs a row or column,
    a caller may keep only the trim ``trim_margin`` from the edges (:func:`count_along`):
    the outer bleed then runs into the printer's blank band, and the crop marks and ticks
    that would fall there are left out (the ticks along the other cut lines remain);
    ``trim_margin`` None (the default) keeps the bleed inside ``min_margin`` whatever it
    costs.
    """
    pw, ph = (float(v) for v in paper)
    w, h = (float(v) for v in item)
    bleed = float(bleed)
    what = f"{name} {fmt_mm(w)}×{fmt_mm(h)} mm (+{fmt_mm(bleed)} mm bleed)"
    if not (pw > 0 and ph > 0):
        raise CardgenError(f"{paper_name} size {fmt_mm(pw)}×{fmt_mm(ph)} mm must be positive")
    if pw > ph:
        raise CardgenError(
            f"{paper_name} {fmt_mm(pw)}×{fmt_mm(ph)} mm is landscape; only portrait paper "
            "is supported"
        )
    if not (w > 0 and h > 0):
        raise CardgenError(f"{name} size {fmt_mm(w)}×{fmt_mm(h)} mm must be positive")
    if not bleed >= 0:
        raise CardgenError(f"{name} bleed {fmt_mm(bleed)} mm must not be negative")
    if min_margin < 0 or mark_length < 0 or mark_gap < 0 or (trim_margin or 0.0) < 0:
        raise ValueError("min_margin, trim_margin, mark_length and mark_gap must not be negative")

    def counts(gutter: float) -> tuple[int, int]:
        return (count_along(pw, w, bleed, gutter, min_margin, trim_margin),
                count_along(ph, h, bleed, gutter, min_margin, trim_margin))

    gutter = 2 * bleed
    g_cols, g_rows = counts(gutter)
    b_cols, b_rows = counts(0.0)
    if (own_bleed or g_cols * g_rows >= b_cols * b_rows) and gutter >= _MIN_GUTTER:
        cols, rows = g_cols, g_rows
    else:
        cols, rows, gutter = b_cols, b_rows, 0.0
    if cols * rows == 0:
        raise CardgenError(
            f"{what} does not fit on {paper_name} with {fmt_mm(min_margin)} mm margins"
        )

    pitch_x, pitch_y = w + gutter, h + gutter
    block_w = cols * w + (cols - 1) * gutter  # trim extents of the block
    block_h = rows * h + (rows - 1) * gutter
    x0 = (pw - block_w) / 2
    y0 = (ph - block_h) / 2

    slots = tuple(
        Slot(index=r * cols + c, col=c, row=r, x=x0 + c * pitch_x, y=y0 + r * pitch_y)
        for r in range(rows)
        for c in range(cols)
    )

    # Same expressions as the slot positions so cut lines equal trim edges exactly.
    if gutter == 0:
        cut_xs = tuple(x0 + k * w for k in range(cols + 1))
        cut_ys = tuple(y0 + k * h for k in range(rows + 1))
    else:
        cut_xs = tuple(sorted(x0 + c * pitch_x + d for c in range(cols) for d in (0, w)))
        cut_ys = tuple(sorted(y0 + r * pitch_y + d for r in range(rows) for d in (0, h)))

    marks = crop_marks(
        (pw, ph), (x0, y0, x0 + block_w, y0 + block_h), cut_xs, cut_ys,
        bleed, mark_length, mark_gap,
    )
    return SheetPlan(
        paper=(pw, ph), item=(w, h), bleed=bleed, gutter=gutter, cols=cols, rows=rows,
        slots=slots, cut_xs=cut_xs, cut_ys=cut_ys, marks=marks,
    )


def compact(plan: SheetPlan, n_items: int) -> SheetPlan:
    """The plan for a one-sided sheet holding only ``n_items``: just the rows it
    needs, centred on the paper (a single sheet of 36 stickers should not hug
    the top edge). Two-sided sheets keep the full grid so backs stay aligned."""
    rows = max(1, math.ceil(n_items / plan.cols))
    if rows >= plan.rows:
        return plan
    w, h = plan.item
    pitch_y = h + plan.gutter
    old_top = min(s.y for s in plan.slots)
    new_top = (plan.paper[1] - (rows * h + (rows - 1) * plan.gutter)) / 2
    dy = new_top - old_top
    slots = tuple(Slot(s.index, s.col, s.row, s.x, s.y + dy, s.rotation) for s in plan.slots if s.row < rows)
    cut_ys = tuple(y + dy for y in plan.cut_ys if y <= old_top + (rows - 1) * pitch_y + h + _EPS)
    left, right = min(s.x for s in slots), max(s.x for s in slots) + w
    marks = crop_marks(plan.paper, (left, new_top, right, new_top + rows * pitch_y - plan.gutter), plan.cut_xs,
                        cut_ys, plan.bleed, 6.0, 1.0)
    return SheetPlan(paper=plan.paper, item=plan.item, bleed=plan.bleed, gutter=plan.gutter, cols=plan.cols,
                     rows=rows, slots=slots, cut_xs=plan.cut_xs, cut_ys=cut_ys, marks=marks)


def block_of(plan: SheetPlan, slots: Sequence[Slot]) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the trim boxes of ``slots``."""
    w, h = plan.item
    return (min(s.x for s in slots), min(s.y for s in slots),
            max(s.x + w for s in slots), max(s.y + h for s in slots))


def bleed_sides(plan: SheetPlan, slot: Slot, occupied: set[tuple[int, int]]) -> tuple[float, float, float, float]:
    """How much bleed the piece in ``slot`` may show on its left, top, right and bottom:
    all of it when pieces stand apart (a gutter); in a butted grid, none across a cut
    line it shares with a piece in an ``occupied`` (col, row), whose own art is there."""
    b = plan.bleed
    if plan.gutter > 0:
        return (b, b, b, b)
    return (0 if (slot.col - 1, slot.row) in occupied else b, 0 if (slot.col, slot.row - 1) in occupied else b,
            0 if (slot.col + 1, slot.row) in occupied else b, 0 if (slot.col, slot.row + 1) in occupied else b)


def marks_for(plan: SheetPlan, slots: tuple[Slot, ...], mark_length: float = 6.0,
              mark_gap: float = 1.0) -> tuple[Mark, ...]:
    """Crop marks for a partly filled sheet: only the cut lines of the occupied
    slots, around the block they form, so no mark points at an empty slot."""
    if not slots:
        return ()
    left, top, right, bottom = block_of(plan, slots)
    xs = tuple(x for x in plan.cut_xs if left - _EPS <= x <= right + _EPS)
    ys = tuple(y for y in plan.cut_ys if top - _EPS <= y <= bottom + _EPS)
    return crop_marks(plan.paper, (left, top, right, bottom), xs, ys, plan.bleed, mark_length, mark_gap)


def paginate(n_items: int, per_sheet: int) -> list[range]:
    """Item indices for each sheet, in order; the last sheet may be partly empty."""
    if per_sheet <= 0:
        raise ValueError("per_sheet must be positive")
    if n_items < 0:
        raise ValueError("n_items must not be negative")
    return [range(i, min(i + per_sheet, n_items)) for i in range(0, n_items, per_sheet)]


def paginate_rows(groups: list[int], cols: int, rows: int) -> list[list[tuple[int, int]]]:
    """Item indices and the slots they take, sheet by sheet, when each group of items
    starts a row of its own (a deck's ``new_row_per``: e.g. each colour of tokens on
    rows of its own, so that the cut pieces need no sorting).

    ``groups`` are the sizes of consecutive runs of items (item 0 … groups[0] - 1 is
    the first). A group longer than a row fills whole rows and goes on in the next;
    a group that does not fit the rows left on a sheet starts the next sheet, unless
    it fills more than a whole sheet anyway (then it flows from sheet to sheet).
    Returns, per sheet, ``(item index, slot index)`` pairs with slots counted row by
    row as in :class:`SheetPlan` (row-major, ``cols`` a row)."""
    if cols <= 0 or rows <= 0:
        raise ValueError("cols and rows must be positive")
    if any(n < 0 for n in groups):
        raise ValueError("group sizes must not be negative")
    sheets: list[list[tuple[int, int]]] = []
    row = rows  # the next free row on the current sheet (rows: none left, start a sheet)
    item = 0
    for n in groups:
        if n == 0:
            continue
        need = math.ceil(n / cols)
        if row >= rows or (need > rows - row and need <= rows):
            sheets.append([])
            row = 0
        for k in range(n):
            if k and k % cols == 0:
                row += 1
                if row >= rows:
                    sheets.append([])
                    row = 0
            sheets[-1].append((item, row * cols + k % cols))
            item += 1
        row += 1
    return sheets
