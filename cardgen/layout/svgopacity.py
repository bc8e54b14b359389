"""An SVG's ``opacity`` folded into the fill and stroke opacities svglib does draw.

svglib reads ``fill-opacity`` and ``stroke-opacity`` but drops ``opacity``, so a
highlight drawn at ``opacity="0.35"`` printed solid. Before svglib reads a checked tree,
each element's ``opacity`` (attribute or style) is multiplied down into the fill and
stroke opacity of every shape under it, the way the layout language fades a ``group``:
where two faded shapes of one faded group overlap, the overlap shows a little darker
than one flat layer would.
"""

from __future__ import annotations

from typing import Any

_PAINTED = {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "use"}


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _style(el: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in (el.get("style") or "").split(";"):
        key, sep, value = part.partition(":")
        if sep and key.strip():
            out[key.strip().lower()] = value.strip()
    return out


def _number(text: str | None) -> float | None:
    """An opacity as SVG writes it (``0.4`` or ``40%``), clamped to 0–1; None if absent
    or unreadable (svglib then keeps its own reading)."""
    if text is None:
        return None
    text = text.strip()
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        return None
    return min(1.0, max(0.0, value)) if value == value else None


def _own(el: Any, style: dict[str, str], name: str) -> float | None:
    return _number(style.get(name, el.get(name)))


def fold_opacity(root: Any) -> None:
    """Rewrite the tree in place: no ``opacity`` is left, and each painted element's
    fill and stroke opacity carry the product of its own and its ancestors' opacities."""

    def walk(el: Any, factor: float, fill: float, stroke: float) -> None:
        if not isinstance(el.tag, str):
            return
        style = _style(el)
        own = _own(el, style, "opacity")
        fill = f if (f := _own(el, style, "fill-opacity")) is not None else fill
        stroke = s if (s := _own(el, style, "stroke-opacity")) is not None else stroke
        if own is not None:
            factor *= own
            style.pop("opacity", None)
            if "opacity" in el.attrib:
                del el.attrib["opacity"]
        if factor < 1 and _local(el.tag) in _PAINTED:
            style["fill-opacity"] = f"{fill * factor:.4g}"
            style["stroke-opacity"] = f"{stroke * factor:.4g}"
        if own is not None or (factor < 1 and _local(el.tag) in _PAINTED):
            el.set("style", ";".join(f"{k}:{v}" for k, v in style.items()))
        for child in el:
            walk(child, factor, fill, stroke)

    walk(root, 1.0, 1.0, 1.0)
