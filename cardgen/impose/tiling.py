"""Tiling a board larger than the paper: which part of the board each page prints,
where the seams are, and where the cut lines and alignment marks go.

Pure arithmetic like ``impose``: millimetres, origin at the board's trim top-left,
y down; no drawing. The board (trim ``w × h`` plus ``bleed`` all round) is cut into
``cols × rows`` equal pieces. Each piece is what one page prints; neighbours share
``overlap`` mm: the piece on the left (or above) carries a glue strip that the next
piece, cut along its edge, is laid on. So the *visible* parts of the pieces
partition the board exactly, and every seam has the same art on both sides of it.

A page may hold its piece upright (portrait frame) or turned a quarter (landscape
frame on the portrait page): whichever needs fewer pages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..base.errors import CardgenError

_EPS = 1e-9


@dataclass(frozen=True)
class Tile:
    """One page's piece of the board (board coordinates, mm)."""

    col: int
    row: int
    index: int  # 0-based, row by row: the order to print and assemble
    label: str  # "A1": column letter, row number
    x0: float  # the region this page prints, glue strips included
    y0: float
    x1: float
    y1: float
    vx1: float  # where its visible part ends (the next piece's edge); == x1 without a right neighbour
    vy1: float

    @property
    def size(self) -> tuple[float, float]:
        return (self.x1 - self.x0, self.y1 - self.y0)


@dataclass(frozen=True)
class TilePlan:
    """How a board is spread over pages of one paper."""

    paper: tuple[float, float]  # portrait paper, mm
    rotated: bool  # the piece is turned a quarter on the page (landscape frame)
    frame: tuple[float, float]  # the page as the piece sees it (w, h): landscape when rotated
    board: tuple[float, float]
    bleed: float
    overlap: float
    margin: float
    cols: int
    rows: int
    tiles: tuple[Tile, ...]
    seams_x: tuple[float, ...]  # board x of each vertical seam (the left edge of a right-hand piece)
    seams_y: tuple[float, ...]
    origin: tuple[float, float]  # where a piece's region top-left sits in the frame

    @property
    def pages(self) -> int:
        return len(self.tiles)

    def tile_label(self, tile: Tile, of: str = "of") -> str:
        """``B2 of 4×2``; ``of`` in the kit's language."""
        return f"{tile.label} {of} {self.cols}×{self.rows}"


def column_letter(col: int) -> str:
    """A, B, … Z, AA, AB … (spreadsheet style), so labels never run out."""
    out = ""
    col += 1
    while col:
        col, r = divmod(col - 1, 26)
        out = chr(ord("A") + r) + out
    return out


def _split(total: float, avail: float, overlap: float) -> tuple[int, float, float]:
    """(pieces, visible length of each but the last, piece length) along one side."""
    if total <= avail + _EPS:
        return 1, total, total
    n = math.ceil((total - overlap - _EPS) / (avail - overlap))
    visible = (total - overlap) / n
    return n, visible, visible + overlap


def _axis(start: float, total: float, n: int, visible: float, overlap: float
          ) -> list[tuple[float, float, float]]:
    """(region start, visible end, region end) of each piece along one side."""
    out = []
    for k in range(n):
        a = start + k * visible
        if k == n - 1:
            out.append((a, start + total, start + total))
        else:
            out.append((a, a + visible, a + visible + overlap))
    return out


def plan_tiles(paper: tuple[float, float], board: tuple[float, float], bleed: float, overlap: float, *,
               margin: float = 10.0, name: str = "board", paper_name: str = "paper") -> TilePlan:
    """Spread a ``board`` (trim w × h, plus ``bleed``) over as few pages of ``paper`` as
    possible, each page keeping ``margin`` mm free for crop marks and its label.

    Neighbouring pieces overlap by ``overlap`` mm (the glue strip). Raises
    CardgenError when the printable part of a page is not larger than the overlap."""
    pw, ph = (float(v) for v in paper)
    w, h = (float(v) for v in board)
    tw, th = w + 2 * bleed, h + 2 * bleed
    best = None
    for rotated in (False, True):
        fw, fh = (ph, pw) if rotated else (pw, ph)
        aw, ah = fw - 2 * margin, fh - 2 * margin
        if aw <= overlap + 1 or ah <= overlap + 1:
            continue
        cols, vis_x, piece_w = _split(tw, aw, overlap)
        rows, vis_y, piece_h = _split(th, ah, overlap)
        # fewer pages first; then the frame whose shape matches the board's
        key = (cols * rows, 0 if (fw >= fh) == (w >= h) else 1)
        if best is None or key < best[0]:
            best = (key, rotated, (fw, fh), cols, rows, vis_x, vis_y, piece_w, piece_h)
    if best is None:
        raise CardgenError(f"{name}: {paper_name} leaves no room for a piece wider than the {overlap:g} mm overlap"
                           f" inside {margin:g} mm margins")
    _, rotated, frame, cols, rows, vis_x, vis_y, piece_w, piece_h = best
    xs = _axis(-bleed, tw, cols, vis_x, overlap)
    ys = _axis(-bleed, th, rows, vis_y, overlap)
    tiles = tuple(
        Tile(col=c, row=r, index=r * cols + c, label=f"{column_letter(c)}{r + 1}",
             x0=xs[c][0], y0=ys[r][0], x1=xs[c][2], y1=ys[r][2], vx1=xs[c][1], vy1=ys[r][1])
        for r in range(rows) for c in range(cols)
    )
    origin = ((frame[0] - piece_w) / 2, (frame[1] - piece_h) / 2)
    return TilePlan(paper=(pw, ph), rotated=rotated, frame=frame, board=(w, h), bleed=float(bleed),
                    overlap=float(overlap), margin=float(margin), cols=cols, rows=rows, tiles=tiles,
                    seams_x=tuple(x[0] for x in xs[1:]), seams_y=tuple(y[0] for y in ys[1:]), origin=origin)


@dataclass(frozen=True)
class Diamond:
    """Half of an alignment diamond: its straight side lies on a seam at (x, y) (frame mm);
    ``point`` says where its tip points (left, right, up, down). The two pages of a
    seam carry the two halves, which make one diamond when the pieces are aligned."""

    x: float
    y: float
    point: str


def to_frame(plan: TilePlan, tile: Tile, x: float, y: float) -> tuple[float, float]:
    """A board point → the frame (page as the piece sees it) of ``tile``."""
    return (plan.origin[0] + x - tile.x0, plan.origin[1] + y - tile.y0)


def cut_lines(plan: TilePlan, tile: Tile) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The frame x of each vertical and the frame y of each horizontal line along which
    this page is cut: the board's trim on its outer edges, the piece's own edge inside."""
    w, h = plan.board
    left = 0.0 if tile.col == 0 else tile.x0
    right = w if tile.col == plan.cols - 1 else tile.x1
    top = 0.0 if tile.row == 0 else tile.y0
    bottom = h if tile.row == plan.rows - 1 else tile.y1
    xs = (to_frame(plan, tile, left, 0)[0], to_frame(plan, tile, right, 0)[0])
    ys = (to_frame(plan, tile, 0, top)[1], to_frame(plan, tile, 0, bottom)[1])
    return xs, ys


def alignment_marks(plan: TilePlan, tile: Tile, spacing: float = 70.0) -> tuple[Diamond, ...]:
    """The half-diamonds this page carries on its seams: on the seam inside its glue
    strip side (tip pointing away from the neighbour, on its own visible art) and on
    its cut edge (tip pointing into the piece). Positions along a seam are the same
    for both pages, spread every ``spacing`` mm over the part of the seam they share."""
    w, h = plan.board
    marks: list[Diamond] = []

    def along(lo: float, hi: float) -> list[float]:
        lo, hi = lo + 8, hi - 8  # clear of the corners, where other seams cross
        if hi - lo < 4:
            return [(lo + hi) / 2]
        n = max(2, math.ceil((hi - lo) / spacing) + 1)
        return [lo + (hi - lo) * k / (n - 1) for k in range(n)]

    # vertical seams: shared y span is this row's visible span
    y_lo, y_hi = max(tile.y0, 0.0), min(tile.vy1, h)
    x_lo, x_hi = max(tile.x0, 0.0), min(tile.vx1, w)
    if tile.col < plan.cols - 1:  # right seam: the next piece's edge lies at vx1
        for y in along(y_lo, y_hi):
            marks.append(Diamond(*to_frame(plan, tile, tile.vx1, y), "left"))
    if tile.col > 0:
        for y in along(y_lo, y_hi):
            marks.append(Diamond(*to_frame(plan, tile, tile.x0, y), "right"))
    if tile.row < plan.rows - 1:
        for x in along(x_lo, x_hi):
            marks.append(Diamond(*to_frame(plan, tile, x, tile.vy1), "up"))
    if tile.row > 0:
        for x in along(x_lo, x_hi):
            marks.append(Diamond(*to_frame(plan, tile, x, tile.y0), "down"))
    return tuple(marks)
