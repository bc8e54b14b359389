"""Piece outlines, one class per shape: everything that differs between a rectangular
card and a round token, so that no other module asks which shape a piece has and a
new shape is one more class here.

A shape answers for its pieces: whether each needs its own bleed (cannot share cut
lines with a neighbour), how a sheet of them is planned (a grid, or a honeycomb for
hexes), the outline a placed piece is clipped to, the outline of its trim (proof
lines, image masks, the print shop's cut contour), its cut guides and crop marks, how
its back is outlined (mirrored), and how ``cardgen list`` states its size.
Millimetres, origin top-left, y down; values only, the writers draw them.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from ..layout.svgpath import parse_path
from ..model.components import Deck
from . import pathgeom
from .grid import SheetPlan, Slot, compact, marks_for, plan_sheet
from .honeycomb import HoneycombPlan, compact_honeycomb, plan_honeycomb
from .marks import (
    MIN_MARK,
    TICK_CLEAR,
    TICK_INSET,
    CutGuide,
    Mark,
    TrimCorner,
    bleed_ticks,
    circle_guides,
)
from .outlines import CircleOutline, Outline, PathOutline, RectOutline, rounded_rect

Sides = tuple[float, float, float, float]
"""Bleed a placed piece may show on its left, top, right and bottom (mm)."""


@dataclass(frozen=True)
class CutGuides:
    """How the pieces on a page are shown where to cut, besides the margin's crop marks."""

    ticks: tuple[Mark, ...] = ()  # short marks on the cut lines, in the pieces' outer bleed
    traced: tuple[CutGuide, ...] = ()  # trim lines drawn over the art, with their ticks


@dataclass(frozen=True)
class ProofLines:
    """A designer's proof overlay of one piece: its trim, bleed and safe-zone outlines."""

    trim: Outline
    bleed: Outline
    safe: Outline


class Shape(ABC):
    """The outline of a component's pieces (its ``shape`` in the game's YAML)."""

    name: ClassVar[str]
    own_bleed: ClassVar[bool] = False
    """Pieces cannot share cut lines, so each keeps its own bleed (a gutter layout)."""
    fills_trim_box: ClassVar[bool] = False
    """The cut piece is its whole trim box (no paper to mask around it in an image)."""
    traces_trim: ClassVar[bool] = True
    """Its cut guides trace the trim outline (a line drawn on the sheet, kept clear of the
    printer's blank band with its stroke), rather than extending straight cut lines."""

    @abstractmethod
    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        """The trim outline of a piece whose trim box is (x, y, w, h), moved ``inset`` mm
        inward (outward when negative: ``-bleed`` is the bleed's outer edge)."""

    @abstractmethod
    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        """What a placed piece shows of its face: its trim plus the bleed ``sides`` allow
        (none across a cut line shared with a neighbour); ``apart`` is whether the pieces
        stand apart on the sheet (a gutter layout) rather than touching."""

    @abstractmethod
    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """The cut guides of pieces of size ``item`` placed at ``slots``."""

    @abstractmethod
    def size_text(self, w: float, h: float) -> str:
        """The pieces' size as ``cardgen list`` prints it."""

    def proof_lines(self, x: float, y: float, w: float, h: float, bleed: float, safe: float) -> ProofLines:
        """Trim, bleed and safe-zone outlines of a piece whose trim box is (x, y, w, h)."""
        return ProofLines(self.outline(x, y, w, h, 0), self.outline(x, y, w, h, -bleed),
                          self.outline(x, y, w, h, safe))

    cut_contour: ClassVar[bool] = False
    """The print-shop file traces the trim outline in the ``CutContour`` spot colour and
    clips each page to the bleed outline (a die-cut shape, not a guillotined card)."""

    def plan(self, paper: tuple[float, float], item: tuple[float, float], bleed: float, *, name: str,
             paper_name: str) -> SheetPlan:
        """Where the pieces of a sheet go: a grid, gutter or butted."""
        return plan_sheet(paper, item, bleed, name=name, paper_name=paper_name, own_bleed=self.own_bleed)

    def compact(self, plan: SheetPlan, last_slot: int) -> SheetPlan:
        """A one-sided sheet's plan cut down to the slots up to ``last_slot``, centred."""
        return compact(plan, (last_slot // plan.cols + 1) * plan.cols)

    def crop_marks(self, plan: SheetPlan, slots: tuple[Slot, ...]) -> tuple[Mark, ...]:
        """The straight crop marks in the paper margin for the pieces in ``slots``."""
        return marks_for(plan, slots)

    def turned(self, mirrored: bool, rotation: int) -> Shape:
        """The outline of a piece's back (``mirrored``: a piece turned over shows its
        outline mirrored left to right) in a slot turned ``rotation`` degrees."""
        return self

    def placed_clip(self, plan: SheetPlan, slot: Slot, occupied: set[tuple[int, int]], sides: Sides) -> Outline:
        """What the piece in ``slot`` shows among the pieces in the ``occupied`` (col, row)
        places of its page."""
        w, h = plan.item
        return self.clip(slot.x, slot.y, w, h, sides, plan.gutter > 0)

    def trim_bounds(self, w: float, h: float) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the trim outline in a w × h trim box."""
        return (0.0, 0.0, w, h)


class Rect(Shape):
    """Cards, tiles and stickers: cut along straight lines, which neighbours may share."""

    name = "rect"
    fills_trim_box = True
    traces_trim = False

    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        return RectOutline(x + inset, y + inset, w - 2 * inset, h - 2 * inset)

    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        left, top, right, bottom = sides
        return RectOutline.spanning(x - left, y - top, x + w + right, y + h + bottom)

    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """Ticks in the outer bleed on each cut line, printable where the margin's crop
        marks may not be."""
        return CutGuides(ticks=bleed_ticks(slots, item, bleed))

    def size_text(self, w: float, h: float) -> str:
        return f"{w:g}×{h:g} mm"


class Circle(Shape):
    """Round tokens (the size is the diameter): no straight cut line follows them, so
    they stand apart and are cut along their traced trim circle."""

    name = "circle"
    own_bleed = True

    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        return CircleOutline(x + w / 2, y + h / 2, w / 2 - inset)

    def _ring(self, bleed: float, apart: bool) -> float:
        """The bleed a round piece shows around its trim circle: its own when pieces
        stand apart, none when they touch (a butted grid), where a ring of bleed would
        paint over the neighbour."""
        return bleed if apart else 0.0

    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        return CircleOutline(x + w / 2, y + h / 2, w / 2 + self._ring(min(sides), apart))

    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """The trim circles, with diagonal ticks outside the bleed ring."""
        return CutGuides(traced=circle_guides(slots, item, self._ring(bleed, apart)))

    def size_text(self, w: float, h: float) -> str:
        return f"{w:g} mm round"


_EPS = 1e-6


class Hex(Shape):
    """Hexagonal tiles, pointy-top or flat-top; the trim box is the hex's bounding box
    and the size a designer gives is the flat-to-flat width. On their own sheets they
    pack in a honeycomb: neighbours share cut edges, one bleed runs around the block,
    and each hex shows bleed only on its edges with no neighbour."""

    name = "hex"
    own_bleed = True
    cut_contour = True

    def __init__(self, pointy: bool = True):
        self.pointy = pointy

    def _normals(self) -> list[float]:
        """The outward normal angles (radians, y down) of the six edges, in order."""
        start = 0.0 if self.pointy else math.pi / 6
        return [start + k * math.pi / 3 for k in range(6)]

    def _hexagon(self, cx: float, cy: float, apothems: Sequence[float]) -> PathOutline:
        """The hexagon whose edge k lies ``apothems[k]`` from (cx, cy) along normal k."""
        ns = self._normals()
        pts = []
        for k in range(6):
            a1, a2 = ns[k], ns[(k + 1) % 6]
            d1, d2 = apothems[k], apothems[(k + 1) % 6]
            det = math.cos(a1) * math.sin(a2) - math.sin(a1) * math.cos(a2)
            pts.append((cx + (d1 * math.sin(a2) - d2 * math.sin(a1)) / det,
                        cy + (math.cos(a1) * d2 - math.cos(a2) * d1) / det))
        return PathOutline.polygon(pts)

    def _flat(self, w: float, h: float) -> float:
        return w if self.pointy else h

    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        a = self._flat(w, h) / 2 - inset
        return self._hexagon(x + w / 2, y + h / 2, [a] * 6)

    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        return self.outline(x, y, w, h, -min(sides) if apart else 0.0)

    def placed_clip(self, plan: SheetPlan, slot: Slot, occupied: set[tuple[int, int]], sides: Sides) -> Outline:
        """In a honeycomb: bleed on each edge with no neighbour across it, none where a
        neighbour's art continues (edge lines meet, so bleeds butt and never overlap)."""
        if not isinstance(plan, HoneycombPlan):
            return super().placed_clip(plan, slot, occupied, sides)
        w, h = plan.item
        # the neighbour across each edge, in the honeycomb's lattice (see honeycomb.lattice)
        steps = (((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)) if self.pointy
                 else ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1)))
        apothems = [self._flat(w, h) / 2 + (0.0 if (slot.col + dc, slot.row + dr) in occupied else plan.bleed)
                    for dc, dr in steps]
        return self._hexagon(slot.x + w / 2, slot.y + h / 2, apothems)

    def plan(self, paper: tuple[float, float], item: tuple[float, float], bleed: float, *, name: str,
             paper_name: str) -> SheetPlan:
        return plan_honeycomb(paper, self._flat(*item), self.pointy, bleed, name=name,
                              paper_name=paper_name)

    def compact(self, plan: SheetPlan, last_slot: int) -> SheetPlan:
        if isinstance(plan, HoneycombPlan):
            return compact_honeycomb(plan, last_slot + 1)
        return super().compact(plan, last_slot)

    def crop_marks(self, plan: SheetPlan, slots: tuple[Slot, ...]) -> tuple[Mark, ...]:
        """None on a honeycomb: a straight line across the sheet would cut through hexes."""
        return () if isinstance(plan, HoneycombPlan) else marks_for(plan, slots)

    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """Every hex traced, and at each corner on the block's outline a tick in the
        bleed: along the shared edge's extension where two hexes meet, pointing away
        from the hex's centre where one stands alone; none where three meet."""
        w, h = item
        f = self._flat(w, h)
        r = f / math.sqrt(3)
        centres = [(s.x + w / 2, s.y + h / 2) for s in slots]
        corner_of: dict[tuple[float, float], list[tuple[float, float]]] = {}
        for cx, cy in centres:
            for k in range(6):
                ang = self._normals()[k] + math.pi / 6
                v = (cx + r * math.cos(ang), cy + r * math.sin(ang))
                corner_of.setdefault((round(v[0], 3), round(v[1], 3)), []).append((cx, cy))
        # the hexes near each f × f cell of the page, so that a tick is checked only against them
        near: dict[tuple[int, int], list[tuple[float, float]]] = {}
        for cx, cy in centres:
            for i in range(math.floor(cx / f) - 2, math.floor(cx / f) + 3):
                for j in range(math.floor(cy / f) - 2, math.floor(cy / f) + 3):
                    near.setdefault((i, j), []).append((cx, cy))
        b = bleed
        ticks: list[Mark] = []
        if b - TICK_INSET - TICK_CLEAR >= MIN_MARK:
            for (vx, vy), owners in sorted(corner_of.items()):
                if len(owners) >= 3:
                    continue
                mx = sum(o[0] for o in owners) / len(owners)
                my = sum(o[1] for o in owners) / len(owners)
                d = math.hypot(vx - mx, vy - my)
                if d < _EPS:  # two tips touching (hexes in a rectangular grid): no edge to extend
                    continue
                ux, uy = (vx - mx) / d, (vy - my) / d
                # off a corner, the hex's edges fall back at 30°: start where they are TICK_CLEAR away
                start = TICK_CLEAR / math.cos(math.pi / 6) + 0.01
                tick = Mark(vx + ux * start, vy + uy * start, vx + ux * (b - TICK_INSET),
                            vy + uy * (b - TICK_INSET))
                if all(self._clear(near.get((math.floor(x / f), math.floor(y / f)), ()), f / 2 + TICK_CLEAR - _EPS, x, y)
                       for x, y in ((tick.x1, tick.y1), (tick.x2, tick.y2))):
                    ticks.append(tick)
        traced = tuple(CutGuide(self.outline(s.x, s.y, w, h), ()) for s in slots)
        return CutGuides(ticks=tuple(ticks), traced=traced)

    def _clear(self, centres: Sequence[tuple[float, float]], reach: float, x: float, y: float) -> bool:
        """Whether (x, y) lies outside every hex grown to apothem ``reach``."""
        ns = self._normals()
        return not any(all((x - cx) * math.cos(n) + (y - cy) * math.sin(n) < reach for n in ns)
                       for cx, cy in centres)

    def size_text(self, w: float, h: float) -> str:
        top = "pointy-top" if self.pointy else "flat-top"
        return f"{self._flat(w, h):g} mm hex ({top}, flat to flat)"


class Rounded(Shape):
    """Rectangles with rounded corners: gridded like cards, but each keeps its own bleed,
    since a rounded corner cannot share a cut line with its neighbour."""

    name = "rounded"
    own_bleed = True
    cut_contour = True

    def __init__(self, radius: float):
        self.radius = radius

    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        return rounded_rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, self.radius - inset)

    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        return self.outline(x, y, w, h, -min(sides) if apart else 0.0)

    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """The traced rounded outline, and ticks on the straight edges' lines in the bleed."""
        w, h = item
        return CutGuides(ticks=bleed_ticks(slots, item, bleed if apart else 0.0),
                         traced=tuple(CutGuide(self.outline(s.x, s.y, w, h), ()) for s in slots))

    def size_text(self, w: float, h: float) -> str:
        return f"{w:g}×{h:g} mm, {self.radius:g} mm corners"


class CutPath(Shape):
    """A custom die-cut outline from SVG path data: gridded by its bounding box (the trim
    box), each piece with its own bleed following the outline; a back shows the outline
    mirrored, as a turned-over piece does."""

    name = "path"
    own_bleed = True
    cut_contour = True

    def __init__(self, segments: tuple[tuple[Any, ...], ...]):
        self.segments = segments  # moved so that the bounding box's top-left is (0, 0)
        self._offsets: dict[float, PathOutline | None] = {}
        self._turns: dict[tuple[bool, int], Shape] = {}

    def _at(self, inset: float) -> PathOutline | None:
        if inset not in self._offsets:
            self._offsets[inset] = (PathOutline(self.segments) if abs(inset) < 1e-9
                                    else pathgeom.offset(self.segments, -inset))
        return self._offsets[inset]

    def outline(self, x: float, y: float, w: float, h: float, inset: float = 0.0) -> Outline:
        found = self._at(inset)
        if found is None:  # a safe zone deeper than the piece: a dot at its middle
            return CircleOutline(x + w / 2, y + h / 2, 0.0)
        return found.moved(x, y)

    def clip(self, x: float, y: float, w: float, h: float, sides: Sides, apart: bool) -> Outline:
        return self.outline(x, y, w, h, -min(sides) if apart else 0.0)

    def turned(self, mirrored: bool, rotation: int) -> Shape:
        key = (mirrored, rotation)
        if key not in self._turns:
            self._turns[key] = self._turn(mirrored, rotation)
        return self._turns[key]

    def _turn(self, mirrored: bool, rotation: int) -> Shape:
        w, h = self._box()
        out = PathOutline(self.segments)
        if mirrored:
            out = out.mapped(lambda p: (w - p[0], p[1]))
        if rotation == 180:
            out = out.mapped(lambda p: (w - p[0], h - p[1]))
        return self if out.segments == self.segments else CutPath(out.segments)

    def _box(self) -> tuple[float, float]:
        _, _, right, bottom = pathgeom.bounds(self.segments)
        return right, bottom

    def cut_guides(self, slots: Sequence[TrimCorner], item: tuple[float, float], bleed: float,
                   apart: bool) -> CutGuides:
        """The traced outline of each piece (its bounding box's lines are no cut lines)."""
        w, h = item
        return CutGuides(traced=tuple(CutGuide(self.outline(s.x, s.y, w, h), ()) for s in slots))

    def crop_marks(self, plan: SheetPlan, slots: tuple[Slot, ...]) -> tuple[Mark, ...]:
        """None: the bounding box's edges are not where the outline is cut."""
        return ()

    def trim_bounds(self, w: float, h: float) -> tuple[float, float, float, float]:
        return pathgeom.bounds(self.segments)

    def size_text(self, w: float, h: float) -> str:
        return f"{w:g}×{h:g} mm outline"


SHAPES: dict[str, Shape] = {shape.name: shape for shape in (Rect(), Circle())}
SHAPE_NAMES = ("rect", "circle", "hex", "rounded", "path")
"""Every ``shape`` a deck may name."""


def shape_of(name: str) -> Shape:
    """The shape a component names (``rect`` or ``circle``; the loader checks the name);
    shapes with settings of their own come from :func:`shape_for`."""
    try:
        return SHAPES[name]
    except KeyError:
        raise ValueError(f"unknown piece shape {name!r} (known: {', '.join(SHAPES)})") from None


def shape_for(deck: Deck) -> Shape:
    """The shape of a deck's pieces, with its settings (hex orientation, corner radius,
    outline path)."""
    return _shape(deck.shape, deck.hex_top, deck.corner_radius, deck.outline, deck.size)


@lru_cache(maxsize=256)
def _shape(name: str, hex_top: str, radius: float, outline: str | None, size: tuple[float, float]) -> Shape:
    if name == "hex":
        return Hex(pointy=hex_top != "flat")
    if name == "rounded":
        return Rounded(radius) if radius > 0 else SHAPES["rect"]
    if name == "path":
        if not outline:
            raise ValueError("shape path needs an outline")
        return CutPath(normalised_path(outline, size))
    return shape_of(name)


def normalised_path(d: str, size: tuple[float, float]) -> tuple[tuple[Any, ...], ...]:
    """Path data as segments stretched and moved so that its bounding box is the trim
    box (0, 0, w, h): an outline may be drawn at any scale."""
    segments = parse_path(d)
    left, top, right, bottom = pathgeom.bounds(segments)
    sx, sy = size[0] / (right - left), size[1] / (bottom - top)
    return PathOutline(tuple(segments)).mapped(lambda p: ((p[0] - left) * sx, (p[1] - top) * sy)).segments
