"""The half-tile lattice the Horus engine plays on: place codes and the offsets between places.

A tile is a square of 2 × 2 *half-cells*; its place is the half-cell of its top-left
corner, so tiles sit edge to edge or offset by half an edge, and a corner can only
ever meet another tile at a corner or at the notch in the middle of an edge (the
rulebook's example 2: an off-notch corner or a diagonal tile cannot be written down
at all). A place ``(x, y)`` is coded as one int, ``(x + OFF) * W + y + OFF``; a
half-cell uses the same code. Two tiles *touch* when they share at least half an
edge: their places differ by 2 along one axis and by at most 1 along the other (12
neighbour places). A corner alone is not touching. Tiles overlap when their places
differ by less than 2 along both axes.

Pure numbers, shared by the engine's table, the greedy player's island outlook and
the debug picture; the checker has a geometry of its own (:mod:`.scratch`).
"""

from __future__ import annotations

OFF = 512
W = 1024  # code = (x + OFF) * W + (y + OFF); x + 1 is + W, y + 1 is + 1


def code(x: int, y: int) -> int:
    return (x + OFF) * W + y + OFF


def xy(c: int) -> tuple[int, int]:
    return c // W - OFF, c % W - OFF


CELLS = (0, W, 1, W + 1)  # the four half-cells of a tile placed at a code
NBR = tuple(dx * W + dy for dx, dy in
            [(2, -1), (2, 0), (2, 1), (-2, -1), (-2, 0), (-2, 1), (-1, 2), (0, 2), (1, 2), (-1, -2), (0, -2), (1, -2)])
WINDOW = tuple(dx * W + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1))  # places overlapping a place
WINSET = frozenset(WINDOW)
CROWD = tuple(dx * W + dy for dx in range(-3, 4) for dy in range(-3, 4))  # tiles that keep a place from being open
CROWDSET = frozenset(CROWD)
assert CROWDSET == frozenset(r + e for r in range(-3 * W, 4 * W, W) for e in range(-3, 4))  # rows of seven (_put)
assert WINSET == frozenset(r + e for r in (-W, 0, W) for e in (-1, 0, 1))  # rows of three (_put)
FAR = tuple(dx * W + dy for dx in range(-2, 3) for dy in range(-2, 3))  # places a tile can touch along with one
OUTSIDE = tuple(dx * W + dy for dx, dy in [(-1, 0), (-1, 1), (2, 0), (2, 1), (0, -1), (1, -1), (0, 2), (1, 2)])
# the places of the tiles for which a half-cell is an outside cell (the inverse of OUTSIDE)
OUTSIDE_OF = tuple(-d for d in OUTSIDE)
# from a tile's place, the places of the tiles one of whose outside cells it covers: one
# entry per (half-cell of the tile, outside cell of the other), so a tile appears once
# for each of its outside cells covered
COVERS = tuple(d + e for d in CELLS for e in OUTSIDE_OF)
# for each place touching a tile (in the order of NBR), how many of that tile's outside
# half-cells a tile placed here covers: 2 edge to edge, 1 offset by half an edge (the same
# number of this tile's outside half-cells the other covers); the other entries of COVERS
# are places of tiles that would overlap
COVER_COUNT = tuple(COVERS.count(d) for d in NBR)
assert sorted(COVER_COUNT) == [1] * 8 + [2] * 4 and sum(COVER_COUNT) == len(OUTSIDE) * 2
NBR_BACK = tuple(NBR.index(-d) for d in NBR)  # the index in NBR of the opposite offset
NO_TILES = (None,) * 12
