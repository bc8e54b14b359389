"""Which pieces of a layout end up wholly hidden under the pieces laid after them.

A template that draws an overlapping layout (a pyramid of cards, a tomb laid in rings)
may want to show a hidden piece anyway, as an outline. Working that out by sampling in
Jinja took half of the Hâpy setup template's time; here it is exact and quick: a piece
is hidden when every part of it lies under some later piece (the union of the later
rectangles, split into cells at their edges, covers it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_EPS = 1e-9


def covered(pieces: Sequence[Mapping[str, Any]], w: float = 1.0, h: float = 1.0) -> list[int]:
    """Indices of the pieces (each a mapping with ``x`` and ``y``, its top-left, and
    optionally its own ``w`` and ``h``; else ``w`` by ``h``) that the pieces after them
    in the list cover completely, in laying order."""
    boxes = []
    for p in pieces:
        x, y = float(p["x"]), float(p["y"])
        boxes.append((x, y, x + float(p.get("w", w)), y + float(p.get("h", h))))
    return [i for i, box in enumerate(boxes) if _under(box, boxes[i + 1:])]


def _under(box: tuple[float, float, float, float], later: Sequence[tuple[float, float, float, float]]) -> bool:
    x0, y0, x1, y1 = box
    over = [(max(a, x0), max(b, y0), min(c, x1), min(d, y1)) for a, b, c, d in later]
    over = [o for o in over if o[2] - o[0] > _EPS and o[3] - o[1] > _EPS]
    if not over:
        return False
    xs = sorted({x0, x1, *(o[0] for o in over), *(o[2] for o in over)})
    ys = sorted({y0, y1, *(o[1] for o in over), *(o[3] for o in over)})
    for xa, xb in zip(xs, xs[1:]):
        for ya, yb in zip(ys, ys[1:]):
            cx, cy = (xa + xb) / 2, (ya + yb) / 2
            if not any(o[0] <= cx <= o[2] and o[1] <= cy <= o[3] for o in over):
                return False
    return True
