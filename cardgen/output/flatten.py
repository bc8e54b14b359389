"""Live transparency flattened into opaque CMYK, as PDF/X-1a asks, exactly.

Runs on a print-shop file already in CMYK (:class:`~cardgen.output.pdfx.Rewriter`), one
content stream at a time (a page, a face's form), following the graphics state. A
translucent paint (fill or stroke opacity below 1, an image with a soft mask) is made
opaque by compositing it in **DeviceCMYK**, ink by ink: ``a·F + (1 − a)·B`` for a colour
``F`` at opacity ``a`` over inks ``B``. That is the Normal blend mode in the CMYK blending
space a shop's RIP composites the PDF/X-4 file in, so both files print the same inks
(an sRGB composite converted afterwards would not, and could exceed the ink limit; a
convex mix of colours within the limit stays within it).

* **Over one flat colour** (the topmost paint under the op, a process colour, covers
  all of it; or nothing is under it but paper): the op is painted in the composite
  colour. An image with a soft mask is composited pixel by pixel onto that colour and
  placed without its mask.
* **Over several colours** (a fill or an undashed stroke across patterns, text, other
  shapes): the op's area becomes a clip (the path itself for a fill, the stroke's
  outline to 0.001 unit for a stroke) and everything painted before under that area
  is painted again inside it with every colour composited with ``F`` (CMYK images
  pixel by pixel, gradients by their end colours, which mixes exactly), over ``a·F``
  for the paper.
* Anything else (translucent text or an image over several colours, spot colours,
  gradients or soft-mask states under a translucent op, another blend mode) cannot be
  flattened exactly: :class:`NotFlattenable` names the op and where it lies, and the
  build stops with that line (nothing is written).

Where things lie is known from the paths' outlines (shapely), taken a little larger
for "does this touch that" and a little smaller for "does this cover that", so an
uncertain case is never taken for a flat one; text counts as lying everywhere.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace
from typing import Any, cast

import pikepdf
import shapely
from pikepdf import Array, Dictionary, Name, Operator
from shapely import affinity
from shapely.geometry import LinearRing, LineString, Point, Polygon, box

from ..base.errors import CardgenError

EPS = 0.005  # user units (mm in a face's form): how far "touches" and "covers" are made safe
OUTLINE_TOLERANCE = 0.001  # a stroke's outline, as a clip, is within this of the true one
EVERYWHERE = box(-1e7, -1e7, 1e7, 1e7)
PATH_OPS = {"m", "l", "c", "v", "y", "h", "re"}
FILL_OPS = {"f": False, "F": False, "f*": True}  # even-odd?
STROKE_OPS = {"S", "s"}
BOTH_OPS = {"B": False, "B*": True, "b": False, "b*": True}
TEXT_SHOW = {"Tj", "TJ", "'", '"'}
LINE_STATE = {"w", "J", "j", "M", "d"}
TEXT_STATE = {"Tf", "Tc", "Tw", "Tz", "TL", "Ts", "Tr", "Tm", "Td", "TD", "T*"}
COLOUR_OPS = {"k", "K", "g", "G", "sc", "scn", "SC", "SCN", "rg", "RG"}
Inks = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class NotFlattenable(CardgenError):
    """A translucent op that cannot be made opaque exactly."""


def _mul(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _inverse(m: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def _shapely(m: Matrix) -> list[float]:
    return [m[0], m[2], m[1], m[3], m[4], m[5]]


def _num(v) -> float:
    return float(v)


@dataclass
class State:
    """What ``q`` saves: the parts of the graphics state the flattener follows."""

    ctm: Matrix = IDENTITY
    clip_outer: Any = EVERYWHERE  # the clip, a little larger than it is (a shapely geometry)
    clip_inner: Any = EVERYWHERE  # and a little smaller
    fill: Inks | None = (0.0, 0.0, 0.0, 1.0)  # None: a colour that is no process colour (spot, pattern)
    stroke: Inks | None = (0.0, 0.0, 0.0, 1.0)
    fill_space: str = "/DeviceGray"
    stroke_space: str = "/DeviceGray"
    fill_alpha: float = 1.0
    stroke_alpha: float = 1.0
    width: float = 1.0
    cap: int = 0
    join: int = 0
    miter: float = 10.0
    dashed: bool = False


@dataclass
class TextState:
    """The text state a show's extent depends on (kept across BT/ET, as PDF keeps it)."""

    font: str | None = None
    size: float = 0.0
    char_space: float = 0.0
    word_space: float = 0.0
    scale: float = 1.0
    leading: float = 0.0
    rise: float = 0.0
    mode: int = 0


@dataclass
class Record:
    """Something painted: where (a little larger), what it covers for sure (or None),
    its colour when it is one flat process colour (else None)."""

    touches: Any  # shapely geometries
    covers: Any | None
    colour: Inks | None


@dataclass
class Item:
    operands: list
    op: str
    record: int | None = None  # the paint this instruction belongs to (dropped with it)


@dataclass
class Placement:
    """Where a translucent op is, for the message that it cannot be flattened."""

    what: str
    alpha: float
    area: object


def _subpaths(ops: list[Item]) -> tuple[list[list[tuple[float, float]]], list[bool]]:
    """The subpaths of a path (curves as short chords) and whether each is closed."""
    paths: list[list[tuple[float, float]]] = []
    closed: list[bool] = []
    here = (0.0, 0.0)
    for it in ops:
        v = [_num(x) for x in it.operands]
        if it.op == "m":
            paths.append([(v[0], v[1])])
            closed.append(False)
            here = (v[0], v[1])
        elif it.op == "re":
            x, y, w, h = v
            paths.append([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)])
            closed.append(True)
            here = (x, y)
        elif it.op == "h":
            if paths:
                closed[-1] = True
                here = paths[-1][0]
        elif not paths:
            continue
        elif it.op == "l":
            here = (v[0], v[1])
            paths[-1].append(here)
        else:
            if it.op == "c":
                p1, p2, p3 = (v[0], v[1]), (v[2], v[3]), (v[4], v[5])
            elif it.op == "v":
                p1, p2, p3 = here, (v[0], v[1]), (v[2], v[3])
            else:  # y
                p1, p2, p3 = (v[0], v[1]), (v[2], v[3]), (v[2], v[3])
            paths[-1].extend(_bezier(here, p1, p2, p3))
            here = p3
    return paths, closed


def _bezier(p0, p1, p2, p3) -> list[tuple[float, float]]:
    length = math.dist(p0, p1) + math.dist(p1, p2) + math.dist(p2, p3)
    n = max(4, min(2000, int(length / 0.05) + 4))
    out = []
    for i in range(1, n + 1):
        t = i / n
        s = 1 - t
        out.append((s ** 3 * p0[0] + 3 * s * s * t * p1[0] + 3 * s * t * t * p2[0] + t ** 3 * p3[0],
                    s ** 3 * p0[1] + 3 * s * s * t * p1[1] + 3 * s * t * t * p2[1] + t ** 3 * p3[1]))
    return out


def _polygons(paths, closed) -> tuple[object, object]:
    """A fill's area: (the union of its subpaths, the even-odd area, which lies inside
    the union and inside the non-zero area)."""
    polys = [shapely.make_valid(Polygon(pts)).buffer(0) for pts in paths if len(pts) >= 3]
    if not polys:
        return Polygon(), Polygon()
    odd = polys[0]
    for poly in polys[1:]:
        odd = odd.symmetric_difference(poly)
    return shapely.union_all(polys), odd


def _stroke_area(paths, closed, g: State, grow: float = 0.0):
    """A stroke's outline in user space (before the CTM)."""
    cap = {0: "flat", 1: "round", 2: "square"}.get(g.cap, "flat")
    join = {0: "mitre", 1: "round", 2: "bevel"}.get(g.join, "mitre")
    half = max(g.width, 1e-4) / 2 + grow
    parts = []
    for pts, shut in zip(paths, closed):
        if len(pts) == 1:
            if cap == "round":
                parts.append(Point(pts[0]).buffer(half))
            continue
        line = LinearRing(pts) if shut and len(set(pts)) >= 3 else LineString(pts)
        parts.append(line.buffer(half, quad_segs=32, cap_style=cap, join_style=join, mitre_limit=g.miter))
    return shapely.union_all(parts) if parts else Polygon()


def blend(top: Inks, alpha: float, under: Inks) -> Inks:
    """``top`` at opacity ``alpha`` over ``under``, ink by ink (Normal, DeviceCMYK)."""
    return tuple(round(alpha * t + (1 - alpha) * u, 4) for t, u in zip(top, under))  # type: ignore[return-value]


def gray_inks(g: float) -> Inks:
    return (0.0, 0.0, 0.0, round(1 - g, 4))


class StreamFlattener:
    """One content stream made opaque."""

    def __init__(self, owner: Flattener, holder, resources, area: tuple[float, float, float, float],
                 where: str, on_paper: bool):
        self.owner = owner
        self.holder = holder
        self.resources = resources if resources is not None else Dictionary()
        self.area = area  # the stream's extent, in its own units (a form's BBox, a page's MediaBox)
        self.where = where
        self.on_paper = on_paper  # nothing lies under the stream but paper
        self.g = State()
        self.stack: list[State] = []
        self.out: list[Item] = []
        self.records: list[Record] = []
        self.path: list[Item] = []
        self.clip_op: str | None = None
        self.knockout: set[int] = set()  # the fill of a B op, which its stroke composites beside, not over
        self.changed = False
        self.in_text = False
        self.tm = self.tlm = IDENTITY
        self.ts = TextState()
        owner.walked.append((holder, self.resources))

    # -- walking ---------------------------------------------------------------
    def run(self) -> None:
        for ins in pikepdf.parse_content_stream(self.holder):
            if isinstance(ins, pikepdf.ContentStreamInlineImage):
                raise self._cannot("an inline image", 1.0, EVERYWHERE, "cardgen draws none")
            self.step(list(ins.operands), str(ins.operator))
        if self.changed:
            data = pikepdf.unparse_content_stream([(it.operands, Operator(it.op)) for it in self.out])
            self.owner.write(self.holder, data)

    def step(self, args: list, op: str) -> None:
        if op in PATH_OPS:
            self.path.append(Item(args, op))
            return
        if op in ("W", "W*"):
            self.clip_op = op
            return
        if op in FILL_OPS or op in STROKE_OPS or op in BOTH_OPS or op == "n":
            self.paint(op)
            return
        if op in ("q", "Q", "cm"):
            self.save_restore(op, args)
        elif op in LINE_STATE:
            self.line_state(op, args)
        elif op == "gs":
            self.ext_state(args)
        elif op in COLOUR_OPS or op in ("cs", "CS"):
            self.colour(op, args)
        elif op == "BT":
            self.in_text = True
            self.tm = self.tlm = IDENTITY
        elif op == "ET":
            self.in_text = False
        elif op in TEXT_STATE:
            self.text_state(op, args)
        elif op in TEXT_SHOW:
            self.text(op, args)
            return
        elif op == "Do":
            self.place(args)
            return
        elif op == "sh":
            self.record(EVERYWHERE, None, None)
            self.out.append(Item(args, op, len(self.records) - 1))
            return
        self.out.append(Item(args, op))

    def save_restore(self, op: str, args) -> None:
        if op == "q":
            self.stack.append(replace(self.g))
        elif op == "Q":
            if self.stack:
                self.g = self.stack.pop()
        else:
            self.g.ctm = _mul(tuple(_num(v) for v in args), self.g.ctm)  # type: ignore[arg-type]

    def line_state(self, op: str, args) -> None:
        g = self.g
        if op == "w":
            g.width = _num(args[0])
        elif op == "J":
            g.cap = int(args[0])
        elif op == "j":
            g.join = int(args[0])
        elif op == "M":
            g.miter = _num(args[0])
        else:  # d
            g.dashed = len(args[0]) > 0

    def ext_state(self, args) -> None:
        state = (self.resources.get("/ExtGState") or {}).get(str(args[0]))
        if state is None:
            return
        mask = state.get("/SMask")
        if mask is not None and mask != Name("/None"):
            raise self._cannot("a soft-mask graphics state", 1.0, EVERYWHERE, "a soft mask cannot be composited here")
        mode = state.get("/BM")
        if mode is not None and str(mode if not isinstance(mode, Array) else mode[0]) not in ("/Normal", "/Compatible"):
            raise self._cannot(f"a {str(mode).lstrip('/')} blend", 1.0, EVERYWHERE, "only the Normal blend mode is")
        self.g.fill_alpha = _num(state.get("/ca", self.g.fill_alpha))
        self.g.stroke_alpha = _num(state.get("/CA", self.g.stroke_alpha))

    def colour(self, op: str, args) -> None:
        g = self.g
        fill = op[0].islower()
        if op in ("cs", "CS"):
            name = str(args[0])
            space = (self.resources.get("/ColorSpace") or {}).get(name, Name(name)) if name.startswith("/") else None
            space_name = str(space) if isinstance(space, Name) else "other"
            black: Inks | None = (0.0, 0.0, 0.0, 1.0) if space_name in ("/DeviceCMYK", "/DeviceGray") else None
            if fill:
                g.fill_space, g.fill = space_name, black
            else:
                g.stroke_space, g.stroke = space_name, black
            return
        v = [_num(x) for x in args if not isinstance(x, Name)]
        if op in ("k", "K"):
            inks: Inks | None = (v[0], v[1], v[2], v[3])
            space = "/DeviceCMYK"
        elif op in ("g", "G"):
            inks, space = gray_inks(v[0]), "/DeviceGray"
        elif op in ("rg", "RG"):
            inks, space = None, "/DeviceRGB"
        else:
            space = g.fill_space if fill else g.stroke_space
            inks = (tuple(v[:4]) if space == "/DeviceCMYK" and len(v) == 4 else  # type: ignore[assignment]
                    gray_inks(v[0]) if space == "/DeviceGray" and v else None)
        if fill:
            g.fill, g.fill_space = inks, space
        else:
            g.stroke, g.stroke_space = inks, space

    # -- geometry ---------------------------------------------------------------
    def _to_stream(self, geom):
        return affinity.affine_transform(geom, _shapely(self.g.ctm))

    def record(self, touches, covers, colour: Inks | None) -> int:
        self.records.append(Record(touches, covers, colour))
        return len(self.records) - 1

    def backdrop(self, area) -> Inks | None:
        """The one flat colour under ``area`` (stream space), or None when there are several."""
        shapely.prepare(area)
        for i in range(len(self.records) - 1, -1, -1):
            rec = self.records[i]
            if i in self.knockout or not _meet(rec.touches, area):
                continue
            if rec.colour is not None and rec.covers is not None and rec.covers.contains(area):
                return rec.colour
            return None
        return (0.0, 0.0, 0.0, 0.0) if self.on_paper else None

    # -- painting ---------------------------------------------------------------
    def paint(self, op: str) -> None:
        path, self.path = self.path, []
        clip_op, self.clip_op = self.clip_op, None
        g = self.g
        paths, closed = _subpaths(path)
        if op in BOTH_OPS:  # a fill, then its stroke: two paints, the stroke knocking the fill out
            fill_op = "f*" if BOTH_OPS[op] else "f"
            close = [Item([], "h")] if op in ("b", "b*") else []
            before = len(self.records)
            self._paint_fill(path + close, fill_op, paths, closed, clip_op=None)
            self.knockout = set(range(before, len(self.records)))
            self._paint_stroke(path + close, "S", paths, [True] * len(closed) if close else closed, clip_op)
            self.knockout = set()
        elif op in FILL_OPS:
            self._paint_fill(path, op, paths, closed, clip_op)
        elif op in STROKE_OPS:
            self._paint_stroke(path, op, paths, [True] * len(closed) if op == "s" else closed, clip_op)
        else:  # n: only a clip, perhaps
            self.out.extend(path)
            if clip_op:
                self.out.append(Item([], clip_op))
            self.out.append(Item([], "n"))
        if clip_op:
            union, odd = _polygons(paths, closed)
            g.clip_outer = g.clip_outer.intersection(self._to_stream(union).buffer(EPS))
            g.clip_inner = g.clip_inner.intersection(self._to_stream(odd).buffer(-EPS))

    def _paint_fill(self, path, op, paths, closed, clip_op) -> None:
        g = self.g
        union, odd = _polygons(paths, closed)
        touches = self._to_stream(union).buffer(EPS).intersection(g.clip_outer)
        covers = self._to_stream(odd).buffer(-EPS).intersection(g.clip_inner)
        self._emit(path, op, clip_op, g.fill, g.fill_alpha, touches, covers, fill=True,
                   clip_path=lambda: path + [Item([], "W*" if FILL_OPS[op] else "W"), Item([], "n")])

    def _paint_stroke(self, path, op, paths, closed, clip_op) -> None:
        g = self.g
        # square caps reach past butt and round ones; shapely's miter limit is PDF's, a miter
        # over it cut further out than PDF's bevel; 0.05: the thinnest line a device draws
        wide = replace(g, cap=2)
        touches = self._to_stream(_stroke_area(paths, closed, wide, grow=0.05)).buffer(EPS).intersection(g.clip_outer)

        def clip_path() -> list[Item]:
            if g.dashed:
                raise self._cannot("a dashed translucent stroke", g.stroke_alpha, touches,
                                   "it lies over several colours")
            outline = _stroke_area(paths, closed, g).simplify(OUTLINE_TOLERANCE)
            return _outline_ops(outline) + [Item([], "W*"), Item([], "n")]

        self._emit(path, op, clip_op, g.stroke, g.stroke_alpha, touches, None, fill=False, clip_path=clip_path)

    def _emit(self, path, op, clip_op, colour, alpha, touches, covers, fill: bool, clip_path) -> None:
        tail = [Item([], clip_op)] if clip_op else []
        if alpha >= 1:
            n = self.record(touches, covers, colour)
            self.out.extend(Item(it.operands, it.op, n) for it in path + tail)
            self.out.append(Item([], op, n))
            return
        what = "fill" if fill else "stroke"
        if colour is None:
            raise self._cannot(f"a translucent {what} in a spot or pattern colour", alpha, touches,
                               "only process colours mix")
        self.changed = True
        under = self.backdrop(touches)
        if under is not None:
            mixed = blend(colour, alpha, under)
            n = self.record(touches, covers, mixed)
            op_set = "k" if fill else "K"
            self.out.append(Item(list(mixed), op_set, n))
            self.out.extend(Item(it.operands, it.op, n) for it in path + tail)
            self.out.append(Item([], op, n))
            self.out.append(self._current_colour(fill))
            return
        if not self.on_paper:
            raise self._cannot(f"a translucent {what}", alpha, touches, "what lies under this form is not known")
        prefix = list(self.out)
        n = self.record(touches, None, None)
        clip = clip_path()
        self.out.append(Item([], "q", n))
        self.out.extend(Item(it.operands, it.op, n) for it in clip)
        self.out.extend(self._replay(prefix, colour, alpha, touches, n))
        self.out.append(Item([], "Q", n))
        if clip_op:  # the painted path also clipped what follows
            self.out.extend(path + tail)
            self.out.append(Item([], "n"))

    def _current_colour(self, fill: bool) -> Item:
        """The colour in force, set again after a composite colour was painted."""
        g = self.g
        inks = g.fill if fill else g.stroke
        space = g.fill_space if fill else g.stroke_space
        if inks is None or space not in ("/DeviceCMYK", "/DeviceGray"):
            raise CardgenError(f"{self.where}: a colour the flattener cannot set again")
        return Item([round(v, 4) for v in inks], "k" if fill else "K")

    def _replay(self, prefix: list[Item], colour: Inks, alpha: float, area, n: int) -> list[Item]:
        """Everything painted before under ``area``, again, each colour composited with
        ``colour`` at ``alpha``, over the paper composited so (the clip is set)."""
        inverse = _inverse(self.g.ctm)
        x0, y0, x1, y1 = self.area
        body: list[Item] = [Item(list(inverse), "cm", n), Item(list(blend(colour, alpha, (0, 0, 0, 0))), "k", n),
                            Item([x0, y0, x1 - x0, y1 - y0], "re", n), Item([], "f", n)]
        fill_space = stroke_space = "/DeviceGray"
        depth = 0
        shapely.prepare(area)
        keep: dict[int, bool] = {}
        for it in prefix:
            if it.record is not None:
                if it.record not in keep:
                    keep[it.record] = it.record not in self.knockout and _meet(self.records[it.record].touches, area)
                if not keep[it.record]:
                    continue
            op, args = it.op, it.operands
            if op == "q":
                depth += 1
            elif op == "Q":
                depth -= 1
            if op in ("cs", "CS"):
                name = str(args[0])
                if name not in ("/DeviceCMYK", "/DeviceGray"):
                    raise self._cannot("a translucent op", alpha, area, f"a {name.lstrip('/')} colour lies under it")
                if op == "cs":
                    fill_space = name
                else:
                    stroke_space = name
                body.append(Item([Name.DeviceCMYK], op, n))
                continue
            if op in COLOUR_OPS:
                space = "/DeviceCMYK" if op in ("k", "K") else "/DeviceGray" if op in ("g", "G") else \
                    (fill_space if op.islower() else stroke_space)
                v = [_num(x) for x in args]
                if op in ("rg", "RG") or space not in ("/DeviceCMYK", "/DeviceGray"):
                    raise self._cannot("a translucent op", alpha, area, "a colour other than CMYK lies under it")
                inks = tuple(v[:4]) if space == "/DeviceCMYK" else gray_inks(v[0])
                mixed = list(blend(colour, alpha, inks))  # type: ignore[arg-type]
                body.append(Item(mixed, ("k" if op.islower() else "K") if op in ("k", "K", "g", "G") else op, n))
                continue
            if op == "Do":
                body.append(Item([self.owner.mixed_image(self.resources, str(args[0]), colour, alpha, self.where)],
                                 "Do", n))
                continue
            if op == "sh":
                body.append(Item([self.owner.mixed_shading(self.resources, str(args[0]), colour, alpha, self.where)],
                                 "sh", n))
                continue
            body.append(Item(args, op, n))
        body.extend(Item([], "Q", n) for _ in range(depth))
        return body

    def text_state(self, op: str, args) -> None:
        ts = self.ts
        v = [_num(x) for x in args if not isinstance(x, Name)]
        if op == "Tf":
            ts.font, ts.size = str(args[0]), v[0]
        elif op == "Tc":
            ts.char_space = v[0]
        elif op == "Tw":
            ts.word_space = v[0]
        elif op == "Tz":
            ts.scale = v[0] / 100
        elif op == "TL":
            ts.leading = v[0]
        elif op == "Ts":
            ts.rise = v[0]
        elif op == "Tr":
            ts.mode = int(v[0])
        elif op == "Tm":
            self.tm = self.tlm = tuple(v[:6])  # type: ignore[assignment]
        elif op in ("Td", "TD"):
            if op == "TD":
                ts.leading = -v[1]
            self.tm = self.tlm = _mul((1, 0, 0, 1, v[0], v[1]), self.tlm)
        elif op == "T*":
            self.tm = self.tlm = _mul((1, 0, 0, 1, 0, -ts.leading), self.tlm)

    def _text_area(self, op: str, args):
        """Where a text show paints (stream space, a little larger), and the text matrix
        moved past it; EVERYWHERE when the font's widths are not known."""
        ts = self.ts
        if op in ("'", '"'):
            if op == '"':
                ts.word_space, ts.char_space = _num(args[0]), _num(args[1])
            self.tm = self.tlm = _mul((1, 0, 0, 1, 0, -ts.leading), self.tlm)
        font = (self.resources.get("/Font") or {}).get(ts.font or "")
        metrics = self.owner.font_metrics(font)
        if metrics is None:
            return EVERYWHERE
        widths, first, fallback, glyphs = metrics
        advance = 0.0
        size, scale = ts.size, ts.scale
        x0 = y0 = math.inf
        x1 = y1 = -math.inf
        parts = [args[-1]] if op != "TJ" else list(args[0])
        for part in parts:
            if isinstance(part, pikepdf.String):
                for code in bytes(part):
                    gx0, gy0, gx1, gy1 = glyphs.get(code, fallback)
                    x0, x1 = min(x0, advance + gx0 * size * scale), max(x1, advance + gx1 * size * scale)
                    y0, y1 = min(y0, gy0 * size), max(y1, gy1 * size)
                    w = widths[code - first] if 0 <= code - first < len(widths) else 1000.0
                    advance += (w / 1000 * size + ts.char_space + (ts.word_space if code == 32 else 0)) * scale
            else:
                advance -= _num(part) / 1000 * size * scale
        if x0 == math.inf:
            self.tm = _mul((1, 0, 0, 1, advance, 0), self.tm)
            return Polygon()
        grow = self.g.width if ts.mode in (1, 2, 5, 6) else 0.0
        local = box(x0 - grow, y0 + ts.rise - grow, x1 + grow, y1 + ts.rise + grow)
        area = affinity.affine_transform(local, _shapely(_mul(self.tm, self.g.ctm)))
        self.tm = _mul((1, 0, 0, 1, advance, 0), self.tm)
        return area.buffer(EPS)

    def text(self, op: str, args) -> None:
        g = self.g
        alpha = g.fill_alpha
        area = self._text_area(op, args).intersection(g.clip_outer)
        if self.ts.mode >= 4:  # text that also clips: what is covered for sure is no longer known
            g.clip_inner = Polygon()
        n = self.record(area, None, None)
        if alpha >= 1 or self.ts.mode in (3, 7):
            self.out.append(Item(args, op, None))
            return
        if g.fill is None:
            raise self._cannot("translucent text in a spot colour", alpha, EVERYWHERE, "only process colours mix")
        self.changed = True
        under = self.backdrop(area)
        if under is None:
            raise self._cannot("translucent text", alpha, area, "it lies over several colours")
        self.out.append(Item(list(blend(g.fill, alpha, under)), "k", n))
        self.out.append(Item(args, op, None))
        self.out.append(self._current_colour(True))

    def place(self, args) -> None:
        name = str(args[0])
        obj = (self.resources.get("/XObject") or {}).get(name)
        g = self.g
        if obj is None:
            self.out.append(Item(args, "Do"))
            return
        if obj.get("/Subtype") == Name.Form:
            matrix = cast(Matrix, tuple(_num(v) for v in obj.get("/Matrix", [1, 0, 0, 1, 0, 0])))
            bbox = [_num(v) for v in obj.get("/BBox", [0, 0, 0, 0])]
            area = self._to_stream(affinity.affine_transform(box(*bbox), _shapely(matrix))).buffer(EPS)
            on_paper = self.on_paper and not any(r.touches.intersects(area) for r in self.records)
            self.owner.form_placed(obj, on_paper)
            n = self.record(area.intersection(g.clip_outer), None, None)
            self.out.append(Item(args, "Do", n))
            return
        corners = Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
        translucent = g.fill_alpha < 1 or obj.get("/SMask") is not None
        if not translucent:
            touches = self._to_stream(corners).buffer(EPS).intersection(g.clip_outer)
            n = self.record(touches, None, None)
            self.out.append(Item(args, "Do", n))
            return
        self.changed = True
        picture, alpha = self.owner.image_alpha(obj, g.fill_alpha, self.where)
        shown = footprint(alpha)  # where the image paints at all, in its unit square
        touches = self._to_stream(shown).buffer(EPS).intersection(g.clip_outer)
        under = self.backdrop(touches)
        if under is None:
            raise self._cannot("a translucent image", g.fill_alpha, touches, "it lies over several colours")
        flat = self.owner.image_on(self.resources, picture, alpha, under)
        n = self.record(touches, None, None)
        whole = shown.equals(corners)
        if not whole:  # the pixels it does not show stay unpainted: a clip along their edges
            self.out.append(Item([], "q", n))
            self.out.extend(Item(it.operands, it.op, n) for it in _outline_ops(shown, 6))
            self.out.extend([Item([], "W*", n), Item([], "n", n)])
        self.out.append(Item([flat], "Do", n))
        if not whole:
            self.out.append(Item([], "Q", n))

    def _cannot(self, what: str, alpha: float, area, why: str) -> NotFlattenable:
        place = ""
        if not area.is_empty and area is not EVERYWHERE:
            x0, y0, x1, y1 = area.bounds
            place = f" at x {x0:.1f}–{x1:.1f}, y {y0:.1f}–{y1:.1f}"
        alpha_text = f" (opacity {alpha:g})" if alpha < 1 else ""
        return NotFlattenable(f"{self.where}: {what}{alpha_text}{place} cannot be flattened exactly for PDF/X-1a "
                              f"({why}); draw it opaque, or build with --pdfx 4")


def _meet(a, b) -> bool:
    """Whether two areas touch (their boxes first: most do not)."""
    ax0, ay0, ax1, ay1 = a.bounds
    bx0, by0, bx1, by1 = b.bounds
    if a.is_empty or b.is_empty or ax1 < bx0 or bx1 < ax0 or ay1 < by0 or by1 < ay0:
        return False
    return b.intersects(a)


def translucent(holder, depth: int = 0) -> bool:
    """Whether a page or form, or a form it places, draws anything translucent."""
    res = holder.get("/Resources") or {}
    for state in (res.get("/ExtGState") or {}).values():
        if _num(state.get("/ca", 1)) < 1 or _num(state.get("/CA", 1)) < 1 or \
                state.get("/SMask", Name("/None")) != Name("/None") or \
                str(state.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
            return True
    for x in (res.get("/XObject") or {}).values():
        if "/SMask" in x or (x.get("/Subtype") == Name.Form and depth < 8 and translucent(x, depth + 1)):
            return True
    return False


def _glyph_boxes(font) -> dict[int, tuple[float, float, float, float]]:
    """Each code's glyph outline box (text space units of 1) from an embedded TrueType
    program, a little larger; empty when it cannot be read (the FontBBox serves then)."""
    import io

    from fontTools.ttLib import TTFont

    program = font.FontDescriptor.get("/FontFile2")
    if program is None:
        return {}
    try:
        tt = TTFont(io.BytesIO(program.read_bytes()))
        em = tt["head"].unitsPerEm
        glyf = tt["glyf"]
        table = tt["cmap"].getcmap(1, 0) or tt["cmap"].getcmap(3, 0) or tt["cmap"].getcmap(3, 1)
        boxes = {}
        for code, name in (table.cmap if table else {}).items():
            g = glyf[name]
            if not hasattr(g, "xMin"):  # a glyph without outline (a space) paints nothing
                boxes[code & 0xFF] = (0.0, 0.0, 0.0, 0.0)
                continue
            slack = 0.01 * em
            boxes[code & 0xFF] = ((g.xMin - slack) / em, (g.yMin - slack) / em, (g.xMax + slack) / em,
                                  (g.yMax + slack) / em)
        return boxes
    except Exception:  # a font program fontTools cannot read: the FontBBox is used  # noqa: BLE001
        return {}


def footprint(alpha):
    """Where an image with opacities ``alpha`` (a Pillow L image) paints anything, in its
    unit square (row 0 at the top): the union of its runs of pixels above 0."""
    w, h = alpha.size
    if alpha.getextrema()[0] > 0:
        return Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
    data = alpha.tobytes()
    runs = []
    for j in range(h):
        row = data[j * w:(j + 1) * w]
        i = 0
        while i < w:
            if row[i]:
                start = i
                while i < w and row[i]:
                    i += 1
                runs.append(box(start / w, 1 - (j + 1) / h, i / w, 1 - j / h))
            i += 1
    return shapely.union_all(runs) if runs else Polygon()


def _outline_ops(outline, digits: int = 4) -> list[Item]:
    """A polygon (or several) as path operators, holes and all (for an even-odd clip)."""
    ops: list[Item] = []
    polys = getattr(outline, "geoms", [outline])
    for poly in polys:
        if poly.is_empty or not isinstance(poly, Polygon):
            continue
        for ring in [poly.exterior, *poly.interiors]:
            pts = list(ring.coords)[:-1]
            if len(pts) < 3:
                continue
            ops.append(Item([round(pts[0][0], digits), round(pts[0][1], digits)], "m"))
            ops.extend(Item([round(x, digits), round(y, digits)], "l") for x, y in pts[1:])
            ops.append(Item([], "h"))
    return ops


@dataclass
class Flattener:
    """Every content stream of a print-shop file made opaque (see the module's doc).
    ``faces``: what each page prints ("anubis front"), for the messages."""

    pdf: pikepdf.Pdf
    label: str
    faces: list[str] = field(default_factory=list)
    forms: dict = field(default_factory=dict)  # objgen → (form, on paper at every placement, first page)
    walked: list = field(default_factory=list)  # every stream walked, with its resources
    _fonts: dict = field(default_factory=dict)
    _page: int = 0
    _count: int = 0

    def run(self) -> None:
        for number, page in enumerate(self.pdf.pages, start=1):
            self._page = number
            if not translucent(page.obj):
                continue  # nothing to flatten on this page, nor in the forms it places
            media = [_num(v) for v in page.obj.MediaBox]
            StreamFlattener(self, page.obj, page.obj.get("/Resources"), tuple(media), self._where(number),  # type: ignore[arg-type]
                            on_paper=True).run()
        done: set = set()
        while len(done) < len(self.forms):
            key = next(k for k in self.forms if k not in done)
            done.add(key)
            form, on_paper, first = self.forms[key]
            bbox = tuple(_num(v) for v in form.get("/BBox", [0, 0, 0, 0]))
            StreamFlattener(self, form, form.get("/Resources"), bbox, self._where(first) + " (in mm on the face)",  # type: ignore[arg-type]
                            on_paper=on_paper).run()
        self._strip()

    def font_metrics(self, font):
        """A simple font's widths, first code and FontBBox (in text space units of 1), or
        None (a composite font, or one without them)."""
        if font is None or "/Widths" not in font or "/FontDescriptor" not in font:
            return None
        key = font.objgen
        if key not in self._fonts or key == (0, 0):
            widths = [_num(w) for w in font.Widths]
            bbox = [_num(v) / 1000 for v in font.FontDescriptor.get("/FontBBox", [-1000, -1000, 2000, 2000])]
            self._fonts[key] = (widths, int(font.get("/FirstChar", 0)), tuple(bbox), _glyph_boxes(font))
        return self._fonts[key]

    def _where(self, page: int) -> str:
        face = f" ({self.faces[page - 1]})" if 0 < page <= len(self.faces) else ""
        return f"{self.label}: page {page}{face}"

    def form_placed(self, form, on_paper: bool) -> None:
        known = self.forms.get(form.objgen)
        if known is None:
            self.forms[form.objgen] = (form, on_paper, self._page)
        else:
            self.forms[form.objgen] = (form, known[1] and on_paper, known[2])

    def write(self, holder, data: bytes) -> None:
        if "/Type" in holder and holder.Type == Name.Page:
            contents = self.pdf.make_stream(b"")
            contents.write(zlib.compress(data, 6), filter=Name.FlateDecode)
            holder.Contents = contents
        else:
            holder.write(zlib.compress(data, 6), filter=Name.FlateDecode)

    def _new_name(self, resources, stem: str) -> Name:
        xobjects = resources.get("/XObject")
        if xobjects is None:
            resources.XObject = xobjects = Dictionary()
        while True:
            self._count += 1
            name = Name(f"/{stem}{self._count}")
            if name not in xobjects:
                return name

    def _cmyk_image(self, image, where: str):
        """An image's pixels as CMYK and its opacity per pixel (L, or None)."""
        from PIL import Image

        from .pdfx import picture_of

        space = image.get("/ColorSpace")
        if space == Name.DeviceCMYK:
            picture = picture_of(image, "CMYK")
        elif space == Name.DeviceGray:
            gray = picture_of(image, "L")
            zero = Image.new("L", gray.size, 0)
            picture = Image.merge("CMYK", (zero, zero, zero, gray.point(lambda v: 255 - v)))
        else:
            raise NotFlattenable(f"{where}: an image in {space} cannot be flattened (only CMYK and gray images are)")
        mask = image.get("/SMask")
        return picture, picture_of(mask, "L") if mask is not None else None

    def _add_image(self, resources, picture, stem: str) -> Name:
        stream = self.pdf.make_stream(b"")
        stream.write(zlib.compress(picture.tobytes(), 6), filter=Name.FlateDecode)
        stream.Type, stream.Subtype = Name.XObject, Name.Image
        stream.Width, stream.Height = picture.size
        stream.ColorSpace, stream.BitsPerComponent = Name.DeviceCMYK, 8
        name = self._new_name(resources, stem)
        resources.XObject[name] = stream
        return name

    def image_alpha(self, image, alpha: float, where: str):
        """An image's CMYK pixels and how opaque each is (its soft mask times ``alpha``)."""
        from PIL import Image

        picture, mask = self._cmyk_image(image, where)
        if mask is None:
            mask = Image.new("L", picture.size, 255)
        elif mask.size != picture.size:
            mask = mask.resize(picture.size, Image.Resampling.NEAREST)
        if alpha < 1:
            mask = mask.point(lambda v: round(v * alpha))
        return picture, mask

    def image_on(self, resources, picture, alpha, under: Inks) -> Name:
        """``picture`` composited by its opacities ``alpha`` onto ``under``, opaque."""
        from PIL import Image

        ground = Image.new("CMYK", picture.size, tuple(round(v * 255) for v in under))
        return self._add_image(resources, Image.composite(picture, ground, alpha), "Flat")

    def mixed_image(self, resources, name: str, colour: Inks, alpha: float, where: str) -> Name:
        """An opaque image with ``colour`` at ``alpha`` composited over every pixel."""
        from PIL import Image

        image = resources.XObject[name]
        if image.get("/Subtype") != Name.Image:
            raise NotFlattenable(f"{where}: a form under a translucent op cannot be flattened")
        picture, mask = self._cmyk_image(image, where)
        if mask is not None:
            raise NotFlattenable(f"{where}: an image with a soft mask under a translucent op cannot be flattened")
        top = Image.new("CMYK", picture.size, tuple(round(v * 255) for v in colour))
        return self._add_image(resources, Image.blend(picture, top, alpha), "Mixed")

    def mixed_shading(self, resources, name: str, colour: Inks, alpha: float, where: str) -> Name:
        shading = resources.Shading[name]
        if shading.get("/ColorSpace") != Name.DeviceCMYK:
            raise NotFlattenable(f"{where}: a gradient not in CMYK under a translucent op cannot be flattened")
        copy = Dictionary(shading.items())
        copy.Function = self._mixed_function(shading.get("/Function"), colour, alpha, where)
        self._count += 1
        new = Name(f"/MixedSh{self._count}")
        resources.Shading[new] = self.pdf.make_indirect(copy)
        return new

    def _mixed_function(self, function, colour, alpha, where):
        if isinstance(function, Array):
            return Array([self._mixed_function(f, colour, alpha, where) for f in function])
        kind = int(function.get("/FunctionType", -1))
        copy = Dictionary(function.items())
        if kind == 2:
            c0 = cast(Inks, tuple(_num(v) for v in function.get("/C0", [0, 0, 0, 0])))
            c1 = cast(Inks, tuple(_num(v) for v in function.get("/C1", [0, 0, 0, 1])))
            copy.C0 = Array(list(blend(colour, alpha, c0)))
            copy.C1 = Array(list(blend(colour, alpha, c1)))
            return self.pdf.make_indirect(copy)
        if kind == 3:
            copy.Functions = Array([self._mixed_function(f, colour, alpha, where) for f in function.Functions])
            return self.pdf.make_indirect(copy)
        raise NotFlattenable(f"{where}: a gradient of a type {kind} function under a translucent op cannot be flattened")

    def _strip(self) -> None:
        """No transparency left in the walked streams' resources: opacities, soft masks,
        blend modes, transparency groups, and images with a soft mask (each placement of
        one was composited)."""
        for holder, resources in self.walked:
            group = holder.get("/Group")
            if isinstance(group, Dictionary) and group.get("/S") == Name.Transparency:
                del holder["/Group"]
            for state in (resources.get("/ExtGState") or {}).values():
                for key in ("/ca", "/CA", "/SMask", "/BM", "/AIS"):
                    if key in state:
                        del state[key]
            xobjects = resources.get("/XObject") or {}
            for key in [k for k, x in xobjects.items() if isinstance(x, pikepdf.Stream) and "/SMask" in x]:
                del xobjects[key]
