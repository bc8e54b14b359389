"""Drawing a board's pages: its piece of the full-size drawing, the glue strip, crop
marks, alignment half-diamonds and an assembly label with a small map of the pieces.

The board is drawn once per file as a form (like a card face) and each page shows
its piece of it through a clip, so every page shows exactly the same art at a seam.
The geometry comes from ``tiling``; this module only draws it.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from ..base.units import PT_PER_MM
from ..impose.marks import crop_marks
from ..impose.outlines import RectOutline
from ..impose.tiling import Tile, TilePlan, alignment_marks, column_letter, cut_lines, to_frame
from ..layout.fonts import FontBook
from ..model.components import Board
from ..render.faces import Face
from . import canvas as pdfout
from .painter import Painter

INK = (0.11, 0.11, 0.14)
GREY = (0.35, 0.35, 0.35)
HALF_DIAMOND = 2.4  # mm from the seam to the tip


def _board_form(forms: pdfout.FormCache, painter: Painter, comp: Board, face: Face) -> str:
    w, h = comp.size
    b = comp.bleed

    def draw() -> None:
        painter.reset()
        painter.draw(face.ops)

    return forms.form("board\n" + face.key, (-b, -b, w + b, h + b), draw)


def draw_board_page(c: Canvas, forms: pdfout.FormCache, painter: Painter, book: FontBook, font: str, bold: str,
                    comp: Board, face: Face, plan: TilePlan, tile: Tile, label: str) -> None:
    """One page of a tiled board, drawn in the page's millimetre y-down space."""
    if plan.rotated:  # the piece lies across the portrait page: frame x runs down the page
        c.translate(plan.paper[0], 0)
        c.rotate(90)
    fw, fh = plan.frame
    ox, oy = to_frame(plan, tile, tile.x0, tile.y0)
    pw, ph = tile.size
    form = _board_form(forms, painter, comp, face)
    pdfout.place(c, form, ox - tile.x0, oy - tile.y0, comp.size[0], comp.size[1], 0,
                 RectOutline.spanning(ox, oy, ox + pw, oy + ph))
    _glue_strips(c, book, bold, plan, tile)
    for d in alignment_marks(plan, tile):
        _half_diamond(c, d.x, d.y, d.point)
    xs, ys = cut_lines(plan, tile)
    pdfout.draw_marks(c, crop_marks((fw, fh), (ox, oy, ox + pw, oy + ph), xs, ys, 0.0, 6.0, 1.0))
    _map(c, book, bold, plan, tile, fw / 2, oy)
    _label(c, book, font, label, fw, fh, oy + ph)


def write_board_fullsize(c: Canvas, painter: Painter, comp: Board, face: Face) -> None:
    """The whole board on one page of its own size (trim + bleed), TrimBox and BleedBox set."""
    w, h = comp.size
    b = comp.bleed
    pw, ph = w + 2 * b, h + 2 * b
    c.setTrimBox(tuple(v * PT_PER_MM for v in (b, b, b + w, b + h)))
    c.setArtBox(tuple(v * PT_PER_MM for v in (b, b, b + w, b + h)))  # = TrimBox, not the CropBox a tool assumes
    c.setBleedBox(tuple(v * PT_PER_MM for v in (0, 0, pw, ph)))
    with pdfout.page(c, ph):
        c.translate(b, b)
        painter.reset()
        painter.draw(face.ops)


def _text(c: Canvas, book: FontBook, font: str, size_pt: float, x: float, baseline: float, text: str,
          align: str = "center", colour=GREY) -> None:
    c.saveState()
    c.setFillColorRGB(*colour)
    c.translate(x, baseline)
    c.scale(1, -1)
    c.setFont(book.register(font), size_pt / PT_PER_MM)
    {"center": c.drawCentredString, "left": c.drawString, "right": c.drawRightString}[align](0, 0, text)
    c.restoreState()


def _glue_strips(c: Canvas, book: FontBook, bold: str, plan: TilePlan, tile: Tile) -> None:
    """The strip the next piece is glued on: washed out, its seam dashed, the next
    piece's code in the middle."""
    strips = []
    if tile.col < plan.cols - 1:
        nxt = f"{column_letter(tile.col + 1)}{tile.row + 1}"
        strips.append((to_frame(plan, tile, tile.vx1, tile.y0), to_frame(plan, tile, tile.x1, tile.vy1), nxt, "v"))
    if tile.row < plan.rows - 1:
        nxt = f"{column_letter(tile.col)}{tile.row + 2}"
        strips.append((to_frame(plan, tile, tile.x0, tile.vy1), to_frame(plan, tile, tile.vx1, tile.y1), nxt, "h"))
    for (x0, y0), (x1, y1), code, way in strips:
        c.saveState()
        c.setFillColorRGB(1, 1, 1)
        c.setFillAlpha(0.55)
        c.rect(x0, y0, x1 - x0, y1 - y0, stroke=0, fill=1)
        c.restoreState()
        c.saveState()
        c.setStrokeColorRGB(*INK)
        c.setLineWidth(0.3)
        c.setDash([1.6, 1.0])
        if way == "v":
            c.line(x0, y0, x0, y1)
        else:
            c.line(x0, y0, x1, y0)
        c.restoreState()
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for k in (-1, 1) if max(x1 - x0, y1 - y0) > 120 else (0,):
            px, py = (cx, cy + k * (y1 - y0) / 4) if way == "v" else (cx + k * (x1 - x0) / 4, cy)
            c.saveState()
            c.setFillColorRGB(1, 1, 1)
            c.setStrokeColorRGB(*INK)
            c.setLineWidth(0.25)
            c.roundRect(px - 4.2, py - 3.0, 8.4, 6.0, 1.2, stroke=1, fill=1)
            c.restoreState()
            _text(c, book, bold, 9, px, py + 1.15, code, colour=INK)


def _half_diamond(c: Canvas, x: float, y: float, point: str) -> None:
    d = HALF_DIAMOND
    tip = {"left": (x - d, y), "right": (x + d, y), "up": (x, y - d), "down": (x, y + d)}[point]
    side = ((x, y - d), (x, y + d)) if point in ("left", "right") else ((x - d, y), (x + d, y))
    c.saveState()
    c.setFillColorRGB(*INK)
    c.setStrokeColorRGB(1, 1, 1)
    c.setLineWidth(0.25)
    p = c.beginPath()
    p.moveTo(*side[0])
    p.lineTo(*tip)
    p.lineTo(*side[1])
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    c.restoreState()


def _map(c: Canvas, book: FontBook, bold: str, plan: TilePlan, tile: Tile, cx: float, top: float) -> None:
    """A small map of all the pieces above the piece, this one filled, with its code."""
    cell_w, cell_h = 5.0, 5.0 * plan.tiles[0].size[1] / plan.tiles[0].size[0]
    if cell_h > 5.0:
        cell_w, cell_h = cell_w * 5.0 / cell_h, 5.0
    room = top - 1.5
    scale = min(1.0, max(room - 1.0, 2.0) / (plan.rows * cell_h))
    cell_w, cell_h = cell_w * scale, cell_h * scale
    gh = plan.rows * cell_h
    x0 = cx + 3
    y0 = max(top - 1.5 - gh, 0.8)
    c.saveState()
    c.setLineWidth(0.2)
    c.setStrokeColorRGB(*GREY)
    for t in plan.tiles:
        if t.index == tile.index:
            c.setFillColorRGB(*INK)
        else:
            c.setFillColorRGB(1, 1, 1)
        c.rect(x0 + t.col * cell_w, y0 + t.row * cell_h, cell_w, cell_h, stroke=1, fill=1)
    c.restoreState()
    _text(c, book, bold, 12, cx - 2, y0 + gh / 2 + 1.6, tile.label, align="right", colour=INK)


def _label(c: Canvas, book: FontBook, font: str, text: str, fw: float, fh: float, bottom: float) -> None:
    room = fh - bottom
    size = 6.0
    while len(text) > 1 and book.string_width_mm(font, text, size) > fw - 30:
        text = text[:-2].rstrip() + "…"
    _text(c, book, font, size, fw / 2, bottom + min(room / 2, 5.0) + 1.0, text)
