"""Text that a board's seams cut through: a board printed in pieces is glued back
together along its seams, and a word across one rarely lines up. Each fitted line of
each ``text`` op (inside groups too, through their translate, rotate and scale) is
measured where the painter puts it; a line whose ink crosses a seam by more than
SEAM_TOLERANCE_MM is a warning naming the text and the two pieces."""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..base.errors import CardgenWarning
from ..base.units import PT_PER_MM
from ..layout.ops import Op
from ..layout.text import TextEngine, short
from ..layout.textfit import line_width
from .tiling import TilePlan, column_letter

SEAM_TOLERANCE_MM = 0.5  # a line that only touches a seam is not cut
Matrix = tuple[float, float, float, float, float, float]  # x' = a x + c y + e, y' = b x + d y + f
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _then(m: Matrix, n: Matrix) -> Matrix:
    """``n`` applied inside ``m`` (as the canvas concatenates a group's transform)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e,
            b * e2 + d * f2 + f)


def _group_matrix(args: dict) -> Matrix:
    m = _IDENTITY
    if "translate" in args:
        tx, ty = args["translate"]
        m = _then(m, (1, 0, 0, 1, tx, ty))
    if "rotate" in args:
        r = math.radians(args["rotate"])
        m = _then(m, (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0))
    if "scale" in args:
        sc = args["scale"]
        sx, sy = sc if isinstance(sc, (list, tuple)) else (sc, sc)
        m = _then(m, (sx, 0, 0, sy, 0, 0))
    return m


def text_lines(ops: tuple[Op, ...], engine: TextEngine, m: Matrix = _IDENTITY
               ) -> Iterator[tuple[str, tuple[float, float, float, float]]]:
    """Each fitted line of the ``text`` ops: its text and the box its ink takes on the
    board (x0, y0, x1, y1 in mm), as the painter places it."""
    for op in ops:
        if op.kind == "group":
            yield from text_lines(op.children, engine, _then(m, _group_matrix(op.args)))
        elif op.kind == "text":
            yield from _op_lines(op, engine, m)


def _op_lines(op: Op, engine: TextEngine, m: Matrix) -> Iterator[tuple[str, tuple[float, float, float, float]]]:
    a = op.args
    fitted = engine.fit_op(op)
    size_mm, leading_mm = fitted.size / PT_PER_MM, fitted.leading / PT_PER_MM
    block = size_mm + (len(fitted.runs) - 1) * leading_mm
    top = a["y"] + {"top": 0.0, "middle": (a["h"] - block) / 2, "bottom": a["h"] - block}[a.get("valign", "top")]
    align = a.get("align", "left")
    for i, (line, runs) in enumerate(zip(fitted.lines, fitted.runs)):
        lw = line_width(engine.run_width, runs, fitted.size)
        x0 = a["x"] + {"left": 0.0, "center": (a["w"] - lw) / 2, "right": a["w"] - lw}[align]
        y0 = top + i * leading_mm
        corners = [(x, y) for x in (x0, x0 + lw) for y in (y0, y0 + size_mm)]
        xs = [m[0] * x + m[2] * y + m[4] for x, y in corners]
        ys = [m[1] * x + m[3] * y + m[5] for x, y in corners]
        yield line, (min(xs), min(ys), max(xs), max(ys))


def seam_warnings(board_id: str, ops: tuple[Op, ...], engine: TextEngine, plan: TilePlan,
                  where: str) -> list[CardgenWarning]:
    """One warning per line of text that crosses a seam of ``plan`` (``where`` says the
    language and paper)."""
    out: list[CardgenWarning] = []
    for line, (x0, y0, x1, y1) in text_lines(ops, engine):
        row = _index(plan.seams_y, (y0 + y1) / 2)
        col = _index(plan.seams_x, (x0 + x1) / 2)
        for i, seam in enumerate(plan.seams_x):
            if x0 < seam - SEAM_TOLERANCE_MM and x1 > seam + SEAM_TOLERANCE_MM:
                out.append(_warning(board_id, line, f"{column_letter(i)}{row + 1}", f"{column_letter(i + 1)}{row + 1}",
                                    f"{seam:g} mm from the board's left edge", where))
        for i, seam in enumerate(plan.seams_y):
            if y0 < seam - SEAM_TOLERANCE_MM and y1 > seam + SEAM_TOLERANCE_MM:
                out.append(_warning(board_id, line, f"{column_letter(col)}{i + 1}", f"{column_letter(col)}{i + 2}",
                                    f"{seam:g} mm from the board's top edge", where))
    return list(dict.fromkeys(out))


def _index(seams: tuple[float, ...], at: float) -> int:
    return sum(at >= s for s in seams)


def _warning(board_id: str, line: str, first: str, second: str, at: str, where: str) -> CardgenWarning:
    return CardgenWarning(f"board '{board_id}' {where}: the text {short(line)} crosses the seam between pieces "
                          f"{first} and {second} ({at}); move it or keep it on one piece")
