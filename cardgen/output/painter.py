"""Layout ops → ReportLab canvas calls.

The canvas is set up so that one user unit is one millimetre and y grows downward,
matching the layout language; text and images flip locally so they stay upright.
Text was already checked to fit (see ``textcheck``); here it is only placed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from ..base.units import PT_PER_MM
from ..impose.outlines import PathOutline, rounded_rect
from ..impose.shapes import Hex
from ..layout.colours import parse_cmyk
from ..layout.images import Picture
from ..layout.ops import Op
from ..layout.svgpath import parse_path
from ..layout.text import TextEngine
from ..layout.textfit import Run, line_width
from .canvas import draw_aligned
from .cmyk import OutputProfile
from .inkcolours import ink_colour, ink_drawing
from .reportlab_compat import draw_vector_art

_UNSET = object()


class Painter:
    """Draws checked ops onto a canvas already in millimetre, y-down space; with an
    output ``profile`` (a print-shop file), every colour and SVG in its inks."""

    def __init__(self, canvas: Canvas, text: TextEngine, palette: Mapping[str, str], assets: Path | None = None,
                 ink: Mapping[str, str] | None = None, profile: OutputProfile | None = None):
        self.c = canvas
        self.text = text
        self.palette = palette
        self.ink = ink or {}  # --ink-saver: a palette name or #rrggbb → the colour drawn instead
        self.assets = assets
        self.profile = profile
        self._colours: dict[str, Color | None] = {}
        self._drawings: dict[int, tuple[Any, Any]] = {}  # id of an SVG's drawing → (it, its copy in inks)
        self._stack: list[dict[str, Any]] = []
        self._alpha = 1.0  # the product of the opacities of the groups being drawn
        self.reset()

    # -- colours and paint -------------------------------------------------
    def colour(self, value: str | None) -> Color | None:
        if value is None:
            return None
        cached = self._colours.get(value, False)
        if cached is not False:
            return cached
        raw = self.palette.get(value, value)
        if self.ink:
            swap = self.ink.get(value) or self.ink.get(raw.lower())
            if swap is not None:
                raw = self.palette.get(swap, swap)
        if raw in ("none", "transparent"):
            col = None
        else:
            inks = parse_cmyk(raw)  # ink colours are drawn as DeviceCMYK, and a print-shop file keeps them
            col = HexColor(raw) if inks is None else CMYKColor(*inks)  # checked before drawing (text.is_colour)
            if self.profile is not None:
                col = ink_colour(col, self.profile)
        self._colours[value] = col
        return col

    def reset(self) -> None:
        """Forget the known graphics state (a new page or form starts from defaults)."""
        self._state: dict[str, Any] = {}

    def _save(self) -> None:
        self.c.saveState()
        self._stack.append(dict(self._state))

    def _restore(self) -> None:
        self.c.restoreState()
        self._state = self._stack.pop()

    def _opacity(self, a: Mapping[str, Any]) -> float | None:
        """An op's own opacity times its groups' (None: fully opaque, nothing to set)."""
        own = a.get("opacity")
        if self._alpha == 1.0:
            return own
        return self._alpha * (1.0 if own is None else own)

    def _set(self, key: str, value: Any, setter) -> None:
        """Emit a state operator only when it changes something (smaller, faster PDFs)."""
        if self._state.get(key, _UNSET) != value:
            setter(value)
            self._state[key] = value

    def _paint(self, a: dict[str, Any], default_fill: str | None = None) -> tuple[bool, bool]:
        fill = self.colour(a.get("fill", default_fill))
        stroke = self.colour(a.get("stroke"))
        opacity = self._opacity(a)
        if fill is not None:
            self._set("fill", fill, self.c.setFillColor)
            if opacity is not None:
                self.c.setFillAlpha(opacity)  # after the colour: setFillColor resets alpha
        if stroke is not None:
            self._set("stroke", stroke, self.c.setStrokeColor)
            self._set("width", a.get("stroke_width", 0.3), self.c.setLineWidth)
            if opacity is not None:
                self.c.setStrokeAlpha(opacity)
            self._set("dash", tuple(a.get("dash") or ()), lambda d: self.c.setDash(list(d)))
            self._set("cap", {"butt": 0, "round": 1, "square": 2}[a.get("cap", "butt")], self.c.setLineCap)
        return fill is not None, stroke is not None

    # -- ops ---------------------------------------------------------------
    def draw(self, ops: tuple[Op, ...]) -> None:
        for op in ops:
            getattr(self, "_" + op.kind)(op)

    def _with_state(self, fn, a: dict[str, Any], default_fill: str | None = None) -> None:
        isolated = self._opacity(a) is not None  # transparency must not leak to later ops
        if isolated:
            self._save()
        fill, stroke = self._paint(a, default_fill)
        if fill or stroke:
            fn(fill, stroke)
        if isolated:
            self._restore()

    def _rect(self, op: Op) -> None:
        a = op.args
        r = a.get("r") or 0
        if r:
            self._with_state(lambda f, s: self.c.roundRect(a["x"], a["y"], a["w"], a["h"], r, stroke=s, fill=f), a)
        else:
            self._with_state(lambda f, s: self.c.rect(a["x"], a["y"], a["w"], a["h"], stroke=s, fill=f), a)

    def _circle(self, op: Op) -> None:
        a = op.args
        self._with_state(lambda f, s: self.c.circle(a["cx"], a["cy"], a["r"], stroke=s, fill=f), a)

    def _ellipse(self, op: Op) -> None:
        a = op.args
        x1, y1, x2, y2 = a["cx"] - a["rx"], a["cy"] - a["ry"], a["cx"] + a["rx"], a["cy"] + a["ry"]
        self._with_state(lambda f, s: self.c.ellipse(x1, y1, x2, y2, stroke=s, fill=f), a)

    def _line(self, op: Op) -> None:
        a = dict(op.args)
        a.setdefault("stroke", "#000000")
        a.pop("fill", None)
        self._with_state(lambda f, s: self.c.line(a["x1"], a["y1"], a["x2"], a["y2"]), a)

    def _polygon(self, op: Op) -> None:
        a = op.args
        pts = _pairs(a["points"])
        if len(pts) < 2:
            return
        p = self.c.beginPath()
        p.moveTo(*pts[0])
        for pt in pts[1:]:
            p.lineTo(*pt)
        if a.get("closed", True):
            p.close()
        self._with_state(lambda f, s: self.c.drawPath(p, stroke=s, fill=f), a)

    def _path(self, op: Op) -> None:
        a = op.args
        p = self.c.beginPath()
        for seg in parse_path(a["d"]):
            if seg[0] == "M":
                p.moveTo(seg[1], seg[2])
            elif seg[0] == "L":
                p.lineTo(seg[1], seg[2])
            elif seg[0] == "C":
                p.curveTo(*seg[1:])
            else:
                p.close()
        self._with_state(lambda f, s: self.c.drawPath(p, stroke=s, fill=f, fillMode=1), a)

    def _clip(self, clip: list[float] | str, shape: str, radius: float) -> None:
        """Cut what follows to a box, a shape fitted into the box (a hex's flat-to-flat
        width is the box's width, pointy-top, or height, flat-top), or SVG path data."""
        p = self.c.beginPath()
        if isinstance(clip, str):
            PathOutline(tuple(parse_path(clip))).trace(p)
            self.c.clipPath(p, stroke=0, fill=0, fillMode=1)  # filled as the path op fills
            return
        x, y, w, h = clip
        if shape == "circle":
            p.ellipse(x, y, w, h)
        elif shape in ("hex", "hex-flat"):
            Hex(pointy=shape == "hex").outline(x, y, w, h).trace(p)
        elif shape == "rounded":
            rounded_rect(x, y, w, h, radius).trace(p)
        else:
            p.rect(x, y, w, h)
        self.c.clipPath(p, stroke=0, fill=0)

    def _group(self, op: Op) -> None:
        a = op.args
        self._save()
        if "translate" in a:
            self.c.translate(*a["translate"])
        if "rotate" in a:
            self.c.rotate(a["rotate"])
        if "scale" in a:
            sc = a["scale"]
            self.c.scale(*(sc if isinstance(sc, list) else (sc, sc)))
        if a.get("clip"):
            self._clip(a["clip"], a.get("clip_shape") or "rect", a.get("clip_radius") or 0.0)
        outer = self._alpha
        if a.get("opacity") is not None:
            # each op inside is drawn at its own opacity times this: where two of them
            # overlap the group shows a little darker than one flat layer would
            self._alpha = outer * a["opacity"]
        try:
            self.draw(op.children)
        finally:
            self._alpha = outer
        self._restore()

    def draw_line(self, font: str, size_mm: float, x: float, baseline: float, s: str, align: str = "left",
                weight: float = 0.0) -> None:
        """One line of text, upright in the y-down space; ``weight`` (mm) emboldens by stroking the outline."""
        self.c.saveState()
        self.c.translate(x, baseline)
        self.c.scale(1, -1)
        self.c.setFont(self.text.book.register(font), size_mm)
        if weight:
            t = self.c.beginText(0, 0)
            t.setTextRenderMode(2)
            self.c.setLineWidth(weight)
            self.c.setLineJoin(1)
            self.c.setDash([])  # the outline is solid, whatever dash an earlier op left in force
            t.setFont(self.text.book.register(font), size_mm)
            t.textOut(s)
            self.c.drawText(t)
        else:
            draw_aligned(self.c, s, align)
        self.c.restoreState()

    def _set_text_colour(self, colour: str | None, opacity: float | None) -> None:
        col = self.colour(colour or "#000000")
        if col is not None:
            self.c.setFillColor(col)
            if opacity is not None:
                self.c.setFillAlpha(opacity)

    def _text(self, op: Op) -> None:
        a = op.args
        font = self.text.font(a.get("font"))
        fitted = self.text.fit_op(op)
        size_mm = fitted.size / PT_PER_MM
        leading_mm = fitted.leading / PT_PER_MM
        asc, desc = self.text.book.ascent_descent(font)
        block = size_mm + (len(fitted.runs) - 1) * leading_mm
        valign = a.get("valign", "top")
        top = a["y"] + {"top": 0.0, "middle": (a["h"] - block) / 2, "bottom": a["h"] - block}[valign]
        first = top + size_mm * asc / (asc - desc)
        align = a.get("align", "left")
        x = a["x"] + {"left": 0.0, "center": a["w"] / 2, "right": a["w"]}[align]
        self.c.saveState()
        opacity = self._opacity(a)
        self._set_text_colour(a.get("color"), opacity)
        for i, line in enumerate(fitted.runs):
            baseline = first + i * leading_mm
            if len(line) == 1 and line[0].icon is None and line[0].colour is None:
                self.draw_line(line[0].font, size_mm, x, baseline, line[0].text, align)  # plain text: one string
                continue
            width = line_width(self.text.run_width, line, fitted.size)
            left = x - {"left": 0.0, "center": width / 2, "right": width}[align]
            self._draw_runs(line, left, baseline, fitted.size, a.get("color"), opacity)
        self.c.restoreState()

    def _draw_runs(self, line: tuple[Run, ...], x: float, baseline: float, size_pt: float,
                   colour: str | None, opacity: float | None) -> None:
        """One line of mixed runs, left to right from ``x``: styled words and icons."""
        for run in line:
            if run.icon is not None:
                self._icon(run, x, baseline, size_pt, colour, opacity)
            elif run.text:
                if run.colour is not None:
                    self._set_text_colour(run.colour, opacity)
                self.draw_line(run.font, size_pt / PT_PER_MM, x, baseline, run.text)
                if run.colour is not None:
                    self._set_text_colour(colour, opacity)
            x += self.text.run_width(run, size_pt)

    def _icon(self, run: Run, x: float, baseline: float, size_pt: float, colour: str | None,
              opacity: float | None) -> None:
        """An icon in a line: a font's character on the baseline, or an image one em tall
        (times its scale) centred on the middle of the capitals."""
        spec = self.text.icons[run.icon or ""]
        self.c.saveState()
        if spec.char is not None:
            self._set_text_colour(spec.colour or run.colour or colour, opacity)
            self.draw_line(run.font, size_pt * spec.scale / PT_PER_MM, x, baseline, spec.char)
        else:
            picture = self.text.picture(spec.src or "")
            h = self.text.icon_height_mm(spec, size_pt)
            w = h * picture.aspect
            middle = baseline - self.text.book.cap_height(run.font) * size_pt / PT_PER_MM / 2
            self._place_picture(spec.src or "", picture, x, middle - h / 2, w, h, opacity)
        self.c.restoreState()
    def _glyph(self, op: Op) -> None:
        """One character scaled so its visible ink fills the box, centred on the ink."""
        a = op.args
        font = self.text.font(a.get("font"))
        x0, y0, x1, y1 = self.text.book.glyph_box(font, a["char"])
        ink_w, ink_h = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        em = min(a["w"] / ink_w, a["h"] / ink_h)
        align = a.get("align", "center")
        free_x = a["w"] - em * ink_w
        left = a["x"] + {"left": 0.0, "center": free_x / 2, "right": free_x}[align] - em * x0
        baseline = a["y"] + (a["h"] - em * ink_h) / 2 + em * y1
        self.c.saveState()
        self._set_text_colour(a.get("color"), self._opacity(a))
        weight = a.get("weight") or 0.0
        if weight:
            col = self.colour(a.get("color") or "#000000")
            if col is not None:
                self.c.setStrokeColor(col)
                opacity = self._opacity(a)
                if opacity is not None:
                    self.c.setStrokeAlpha(opacity)
        self.draw_line(font, em, left, baseline, a["char"], weight=weight)
        self.c.restoreState()

    def _image(self, op: Op) -> None:
        a = op.args
        picture = self.text.picture(a["src"])
        iw, ih = picture.width, picture.height
        x, y, w, h = a["x"], a["y"], a["w"], a["h"]
        fit = a.get("fit", "contain")
        if fit != "stretch":
            scale = (min if fit == "contain" else max)(w / iw, h / ih)
            dw, dh = iw * scale, ih * scale
            x, y, w, h = x + (w - dw) / 2, y + (h - dh) / 2, dw, dh
        self.c.saveState()
        if fit == "cover":
            p = self.c.beginPath()
            p.rect(a["x"], a["y"], a["w"], a["h"])
            self.c.clipPath(p, stroke=0, fill=0)
        self._place_picture(a["src"], picture, x, y, w, h, self._opacity(a))
        self.c.restoreState()

    def _place_picture(self, src: str, picture: Picture, x: float, y: float, w: float, h: float,
                       opacity: float | None) -> None:
        """An image filling the box (x, y, w, h): an SVG as vectors, a raster image as itself."""
        self.c.saveState()
        if opacity is not None:
            self.c.setFillAlpha(opacity)
            self.c.setStrokeAlpha(opacity)
        self.c.translate(x, y + h)
        if picture.drawing is not None:
            self.c.scale(w / picture.width, -h / picture.height)
            profile = self.profile
            ink = None if profile is None else lambda colour: ink_colour(colour, profile)
            draw_vector_art(self._drawing(picture.drawing), self.c, opacity=opacity, ink=ink)
        else:
            from reportlab.lib.utils import ImageReader

            self.c.scale(1, -1)
            self.c.drawImage(ImageReader(str(self.text.asset(src))), 0, 0, w, h, mask="auto")
        self.c.restoreState()

    def _drawing(self, drawing: Any) -> Any:
        """An SVG's drawing as this painter draws it: in inks with a profile (copied once)."""
        if self.profile is None:
            return drawing
        found = self._drawings.get(id(drawing))
        if found is None:
            found = self._drawings[id(drawing)] = (drawing, ink_drawing(drawing, self.profile))
        return found[1]

    def _flow(self, op: Op) -> None:
        placed = self.text.flow_op(op)
        a = op.args
        self.c.saveState()
        for line in placed.lines:
            if line.icon is not None:
                self._icon(Run("", line.font, line.colour, line.icon), line.x, line.baseline, line.size,
                           a.get("color"), self._opacity({}))
                continue
            self._set_text_colour(line.colour or a.get("color"), self._opacity({}))
            self.draw_line(line.font, line.size / PT_PER_MM, line.x, line.baseline, line.text)
        self.c.restoreState()


def _pairs(points: list) -> list[tuple[float, float]]:
    if points and isinstance(points[0], list):
        return [(p[0], p[1]) for p in points]
    return [(points[i], points[i + 1]) for i in range(0, len(points) - 1, 2)]
