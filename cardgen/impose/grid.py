"""Imposition geometry: where each card goes on a sheet, where to cut, where backs go.

Pure arithmetic, no drawing and no I/O, so it can be tested exhaustively. Every value
is in millimetres with the origin at the TOP-LEFT of the paper and y growing downward;
the drawing module converts to PDF points (origin bottom-left) later. Portrait paper
only, because the duplex rules below (long edge mirrors columns, short edge mirrors
rows) are stated for portrait sheets.

Two layouts are considered:

* gutter: items sit ``2 * bleed`` apart, so each keeps its own full bleed and can be
  cut cleanly on both of its own trim lines (more cuts, fewer items);
* butted: items touch, neighbours share cut lines and bleed exists only around the
  outside of the block (fewer cuts, more items, but a mis-cut shows the neighbour).

The gutter layout is chosen whenever it fits at least as many items as the butted one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from cardgen.errors import CardgenError

EDGE_CLEARANCE = 0.5
"""Crop marks stop this far from the paper edge (mm)."""

MIN_MARK = 1.0
"""A crop mark shorter than this (mm) is useless to a cutter, so it is omitted."""

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
class Mark:
    """One crop-mark hairline segment; (x1, y1) is the end nearer the block."""

    x1: float
    y1: float
    x2: float
    y2: float


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


def _fmt(v: float) -> str:
    """Millimetres as a user would write them: 63, 63.5, 3.175."""
    return f"{v:g}"


def _count(avail: float, item: float, bleed: float, gutter: float) -> int:
    """How many items fit in one dimension of ``avail`` printable millimetres.

    The printed extent of n items is n*item + (n-1)*gutter + 2*bleed.
    """
    room = avail - 2 * bleed + gutter
    return max(0, math.floor((room + _EPS) / (item + gutter)))


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
) -> SheetPlan:
    """Lay out as many ``item``-sized trim boxes as fit on ``paper``, centred.

    The whole printed area (trim block plus bleed all round) stays at least
    ``min_margin`` from every paper edge, because home printers cannot print there.
    The default is 4 mm rather than 5 mm so that 63×88 mm poker cards with 3 mm bleed
    fit 3×3 on US Letter too (only 3×2 with 5 mm), and bleed clipped by a printer's
    unprintable edge does no harm because bleed is cut away anyway.
    The grid is centred exactly so that mirroring it for duplex backs maps grid
    positions onto grid positions. Raises CardgenError if not even one item fits.

    Crop marks lie only in the paper margin, outside the block's bleed: each starts
    ``bleed + mark_gap`` beyond the block's outer trim edge and runs outward
    ``mark_length``, clipped to end ``EDGE_CLEARANCE`` (0.5 mm) from the paper edge.
    A mark clipped below ``MIN_MARK`` (1 mm, or ``mark_length`` if that is smaller)
    is omitted rather than drawn as a useless dot; with the default 4 mm margin and
    1 mm gap every mark keeps at least 2.5 mm (4 - 1 - 0.5).

    ``own_bleed`` forces the gutter layout whatever it costs: round tokens cannot share
    cut lines, so each keeps its own bleed ring and room for its cut guides.
    """
    pw, ph = (float(v) for v in paper)
    w, h = (float(v) for v in item)
    bleed = float(bleed)
    what = f"{name} {_fmt(w)}×{_fmt(h)} mm (+{_fmt(bleed)} mm bleed)"
    if not (pw > 0 and ph > 0):
        raise CardgenError(f"{paper_name} size {_fmt(pw)}×{_fmt(ph)} mm must be positive")
    if pw > ph:
        raise CardgenError(
            f"{paper_name} {_fmt(pw)}×{_fmt(ph)} mm is landscape; only portrait paper "
            "is supported"
        )
    if not (w > 0 and h > 0):
        raise CardgenError(f"{name} size {_fmt(w)}×{_fmt(h)} mm must be positive")
    if not bleed >= 0:
        raise CardgenError(f"{name} bleed {_fmt(bleed)} mm must not be negative")
    if min_margin < 0 or mark_length < 0 or mark_gap < 0:
        raise ValueError("min_margin, mark_length and mark_gap must not be negative")

    avail_w = pw - 2 * min_margin
    avail_h = ph - 2 * min_margin

    gutter = 2 * bleed
    g_cols, g_rows = _count(avail_w, w, bleed, gutter), _count(avail_h, h, bleed, gutter)
    b_cols, b_rows = _count(avail_w, w, bleed, 0.0), _count(avail_h, h, bleed, 0.0)
    if (own_bleed or g_cols * g_rows >= b_cols * b_rows) and gutter >= _MIN_GUTTER:
        cols, rows = g_cols, g_rows
    else:
        cols, rows, gutter = b_cols, b_rows, 0.0
    if cols * rows == 0:
        raise CardgenError(
            f"{what} does not fit on {paper_name} with {_fmt(min_margin)} mm margins"
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

    marks = _crop_marks(
        (pw, ph), (x0, y0, x0 + block_w, y0 + block_h), cut_xs, cut_ys,
        bleed, mark_length, mark_gap,
    )
    return SheetPlan(
        paper=(pw, ph), item=(w, h), bleed=bleed, gutter=gutter, cols=cols, rows=rows,
        slots=slots, cut_xs=cut_xs, cut_ys=cut_ys, marks=marks,
    )


def _crop_marks(
    paper: tuple[float, float],
    block: tuple[float, float, float, float],
    cut_xs: tuple[float, ...],
    cut_ys: tuple[float, ...],
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

    marks: list[Mark] = []
    for x in cut_xs:
        for start, sign in ((top - off, -1), (bottom + off, 1)):
            s = seg(start, sign, ph)
            if s:
                marks.append(Mark(x, s[0], x, s[1]))
    for y in cut_ys:
        for start, sign in ((left - off, -1), (right + off, 1)):
            s = seg(start, sign, pw)
            if s:
                marks.append(Mark(s[0], y, s[1], y))
    return tuple(marks)


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
    marks = _crop_marks(plan.paper, (left, new_top, right, new_top + rows * pitch_y - plan.gutter), plan.cut_xs,
                        cut_ys, plan.bleed, 6.0, 1.0)
    return SheetPlan(paper=plan.paper, item=plan.item, bleed=plan.bleed, gutter=plan.gutter, cols=plan.cols,
                     rows=rows, slots=slots, cut_xs=plan.cut_xs, cut_ys=cut_ys, marks=marks)


def block_of(plan: SheetPlan, slots: Sequence[Slot]) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the trim boxes of ``slots``."""
    w, h = plan.item
    return (min(s.x for s in slots), min(s.y for s in slots),
            max(s.x + w for s in slots), max(s.y + h for s in slots))


def marks_for(plan: SheetPlan, slots: tuple[Slot, ...], mark_length: float = 6.0,
              mark_gap: float = 1.0) -> tuple[Mark, ...]:
    """Crop marks for a partly filled sheet: only the cut lines of the occupied
    slots, around the block they form, so no mark points at an empty slot."""
    if not slots:
        return ()
    left, top, right, bottom = block_of(plan, slots)
    xs = tuple(x for x in plan.cut_xs if left - _EPS <= x <= right + _EPS)
    ys = tuple(y for y in plan.cut_ys if top - _EPS <= y <= bottom + _EPS)
    return _crop_marks(plan.paper, (left, top, right, bottom), xs, ys, plan.bleed, mark_length, mark_gap)


TICK_INSET = 0.4
"""A bleed tick stops this far inside the bleed's outer edge (mm)."""

TICK_CLEAR = 0.75
"""... and this far from the trim (mm), so that a cut that far off still shows none of it."""


def bleed_ticks(plan: SheetPlan, slots: tuple[Slot, ...]) -> tuple[Mark, ...]:
    """Short marks on the cut lines, inside the outer bleed of the pieces on a sheet.

    The crop marks in the paper margin may fall where a home printer cannot print: the
    block comes as close as 4 mm to the edge (3×3 poker cards on Letter), and most
    printers leave 3–5 mm blank. The bleed around the pieces is printed and then cut
    away, so a tick there on each cut line's extension shows where to cut without ever
    reaching a finished piece. A piece gets ticks in the bleed of each side that has no
    piece beside it (across a shared cut line, a gutter or a fold), at both ends of that
    side, so a partly filled sheet's pieces get them along their own outline, not on
    blank paper; a tick that would come within ``TICK_CLEAR`` of a piece is left out."""
    b = plan.bleed
    if not slots or b - TICK_INSET - TICK_CLEAR < MIN_MARK:
        return ()
    w, h = plan.item
    reach = 2 * b + _EPS  # a piece this close (butted, across a gutter or a fold) is a neighbour

    def beside(s: Slot, dx: int, dy: int) -> bool:
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
                    min_margin: float = 4.0, mark_length: float = 6.0, mark_gap: float = 1.0,
                    name: str = "item", paper_name: str = "paper") -> FoldPlan:
    """Fronts and mirrored backs on one side of a landscape sheet, folded down the middle.

    Each half holds a butted grid flush against the fold, with one bleed on each side of
    the fold line so the fronts' and backs' bleeds meet exactly at the fold."""
    pw, ph = max(paper), min(paper)
    w, h = float(item[0]), float(item[1])
    fold = pw / 2
    cols = max(0, math.floor((fold - bleed - min_margin - bleed + _EPS) / w))
    rows = _count(ph - 2 * min_margin, h, bleed, 0.0)
    if cols * rows == 0:
        raise CardgenError(
            f"{name} {_fmt(w)}×{_fmt(h)} mm (+{_fmt(bleed)} mm bleed) does not fit half a {paper_name} sheet "
            f"for gutterfold with {_fmt(min_margin)} mm margins"
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
    marks = _crop_marks((pw, ph), block, cut_xs, cut_ys, bleed, mark_length, mark_gap)
    fold_marks = tuple(
        Mark(fold, y1, fold, y2)
        for y1, y2 in ((max(EDGE_CLEARANCE, y0 - bleed - mark_gap - mark_length), y0 - bleed - mark_gap),
                       (y0 + rows * h + bleed + mark_gap, min(ph - EDGE_CLEARANCE, y0 + rows * h + bleed + mark_gap + mark_length)))
        if y2 - y1 >= MIN_MARK
    )
    plan = SheetPlan(paper=(pw, ph), item=(w, h), bleed=bleed, gutter=0.0, cols=cols, rows=rows, slots=fronts,
                     cut_xs=cut_xs, cut_ys=cut_ys, marks=marks)
    return FoldPlan(plan=plan, backs=backs, fold_x=fold, fold_marks=fold_marks)


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


TICK_GAP = 0.5
"""Circle-guide ticks start this far (mm) outside a round piece's bleed ring."""

TICK_LENGTH = 2.5
"""How long (mm) a circle-guide tick is, at most."""


@dataclass(frozen=True)
class CircleGuide:
    """The cut guide of one round piece: the trim circle and four ticks pointing at
    its centre from the corners of its cell (outside the bleed ring, so never over the
    art), for a circle punch or for checking a scissors cut."""

    cx: float
    cy: float
    r: float  # the trim circle
    ticks: tuple[Mark, ...]  # (x1, y1) is the end nearer the piece


def circle_guides(slots: tuple[Slot, ...], item: tuple[float, float], bleed: float) -> tuple[CircleGuide, ...]:
    """Cut guides for round pieces placed in ``slots``: the trim circle (diameter
    ``item[0]``) and four diagonal ticks in the corners of each piece's cell.

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
        ticks = ()
        if end - start + _EPS >= MIN_MARK:
            d = math.sqrt(0.5)
            ticks = tuple(Mark(cx + sx * start * d, cy + sy * start * d, cx + sx * end * d, cy + sy * end * d)
                          for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)))
        out.append(CircleGuide(cx, cy, r, ticks))
    return tuple(out)
