"""The table recomputed from scratch, for the checker (and for tests on hand-written
tables): overlaps, groups of touching tiles, regions, islands, the free places next to
the table and the scores, by breadth-first search on a geometry of its own, written
from the (x, y) offsets and not from the engine's tables or codes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..api import RuleViolation
from .codec import OFF, W, code
from .spec import TEMPLE, WATER

# The checker's places are ints of its own coding, ``(x + K_OFF) * K_W + y + K_OFF``: a
# place's neighbours are a few additions, and sets of ints hash faster than of tuples.
NBR_XY = ((2, -1), (2, 0), (2, 1), (-2, -1), (-2, 0), (-2, 1), (-1, 2), (0, 2), (1, 2), (-1, -2), (0, -2), (1, -2))
CELL_XY = ((0, 0), (1, 0), (0, 1), (1, 1))
OUT_XY = ((-1, 0), (-1, 1), (2, 0), (2, 1), (0, -1), (1, -1), (0, 2), (1, 2))
OVER_XY = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))  # within one half-cell: overlapping
CROWD_XY = tuple((dx, dy) for dx in range(-3, 4) for dy in range(-3, 4))  # within three half-cells
K_OFF = 1 << 11
K_W = 1 << 12


def key(x: int, y: int) -> int:
    """The checker's int for place (or half-cell) ``(x, y)``."""
    return (x + K_OFF) * K_W + y + K_OFF


def key_xy(k: int) -> tuple[int, int]:
    x = k // K_W
    return x - K_OFF, k - x * K_W - K_OFF


def key_of_code(c: int) -> int:
    """The checker's int for the place of an engine action's code: ``key(*xy(c))``, in one go."""
    x = c // W
    return (x + (K_OFF - OFF)) * K_W + c - x * W + (K_OFF - OFF)


def _offsets(pairs) -> tuple[int, ...]:
    return tuple(dx * K_W + dy for dx, dy in pairs)


K_NBR = _offsets(NBR_XY)  # the twelve places touching a place (sharing at least half an edge)
K_NBRSET = frozenset(K_NBR)
K_CELLS = _offsets(CELL_XY)  # the four half-cells of a tile at a place
K_OUT = _offsets(OUT_XY)  # the eight half-cells just outside a tile's edges
K_OVER = _offsets(OVER_XY)  # the nine places where a tile would overlap one at a place
K_OVERSET = frozenset(K_OVER)
K_OVER_ROWS = (-K_W, 0, K_W)  # the middles of K_OVER's rows of three consecutive ints
assert K_OVERSET == frozenset(d + e for d in K_OVER_ROWS for e in (-1, 0, 1))
K_CROWD = _offsets(CROWD_XY)  # the places within three half-cells along both axes
K_CROWDSET = frozenset(K_CROWD)
assert key_xy(key(-5, 7)) == (-5, 7) and key_of_code(code(-5, 7)) == key(-5, 7) and len(K_NBRSET) == 12 and K_NBRSET == frozenset(-d for d in K_NBR)
# place -> the twelve places touching it (checker ints), filled as asked: pure geometry, and
# the same places come up in every game (every table starts at the origin), so the
# from-scratch passes and searches take a place's neighbours in one look-up
K_AROUND: dict[int, tuple[int, ...]] = {}


def k_around(p: int) -> tuple[int, ...]:
    got = K_AROUND.get(p)
    if got is None:
        got = K_AROUND[p] = tuple(map(p.__add__, K_NBR))
    return got


def _keyed(tiles: Mapping[tuple[int, int], Any]) -> dict[int, Any]:
    return {key(x, y): v for (x, y), v in tiles.items()}


def _unkeyed(groups: list[frozenset]) -> list[frozenset]:
    return [frozenset(map(key_xy, g)) for g in groups]


def cells_of(tiles: Mapping[int, int]) -> dict[int, int]:
    """Half-cell → the place of the tile covering it (checker ints); raises on an overlap."""
    cells = {p + d: p for p in tiles for d in K_CELLS}
    if len(cells) != 4 * len(tiles):
        seen: dict[int, int] = {}
        for p in tiles:
            for d in K_CELLS:
                if p + d in seen:
                    raise RuleViolation(f"tiles at {key_xy(seen[p + d])} and {key_xy(p)} overlap")
                seen[p + d] = p
    return cells


def groups_of(tiles: Mapping[int, int], same_kind: bool, members: Callable[[int], bool]) -> list[frozenset]:
    """Groups of touching tiles (sharing at least half an edge) among the tiles whose
    kind passes ``members``, of one kind each if ``same_kind``; breadth-first (checker
    ints)."""
    left = {p: k for p, k in tiles.items() if members(k)}
    has = left.__contains__
    around = K_AROUND
    out = []
    while left:
        start, k = left.popitem()
        group = [start]
        for p in group:  # the list grows while it is read: a breadth-first walk
            for q in filter(has, around.get(p) or k_around(p)):
                if not same_kind or left[q] == k:
                    del left[q]
                    group.append(q)
        out.append(frozenset(group))
    return out


def regions_of(tiles: Mapping[int, int], nterr: int) -> list[frozenset]:
    return groups_of(tiles, True, lambda k: k < nterr)


def islands_of(tiles: Mapping[int, int], cells: Mapping | None = None) -> list[frozenset]:
    """Land groups (terrain, Necropolis, Temple touching) with no edge facing empty table."""
    cells = cells_of(tiles) if cells is None else cells
    covered = cells.__contains__
    return [group for group in groups_of(tiles, False, lambda k: k not in WATER)
            if all(all(map(covered, map(p.__add__, K_OUT))) for p in group)]


def frontier_of(tiles: Mapping[int, int]) -> set[int]:
    """Every free place touching a tile: the places touching a tile, less those that
    overlap one."""
    around = K_AROUND
    near = set().union(*[around.get(p) or k_around(p) for p in tiles])
    near.difference_update(*[range(p + d - 1, p + d + 2) for p in tiles for d in K_OVER_ROWS])
    return near


def scores_of(tiles: Mapping[int, int], stones: Mapping[int, int], nterr: int, players: int, cap: int,
              regions: list[frozenset] | None = None, islands: list[frozenset] | None = None
              ) -> tuple[list[int], list[tuple[int, int]]]:
    """Scores from scratch, and (size, value) of every region (checker ints)."""
    islands = islands_of(tiles) if islands is None else islands
    island_tiles = set().union(*islands) if islands else set()
    near_temple = {p + d for p, k in tiles.items() if k == TEMPLE for d in K_NBR}
    out = [0] * players
    values = []
    for reg in regions_of(tiles, nterr) if regions is None else regions:
        v = len(reg)
        if reg & near_temple:
            v *= 2
        if next(iter(reg)) in island_tiles:
            v *= 2
        v = min(v, cap)
        values.append((len(reg), v))
        count = [0] * players
        for q in reg:
            if q in stones:
                count[stones[q]] += 1
        best = max(count)
        if best:
            for p in range(players):
                if count[p] == best:
                    out[p] += v
    return out, values


# the same on tables keyed by (x, y) (tests, positions written by hand)
def scratch_regions(tiles: Mapping[tuple[int, int], int], nterr: int) -> list[frozenset]:
    return _unkeyed(regions_of(_keyed(tiles), nterr))


def scratch_islands(tiles: Mapping[tuple[int, int], int]) -> list[frozenset]:
    return _unkeyed(islands_of(_keyed(tiles)))


def scratch_frontier(tiles: Mapping[tuple[int, int], int]) -> set[tuple[int, int]]:
    return set(map(key_xy, frontier_of(_keyed(tiles))))


def scratch_scores(tiles: Mapping[tuple[int, int], int], stones: Mapping[tuple[int, int], int], nterr: int,
                   players: int, cap: int) -> tuple[list[int], list[tuple[int, int]]]:
    return scores_of(_keyed(tiles), _keyed(stones), nterr, players, cap)
