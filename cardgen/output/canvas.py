"""PDF canvases set up the way every cardgen file needs them.

Reproducible (ReportLab's invariant mode, fixed metadata), no stray unembedded
Helvetica (the canvas gets a registered initial font), millimetre y-down drawing
helpers, faces drawn once as form XObjects and reused wherever they are placed,
and crop marks in the registration colour. What reaches into ReportLab's internals
is in ``reportlab_compat``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import PCMYKColorSep
from reportlab.lib.colors import white as WHITE
from reportlab.pdfbase.pdfdoc import PDFName
from reportlab.pdfgen.canvas import Canvas

from ..base.files import naming
from ..base.units import PT_PER_MM, mm_to_pt
from ..impose.marks import CutGuide, Mark, stroke_line
from ..impose.outlines import Outline, PathOutline
from ..impose.shapes import ProofLines
from .reportlab_compat import compress_page_now, end_form, prepare_reportlab

# Binary Flate streams: ASCII85 wrapping makes files 25 % larger and costs a
# third of the writing time, for 7-bit transports nobody uses any more.
rl_config.useA85 = 0

REGISTRATION = PCMYKColorSep(100, 100, 100, 100, spotName="All", density=100)
CUT_CONTOUR = PCMYKColorSep(0, 100, 0, 0, spotName="CutContour", density=100)
"""The spot colour print shops' cutters follow (the name their RIPs look for)."""
HAIRLINE_MM = 0.25 / PT_PER_MM  # 0.25 pt


class NamedCanvas(Canvas):
    """A canvas whose ``save`` names its file when the system refuses to write it (a
    full disk): ReportLab's write errors say only ``No space left on device``."""

    def save(self) -> None:
        with naming(self._filename):
            super().save()


def new_canvas(path: Path, page_mm: tuple[float, float], initial_font: str, title: str, duplex: str | None) -> Canvas:
    """A canvas with fixed metadata; ``duplex`` asks viewers for the right flip."""
    prepare_reportlab()
    c = NamedCanvas(
        str(path),
        pagesize=(mm_to_pt(page_mm[0]), mm_to_pt(page_mm[1])),
        invariant=1,
        pageCompression=1,
        initialFontName=initial_font,
        initialFontSize=8,
    )
    c.setTitle(title)
    c.setAuthor("cardgen")
    c.setCreator("cardgen")
    c.setSubject("print-and-play kit")
    c.setViewerPreference("PrintScaling", PDFName("None"))
    if duplex:
        mode = "DuplexFlipLongEdge" if duplex == "long" else "DuplexFlipShortEdge"
        c.setViewerPreference("Duplex", PDFName(mode))
    return c


@contextmanager
def page(c: Canvas, page_h_mm: float):
    """One page drawn in millimetre, y-down space; the page ends when the block does
    (so no transform leaks onto an empty trailing page)."""
    c.saveState()
    to_mm_space(c, page_h_mm)
    yield
    c.restoreState()
    c.showPage()
    compress_page_now(c._doc.Pages.pages[-1])


def to_mm_space(c: Canvas, page_h_mm: float) -> None:
    """Make user space millimetres with the origin at the page's top-left, y down."""
    c.translate(0, mm_to_pt(page_h_mm))
    c.scale(PT_PER_MM, -PT_PER_MM)


class FormCache:
    """Draw each distinct face once per file as a form XObject; place it many times."""

    def __init__(self, canvas: Canvas):
        self.c = canvas
        self.names: dict[str, str] = {}

    def form(self, key: str, bbox: tuple[float, float, float, float], draw: Callable[[], None]) -> str:
        name = self.names.get(key)
        if name is None:
            name = "F" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]
            # Forms are written in their own space: the bbox is in mm, y-down as drawn.
            self.c.beginForm(name, *bbox)
            draw()
            end_form(self.c, name)
            self.names[key] = name
        return name


def place(c: Canvas, form: str, x: float, y: float, w: float, h: float, rotation: int, clip: Outline) -> None:
    """Show a face form with its trim top-left at (x, y) mm, clipped to ``clip`` (page mm)."""
    c.saveState()
    p = c.beginPath()
    clip.trace(p)
    if isinstance(clip, PathOutline):
        c.clipPath(p, stroke=0, fill=0, fillMode=1 if clip.nonzero else 0)
    else:
        c.clipPath(p, stroke=0, fill=0)
    c.translate(x, y)
    if rotation == 180:
        c.translate(w, h)
        c.rotate(180)
    c.doForm(form)
    c.restoreState()


@contextmanager
def clipped(c: Canvas, clip: Outline | None):
    """What is drawn in the block shows only inside ``clip`` (page mm); None: everywhere."""
    if clip is None:
        yield
        return
    c.saveState()
    p = c.beginPath()
    clip.trace(p)
    c.clipPath(p, stroke=0, fill=0)
    yield
    c.restoreState()


def draw_ticks(c: Canvas, ticks: tuple[Mark, ...]) -> None:
    """Cut ticks inside the bleed: a hairline on a white underlay, so that it shows on
    dark art as on light."""
    if not ticks:
        return
    c.saveState()
    c.setLineCap(0)
    for colour, width in ((WHITE, HAIRLINE_MM * 4), (REGISTRATION, HAIRLINE_MM)):
        c.setStrokeColor(colour)
        c.setLineWidth(width)
        for m in ticks:
            c.line(*stroke_line(m, width))
    c.restoreState()


def draw_fold_marks(c: Canvas, marks: tuple[Mark, ...]) -> None:
    """Dashed hairlines on the fold line of a gutterfold sheet, in the margins."""
    c.saveState()
    c.setStrokeColor(REGISTRATION)
    c.setLineWidth(HAIRLINE_MM * 2)
    c.setDash([1.2, 0.8])
    for m in marks:
        c.line(*stroke_line(m, HAIRLINE_MM * 2))
    c.restoreState()


def draw_proof(c: Canvas, lines: ProofLines) -> None:
    """Designer's proof overlay: trim (red), bleed (dashed red) and safe zone (dashed blue),
    each in the piece's own outline (a canvas strokes what is traced on it)."""
    c.saveState()
    c.setLineWidth(HAIRLINE_MM)
    c.setStrokeColorRGB(0.9, 0.1, 0.2)
    stroke_outline(c, lines.trim)
    c.setDash([1.0, 0.7])
    stroke_outline(c, lines.bleed)
    c.setStrokeColorRGB(0.1, 0.4, 0.9)
    stroke_outline(c, lines.safe)
    c.restoreState()


def stroke_outline(c: Canvas, outline: Outline) -> None:
    """Stroke an outline: rectangles and circles on the canvas itself, paths through a
    path object (a canvas has no moveTo)."""
    if isinstance(outline, PathOutline):
        p = c.beginPath()
        outline.trace(p)
        c.drawPath(p, stroke=1, fill=0)
    else:
        outline.trace(c)


def draw_cut_contour(c: Canvas, outline: Outline) -> None:
    """The die line of a print-shop page: the trim outline stroked in the CutContour spot
    colour, overprinting, so a shop's cutter finds it and its ink never shows."""
    c.saveState()
    c.setStrokeColor(CUT_CONTOUR)
    c.setStrokeOverprint(True)
    c.setLineWidth(HAIRLINE_MM)
    stroke_outline(c, outline)
    c.restoreState()


def draw_cut_guides(c: Canvas, guides: tuple[CutGuide, ...]) -> None:
    """Traced cut guides (round pieces' trim circles): each outline as a registration
    hairline over a thin white halo (so it shows on dark art as on light), and its ticks."""
    if not guides:
        return
    c.saveState()
    c.setStrokeColorRGB(1, 1, 1)
    c.setLineWidth(HAIRLINE_MM * 3)
    for g in guides:
        stroke_outline(c, g.outline)
    c.setStrokeColor(REGISTRATION)
    c.setLineWidth(HAIRLINE_MM)
    for g in guides:
        stroke_outline(c, g.outline)
        for m in g.ticks:
            c.line(*stroke_line(m, HAIRLINE_MM))
    c.restoreState()


def draw_marks(c: Canvas, marks: tuple[Mark, ...]) -> None:
    c.saveState()
    c.setStrokeColor(REGISTRATION)
    c.setLineWidth(HAIRLINE_MM)
    for m in marks:
        c.line(*stroke_line(m, HAIRLINE_MM))
    c.restoreState()


def draw_aligned(c: Canvas, s: str, align: str) -> None:
    """One line of text at the origin: its left end (``left``), middle (``center``) or
    right end (``right``) there, through ReportLab's three calls."""
    if align == "center":
        c.drawCentredString(0, 0, s)
    elif align == "right":
        c.drawRightString(0, 0, s)
    else:
        c.drawString(0, 0, s)
