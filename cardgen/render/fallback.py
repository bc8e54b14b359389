"""A proof's mark on text that fell back to the first language: a dashed orange
outline around its box, so a reviewer sees at a glance which strings still wait for
their translation (``cardgen build --allow-fallback --proof``)."""

from __future__ import annotations

from ..layout.ops import Op

FALLBACK_COLOUR = "#e07000"


def texts_of(op: Op) -> list[str]:
    """The strings a text or flow op prints (none for other ops)."""
    if op.kind == "text":
        return [op.args["text"]]
    if op.kind == "flow":
        return [text for _, text in op.args["blocks"]]
    return []


def _marked(ops: tuple[Op, ...], texts: list[str]) -> tuple[tuple[Op, ...], bool]:
    out: list[Op] = []
    changed = False
    for op in ops:
        if op.kind == "group":
            children, inner = _marked(op.children, texts)
            out.append(Op(op.kind, op.args, children) if inner else op)
            changed |= inner
            continue
        out.append(op)
        if any(t and t in text for text in texts_of(op) for t in texts):
            a = op.args
            out.append(Op("rect", {"x": a["x"], "y": a["y"], "w": a["w"], "h": a["h"], "fill": "none",
                                   "stroke": FALLBACK_COLOUR, "stroke_width": 0.35, "dash": [1.2, 0.8]}))
            changed = True
    return tuple(out), changed


def mark_fallbacks(face, texts: list[str]):
    """``face`` with an outline around each text that holds one of ``texts``."""
    if not texts:
        return face
    ops, changed = _marked(face.ops, texts)
    return type(face)(face.key + "\nfallback", ops) if changed else face
