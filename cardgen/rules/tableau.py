"""Card layouts on the table, read from a game's data: places, sides, who covers whom.

Shared by any game whose setup lays cards out overlapping (a pyramid, a tomb…).
A layout is a mapping with ``rows`` (each ``{side, y, x: [..], need?}``) and
optionally ``covers`` (``[[upper, lower], …]``, indices in laying order). Without
``covers``, a card covers every card laid before it that it overlaps; positions
are in card units (x in card widths, y in card heights, top-left corners), so two
cards overlap when they are less than one unit apart on both axes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from ..base.errors import Where
from .api import Problem

SIDES = ("god", "mummy")  # default names; a game passes its own (face-up name first)
EPS = 1e-9


@dataclass(frozen=True)
class Layout:
    name: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    face_up: tuple[bool, ...]
    need: tuple[Mapping[str, Any] | None, ...]
    covers: tuple[tuple[int, ...], ...]  # covers[i]: the places i lies on
    covered_by: tuple[tuple[int, ...], ...]  # covered_by[i]: the places lying on i
    rows: tuple[int, ...]  # cards per row, in laying order
    # the data's own ``covers`` pairs ([upper, lower]) as given, None when the covers were
    # worked out from the positions: a checker derives the cover graph from these itself
    given_covers: tuple[tuple[int, int], ...] | None = None

    @property
    def places(self) -> int:
        return len(self.xs)

    def initially_available(self) -> list[int]:
        return [i for i in range(self.places) if not self.covered_by[i]]


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Problems:
    """The problems of one layout, each at its line (``bad(message, *path)``)."""

    def __init__(self, name: str, locate: Callable[..., Where], data_key: str):
        self.name, self.locate, self.data_key = name, locate, data_key
        self.here = locate(data_key, name)
        self.problems: list[Problem] = []

    def bad(self, message: str, *path: Any) -> None:
        where = self.locate(self.data_key, self.name, *path) if path else self.here
        self.problems.append(Problem(f"layout '{self.name}': {message}", where))


@dataclass
class _Places:
    """The places of a layout as its rows are read, in laying order."""

    xs: list[float] = field(default_factory=list)
    ys: list[float] = field(default_factory=list)
    face_up: list[bool] = field(default_factory=list)
    need: list[Mapping[str, Any] | None] = field(default_factory=list)
    row_sizes: list[int] = field(default_factory=list)


def parse_layout(
    name: str, spec: Any, locate: Callable[..., Where], sides: tuple[str, str] = SIDES, data_key: str = "layouts"
) -> tuple[Layout | None, list[Problem]]:
    """Read one layout; returns (layout or None, problems)."""
    out = _Problems(name, locate, data_key)
    problems = out.problems
    if not isinstance(spec, Mapping):
        out.bad("must be a mapping with 'rows'")
        return None, problems
    unknown = sorted(set(spec) - {"rows", "covers"})
    if unknown:
        out.bad(f"unknown key(s) {', '.join(map(repr, unknown))} (known: rows, covers)", unknown[0])
    rows = spec.get("rows")
    if not isinstance(rows, (list, tuple)) or not rows:
        out.bad("'rows' must be a non-empty list of {side, y, x: [...]} rows", "rows")
        return None, problems
    places = _Places()
    for r, row in enumerate(rows):
        _read_row(r, row, sides, places, out)
    if problems:
        return None, problems
    xs, ys = places.xs, places.ys
    _same_place(xs, ys, out)
    covers = _covers(spec.get("covers"), xs, ys, out)
    if problems:
        return None, problems
    n = len(xs)
    covered_by: list[list[int]] = [[] for _ in range(n)]
    for upper, lowers in enumerate(covers):
        for lower in lowers:
            covered_by[lower].append(upper)
    layout = Layout(
        name=name,
        xs=tuple(xs),
        ys=tuple(ys),
        face_up=tuple(places.face_up),
        need=tuple(places.need),
        covers=tuple(tuple(sorted(c)) for c in covers),
        covered_by=tuple(tuple(sorted(c)) for c in covered_by),
        rows=tuple(places.row_sizes),
        given_covers=None if spec.get("covers") is None else tuple((p[0], p[1]) for p in spec["covers"]),
    )
    return layout, problems


def _read_row(r: int, row: Any, sides: tuple[str, str], places: _Places, out: _Problems) -> None:
    """Add the places of row ``r`` ({side, y, x: [...], need?}), or say what is wrong with it."""
    bad = out.bad
    if not isinstance(row, Mapping):
        bad(f"row {r + 1} must be a mapping {{side, y, x: [...]}}", "rows", r)
        return
    unknown = sorted(set(row) - {"side", "y", "x", "need"})
    if unknown:
        bad(f"row {r + 1}: unknown key(s) {', '.join(map(repr, unknown))} (known: side, y, x, need)",
            "rows", r, unknown[0])
    side = row.get("side")
    if side not in sides:
        bad(f"row {r + 1}: 'side' must be {sides[0]} or {sides[1]}, found {side!r}", "rows", r, "side")
        return
    y = row.get("y")
    if not _number(y):
        bad(f"row {r + 1}: 'y' must be a number (in card heights), found {y!r}", "rows", r, "y")
        return
    row_x = row.get("x")
    if not (isinstance(row_x, (list, tuple)) and row_x and all(_number(v) for v in row_x)):
        bad(f"row {r + 1}: 'x' must be a non-empty list of numbers (in card widths)", "rows", r, "x")
        return
    row_need = row.get("need")
    if row_need is not None and not (isinstance(row_need, Mapping) and row_need):
        bad(f"row {r + 1}: 'need' must be a mapping such as {{number: 1}}", "rows", r, "need")
        row_need = None
    for x in row_x:
        places.xs.append(float(x))
        places.ys.append(float(y))
        places.face_up.append(side == sides[0])
        places.need.append(dict(row_need) if row_need else None)
    places.row_sizes.append(len(row_x))


def _same_place(xs: list[float], ys: list[float], out: _Problems) -> None:
    """Two cards may not lie at the same place."""
    seen: dict[tuple[float, float], int] = {}
    for i in range(len(xs)):
        key = (round(xs[i], 6), round(ys[i], 6))
        if key in seen:
            out.bad(f"cards {seen[key] + 1} and {i + 1} lie at the same place (x {xs[i]:g}, y {ys[i]:g})", "rows")
        seen[key] = i


def _covers(explicit: Any, xs: list[float], ys: list[float], out: _Problems) -> list[list[int]]:
    """Per place, the places it lies on: the layout's ``covers`` pairs, or without them every
    earlier card it overlaps."""
    n = len(xs)
    covers: list[list[int]] = [[] for _ in range(n)]
    if explicit is None:
        for i in range(n):
            for j in range(i):
                if abs(xs[i] - xs[j]) < 1 - EPS and abs(ys[i] - ys[j]) < 1 - EPS:
                    covers[i].append(j)
        return covers
    if not isinstance(explicit, (list, tuple)):
        out.bad("'covers' must be a list of [upper, lower] index pairs", "covers")
        return covers
    for k, pair in enumerate(explicit):
        ok = (isinstance(pair, (list, tuple)) and len(pair) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n for v in pair))
        if not ok:
            out.bad(f"covers entry {k + 1} must be [upper, lower] with indices 0–{n - 1}, found {pair!r}",
                    "covers", k)
        elif pair[0] <= pair[1]:
            out.bad(f"covers entry {k + 1}: card {pair[0]} cannot cover card {pair[1]}, laid after it", "covers", k)
        elif pair[1] not in covers[pair[0]]:
            covers[pair[0]].append(pair[1])
    return covers
