"""The duplex calibration sheet: measure how far a printer shifts the back of a sheet.

Page 1 (front) carries two long reference lines, a fine grid with a crosshair, long
"slant check" lines near the left and right edges, and the instructions. Page 2
(back) carries two ladders of short marks, one measuring X and one measuring Y. Each
mark is labelled with an offset ``d`` (−3.0 … +3.0 mm in 0.5 mm steps), and is printed
exactly where the ladder's 0 mark would land if the back page were moved by ``d``.
Printed duplex and held to the light, the mark that sits on the front's line is
therefore the move that puts backs onto their fronts.

Sign convention (shared with the build's ``back-offset``): a back offset ``(X, Y)``
translates every back page's content by ``+X`` mm along the back page's own x axis
(to the right) and ``+Y`` mm along its own y axis (down), "own" meaning the page as
the PDF shows it (page 2, origin top-left, y down — the mm space of
:func:`cardgen.output.canvas.page`). In that space, the X mark labelled ``d`` sits at
``x0 + d`` and the Y mark labelled ``d`` at ``y0 + d``, where ``(x0, y0)`` is the
point behind the front's reference line.

The back page is mirrored for the flip exactly as cardgen mirrors card backs
(:func:`cardgen.impose.duplex.back_slots`): for a long-edge flip the back point behind front
``(x, y)`` is ``(paper_w − x, y)``; for a short-edge flip it is ``(x, paper_h − y)``,
and the back's drawing is turned 180° (it is the long-edge back page, rotated about
the page centre — just as short-edge card backs are the long-edge ones turned), so
the back reads upright when the sheet is turned over left to right.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import black
from reportlab.pdfgen.canvas import Canvas

from ..base.errors import CardgenError, Where, display_path
from ..base.files import replacing
from ..base.paths import shipped_fonts_dir
from ..base.units import PT_PER_MM
from ..impose.papers import PAPER_NAMES, PAPERS_MM
from ..layout.fonts import FontBook
from ..layout.textfit import wrap
from ..output import canvas as pdfout
from .text import TEXT

REGULAR = "NotoSans-Regular"
BOLD = "NotoSans-Bold"
MIN_FONT_PT = 7.0  # cardgen's floor is 6 pt; a sheet for a non-technical reader stays above it

STEP_MM = 0.5
STEPS: tuple[float, ...] = tuple(round(-3.0 + STEP_MM * k, 1) for k in range(13))
"""The offsets of the ladder marks, mm."""

EDGE_INSET = 10.0  # slant-check lines: this far from the left and right paper edges
EDGE_MARGIN_Y = 14.0  # … and running from here to the paper height minus this
REF_WIDTH = 0.35  # mm: the front's reference lines, bold so they shine through paper
RUNG_WIDTH = 0.25  # mm: the back's marks
RUNG_LENGTH = 4.4
ZERO_RUNG_LENGTH = 6.4
X_ROW_PITCH = 6.0
Y_COL_PITCH = 7.2
X_SHIFT = 46.0  # the X reference line sits this far left of the page's centre line (front)
Y_SHIFT = 40.0  # the Y ladder's centre sits this far right of it (front)


@dataclass(frozen=True)
class Rung:
    """One ladder mark: the offset it stands for and its centre on the BACK page (mm, y down)."""

    offset: float
    x: float
    y: float


@dataclass(frozen=True)
class CalibrationGeometry:
    """Where everything measurable is. Front items in front-page mm, rungs in back-page mm
    (both origin top-left, y down, as the PDF pages show)."""

    paper: tuple[float, float]
    duplex: str
    x_reference: float  # front x of the upright X reference line …
    x_reference_span: tuple[float, float]  # … and its top and bottom y
    y_reference: float  # front y of the flat Y reference line …
    y_reference_span: tuple[float, float]  # … and its left and right x
    x_rungs: tuple[Rung, ...]  # upright marks, RUNG_LENGTH tall (ZERO_RUNG_LENGTH for 0)
    y_rungs: tuple[Rung, ...]  # flat marks, RUNG_LENGTH wide (ZERO_RUNG_LENGTH for 0)
    target: tuple[float, float]  # front centre of the grid / crosshair
    edge_lines: tuple[float, float]  # front x of the two slant-check lines

    def rung(self, axis: str, offset: float) -> Rung:
        rungs = self.x_rungs if axis == "x" else self.y_rungs
        return next(r for r in rungs if abs(r.offset - offset) < 1e-9)


def back_point(x: float, y: float, paper: tuple[float, float], duplex: str) -> tuple[float, float]:
    """The back-page point physically behind front point ``(x, y)`` (and vice versa)."""
    pw, ph = paper
    if duplex == "long":
        return pw - x, y
    if duplex == "short":
        return x, ph - y
    raise ValueError(f"duplex must be 'long' or 'short', not {duplex!r}")


def _check_args(paper: str, duplex: str) -> tuple[float, float]:
    if paper not in PAPERS_MM:
        raise CardgenError(f"unknown paper {paper!r} (known: {', '.join(sorted(PAPERS_MM))})")
    if duplex not in ("long", "short"):
        raise CardgenError(f"duplex must be long or short, not {duplex!r}")
    return PAPERS_MM[paper]


def _layout(pw: float, ph: float) -> dict[str, float]:
    """Front-page positions shared by geometry and drawing."""
    c, m = pw / 2, ph / 2
    return {
        "c": c, "m": m,
        "xr": c - X_SHIFT,               # X reference line (front, left half)
        "x_row0": m + 2 - 6 * X_ROW_PITCH,  # centre of the first X ladder row
        "yr": m + 24,                    # Y reference line (front, right half)
        "y_col_c": c + Y_SHIFT,          # centre of the Y ladder (front x)
        "tx": c + Y_SHIFT, "ty": m - 20,  # grid / crosshair target (front)
        "top_end": m - 48,               # the instruction bands end / start here
        "bottom_start": m + 52,
    }


def calibration_geometry(paper: str, duplex: str) -> CalibrationGeometry:
    """The measurable geometry of the calibration sheet for ``paper`` and ``duplex``."""
    pw, ph = _check_args(paper, duplex)
    L = _layout(pw, ph)
    n = len(STEPS)
    x_rows = [L["x_row0"] + k * X_ROW_PITCH for k in range(n)]
    # Design frame of the back: the long-edge back page. A rung for offset d sits at
    # back-page (x0 + d, …) — in the design frame that is +d for long, −d for short
    # (the short-edge back is the design turned 180°).
    x_rungs = []
    for k, d in enumerate(STEPS):
        bx, by = back_point(L["xr"], x_rows[k], (pw, ph), duplex)
        x_rungs.append(Rung(d, bx + d, by))
    y_rungs = []
    for k, d in enumerate(STEPS):
        # design column k (left to right on the long-edge back) is behind front x below
        fx = L["y_col_c"] - (k - (n - 1) / 2) * Y_COL_PITCH
        bx, by = back_point(fx, L["yr"], (pw, ph), duplex)
        y_rungs.append(Rung(d, bx, by + d))
    half_y = (n - 1) / 2 * Y_COL_PITCH + 4
    return CalibrationGeometry(
        paper=(pw, ph), duplex=duplex,
        x_reference=L["xr"], x_reference_span=(x_rows[0] - 4, x_rows[-1] + 4),
        y_reference=L["yr"], y_reference_span=(L["y_col_c"] - half_y, L["y_col_c"] + half_y),
        x_rungs=tuple(x_rungs), y_rungs=tuple(y_rungs),
        target=(L["tx"], L["ty"]), edge_lines=(EDGE_INSET, pw - EDGE_INSET),
    )


def default_calibration_path(paper: str, duplex: str, out_dir: Path = Path("output"), lang: str = "en") -> Path:
    return out_dir / f"calibration-{paper}-{duplex}{'' if lang == 'en' else '-' + lang}.pdf"


# -- drawing -----------------------------------------------------------------------------------


class _Pen:
    """Lines and text on a canvas already in mm, y-down space (see pdfout.page)."""

    def __init__(self, c: Canvas, book: FontBook):
        self.c = c
        self.book = book

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float) -> None:
        self.c.setLineWidth(width)
        self.c.line(x1, y1, x2, y2)

    def text(self, x: float, baseline: float, s: str, size_pt: float, bold: bool = False,
             align: str = "left") -> float:
        """One line of text; returns its width in mm."""
        if size_pt < MIN_FONT_PT:
            raise ValueError(f"{size_pt} pt is below the {MIN_FONT_PT} pt floor")
        font = BOLD if bold else REGULAR
        missing = self.book.missing_chars(font, s)
        if missing:  # ReportLab would draw nothing for them, silently
            raise ValueError(f"{font} lacks {missing!r} in {s!r}")
        size = size_pt / PT_PER_MM
        self.c.saveState()
        self.c.translate(x, baseline)
        self.c.scale(1, -1)
        self.c.setFont(self.book.register(font), size)
        pdfout.draw_aligned(self.c, s, align)
        self.c.restoreState()
        return self.book.string_width_mm(font, s, size_pt)

    def para(self, x: float, y: float, w: float, s: str, size_pt: float, bold: bool = False,
             leading: float = 1.32) -> float:
        """Wrapped text whose first line's top is ``y``; returns the y below the last line."""
        size = size_pt / PT_PER_MM
        lead = size * leading
        font = BOLD if bold else REGULAR
        # textfit.wrap, not simpleSplit: French keeps a no-break space before ':' and '?'
        for line in wrap(lambda t, pt: self.book.string_width_mm(font, t, pt), s, size_pt, w):
            self.text(x, y + size * 0.78, line, size_pt, bold)
            y += lead
        return y

    def step(self, x: float, y: float, w: float, number: str, s: str, size_pt: float = 9.5) -> float:
        """A numbered instruction: the number in bold, hanging; returns the y below it."""
        size = size_pt / PT_PER_MM
        self.text(x, y + size * 0.78, number, size_pt, bold=True)
        return self.para(x + 6, y, w - 6, s, size_pt)


def _mm_label(d: float) -> str:
    """A ladder label: 0, +0.5, –1.5 (an en dash as minus: the font has no U+2212)."""
    if abs(d) < 1e-9:
        return "0"
    return ("+" if d > 0 else "\u2013") + f"{abs(d):.1f}"


def _draw_front(pen: _Pen, paper: str, duplex: str, g: CalibrationGeometry, t: Mapping[str, str]) -> None:
    c = pen.c
    pw, ph = g.paper
    L = _layout(pw, ph)
    c.setStrokeColor(black)
    c.setFillColor(black)
    c.setLineCap(0)

    # slant check: long lines near the left and right edges
    for x in g.edge_lines:
        pen.line(x, EDGE_MARGIN_Y, x, ph - EDGE_MARGIN_Y, REF_WIDTH)

    # X reference line (upright) and Y reference line (flat)
    y0, y1 = g.x_reference_span
    pen.line(g.x_reference, y0, g.x_reference, y1, REF_WIDTH)
    # captions where nothing is printed behind them on the back
    pen.text(g.x_reference, y1 + 4.5, t["x_line"], 9, bold=True, align="center")
    x0, x1 = g.y_reference_span
    pen.line(x0, g.y_reference, x1, g.y_reference, REF_WIDTH)
    pen.text(x0 - 2, g.y_reference + 1.2, t["y_line"], 9, bold=True, align="right")

    # fine grid (1 mm, 5 mm lines heavier) with a crosshair target
    tx, ty = g.target
    r = 12
    c.setStrokeColor(pdfout.REGISTRATION)
    for k in range(-r, r + 1):
        width = pdfout.HAIRLINE_MM * (2.4 if k % 5 == 0 else 1)
        pen.line(tx + k, ty - r, tx + k, ty + r, width)
        pen.line(tx - r, ty + k, tx + r, ty + k, width)
    c.setStrokeColor(black)
    pen.line(tx - r - 4, ty, tx + r + 4, ty, REF_WIDTH)
    pen.line(tx, ty - r - 4, tx, ty + r + 4, REF_WIDTH)
    c.setLineWidth(REF_WIDTH)
    c.circle(tx, ty, 8, stroke=1, fill=0)
    pen.text(tx, ty - r - 6, t["target"], 7.5, align="center")

    # instructions
    left, width = 18.0, pw - 36.0
    y = 17.0
    pen.text(left, y + 6.5, t["title"], 18, bold=True)
    y += 10.5
    flip = t["flip_" + duplex]
    y = pen.para(left, y, width, t["front_header"].format(paper=PAPER_NAMES.get(paper, paper.upper()), flip=flip), 8)
    y += 1.8
    y = pen.para(left, y, width, t["intro"], 9.5)
    y += 2.2
    steps_top = [t["step1"], t["step2"].format(flip=flip), t["step3"]]
    for n, s in enumerate(steps_top, start=1):
        y = pen.step(left, y, width, f"{n}.", s) + 1.4
    if y > L["top_end"]:
        raise AssertionError(f"front instructions overflow the top band on {paper} ({y:.1f} mm)")

    y = L["bottom_start"]
    steps_bottom = [t["step4"], t["step5"], t["step6"]]
    for n, s in enumerate(steps_bottom, start=4):
        y = pen.step(left, y, width, f"{n}.", s) + 1.4
    y -= 0.4
    pen.text(left + 12, y + 3.2, "cardgen config set back-offset X,Y", 10, bold=True)
    pen.text(left + 12, y + 7.6, f"{t['for_example']}  cardgen config set back-offset 0.5,-1", 8.5)
    y += 9.4
    y = pen.para(left + 6, y, width - 6, t["then_build"], 9.5) + 1.4
    y = pen.step(left, y, width, "7.", t["step7"].format(edge=t["edge_" + duplex]))
    if y > ph - EDGE_MARGIN_Y:
        raise AssertionError(f"front instructions overflow the bottom band on {paper} ({y:.1f} mm)")


def _draw_back(pen: _Pen, paper: str, duplex: str, g: CalibrationGeometry, t: Mapping[str, str]) -> None:
    """The back page, drawn in its design frame: the long-edge back (design (u, v) is behind
    front (paper_w − u, v)); for a short-edge flip the caller has turned the page 180°."""
    c = pen.c
    pw, ph = g.paper
    L = _layout(pw, ph)
    s = 1.0 if duplex == "long" else -1.0  # back-page direction of +offset, in the design frame
    c.setStrokeColor(black)
    c.setFillColor(black)
    c.setLineCap(0)

    for x in g.edge_lines:  # symmetric: the design frame needs no mirroring
        pen.line(pw - x, EDGE_MARGIN_Y, pw - x, ph - EDGE_MARGIN_Y, RUNG_WIDTH)

    n = len(STEPS)
    # X ladder: rows of upright marks, the mark for d at x0 + d on the back page
    u0 = pw - L["xr"]
    label_right = u0 - 3 - 2.4
    for k, d in enumerate(STEPS):
        v = L["x_row0"] + k * X_ROW_PITCH
        half = (ZERO_RUNG_LENGTH if d == 0 else RUNG_LENGTH) / 2
        u = u0 + s * d
        pen.line(u, v - half, u, v + half, RUNG_WIDTH)
        pen.text(label_right, v + 1.25, _mm_label(d), 9 if d == 0 else 7.5, bold=d == 0, align="right")
    top = L["x_row0"] - 4
    pen.text(u0 - 1.2, top - 8, "X", 16, bold=True, align="center")
    pen.text(u0 - 1.2, top - 3, t["mark_x"], 7.5, align="center")

    # Y ladder: columns of flat marks, the mark for d at y0 + d on the back page
    uc = pw - L["y_col_c"]
    v0 = L["yr"]
    for k, d in enumerate(STEPS):
        u = uc + (k - (n - 1) / 2) * Y_COL_PITCH
        half = (ZERO_RUNG_LENGTH if d == 0 else RUNG_LENGTH) / 2
        v = v0 + s * d
        pen.line(u - half, v, u + half, v, RUNG_WIDTH)
        pen.text(u, v0 + 3 + 5.4, _mm_label(d), 9 if d == 0 else 7.5, bold=d == 0, align="center")
    pen.text(uc, v0 - 3 - 6.5, "Y", 16, bold=True, align="center")
    pen.text(uc, v0 - 3 - 2.3, t["mark_y"], 7.5, align="center")

    # crosshair behind the front's target
    tu, tv = pw - g.target[0], g.target[1]
    pen.line(tu - 16, tv, tu + 16, tv, RUNG_WIDTH)
    pen.line(tu, tv - 16, tu, tv + 16, RUNG_WIDTH)
    c.setLineWidth(RUNG_WIDTH)
    c.circle(tu, tv, 8, stroke=1, fill=0)
    pen.text(tu, tv + 20.5, t["behind_target"], 7.5, align="center")

    left, width = 18.0, pw - 36.0
    y = 17.0
    pen.text(left, y + 6.5, t["title"], 18, bold=True)
    y += 10.5
    y = pen.para(left, y, width, t["back_header"].format(paper=PAPER_NAMES.get(paper, paper.upper()), flip=t["flip_" + duplex]), 8)
    y += 1.8
    y = pen.para(left, y, width, t["hold"], 9.5) + 1.2
    y = pen.para(left, y, width, t["find"], 9.5) + 3
    y = _draw_example(pen, left, y, width, s, t["example"])
    if y > L["top_end"]:
        raise AssertionError(f"back instructions overflow the top band on {paper} ({y:.1f} mm)")

    y = L["bottom_start"]
    y = pen.para(left, y, width, t["type"], 9.5) + 0.4
    pen.text(left + 6, y + 3.2, "cardgen config set back-offset X,Y", 10, bold=True)
    y += 6.8
    y = pen.para(left, y, width, t["no_mark"], 9.5) + 2.4
    y = pen.para(left, y, width, t["meaning"], 8)
    if y > ph - EDGE_MARGIN_Y:
        raise AssertionError(f"back instructions overflow the bottom band on {paper} ({y:.1f} mm)")


def _draw_example(pen: _Pen, left: float, y: float, width: float, s: float, text: str) -> float:
    """A worked example: a small ladder with a grey line "shining through" the +0.5 mark
    (steps drawn larger than life so the staircase is visible), running the same way as
    the real X ladder (``s``). Returns the y below it."""
    c = pen.c
    pitch, step_mm = 4.2, 2.0
    u0 = left + 22
    demo = (-1.0, -0.5, 0.0, 0.5, 1.0)
    top = y
    bottom = y + len(demo) * pitch
    c.saveState()
    c.setStrokeGray(0.62)
    line_u = u0 + s * 0.5 / STEP_MM * step_mm
    pen.line(line_u, top - 1, line_u, bottom + 1, 1.1)
    c.restoreState()
    for k, d in enumerate(demo):
        v = y + (k + 0.5) * pitch
        u = u0 + s * d / STEP_MM * step_mm
        half = (ZERO_RUNG_LENGTH if d == 0 else RUNG_LENGTH) / 2 * 0.75
        pen.line(u, v - half, u, v + half, RUNG_WIDTH)
        pen.text(u0 - 2 * step_mm - 3.4, v + 1.2, _mm_label(d), 8 if d == 0 else 7.5, bold=d == 0, align="right")
    tx = u0 + 2 * step_mm + 7
    ty = pen.para(tx, top + 2.5, left + width - tx, text, 9)
    return max(bottom + 1, ty)


def calibration_pdf(path: Path | str, paper: str, duplex: str, lang: str = "en") -> Path:
    """Write the two-page calibration sheet for ``paper`` and ``duplex`` to ``path``, in
    ``lang`` (en, fr or nl).

    Reproducible (the same arguments give the same bytes), shipped fonts only. The
    file is written next to ``path`` and renamed into place. Returns ``path``.
    """
    path = Path(path)
    t = TEXT[lang]
    g = calibration_geometry(paper, duplex)
    pw, ph = g.paper
    book = FontBook([shipped_fonts_dir()])
    regular = book.register(REGULAR)
    book.register(BOLD)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with replacing(path) as tmp:
            c = pdfout.new_canvas(tmp, (pw, ph), regular,
                                  f"cardgen printer calibration ({paper}, {duplex}-edge duplex)", duplex)
            c.setSubject("duplex calibration sheet")
            pen = _Pen(c, book)
            with pdfout.page(c, ph):
                _draw_front(pen, paper, duplex, g, t)
            with pdfout.page(c, ph):
                if duplex == "short":  # the long-edge back turned 180° about the page centre
                    c.translate(pw, ph)
                    c.rotate(180)
                _draw_back(pen, paper, duplex, g, t)
            c.save()
    except OSError as e:
        raise CardgenError(f"cannot be written: {e.strerror or e}", Where(display_path(path))) from None
    return path
