"""A small SVG path-data reader (M L H V C S Q T Z, absolute and relative).

Symbols and ornaments are written as path data in templates; this turns them into
move/line/cubic segments for the drawing module. Arcs (A) are not supported: draw
them with circle/ellipse ops or approximate them with curves.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtZzAa]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "Z": 0}

Segment = tuple  # ("M", x, y) | ("L", x, y) | ("C", x1, y1, x2, y2, x, y) | ("Z",)


class PathError(ValueError):
    pass


@lru_cache(maxsize=4096)
def parse_path(d: str) -> tuple[Segment, ...]:
    """Path data → absolute segments; raises PathError with what is wrong.

    Cached: the same symbol or frieze is drawn on many cards and sheets."""
    return tuple(_parse_path(d))


def _parse_path(d: str) -> list[Segment]:
    tokens = _TOKEN.findall(d)
    leftover = _TOKEN.sub("", d).replace(",", "").strip()
    if leftover:
        raise PathError(f"unexpected characters in path data: {leftover[:20]!r}")
    out: list[Segment] = []
    i, cmd = 0, None
    x = y = sx = sy = 0.0
    last_ctrl: tuple[float, float] | None = None
    last_q: tuple[float, float] | None = None
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd.upper() == "A":
                raise PathError("arc commands (A) are not supported; use circle/ellipse or curves")
            if cmd.upper() == "Z":
                out.append(("Z",))
                x, y = sx, sy
                last_ctrl = last_q = None
                continue
        elif cmd is None:
            raise PathError("path data must start with a command such as M")
        n = _ARGS[cmd.upper()]
        if i + n > len(tokens) or any(t.isalpha() for t in tokens[i : i + n]):
            raise PathError(f"command {cmd} needs {n} numbers")
        a = [float(t) for t in tokens[i : i + n]]
        i += n
        rel = cmd.islower()
        up = cmd.upper()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        if up == "M":
            x, y = ox + a[0], oy + a[1]
            sx, sy = x, y
            out.append(("M", x, y))
            cmd = "l" if rel else "L"  # implicit lineto after moveto
            last_ctrl = last_q = None
        elif up == "L":
            x, y = ox + a[0], oy + a[1]
            out.append(("L", x, y))
            last_ctrl = last_q = None
        elif up == "H":
            x = (x if rel else 0.0) + a[0]
            out.append(("L", x, y))
            last_ctrl = last_q = None
        elif up == "V":
            y = (y if rel else 0.0) + a[0]
            out.append(("L", x, y))
            last_ctrl = last_q = None
        else:  # C, S, Q, T: a curve, kept as a cubic
            seg, (x, y), last_ctrl, last_q = _curve(up, a, (ox, oy), (x, y), last_ctrl, last_q)
            out.append(seg)
    if out and out[0][0] != "M":
        raise PathError("path data must start with M")
    return out


Point = tuple[float, float]


def _curve(up: str, a: list[float], origin: Point, at: Point, last_ctrl: Point | None, last_q: Point | None
           ) -> tuple[Segment, Point, Point | None, Point | None]:
    """A C, S, Q or T command from the pen at ``at`` (``origin``: what its numbers are
    relative to) as a cubic segment; the pen's new place and the control points a
    following S or T reflects."""
    (ox, oy), (x, y) = origin, at
    if up in ("C", "S"):
        if up == "C":
            c1 = (ox + a[0], oy + a[1])
            c2, end = (ox + a[2], oy + a[3]), (ox + a[4], oy + a[5])
        else:
            c1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl else (x, y)
            c2, end = (ox + a[0], oy + a[1]), (ox + a[2], oy + a[3])
        return ("C", *c1, *c2, *end), end, c2, None
    if up == "Q":
        q, end = (ox + a[0], oy + a[1]), (ox + a[2], oy + a[3])
    else:
        q = (2 * x - last_q[0], 2 * y - last_q[1]) if last_q else (x, y)
        end = (ox + a[0], oy + a[1])
    c1 = (x + 2 / 3 * (q[0] - x), y + 2 / 3 * (q[1] - y))
    c2 = (end[0] + 2 / 3 * (q[0] - end[0]), end[1] + 2 / 3 * (q[1] - end[1]))
    return ("C", *c1, *c2, *end), end, None, q
