"""SVG gradients drawn as the SVG says, as PDF shadings.

svglib (2.x) draws a gradient fill by painting a shading clipped to the shape, but
beside the shape rather than with it: a shape's own ``transform`` and ``clip-path``
are lost, ``gradientTransform`` is dropped, a radial gradient in a non-square box
becomes a circle rather than an ellipse, ``fill-opacity`` is ignored, a gradient
defined after its use is not found, and the colours of its stops ignore the SVG's
style sheet. :class:`GradientRenderer` keeps svglib's reading of everything else and
replaces its two gradient hooks: the gradient is read here (through ``href`` chains,
its stops' colours with the style sheets applied, which are read before anything is
drawn) and painted by :class:`GradientFill` just before
its shape, inside the shape's group, in the gradient's own space.

What a shading cannot show is refused, never drawn another way: a partly transparent
stop (a PDF shading has no alpha), and, before svglib runs (:mod:`.svgpaint`), strokes
with gradients, ``spreadMethod`` other than ``pad`` and focal points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from reportlab.graphics.shapes import DirectDraw, Group, SolidShape
from svglib.svglib import NodeTracker, SvgRenderer, _shape_to_pdf_path

from ..base.errors import CardgenError
from .svgpaint import GRADIENTS, describe, local_name

_HREF = ("{http://www.w3.org/1999/xlink}href", "href")
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Gradient:
    """A gradient resolved through its ``href`` chain, in its own coordinates."""

    radial: bool
    in_bounding_box: bool  # gradientUnits="objectBoundingBox": coordinates are fractions of the shape's box
    coords: tuple[float, ...]  # x1, y1, x2, y2 or cx, cy, r
    transform: tuple[float, ...]  # gradientTransform, as a PDF matrix
    offsets: tuple[float, ...]
    colours: tuple[Any, ...]  # reportlab Colors, opaque


class GradientFill(DirectDraw):
    """The gradient a shape is filled with: a shading clipped to the shape's outline,
    drawn just before the shape (which then draws its stroke), at the shape's
    ``fill-opacity`` (a faded picture multiplies ``fillOpacity``, as for any shape)."""

    def __init__(self, shape: Any, gradient: Gradient, opacity: float) -> None:
        self.shape = shape
        self.gradient = gradient
        self.fillOpacity = opacity

    def getBounds(self) -> Any:  # noqa: N802 - ReportLab's name
        return self.shape.getBounds()

    def drawDirectly(self, renderer: Any) -> None:  # noqa: N802 - ReportLab's name
        g = self.gradient
        canvas = renderer._canvas
        outline = _shape_to_pdf_path(canvas, self.shape)
        if outline is None:
            return
        canvas.saveState()
        canvas.clipPath(outline, stroke=0, fill=0, fillMode=getattr(self.shape, "fillMode", None))
        canvas.setFillAlpha(1 if self.fillOpacity is None else self.fillOpacity)  # sh paints at the fill's alpha
        if g.in_bounding_box:
            x0, y0, x1, y1 = self.shape.getBounds()
            canvas.transform(x1 - x0, 0, 0, y1 - y0, x0, y0)
        if g.transform != _IDENTITY:
            canvas.transform(*g.transform)
        colours, offsets = list(g.colours), list(g.offsets)
        if g.radial:
            canvas.radialGradient(*g.coords, colours, offsets, extend=True)
        else:
            canvas.linearGradient(*g.coords, colours, offsets, extend=True)
        canvas.restoreState()


class GradientRenderer(SvgRenderer):
    """svglib's renderer, with gradients read and drawn by cardgen (see the module)."""

    def __init__(self, path: str, root: Any, **kwargs: Any) -> None:
        super().__init__(path, **kwargs)
        self._elements: dict[str, Any] = {}
        for node in NodeTracker.from_xml_root(root).iter_subtree():
            name = local_name(node.etree_element.tag)
            ident = node.etree_element.get("id")
            if ident and name in GRADIENTS:
                self._elements.setdefault(ident, node)
            if name == "style" and self.attrConverter.css_rules is not None:
                self.attrConverter.css_rules.add_styles(node.etree_element.text or "")

    def renderStyle(self, node: Any) -> None:  # noqa: N802 - svglib's name
        """Read before anything is drawn (a style sheet applies to the whole file,
        wherever it stands in it): nothing left to do here."""

    def renderGradient(self, node: Any) -> None:  # noqa: N802 - svglib's name
        """Read when a shape uses it (so a gradient defined after its use is found)."""

    def _resolve_gradient(self, grad_id: str) -> Gradient | None:  # type: ignore[override]
        node = self._elements.get(grad_id)
        return None if node is None else self._read(node)

    def _apply_gradient_fill(self, item: Any, grad_def: Any) -> Any:
        if not isinstance(grad_def, Gradient):
            return item
        found = _first_shape(item, None)
        if found is None:
            return item
        parent, shape = found
        if grad_def.in_bounding_box:
            x0, y0, x1, y1 = shape.getBounds()
            if not (x1 > x0 and y1 > y0):  # a box with no area: the SVG fills nothing
                return item
        opacity = getattr(shape, "fillOpacity", None)
        paint = GradientFill(shape, grad_def, 1.0 if opacity is None else float(opacity))
        if parent is None:
            group = Group()
            group.add(paint)
            group.add(item)
            return group
        parent.contents.insert(parent.contents.index(shape), paint)
        return item

    # -- reading a gradient ------------------------------------------------------------

    def _read(self, node: Any) -> Gradient | None:
        chain = self._chain(node)
        el = node.etree_element
        radial = local_name(el.tag) == "radialGradient"

        def attr(name: str) -> str | None:
            return next((n.etree_element.get(name) for n in chain if n.etree_element.get(name) is not None), None)

        in_box = (attr("gradientUnits") or "objectBoundingBox").strip() != "userSpaceOnUse"
        names = (("cx", "50%"), ("cy", "50%"), ("r", "50%")) if radial else \
            (("x1", "0%"), ("y1", "0%"), ("x2", "100%"), ("y2", "0%"))
        coords = [self._length(attr(name) or default, name, in_box, node) for name, default in names]
        stops = next((s for s in (self._stops(n) for n in chain) if s), [])
        if not stops:
            return None  # no stops: the SVG paints nothing
        offsets = [offset for offset, _ in stops]
        colours = [colour for _, colour in stops]
        if len(stops) == 1:
            offsets, colours = [0.0, 1.0], colours * 2
        if radial and coords[2] < 0:
            raise CardgenError(f"the SVG's {describe(el)} has a negative radius")
        if (radial and coords[2] == 0) or (not radial and coords[:2] == coords[2:]):
            # no length to spread the colours along: the SVG paints the last stop's colour
            offsets, colours = [0.0, 1.0], [colours[-1]] * 2
            coords = [coords[0], coords[1], 1.0] if radial else [coords[0], coords[1], coords[0] + 1, coords[1]]
        transform = self._transform(attr("gradientTransform"), el)
        return Gradient(radial, in_box, tuple(coords), transform, tuple(_increasing(offsets)), tuple(colours))

    def _chain(self, node: Any) -> list[Any]:
        """The gradient and the gradients it takes what it leaves out from (``href``)."""
        chain = [node]
        while len(chain) <= len(self._elements):
            el = chain[-1].etree_element
            ref = next((el.get(a) for a in _HREF if el.get(a) is not None), "").strip()
            nxt = self._elements.get(ref[1:]) if ref.startswith("#") else None
            if nxt is None or nxt in chain:
                break
            chain.append(nxt)
        return chain

    def _length(self, text: str, name: str, in_box: bool, node: Any) -> float:
        text = text.strip()
        try:
            value = self._number(text, name, in_box)
            if not math.isfinite(value):
                raise ValueError
            return value
        except ValueError:
            raise CardgenError(f"the SVG's {describe(node.etree_element)} has {name}=\"{text[:30]}\", which is "
                               f"not a length") from None

    def _number(self, text: str, name: str, in_box: bool) -> float:
        """A gradient's coordinate in its units (ValueError when it is none)."""
        if text.endswith("%"):
            fraction = float(text[:-1]) / 100
            if in_box:
                return fraction
            box = self.attrConverter.main_box
            if box is None:
                return fraction
            axis = name.rstrip("12")[-1]  # x1 and cx along x, y2 and cy along y, r along the diagonal
            full = {"x": box.width, "y": box.height}.get(axis, math.hypot(box.width, box.height) / math.sqrt(2))
            return fraction * full
        if in_box:
            return float(text)
        value = self.attrConverter.convertLength(text, attr_name=name)
        if isinstance(value, list):
            raise ValueError
        return float(value)

    def _stops(self, node: Any) -> list[tuple[float, Any]]:
        stops: list[tuple[float, Any]] = []
        for stop in node.iter_children():
            if local_name(stop.etree_element.tag) != "stop":
                continue
            offset = _offset(stop.etree_element)
            find = self.attrConverter.findAttr
            raw = find(stop, "stop-color") or "black"
            colour = self.attrConverter.convertColor(raw)
            if colour == "currentColor":
                colour = self.attrConverter.convertColor(find(stop, "color") or "black")
            if colour is None or colour == "currentColor":
                colour = self.attrConverter.convertColor("black")
            try:
                opacity = float(find(stop, "stop-opacity") or 1)
            except ValueError:
                opacity = 1.0
            alpha = (colour.alpha if colour.alpha is not None else 1) * max(0.0, min(1.0, opacity))
            if alpha < 1:
                raise CardgenError(f"the SVG's {describe(stop.etree_element)} in {describe(node.etree_element)} is "
                                   f"partly transparent (stop-opacity or a colour with alpha); cardgen draws "
                                   f"gradients of opaque colours only")
            stops.append((offset, colour))
        return stops

    def _transform(self, text: str | None, el: Any) -> tuple[float, ...]:
        if not text or not text.strip():
            return _IDENTITY
        group = Group()
        self.shape_converter.applyTransformOnGroup(text, group)
        a, b, c, d, e, f = (float(v) for v in group.transform)
        if not all(math.isfinite(v) for v in (a, b, c, d, e, f)) or abs(a * d - b * c) < 1e-12:
            raise CardgenError(f"the SVG's {describe(el)} has a gradientTransform that flattens it to nothing")
        return (a, b, c, d, e, f)


def _offset(stop: Any) -> float:
    text = (stop.get("offset") or "0").strip()
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        value = 0.0
    return max(0.0, min(1.0, value)) if math.isfinite(value) else 0.0


def _increasing(offsets: list[float]) -> list[float]:
    """Each offset at least the one before (as the SVG says), and apart from it by a
    hair, so that a hard edge (two stops at one offset) is a valid PDF stitching
    function, whose bounds must increase."""
    out: list[float] = []
    for offset in offsets:
        out.append(max(offset, out[-1]) if out else offset)
    hair = 1e-4
    for i in range(1, len(out)):
        if out[i] <= out[i - 1]:
            out[i] = out[i - 1] + hair
    if out and out[-1] > 1:  # squeezed against 1: spread the last ones back below it
        for i in range(len(out) - 1, -1, -1):
            limit = 1 - hair * (len(out) - 1 - i)
            if out[i] > limit:
                out[i] = limit
    return out


def _first_shape(item: Any, parent: Any) -> tuple[Any, Any] | None:
    """The shape an SVG element became (its group, if any, and the shape), skipping
    the clip path svglib puts before a clipped shape."""
    if isinstance(item, SolidShape) and not getattr(item, "isClipPath", 0):
        return parent, item
    if isinstance(item, Group):
        for child in item.contents:
            found = _first_shape(child, item)
            if found is not None:
                return found
    return None
