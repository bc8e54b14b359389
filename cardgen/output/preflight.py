"""A print shop's preflight of a print-shop PDF, read from the file itself.

What a shop's software rejects or flags, page by page:

* total area coverage (C + M + Y + K) above the ink limit, with its place on the page:
  every fill, stroke, text and shading is followed through the content streams (and the
  forms they place) with its current colour and transformation, and a CMYK image's
  darkest pixel counts too;
* images under 300 ppi at the size they are printed;
* RGB left in a CMYK file (colour operators, colour spaces, images, shadings);
* pages without a TrimBox or BleedBox;
* fonts not embedded.

Spot colours (the CutContour die line, the registration colour) are not process ink
and do not count toward the total. The figure is the ink a colour asks for wherever it
is painted inside the bounding box of its clip, also where later art covers it: a
rendering (Ghostscript's ``tiff32nc``, as ``tests/output/test_preflight.py`` does) shows the
same or less, never more.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pikepdf

from .pdfx import is_rgb_space, picture_of

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
        if depth > 12:
            return
        spaces = (resources.get("/ColorSpace") if resources is not None else None) or {}
        xobjects = (resources.get("/XObject") if resources is not None else None) or {}
        fill: float | None = 0.0  # percent of ink of the current colours; None: a spot colour
        stroke: float | None = 0.0
        fill_space = stroke_space = "/DeviceGray"
        width = 1.0
        text_mode = 0  # Tr: 0 fill, 1 stroke, 2 both, 3 invisible …
        stack: list = []
        path: list[tuple[float, float]] = []
        clipping = False  # W or W*: the path painted next (or ended by n) also clips
        alpha = [1.0, 1.0]  # the fill and stroke opacity (ExtGState /ca, /CA)
        states = (resources.get("/ExtGState") if resources is not None else None) or {}
        for ins in self._instructions(holder):
            if isinstance(ins, pikepdf.ContentStreamInlineImage):
                self.findings.append(Finding(self.number, "an inline image (not checked; cardgen draws none)"))
                continue
            op, args = str(ins.operator), ins.operands
            if op == "q":
                stack.append((ctm, fill, stroke, fill_space, stroke_space, width, clip, text_mode, list(alpha)))
            elif op == "Q" and stack:
                ctm, fill, stroke, fill_space, stroke_space, width, clip, text_mode, alpha = stack.pop()
            elif op == "gs":
                state = states.get(str(args[0]))
                if state is not None:
                    alpha = [float(state.get("/ca", alpha[0])), float(state.get("/CA", alpha[1]))]
            elif op in ("W", "W*"):
                clipping = True
            elif op == "cm":
                ctm = _mul(tuple(float(v) for v in args), ctm)  # type: ignore[arg-type]
            elif op == "w":
                width = float(args[0])
            elif op == "Tr":
                text_mode = int(args[0])
            elif op in ("k", "K"):
                total = 100 * sum(float(v) for v in args)
                fill, stroke = (total, stroke) if op == "k" else (fill, total)
                fill_space, stroke_space = ("/DeviceCMYK", stroke_space) if op == "k" else (fill_space,
                                                                                            "/DeviceCMYK")
            elif op in ("g", "G"):
                total = 100 * (1 - float(args[0]))
                fill, stroke = (total, stroke) if op == "g" else (fill, total)
            elif op in ("rg", "RG"):
                self.rgb.add(f"'{op}' colour operators")
                total = 0.0  # no ink a shop could count: the RGB finding says it
                fill, stroke = (total, stroke) if op == "rg" else (fill, total)
            elif op in ("cs", "CS"):
                name = str(args[0])
                space = spaces.get(name, pikepdf.Name(name)) if name.startswith("/") else None
                if space is not None and is_rgb_space(space):
                    self.rgb.add("an RGB colour space")
                if op == "cs":
                    fill_space = name
                else:
                    stroke_space = name
            elif op in ("sc", "scn", "SC", "SCN"):
                space = fill_space if op in ("sc", "scn") else stroke_space
                ink = self._space_ink(spaces, space, args)
                fill, stroke = (ink, stroke) if op in ("sc", "scn") else (fill, ink)
            elif op in PATH_BUILD:
                nums = [float(v) for v in args if _is_num(v)]
                if op == "re" and len(nums) == 4:
                    x, y, w, h = nums
                    path += [_apply(ctm, x, y), _apply(ctm, x + w, y + h), _apply(ctm, x + w, y), _apply(ctm, x, y + h)]
                else:
                    path += [_apply(ctm, nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2)]
            elif op in PAINT_FILL or op in PAINT_STROKE or op == "n":
                if path:
                    xs, ys = [p[0] for p in path], [p[1] for p in path]
                    outline = (min(xs), min(ys), max(xs), max(ys))
                    grow = width * math.hypot(ctm[0], ctm[1]) / 2 if op in PAINT_STROKE else 0.0
                    box = _within((outline[0] - grow, outline[1] - grow, outline[2] + grow, outline[3] + grow), clip)
                    if op in PAINT_FILL and fill is not None and box is not None:
                        self._ink(fill, box, alpha[0])
                    if op in PAINT_STROKE and stroke is not None and box is not None:
                        self._ink(stroke, box, alpha[1])
                    if clipping:
                        clip = _within(outline, clip) or (0.0, 0.0, 0.0, 0.0)
                clipping = False
                path = []
            elif op in TEXT_SHOW:
                origin = _apply(ctm, 0, 0)
                spot = _within((origin[0], origin[1], origin[0], origin[1]), clip)
                for ink, used in ((fill, text_mode in (0, 2, 4, 6)), (stroke, text_mode in (1, 2, 5, 6))):
                    if used and ink is not None and spot is not None:
                        self._ink(ink, spot, alpha[0])
            elif op == "sh":
                self._shading(resources, str(args[0]), ctm)
            elif op == "Do":
                obj = xobjects.get(str(args[0]))
                if obj is None:
                    continue
                if obj.get("/Subtype") == "/Form":
                    matrix = tuple(float(v) for v in obj.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                    self._walk(obj, obj.get("/Resources") or resources, _mul(matrix, ctm),  # type: ignore[arg-type]
                               depth + 1, clip)
                elif obj.get("/Subtype") == "/Image":
                    self._image(obj, str(args[0]), ctm, clip, alpha[0])
        if depth == 0:
            self._finish()

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
            walker = _Page(pdf, page, n, limit, min_ppi, cmyk_file, parsed)
            walker.image_ink = image_ink
            walker.run()
            findings += walker.findings
            inks.append(walker.ink)
            findings += _unembedded(page, n, fonts_seen)
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
