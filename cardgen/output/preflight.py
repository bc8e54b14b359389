"""A print shop's preflight of a print-shop PDF, read from the file itself.

What a shop's software rejects or flags, page by page:

* total area coverage (C + M + Y + K) above the ink limit, with its place on the page:
  every fill, stroke, text and shading is followed through the content streams (and the
  forms they place) with its current colour and transformation, and a CMYK image's
  darkest pixel counts too;
* images under 300 ppi at the size they are printed;
* RGB left in a CMYK file (colour operators, colour spaces, images, shadings);
* pages without a TrimBox or BleedBox, or with an ArtBox beside the TrimBox;
* fonts not embedded;
* in a file that claims PDF/X-1a, what that standard forbids besides: transparency left
  (opacities, soft masks, transparency groups), a PDF version above 1.4, missing X-1a
  keys (:func:`~cardgen.output.pdfx1a.x1a_findings`).

Spot colours (the CutContour die line, the registration colour) are not process ink
and do not count toward the total. The figure is the ink a colour asks for wherever it
is painted inside the bounding box of its clip, also where later art covers it: a
rendering (Ghostscript's ``tiff32nc``, as ``tests/output/test_preflight.py`` does) shows the
same or less, never more.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pikepdf

from .pdfx import is_rgb_space, picture_of
from .pdfx1a import is_x1a, x1a_findings

DEFAULT_MIN_PPI = 300.0
PT_PER_MM = 72 / 25.4
PAINT_FILL = {"f", "F", "f*", "B", "B*", "b", "b*"}
PAINT_STROKE = {"S", "s", "B", "B*", "b", "b*"}
PATH_BUILD = {"m", "l", "c", "v", "y", "re", "h"}
TEXT_SHOW = {"Tj", "TJ", "'", '"'}

Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Finding:
    """One thing a shop would flag: its page (1-based), what, and whether it stops the
    file (``problem``) or is worth a look (a warning)."""

    page: int
    text: str
    problem: bool = True


@dataclass
class PageInk:
    """The most ink any painted colour of a page asks for, and where the colours over
    the limit are (page mm from the TrimBox's top-left, x right, y down)."""

    most: float = 0.0
    over: Box | None = None


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF's row-vector convention: the CTM of ``m cm`` is m × CTM)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def _union(a: Box | None, b: Box) -> Box:
    return b if a is None else (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


class _Page:
    """Walks one page's content with its graphics state."""

    def __init__(self, pdf: pikepdf.Pdf, page, number: int, limit: float, min_ppi: float, cmyk_file: bool,
                 parsed: dict):
        self.pdf, self.page, self.number = pdf, page, number
        self.limit, self.min_ppi, self.cmyk_file = limit, min_ppi, cmyk_file
        self.parsed = parsed  # content streams parsed once per file
        self.ink = PageInk()
        self.findings: list[Finding] = []
        self.rgb: set[str] = set()
        self.low: list[tuple[float, str]] = []
        self.image_ink: dict = {}
        self.painted: list[tuple[Box, float]] = []  # what the page painted so far, and its ink
        trim = page.obj.get("/TrimBox") or page.obj.get("/MediaBox")
        self.left, self.top = float(trim[0]), float(trim[3])

    def run(self) -> None:
        self._walk(self.page.obj, self.page.obj.get("/Resources"), (1.0, 0, 0, 1.0, 0, 0), depth=0)
        self._finish()

    def _instructions(self, holder):
        key = holder.objgen
        if key == (0, 0) or key not in self.parsed:
            got = pikepdf.parse_content_stream(holder)
            if key == (0, 0):
                return got
            self.parsed[key] = got
        return self.parsed[key]

    def _place(self, box: Box) -> Box:
        """Page points (y up) → mm from the TrimBox's top-left (y down)."""
        x0, y0, x1, y1 = box
        return ((x0 - self.left) / PT_PER_MM, (self.top - y1) / PT_PER_MM,
                (x1 - self.left) / PT_PER_MM, (self.top - y0) / PT_PER_MM)

    def _ink(self, total: float, box: Box, alpha: float = 1.0) -> None:
        """A colour of ``total`` % painted over ``box`` at opacity ``alpha``: a translucent
        one blends with what was painted under it (the last paint that covers the box's
        middle), as a RIP composites it."""
        if alpha < 1:
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            under = next((ink for (x0, y0, x1, y1), ink in reversed(self.painted)
                          if x0 <= cx <= x1 and y0 <= cy <= y1), 0.0)
            total = alpha * total + (1 - alpha) * under
        self.painted.append((box, total))
        self.ink.most = max(self.ink.most, total)
        if total > self.limit + 0.5:
            self.ink.over = _union(self.ink.over, box)

    def _walk(self, holder, resources, ctm: Matrix, depth: int, clip: Box | None = None) -> None:
        """Follow one content stream (the page's or a form's) with a fresh graphics state."""
        if depth > 12:
            return
        _Stream(self, resources, _Graphics(ctm, clip), depth).run(self._instructions(holder))

    def _space_ink(self, spaces, space: str, args) -> float | None:
        resolved = spaces.get(space, pikepdf.Name(space)) if space.startswith("/") else None
        values = [float(v) for v in args if _is_num(v)]
        if space == "/DeviceCMYK" or (isinstance(resolved, pikepdf.Name) and str(resolved) == "/DeviceCMYK"):
            return 100 * sum(values)
        if space == "/DeviceGray":
            return 100 * (1 - values[0]) if values else 0.0
        if resolved is not None and is_rgb_space(resolved):
            self.rgb.add("an RGB colour space")
            return 0.0
        return None  # a spot colour (Separation, DeviceN): not process ink

    def _shading(self, resources, name: str, ctm: Matrix) -> None:
        shading = ((resources or {}).get("/Shading") or {}).get(name)
        if shading is None:
            return
        if is_rgb_space(shading.get("/ColorSpace")):
            self.rgb.add("an RGB shading")
            return
        if shading.get("/ColorSpace") != "/DeviceCMYK":
            return
        ends: list[float] = []
        todo = [shading.get("/Function")]
        while todo:
            f = todo.pop()
            if isinstance(f, pikepdf.Array):
                todo.extend(f)
            elif f is not None and int(f.get("/FunctionType", -1)) == 2:
                ends += [100 * sum(float(v) for v in f.get(k, [])) for k in ("/C0", "/C1")]
            elif f is not None and int(f.get("/FunctionType", -1)) == 3:
                todo.extend(f.Functions)
        if ends:
            corner = _apply(ctm, 0, 0)
            self._ink(max(ends), (corner[0], corner[1], corner[0], corner[1]))

    def _image(self, image, name: str, ctm: Matrix, clip: Box | None, alpha: float) -> None:
        corners = [_apply(ctm, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        box = (min(xs), min(ys), max(xs), max(ys))
        if _within(box, clip) is None:
            return
        wide_in, high_in = math.hypot(ctm[0], ctm[1]) / 72, math.hypot(ctm[2], ctm[3]) / 72
        if wide_in > 0 and high_in > 0:
            ppi = min(int(image.Width) / wide_in, int(image.Height) / high_in)
            if ppi < self.min_ppi - 0.5:
                x0, y0, x1, y1 = self._place(box)
                self.low.append((ppi, f"{int(image.Width)} × {int(image.Height)} px printed {x1 - x0:.1f} × "
                                      f"{y1 - y0:.1f} mm at x {x0:.1f}, y {y0:.1f} mm: {ppi:.0f} ppi"))
        space = image.get("/ColorSpace")
        if is_rgb_space(space) or (isinstance(space, pikepdf.Array) and len(space) > 1 and is_rgb_space(space[1])):
            self.rgb.add("an RGB image")
            return
        if space == "/DeviceCMYK":
            key = image.objgen
            if key not in self.image_ink:
                mask = image.get("/SMask")
                self.image_ink[key] = _darkest(picture_of(image, "CMYK"), picture_of(mask, "L") if mask else None)
            self._ink(self.image_ink[key], box, alpha)

    def _finish(self) -> None:
        if self.cmyk_file and self.rgb:
            self.findings.append(Finding(self.number, "RGB left in a CMYK file: " + ", ".join(sorted(self.rgb))))
        if self.ink.over is not None:
            x0, y0, x1, y1 = self._place(self.ink.over)
            self.findings.append(Finding(self.number, f"{self.ink.most:.0f} % total ink, over the {self.limit:g} % "
                                                      f"limit, at x {x0:.1f}–{x1:.1f} mm, y {y0:.1f}–{y1:.1f} mm "
                                                      "from the trim's top-left"))
        for _, text in sorted(self.low)[:3]:
            self.findings.append(Finding(self.number, f"image under {self.min_ppi:g} ppi: {text}", problem=False))


@dataclass
class _Graphics:
    """The part of the graphics state the walk follows: what ``q`` saves and ``Q`` restores."""

    ctm: Matrix
    clip: Box | None = None
    fill: float | None = 0.0  # percent of ink of the current colours; None: a spot colour
    stroke: float | None = 0.0
    fill_space: str = "/DeviceGray"
    stroke_space: str = "/DeviceGray"
    width: float = 1.0
    text_mode: int = 0  # Tr: 0 fill, 1 stroke, 2 both, 3 invisible …
    alpha: tuple[float, float] = (1.0, 1.0)  # the fill and stroke opacity (ExtGState /ca, /CA)

    def set_colour(self, op: str, ink: float | None) -> None:
        """A lower-case colour operator sets the fill, its upper-case twin the stroke."""
        if op[0].islower():
            self.fill = ink
        else:
            self.stroke = ink


def _resource(resources, kind: str):
    return (resources.get(kind) if resources is not None else None) or {}


class _Stream:
    """One content stream being walked: its resources, the saved graphics states, the
    path being built. Each operator the preflight cares about has a handler (``_HANDLERS``)."""

    def __init__(self, page: _Page, resources, graphics: _Graphics, depth: int):
        self.page, self.resources, self.g, self.depth = page, resources, graphics, depth
        self.spaces = _resource(resources, "/ColorSpace")
        self.xobjects = _resource(resources, "/XObject")
        self.states = _resource(resources, "/ExtGState")
        self.stack: list[_Graphics] = []
        self.path: list[tuple[float, float]] = []
        self.clipping = False  # W or W*: the path painted next (or ended by n) also clips

    def run(self, instructions) -> None:
        for ins in instructions:
            if isinstance(ins, pikepdf.ContentStreamInlineImage):
                self.page.findings.append(Finding(self.page.number, "an inline image (not checked; cardgen draws "
                                                                    "none)"))
                continue
            op = str(ins.operator)
            handler = _HANDLERS.get(op)
            if handler is not None:
                handler(self, op, ins.operands)

    def save(self, op: str, args) -> None:
        self.stack.append(replace(self.g))

    def restore(self, op: str, args) -> None:
        if self.stack:
            self.g = self.stack.pop()

    def ext_state(self, op: str, args) -> None:
        state = self.states.get(str(args[0]))
        if state is not None:
            alpha = self.g.alpha
            self.g.alpha = (float(state.get("/ca", alpha[0])), float(state.get("/CA", alpha[1])))

    def clip_next(self, op: str, args) -> None:
        self.clipping = True

    def transform(self, op: str, args) -> None:
        self.g.ctm = _mul(tuple(float(v) for v in args), self.g.ctm)  # type: ignore[arg-type]

    def line_width(self, op: str, args) -> None:
        self.g.width = float(args[0])

    def text_render(self, op: str, args) -> None:
        self.g.text_mode = int(args[0])

    def cmyk(self, op: str, args) -> None:
        self.g.set_colour(op, 100 * sum(float(v) for v in args))
        if op == "k":
            self.g.fill_space = "/DeviceCMYK"
        else:
            self.g.stroke_space = "/DeviceCMYK"

    def gray(self, op: str, args) -> None:
        self.g.set_colour(op, 100 * (1 - float(args[0])))

    def rgb(self, op: str, args) -> None:
        self.page.rgb.add(f"'{op}' colour operators")
        self.g.set_colour(op, 0.0)  # no ink a shop could count: the RGB finding says it

    def colour_space(self, op: str, args) -> None:
        name = str(args[0])
        space = self.spaces.get(name, pikepdf.Name(name)) if name.startswith("/") else None
        if space is not None and is_rgb_space(space):
            self.page.rgb.add("an RGB colour space")
        if op == "cs":
            self.g.fill_space = name
        else:
            self.g.stroke_space = name

    def colour(self, op: str, args) -> None:
        space = self.g.fill_space if op in ("sc", "scn") else self.g.stroke_space
        self.g.set_colour(op, self.page._space_ink(self.spaces, space, args))

    def build_path(self, op: str, args) -> None:
        ctm = self.g.ctm
        nums = [float(v) for v in args if _is_num(v)]
        if op == "re" and len(nums) == 4:
            x, y, w, h = nums
            self.path += [_apply(ctm, x, y), _apply(ctm, x + w, y + h), _apply(ctm, x + w, y), _apply(ctm, x, y + h)]
        else:
            self.path += [_apply(ctm, nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2)]

    def paint(self, op: str, args) -> None:
        """Fill and/or stroke the path (or end it, ``n``), and clip by it after ``W``."""
        if self.path:
            g = self.g
            xs, ys = [p[0] for p in self.path], [p[1] for p in self.path]
            outline = (min(xs), min(ys), max(xs), max(ys))
            grow = g.width * math.hypot(g.ctm[0], g.ctm[1]) / 2 if op in PAINT_STROKE else 0.0
            box = _within((outline[0] - grow, outline[1] - grow, outline[2] + grow, outline[3] + grow), g.clip)
            if op in PAINT_FILL and g.fill is not None and box is not None:
                self.page._ink(g.fill, box, g.alpha[0])
            if op in PAINT_STROKE and g.stroke is not None and box is not None:
                self.page._ink(g.stroke, box, g.alpha[1])
            if self.clipping:
                g.clip = _within(outline, g.clip) or (0.0, 0.0, 0.0, 0.0)
        self.clipping = False
        self.path = []

    def show_text(self, op: str, args) -> None:
        g = self.g
        origin = _apply(g.ctm, 0, 0)
        spot = _within((origin[0], origin[1], origin[0], origin[1]), g.clip)
        for ink, used in ((g.fill, g.text_mode in (0, 2, 4, 6)), (g.stroke, g.text_mode in (1, 2, 5, 6))):
            if used and ink is not None and spot is not None:
                self.page._ink(ink, spot, g.alpha[0])

    def shade(self, op: str, args) -> None:
        self.page._shading(self.resources, str(args[0]), self.g.ctm)

    def place(self, op: str, args) -> None:
        """``Do``: walk a form with the current transformation and clip, or check an image."""
        obj = self.xobjects.get(str(args[0]))
        if obj is None:
            return
        g = self.g
        if obj.get("/Subtype") == "/Form":
            matrix = tuple(float(v) for v in obj.get("/Matrix", [1, 0, 0, 1, 0, 0]))
            self.page._walk(obj, obj.get("/Resources") or self.resources,
                            _mul(matrix, g.ctm), self.depth + 1, g.clip)  # type: ignore[arg-type]
        elif obj.get("/Subtype") == "/Image":
            self.page._image(obj, str(args[0]), g.ctm, g.clip, g.alpha[0])


_HANDLERS: dict[str, Callable[[_Stream, str, Any], None]] = {
    "q": _Stream.save, "Q": _Stream.restore, "gs": _Stream.ext_state, "W": _Stream.clip_next,
    "W*": _Stream.clip_next, "cm": _Stream.transform, "w": _Stream.line_width, "Tr": _Stream.text_render,
    "k": _Stream.cmyk, "K": _Stream.cmyk, "g": _Stream.gray, "G": _Stream.gray, "rg": _Stream.rgb,
    "RG": _Stream.rgb, "cs": _Stream.colour_space, "CS": _Stream.colour_space, "sc": _Stream.colour,
    "scn": _Stream.colour, "SC": _Stream.colour, "SCN": _Stream.colour,
    "sh": _Stream.shade, "Do": _Stream.place,
    **dict.fromkeys(PATH_BUILD, _Stream.build_path),
    **dict.fromkeys(PAINT_FILL | PAINT_STROKE | {"n"}, _Stream.paint),
    **dict.fromkeys(TEXT_SHOW, _Stream.show_text),
}


def _within(box: Box, clip: Box | None) -> Box | None:
    """The part of ``box`` inside ``clip`` (None: none of it; a point on the edge counts)."""
    if clip is None:
        return box
    x0, y0 = max(box[0], clip[0]), max(box[1], clip[1])
    x1, y1 = min(box[2], clip[2]), min(box[3], clip[3])
    return (x0, y0, x1, y1) if x0 <= x1 and y0 <= y1 else None


def _is_num(v) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def _darkest(picture, mask=None) -> float:
    """The most ink (percent) of any pixel of a CMYK image that its soft mask shows at
    least half opaque (the pixels it hides print nothing)."""
    from PIL import Image, ImageMath

    c, m, y, k = picture.split()
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    if mask is not None and mask.size == picture.size:
        shown = mask.point(lambda v: 255 if v >= 128 else 0)
        total = Image.composite(total.convert("I"), Image.new("I", total.size, 0), shown)
    return 100 * total.getextrema()[1] / 255


@dataclass
class Preflight:
    """The findings of one file, and each page's most ink (for reports and tests)."""

    findings: list[Finding]
    ink: list[PageInk]


def preflight(path: Path, ink_limit: float | None = None, min_ppi: float = DEFAULT_MIN_PPI) -> Preflight:
    """Read a print-shop PDF as a shop's preflight would. ``ink_limit`` (percent):
    default the one the file records (``/CardgenInkLimit``), else 300."""
    findings: list[Finding] = []
    inks: list[PageInk] = []
    with pikepdf.open(path) as pdf:
        info: Any = pdf.trailer.get("/Info") or {}
        limit = ink_limit if ink_limit is not None else float(info.get("/CardgenInkLimit", 300))
        cmyk_file = "/OutputIntents" in pdf.Root
        parsed: dict = {}
        image_ink: dict = {}
        fonts_seen: set = set()
        for n, page in enumerate(pdf.pages, start=1):
            if page.obj.get("/TrimBox") is None or page.obj.get("/BleedBox") is None:
                findings.append(Finding(n, "no TrimBox or BleedBox"))
            if cmyk_file and page.obj.get("/TrimBox") is not None and page.obj.get("/ArtBox") is not None:
                findings.append(Finding(n, "both a TrimBox and an ArtBox (PDF/X allows one of the two)"))
            walker = _Page(pdf, page, n, limit, min_ppi, cmyk_file, parsed)
            walker.image_ink = image_ink
            walker.run()
            findings += walker.findings
            inks.append(walker.ink)
            findings += _unembedded(page, n, fonts_seen)
        if is_x1a(pdf):  # what PDF/X-1a forbids besides: transparency, a later PDF, missing keys
            findings += [Finding(max(n, 1), text if n else "the file: " + text) for n, text in x1a_findings(pdf)]
    return Preflight(findings, inks)


def _unembedded(page, number: int, seen: set) -> list[Finding]:
    out = []
    todo = [page.obj.get("/Resources")]
    while todo:
        res = todo.pop()
        if res is None or (res.objgen != (0, 0) and res.objgen in seen):
            continue
        seen.add(res.objgen)
        for font in (res.get("/Font") or {}).values():
            if font.objgen in seen and font.objgen != (0, 0):
                continue
            seen.add(font.objgen)
            fonts = list(font.get("/DescendantFonts", [])) or [font]
            for f in fonts:
                d = f.get("/FontDescriptor")
                if f.get("/Subtype") != "/Type3" and (d is None or not any(k in d for k in
                                                                          ("/FontFile", "/FontFile2", "/FontFile3"))):
                    out.append(Finding(number, f"font {str(f.get('/BaseFont', '?')).lstrip('/')} is not embedded"))
        for x in (res.get("/XObject") or {}).values():
            if x.get("/Subtype") == "/Form":
                todo.append(x.get("/Resources"))
    return out
