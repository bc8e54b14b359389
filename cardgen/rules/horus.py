"""Horus: the rules as a small, fast engine on a half-tile lattice.

**Geometry.** A tile is a square of 2 × 2 *half-cells*; its place is the half-cell
of its top-left corner, so tiles sit edge to edge or offset by half an edge, and a
corner can only ever meet another tile at a corner or at the notch in the middle
of an edge (the rulebook's example 2: an off-notch corner or a diagonal tile cannot
be written down at all). A place ``(x, y)`` is coded as one int,
``(x + OFF) * W + y + OFF``; a half-cell uses the same code. Two tiles *touch* when
they share at least half an edge: their places differ by 2 along one axis and by at
most 1 along the other (12 neighbour places). A corner alone is not touching.
Tiles overlap when their places differ by less than 2 along both axes.

**Turn** (five actions, RULES): draw a tile from the bag and place it (a chance
step, then a decision); play a Horus card (or the Nile card); place the card's tile
(a "?" card first chooses a stack); place a Kingdom Stone; draw back to five
(chance). Every decision is one int action (see the ``*_BASE`` constants).

**Where the rulebook is silent, our choices** (each tested in
``tests/test_rules_horus.py`` and stated in ``README.horus-rules.md``):

* Start (the picture is not in the text): Boat, Step Pyramid, Boat in a row, at
  places (−2, 0), (0, 0), (2, 0).
* *Water* is every River tile: plain River tiles, the Step Pyramid and the two Boats.
  "Next to the River" means touching a water tile.
* *Blocking the River*: a Boat must always have a *way on*: a chain of places, each
  touching the one before, each either free table or a water tile, from the Boat to
  an *open* place (a free place with no tile within a tile's width around it: no
  tile's place within three half-cells). No tile, not even a Boat or a River tile,
  may be placed so that a Boat loses its way on, and a Boat is only put down where
  it has one. (The weaker "a free place next to each Boat" lets the River be shut in
  small pockets, and then the game cannot go on.) See :meth:`HorusState.escape`.
* A River tile from the bag must replace a Boat that can then be put down
  (touching the new River tile, without blocking). If neither Boat can move, the
  River tile is placed like a stack River tile, on a free place next to the River
  (none at all: it is set aside).
* A River tile from the stack placed by replacing a Boat: the Boat goes next to any
  water tile.
* *Island*: a group of land tiles (terrain, Necropolis, Temple) touching each other
  whose every edge, all the way round, lies against water or against another tile
  of the group (no edge half faces empty table). Its regions score double.
* The value cap of 10 applies to every region (the scoring note), not only to the
  Temple's.
* A "?" Horus card may take from any stack that is not empty. When a stack runs out,
  every hand drops the cards naming it and draws back to five at once (a chance
  run); cards naming an empty stack that are drawn later are discarded and replaced.
  The draw pile runs out → the discard pile, without such cards, is reshuffled.
* The Nile card is played instead of a Horus card while the River / Necropolis
  stack has a tile; it places up to two tiles from it (each as River, as
  Necropolis, or replacing a Boat), then moves one own stone from a region touching
  the River to an empty tile of another region touching the River (of any size: the
  rulebook names this as a way to change a closed region); no stone move possible
  → none. No Horus card is used, so no stone is placed and no card drawn.
* First round: every seat's first turn; each Horus card counts as size 1 (a "?" as
  well). No legal stone place → the stone is skipped. The bag empty → action 1
  is skipped. A turn in which nothing at all can be done (bag empty, no card left
  to play) ends the game, so a game always ends.
* The Temple drawn with no legal place is removed from the game.
"""

from __future__ import annotations

import heapq
import random
import itertools
from typing import Any, Callable, Mapping, Sequence

from ..errors import CardgenError, Where
from . import register
from .api import CHANCE, TERMINAL, RandomAgent, RuleViolation, StaticSpec

GAME_ID = "horus"
SETUP = "standard"

# --------------------------------------------------------------------------- geometry
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
_NOTHING: frozenset[int] = frozenset()


SECOND_WAY_LIMIT = 40  # places the search for a second, distant way on looks at before giving up
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

# --------------------------------------------------------------------------- kinds
# terrains are 0..T-1 (four in the game); then:
RIVER, BOAT, PYRAMID, NECRO, TEMPLE = 10, 11, 12, 13, 14
WATER = frozenset((RIVER, BOAT, PYRAMID))
SPECIAL_FRONTS = {"river": RIVER, "boat": BOAT, "step_pyramid": PYRAMID, "temple": TEMPLE}
KIND_LETTER = {RIVER: "~", BOAT: "B", PYRAMID: "P", NECRO: "N", TEMPLE: "T"}

# --------------------------------------------------------------------------- actions
PLACE_BASE = 0              # + code: put the tile in hand there (its face fixed)
RIVER_BASE = 1 << 20        # + code: the River / Necropolis tile, River side up
NECRO_BASE = 2 << 20        # + code: the same, Necropolis side up
STONE_BASE = 3 << 20        # + code: a Kingdom Stone on the tile there
FROM_BASE = 4 << 20         # + code: the Nile card moves the own stone there …
TO_BASE = 5 << 20           # + code: … to the tile there
BOAT_BASE = 6 << 20         # + boat (0 or 1): the River tile replaces that Boat
CARD_BASE = 7 << 20         # + kind of Horus card (index in data.horus_cards)
NILE_ACTION = CARD_BASE + 4095
STACK_BASE = 8 << 20        # + stack index: a "?" card takes from that stack
DRAW_TILE_BASE = 9 << 20    # chance: + physical tile drawn from the bag
DRAW_CARD_BASE = 10 << 20   # chance: + physical card drawn
KIND_MASK = (1 << 20) - 1

ANY = -1  # a "?" on a Horus card (tile or size)

# decision / chance phases
(P_BAG, P_PLACE, P_BOATCHOICE, P_BOATPLACE, P_RN, P_CARD, P_STACK, P_STONE, P_FROM, P_TO, P_DRAW, P_OVER,
 P_RIVERPLACE, P_WORK) = range(14)
PHASE_NAMES = ("bag", "place", "boat", "boat-place", "river-stack", "card", "stack", "stone", "nile-from",
               "nile-to", "draw", "over", "river-place", "working")

# What the rules say about the components (RULES, FOUND, DERIVED): checked by static_spec
TERRAIN_TILES = 20      # DERIVED: "a region can consist of all 20 tiles of the same type"
TERRAIN_STACK = 8       # FOUND: purple-backed tiles per terrain
RIVER_STACK = 16        # FOUND: double-sided River / Necropolis tiles
RIVER_BAG = 20          # DERIVED: 40 − 16 − 3 − 1
TOTAL_TILES = 120       # RULES
HORUS_CARDS = 50        # RULES
NILE_CARDS = 4          # RULES
STONES_EACH = 20        # RULES
COLOURS = 4             # RULES
HAND_SIZE = 5           # RULES
TEMPLE_CAP = 10         # RULES
CLOSED_SIZE = 6         # RULES
MAX_SIZE = 5            # RULES: sizes on the cards are 1–5


class HorusGame:
    """The rules bound to the game's data and a player count."""

    setup = SETUP

    def __init__(self, data: Mapping[str, Any], num_players: int):
        self.num_players = num_players
        terrains = list(data["terrains"])
        self.terrains = terrains
        self.nterr = len(terrains)
        stacks = list(data["stacks"])
        self.stack_ids = stacks
        self.river_stack = stacks.index("river") if "river" in stacks else len(stacks)
        self.stack_kind = [terrains.index(s) if s in terrains else RIVER for s in stacks]
        # the physical tiles: front kind, where they start, the data item
        self.tile_kind: list[int] = []
        self.tile_item: list[str] = []
        self.tile_double: list[bool] = []
        self.bag0: list[int] = []
        self.stacks0: list[list[int]] = [[] for _ in stacks]
        self.start: dict[int, int] = {}  # kind -> count
        self.start_tiles: list[int] = []
        for item in data["tiles"]:
            front = item["front"]
            kind = terrains.index(front) if front in terrains else SPECIAL_FRONTS[front]
            for _ in range(int(item["count"])):
                t = len(self.tile_kind)
                self.tile_kind.append(kind)
                self.tile_item.append(str(item["id"]))
                self.tile_double.append(item.get("back") == "necropolis")
                where = item["where"]
                if where == "bag":
                    self.bag0.append(t)
                elif where == "start":
                    self.start_tiles.append(t)
                else:
                    self.stacks0[stacks.index(where)].append(t)
        self.total_tiles = len(self.tile_kind)
        # Horus cards: physical card -> (stack index or ANY, size or ANY)
        self.card_kinds: list[tuple[str, int, int]] = []
        self.card_of: list[int] = []  # physical -> kind index
        for k, c in enumerate(data["horus_cards"]):
            tile = c["tile"]
            stack = ANY if tile == "any" else stacks.index(tile)
            size = ANY if c["size"] == "any" else int(c["size"])
            self.card_kinds.append((str(c["id"]), stack, size))
            self.card_of.extend([k] * int(c["count"]))
        self.ncards = len(self.card_of)
        self.hand_size = int(data.get("hand_size", HAND_SIZE))
        self.nile = int(data.get("nile_cards", NILE_CARDS)) >= num_players
        self.stones_each = [int(c["count"]) for c in data["stone_colours"]][:num_players]
        self.colours = [str(c["id"]) for c in data["stone_colours"]][:num_players]
        self.temple_cap = int(data.get("temple_cap", TEMPLE_CAP))
        self.closed = int(data.get("closed_region_size", CLOSED_SIZE))
        self.max_size = min(MAX_SIZE, self.closed - 1)

    def new_initial_state(self) -> "HorusState":
        return HorusState(self)

    def max_game_length(self) -> int:
        # every step places a tile, a stone, plays or draws a card or chooses: a generous bound
        return 40 * self.total_tiles

    def checker(self) -> "HorusChecker":
        return HorusChecker(self)

    def kind_name(self, kind: int) -> str:
        if kind < self.nterr:
            return self.terrains[kind]
        return {RIVER: "river", BOAT: "boat", PYRAMID: "step pyramid", NECRO: "necropolis", TEMPLE: "temple"}[kind]

    def card_name(self, kind: int) -> str:
        return self.card_kinds[kind][0]


class HorusView:
    """What one seat may know, as a live read-only view: the whole table (tiles,
    stones, stacks' sizes, the bag's size), its own hand and Nile card, and the other
    hands' sizes only."""

    __slots__ = ("player", "_s", "board")

    def __init__(self, state: "HorusState", player: int):
        self.player = player
        self._s = state
        self.board = _PublicBoard(state)

    hand = property(lambda self: tuple(self._s.hands[self.player]))
    has_nile = property(lambda self: self._s.nile[self.player])
    hand_sizes = property(lambda self: tuple(len(h) for h in self._s.hands))
    phase = property(lambda self: self._s.phase)


class _PublicBoard:
    """The public part of a state (no hands, no order of the bag or the draw pile)."""

    # the state's tables, never replaced by another object during a game: held here
    # directly, since the greedy agent reads them thousands of times a game
    _TABLES = ("g", "at", "cells", "kind", "pos", "stone_at", "reg", "reg_members", "reg_stones", "land",
               "land_members", "land_open", "boats", "frontier", "adj_water", "adj_land", "stones_left", "touch")
    __slots__ = ("_s",) + _TABLES
    _PUBLIC = frozenset(_TABLES + ("stacks_left", "turn", "player", "phase", "tile", "face", "card",
                                   "round_one", "move_from", "near"))

    def __init__(self, s: "HorusState"):
        self._s = s
        for name in self._TABLES:
            setattr(self, name, getattr(s, name))

    def __getattr__(self, name: str) -> Any:
        if name in _PublicBoard._PUBLIC:
            return getattr(self._s, name)
        if name == "bag_size":
            return len(self._s.bag)
        raise AttributeError(f"{name} is not public")

    def stack_size(self, s: int) -> int:
        return len(self._s.stacks[s])


class HorusState:
    """One game in progress. Tiles on the table are numbered in the order they were
    placed (*slots*); ``at`` maps a place code to its slot, ``cells`` a half-cell to
    its slot. Regions and land groups (for islands) are kept incrementally: a slot's
    region id, each region's slots and stones per seat; tiles are never taken off the
    table, so groups only ever merge."""

    live_observations = True

    def __init__(self, game: HorusGame, deal: bool = True):
        g = self.g = game
        n = g.num_players
        self.at: dict[int, int] = {}
        self.cells: dict[int, int] = {}
        self.x0 = self.y0 = 1 << 30  # the bounding box of the taken half-cells (offset coordinates)
        self.x1 = self.y1 = -1
        self.kind: list[int] = []
        self.pos: list[int] = []
        self.phys: list[int] = []
        self.stone_at: dict[int, int] = {}  # slot -> seat
        self.reg: list[int] = []  # slot -> region id (-1: not a region tile)
        self.reg_members: dict[int, list[int]] = {}
        self.reg_stones: dict[int, list[int]] = {}
        self.land: list[int] = []  # slot -> land group id (-1: water)
        self.land_members: dict[int, list[int]] = {}
        self.land_open: dict[int, int] = {}  # land group -> half-edges facing empty table
        self.open_sides: list[int] = []
        self.frontier: set[int] = set()
        self.taken: set[int] = set()  # places a tile would overlap another at
        self.wall: set[int] = set()  # taken places a way on cannot pass: all but the water tiles' own places
        # places with a tile's place within three half-cells (an open place is in none); tiles are
        # never taken off the table, so a set is enough
        self.crowd: set[int] = set()
        # Boat place -> (danger places, stamp, (free places, open end) of its way or None) (see _danger)
        self._dcache: dict[int, tuple[frozenset, int, tuple | None]] = {}
        self._stamp = 0  # numbers the cached answers, so a spoilt way forgets only the answer resting on it
        self._ways: dict[tuple[int, int, bool], tuple[bool, int]] = {}  # (c, blocked, water) -> (a way on?, stamp)
        self._spoil_free: dict[int, list] = {}  # free place of a way -> cached answers resting on it
        self._spoil_end: dict[int, list] = {}  # open end of a way -> cached answers resting on it
        self._movable: tuple = (None, [])  # (table version, Boats, mode) -> movable_boats
        self.adj_water: dict[int, int] = {}
        # every place touching a tile -> the slots of the tiles touching it, a list in the order
        # of NBR (None: no tile there); the greedy player reads a place's neighbours from it
        self.touch: dict[int, list] = {}
        self.adj_land: dict[int, int] = {}
        self.boats: list[int | None] = [None, None]  # slots of the two Boats (None: lifted)
        self.bag = list(g.bag0)
        self.stacks = [list(s) for s in g.stacks0]
        self.removed: list[int] = []  # tiles out of the game (a Temple without a place)
        self.deck = list(range(g.ncards))
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.nile = [g.nile] * n
        self.stones_left = list(g.stones_each)
        self.player = 0
        self.turn = 0
        self.phase = P_DRAW
        self.tile = -1  # the physical tile in hand
        self.face = -1  # its kind as it will be placed
        self.card = -1  # the Horus card kind played this turn (-1: none; NILE: the Nile card)
        self.card_stack = -1
        self.lifted = -1  # the Boat being moved (0/1)
        self.near = -1  # the place the moved Boat must touch (bag River tile) or -1 (stack: any water)
        self.queue: list[tuple] = []
        self.move_from = -1
        self.round_one = True
        self.nile_left = 0
        self.draw_seats: list[int] = []  # seats to refill, in order
        self.steps = 0
        self.depleted_at_turn: list[int] = []
        self.acted = False
        self.temple_removed = False
        self.last_stone = -1
        self._legal: tuple | None = None  # (steps, phase, legal actions) worked out by _advance (see _ready)
        if deal:
            self._setup()

    # -- setup --------------------------------------------------------------
    def _setup(self) -> None:
        g = self.g
        boats = [t for t in g.start_tiles if g.tile_kind[t] == BOAT]
        others = [t for t in g.start_tiles if g.tile_kind[t] != BOAT]
        layout = [(boats[0], -2)] + [(t, 2 * i) for i, t in enumerate(others)] + \
                 [(b, 2 * len(others) + 2 * i) for i, b in enumerate(boats[1:])]
        for t, x in layout:
            slot = self._put(t, g.tile_kind[t], code(x, 0))
            if g.tile_kind[t] == BOAT and None in self.boats:
                self.boats[self.boats.index(None)] = slot
        # deal the hands: a chance run of card draws, then seat 1's turn
        self.draw_seats = list(range(g.num_players))
        self.queue = [("bag",), ("card",)]
        self._refill_ready()

    # -- queries ------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == P_DRAW or ph == P_BAG:
            return CHANCE
        if ph == P_OVER:
            return TERMINAL
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == P_BAG:
            p = 1.0 / len(self.bag)
            return [(DRAW_TILE_BASE + t, p) for t in sorted(self.bag)]
        if self.phase == P_DRAW:
            p = 1.0 / len(self.deck)
            return [(DRAW_CARD_BASE + c, p) for c in sorted(self.deck)]
        return []

    def sample_chance(self, rng: random.Random) -> int:
        if self.phase == P_BAG:
            return DRAW_TILE_BASE + self.bag[int(rng.random() * len(self.bag))]
        return DRAW_CARD_BASE + self.deck[int(rng.random() * len(self.deck))]

    def apply_chance_run(self, rng: random.Random) -> list[int]:
        out = []
        rand = rng.random
        while self.phase == P_BAG or self.phase == P_DRAW:
            if self.phase == P_BAG:
                a = DRAW_TILE_BASE + self.bag[int(rand() * len(self.bag))]
            else:
                a = DRAW_CARD_BASE + self.deck[int(rand() * len(self.deck))]
            self.apply_action(a)
            out.append(a)
        return out

    def observation(self, player: int) -> HorusView:
        return HorusView(self, player)

    def length(self) -> int:
        return self.turn

    def clone(self) -> "HorusState":
        s = HorusState.__new__(HorusState)
        for k, v in self.__dict__.items():
            if isinstance(v, list):
                v = [x[:] if isinstance(x, list) else x for x in v]
            elif isinstance(v, dict):
                v = type(v)({a: (b[:] if isinstance(b, list) else b) for a, b in v.items()})
            elif isinstance(v, set):
                v = set(v)
            setattr(s, k, v)
        s._legal = None
        return s

    # -- board bookkeeping ----------------------------------------------------
    def free(self, c: int) -> bool:
        return c not in self.taken

    def _put(self, t: int, kind: int, c: int) -> int:
        """Put physical tile ``t`` on the table at ``c`` as ``kind``; update every
        incremental structure. Returns the new slot."""
        slot = len(self.kind)
        self.kind.append(kind)
        self.pos.append(c)
        self.phys.append(t)
        at = self.at
        at[c] = slot
        cells = self.cells
        for d in CELLS:
            cells[c + d] = slot
        cx = c // W
        cy = c - cx * W
        if cx < self.x0:
            self.x0 = cx
        if cx + 1 > self.x1:
            self.x1 = cx + 1
        if cy < self.y0:
            self.y0 = cy
        if cy + 1 > self.y1:
            self.y1 = cy + 1
        # the places within three (one) half-cells of c: rows of consecutive codes, as ranges
        self.crowd.update(range(c - 3 * W - 3, c - 3 * W + 4), range(c - 2 * W - 3, c - 2 * W + 4),
                          range(c - W - 3, c - W + 4), range(c - 3, c + 4), range(c + W - 3, c + W + 4),
                          range(c + 2 * W - 3, c + 2 * W + 4), range(c + 3 * W - 3, c + 3 * W + 4))
        window = (range(c - W - 1, c - W + 2), range(c - 1, c + 2), range(c + W - 1, c + W + 2))
        taken = self.taken
        taken.update(*window)
        water = kind in WATER
        wall = self.wall
        wall.update(*window)
        if water:  # (water never turns to land: a lifted Boat leaves a River tile)
            wall.discard(c)
        self._spoil(c, water)
        # frontier: this place and the places overlapping it are taken; free neighbours join
        frontier = self.frontier
        frontier.difference_update(*window)
        land = not water
        adj_w = self.adj_water
        adj_l = self.adj_land
        nreg = []
        nland = []
        nterr = self.g.nterr
        kinds = self.kind
        adj = adj_w if water else (adj_l if kind < nterr or kind == NECRO else None)
        open_sides = self.open_sides
        land_of = self.land
        land_open = self.land_open
        touch = self.touch
        around = touch.get(c) or NO_TILES  # the slots touching this place, in the order of NBR
        mine = 8  # this tile's outside half-cells not yet covered
        for q, o, back, n in zip(map(c.__add__, NBR), around, NBR_BACK, COVER_COUNT):
            t = touch.get(q)
            if t is None:
                touch[q] = t = [None] * 12
            t[back] = slot
            if o is not None:
                # the tile there and this one cover ``n`` of each other's outside half-cells
                mine -= n
                open_sides[o] -= n
                lid = land_of[o]
                if lid >= 0:
                    land_open[lid] -= n
                    if land:
                        nland.append(lid)
                        if kinds[o] == kind and kind < nterr:
                            nreg.append(self.reg[o])
            elif q not in taken:
                frontier.add(q)
            if adj is not None:
                adj[q] = adj.get(q, 0) + 1
        open_sides.append(mine)
        # regions
        if kind < nterr:
            self._merge(self.reg_members, nreg, slot, self.reg, self.reg_stones)
        else:
            self.reg.append(-1)
        if land:
            lid = self._merge(self.land_members, nland, slot, self.land, None)
            land_open[lid] = land_open.get(lid, 0) + mine
        else:
            self.land.append(-1)
        return slot

    def _merge(self, members: dict, ids: list[int], slot: int, label: list[int], stones: dict | None) -> int:
        """Join ``slot`` and the groups ``ids`` into one group (the largest keeps its id)."""
        if not ids:
            label.append(slot)
            members[slot] = [slot]
            if stones is not None:
                stones[slot] = [0] * self.g.num_players
            return slot
        ids = list(dict.fromkeys(ids))
        big = max(ids, key=lambda i: len(members[i]))
        keep = members[big]
        label.append(big)
        keep.append(slot)
        for i in ids:
            if i == big:
                continue
            moved = members.pop(i)
            for m in moved:
                label[m] = big
            keep.extend(moved)
            if stones is not None:
                st = stones.pop(i)
                kst = stones[big]
                for p, k in enumerate(st):
                    kst[p] += k
            elif i in self.land_open:
                self.land_open[big] = self.land_open.get(big, 0) + self.land_open.pop(i)
        return big

    # -- legality ---------------------------------------------------------------
    def _outside(self, q: int) -> bool:
        """Is place ``q`` wholly beyond the bounding box of the table (open table)?"""
        qx = q // W
        qy = q - qx * W
        return qx + 1 < self.x0 or qx > self.x1 or qy + 1 < self.y0 or qy > self.y1

    def escape(self, c: int, blocked: int = -1, water: bool = False, avoid: set[int] | None = None,
               limit: int = 1 << 30) -> list[int] | None:
        """The River's way on from the tile at place ``c``: a chain of places touching
        one another (at least half an edge), each free table or a water tile, ending
        at an *open* place: a free place with no tile within a tile's width around
        it (no tile's place within three half-cells). With the place ``blocked``
        taken by a tile (a water tile if ``water``) and the places of ``avoid``
        out of bounds. None when there is none (or none within ``limit`` places
        looked at). Best-first search outwards (towards the nearest side of the
        table's bounding box).

        The places a way cannot use are ``wall`` (kept by :meth:`_put`: taken, and not
        a water tile's place), those the ``blocked`` tile would overlap, and ``avoid``;
        an open place is one outside ``crowd`` and not within three half-cells of
        ``blocked`` (one set look-up, one difference in ``CROWDSET``)."""
        wall = self.wall
        crowd = self.crowd
        frontier = self.frontier
        x0, x1, y0, y1 = self.x0 - 2, self.x1 + 1, self.y0 - 2, self.y1 + 1
        if blocked >= 0:
            shut = set(map(blocked.__add__, WINDOW))  # the free places the blocked tile covers
            if water:
                shut.discard(blocked)  # a water tile is itself a way through
        else:
            shut = _NOTHING
            blocked = -(1 << 40)  # far from every place: never within CROWDSET
        if avoid is not None:  # (water tiles there too: the way found is still a way on)
            shut = avoid if shut is _NOTHING else shut | avoid
        near = CROWDSET
        parent: dict[int, int] = {c: -1}
        heap = [(0, c)]
        pop = heapq.heappop
        push = heapq.heappush
        while heap:
            q = pop(heap)[1]
            limit -= 1
            if limit < 0:
                return None
            for d in NBR:
                r = q + d
                if r in parent or r in wall or r in shut:
                    continue
                parent[r] = q
                if r not in crowd and r - blocked not in near:
                    return self._way_out(c, r, parent, blocked, x0, x1, y0, y1)
                rx = r // W
                ry = r - rx * W
                # outwards first; a free place touching the table costs a little more, so
                # ways keep to the water and away from where the next tiles go
                push(heap, (min(rx - x0, x1 - rx, ry - y0, y1 - ry) + (3 if r in frontier else 0), r))
        return None

    def _way_out(self, c: int, r: int, parent: dict[int, int], blocked: int, x0: int, x1: int, y0: int,
                 y1: int) -> list[int]:
        """The way found by :meth:`escape` from ``c`` to the open place ``r``, walked two
        more steps straight out when free: an end farther from the tiles is spoilt less
        often by the next tiles (see _way, _danger)."""
        rx = r // W
        ry = r - rx * W
        side = min((rx - x0, -2 * W), (x1 - rx, 2 * W), (ry - y0, -2), (y1 - ry, 2))[1]
        taken = self.taken
        crowd = self.crowd
        for _ in range(2):
            r2 = r + side
            if r2 in taken or r2 in crowd or r2 - blocked in CROWDSET:
                break
            parent[r2] = r
            r = r2
        path = []
        while r != c:
            path.append(r)
            r = parent[r]
        return path[::-1]

    def _way(self, c: int, blocked: int, water: bool) -> bool:
        """Has the tile at ``c`` a way on with ``blocked`` taken (see :meth:`escape`)?
        Remembered: tiles are only ever added, and a tile never opens a way, so "no"
        stays "no"; "yes" stays "yes" until a tile lands on a free place of the way
        found or near its open end (then it is forgotten and searched again)."""
        key = (c, blocked, water)
        got = self._ways.get(key)
        if got is not None:
            return got[0]
        path = self.escape(c, blocked, water)
        if path is None:
            self._ways[key] = (False, 0)
            return False
        self._stamp += 1
        self._ways[key] = (True, self._stamp)
        self._watch(path, blocked, (key, self._stamp))
        return True

    def _watch(self, path: list[int], blocked: int, key: tuple) -> None:
        """Remember that the cached answer ``key`` rests on ``path``: a tile placed on one
        of its free places, or within three half-cells of its open end, spoils it."""
        on_free = self._spoil_free
        at = self.at
        for q in path:
            if q not in at and q != blocked:
                on_free.setdefault(q, []).append(key)
        self._spoil_end.setdefault(path[-1], []).append(key)

    def _spoil(self, c: int, water: bool) -> None:
        """A tile was placed at ``c``: forget every cached answer resting on a way it spoils.
        A water tile exactly on a free place of a way spoils nothing there: the way
        goes on through it (it touches the same places)."""
        keys = []
        on_free = self._spoil_free
        if on_free:
            for d in WINDOW:
                q = c + d
                if q in on_free and not (water and q == c):
                    keys += on_free.pop(q)
        on_end = self._spoil_end
        if on_end:
            # the ends are few: look at each rather than at the 49 places around ``c``
            for q in [q for q in on_end if q - c in CROWDSET]:
                keys += on_end.pop(q)
        if not keys:
            return
        ways = self._ways
        dcache = self._dcache
        for key, stamp in keys:  # an answer searched again since rests on another way: keep it
            cache = ways if key.__class__ is tuple else dcache
            got = cache.get(key)
            if got is not None and got[1] == stamp:
                del cache[key]

    def _danger(self, c: int) -> frozenset[int]:
        """The places where a tile might block the Boat at ``c``: those that spoil its
        shortest way on (a tile on one of its free places or within three half-cells
        of its open end), since a tile anywhere else leaves that way open; and when a
        second way far from the first is found, only the places that spoil both.
        Empty when the Boat has no way on (nothing left to protect). Kept until a tile
        is placed where it could spoil one of the ways found."""
        got = self._dcache.get(c)
        if got is not None:
            return got[0]
        at = self.at
        chain = self.escape(c)
        self._stamp += 1
        stamp = self._stamp
        way = None
        if chain is None:
            out: frozenset[int] = frozenset()
        else:
            free = [q for q in chain if q not in at]
            way = (free, chain[-1])
            self._watch(chain, -1, (c, stamp))
            # the places where a tile spoils this way: on a free place of it, or near its end
            spoil = {q + e for q in free for e in WINDOW}
            spoil.update(map(chain[-1].__add__, CROWD))
            # a second way on that keeps two half-cells from every free place of the first:
            # then only a place that spoils both ways can block the Boat
            far = {q + e for q in free for e in FAR}
            second = self.escape(c, avoid=far, limit=SECOND_WAY_LIMIT)
            if second is not None:
                self._watch(second, -1, (c, stamp))
                spoil2 = {q + e for q in second if q not in at for e in WINDOW}
                spoil2.update(map(second[-1].__add__, CROWD))
                spoil &= spoil2
            out = frozenset(spoil)
        self._dcache[c] = (out, stamp, way)
        return out

    def _blocked_places(self, cands: set[int], water: bool, skip: int = -1) -> set[int]:
        """The places of ``cands`` where a tile (a water tile if ``water``) would block a
        Boat (other than Boat ``skip``): only places of :meth:`_danger` can."""
        bad: set[int] = set()
        way = self._way
        for b, slot in enumerate(self.boats):
            if slot is None or b == skip:
                continue
            c = self.pos[slot]
            danger = self._danger(c)
            if danger:
                for p in cands & danger:
                    if p not in bad and not way(c, p, water):
                        bad.add(p)
        return bad

    def place_options(self, face: int) -> list[int]:
        """Legal places for a tile of ``face`` (not a Boat)."""
        if face in WATER:
            cands = self.frontier & self.adj_water.keys()
        elif face == TEMPLE:
            al = self.adj_land
            cands = {q for q in self.frontier & self.adj_water.keys() if not al.get(q)}
        else:
            cands = self.frontier
        bad = self._blocked_places(cands, face in WATER)
        return sorted(cands - bad if bad else cands)

    def _boat_ok(self, q: int) -> bool:
        """May a Boat stand at ``q``: a chain out to open table from it (see :meth:`escape`)?
        Most often a place next to a Boat's place (or the place a Boat just left) whose
        way on :meth:`_danger` still keeps: a Boat at ``q`` then goes on through that
        water tile and along that way, unless its tile lies on one of the way's free
        places or within three half-cells of its end; only then a search."""
        dcache = self._dcache
        for w in map(q.__add__, NBR):
            got = dcache.get(w)
            if got is not None and got[2] is not None:
                free, end = got[2]
                # (a free place at ``q`` itself stays a way through: the Boat is water)
                if end - q not in CROWDSET and all(f - q not in WINSET or f == q for f in free):
                    return True
        return self._way(q, q, True)

    def boat_options(self, b: int, near: int, first: bool = False) -> list[int]:
        """Legal places for Boat ``b`` (lifted): touching ``near`` (a place code) or,
        with ``near`` = -1, any water tile; never blocking the other Boat; with a
        chain out to open table from it. ``first``: stop at the first."""
        if near >= 0:
            cands = {near + d for d in NBR} & self.frontier
        else:
            cands = self.frontier & self.adj_water.keys()
        bad = self._blocked_places(cands, True, skip=b)
        out = []
        for q in sorted(cands):
            if q not in bad and self._boat_ok(q):
                out.append(q)
                if first:
                    break
        return out

    def movable_boats(self, near_own: bool) -> list[int]:
        """Boats a River tile may replace: those that could then be put down (next to
        their old place for a bag River tile, next to any water for a stack one)."""
        key = (len(self.kind), tuple(self.boats), near_own)
        if self._movable[0] == key:
            return self._movable[1]
        out = []
        for b, slot in enumerate(self.boats):
            if slot is None:
                continue
            # the Boat's place becomes River: still water, still taken
            self.boats[b] = None
            ok = bool(self.boat_options(b, self.pos[slot] if near_own else -1, first=True))
            self.boats[b] = slot
            if ok:
                out.append(b)
        self._movable = (key, out)
        return out

    def stone_options(self, size: int) -> list[int]:
        """Empty region tiles whose region has ``size`` tiles (ANY: 1 to 5); never a
        closed region (six or more)."""
        out = []
        stone_at = self.stone_at
        pos = self.pos
        lo, hi = (1, self.g.max_size) if size == ANY else (size, size)
        if hi >= self.g.closed:
            hi = self.g.closed - 1
        for members in self.reg_members.values():
            if lo <= len(members) <= hi:
                for m in members:
                    if m not in stone_at:
                        out.append(STONE_BASE + pos[m])
        out.sort()
        return out

    def touches_water(self, rid: int) -> bool:
        """Does region ``rid`` touch the River? ``adj_water`` holds every place touching a
        water tile (water never turns to land: a lifted Boat leaves a River tile)."""
        adj = self.adj_water
        pos = self.pos
        for m in self.reg_members[rid]:
            if pos[m] in adj:
                return True
        return False

    def nile_sources(self) -> list[int]:
        p = self.player
        river_regions = {rid for rid in self.reg_members if self.touches_water(rid)}
        has_target = {rid: any(m not in self.stone_at for m in self.reg_members[rid]) for rid in river_regions}
        out = []
        for slot, owner in self.stone_at.items():
            rid = self.reg[slot]
            if owner == p and rid in river_regions and any(has_target[r] for r in river_regions if r != rid):
                out.append(FROM_BASE + self.pos[slot])
        return sorted(out)

    def nile_targets(self, from_slot: int) -> list[int]:
        src = self.reg[from_slot]
        out = []
        for rid, members in self.reg_members.items():
            if rid != src and self.touches_water(rid):
                out.extend(TO_BASE + self.pos[m] for m in members if m not in self.stone_at)
        return sorted(out)

    def card_size(self) -> int:
        if self.card < 0:
            return ANY
        return 1 if self.round_one else self.g.card_kinds[self.card][2]

    def _ready(self, phase: int, legal: list[int]) -> None:
        """Enter ``phase``, whose legal actions ``_advance`` has just worked out to see
        whether the phase is due: :meth:`legal_actions` hands them out once instead of
        working them out again."""
        self.phase = phase
        self._legal = (self.steps, phase, legal)

    def legal_actions(self) -> list[int]:
        ph = self.phase
        known = self._legal
        if known is not None:
            self._legal = None
            if known[0] == self.steps and known[1] == ph:
                return known[2]
        if ph == P_PLACE:
            return self.place_options(self.face)
        if ph == P_RIVERPLACE:
            return [RIVER_BASE + q for q in self.place_options(RIVER)]
        if ph == P_RN:
            opts = self.place_options(RIVER)
            out = [RIVER_BASE + q for q in opts]
            out += [NECRO_BASE + q for q in self.place_options(NECRO)]
            out += [BOAT_BASE + b for b in self.movable_boats(False)]
            return out
        if ph == P_BOATCHOICE:
            return [BOAT_BASE + b for b in self.movable_boats(True)]
        if ph == P_BOATPLACE:
            return self.boat_options(self.lifted, self.near)
        if ph == P_CARD:
            kinds = sorted(set(self.g.card_of[c] for c in self.hands[self.player]))
            out = [CARD_BASE + k for k in kinds]
            if self.nile[self.player] and self.stacks[self.g.river_stack]:
                out.append(NILE_ACTION)
            return out
        if ph == P_STACK:
            return [STACK_BASE + s for s, st in enumerate(self.stacks) if st]
        if ph == P_STONE:
            return self.stone_options(self.card_size())
        if ph == P_FROM:
            return self.nile_sources()
        if ph == P_TO:
            return self.nile_targets(self.move_from)
        if ph == P_BAG or ph == P_DRAW:
            return [a for a, _ in self.chance_outcomes()]
        return []

    # -- moves ------------------------------------------------------------------
    def apply_action(self, action: int) -> int:
        ph = self.phase
        base = action & ~KIND_MASK
        arg = action & KIND_MASK
        self.steps += 1
        if ph == P_BAG:
            t = arg
            self.bag.remove(t)
            self.acted = True
            self._took_tile(t)
        elif ph == P_DRAW:
            c = arg
            self.deck.remove(c)
            self._drew(c)
        elif ph == P_PLACE:
            self._put(self.tile, self.face, action)
            if self.face == BOAT:  # never: boats are placed in P_BOATPLACE
                raise RuleViolation("a Boat was placed as an ordinary tile")
            self.tile = -1
            self.acted = True
        elif ph == P_RIVERPLACE or (ph == P_RN and base == RIVER_BASE):
            self._put(self.tile, RIVER, arg)
            self.tile = -1
            self.acted = True
        elif ph == P_RN and base == NECRO_BASE:
            self._put(self.tile, NECRO, arg)
            self.tile = -1
            self.acted = True
        elif ph == P_RN or ph == P_BOATCHOICE:
            b = arg
            slot = self.boats[b]
            boat_tile = self.phys[slot]
            self.phys[slot] = self.tile
            self.kind[slot] = RIVER
            self.boats[b] = None
            self.lifted = b
            self.near = self.pos[slot] if ph == P_BOATCHOICE else -1
            self.tile = boat_tile
            self.face = BOAT
            self.queue.insert(0, ("boatplace",))
            self.acted = True
        elif ph == P_BOATPLACE:
            slot = self._put(self.tile, BOAT, action)
            self.boats[self.lifted] = slot
            self.lifted = -1
            self.near = -1
            self.tile = -1
        elif ph == P_CARD:
            self._play_card(action)
        elif ph == P_STACK:
            self._take_from_stack(arg)
        elif ph == P_STONE:
            slot = self.at[arg]
            p = self.player
            self.stone_at[slot] = p
            self.reg_stones[self.reg[slot]][p] += 1
            self.stones_left[p] -= 1
            self.last_stone = slot
        elif ph == P_FROM:
            self.move_from = self.at[arg]
            self.queue.insert(0, ("to",))
        elif ph == P_TO:
            src = self.move_from
            dst = self.at[arg]
            p = self.stone_at.pop(src)
            self.reg_stones[self.reg[src]][p] -= 1
            self.stone_at[dst] = p
            self.reg_stones[self.reg[dst]][p] += 1
            self.move_from = -1
        else:
            raise RuleViolation("an action was applied after the end of the game")
        self._advance()
        return self.current_player()

    def _took_tile(self, t: int) -> None:
        """A tile drawn from the bag: what happens to it depends on its face."""
        kind = self.g.tile_kind[t]
        self.tile = t
        self.face = kind
        if kind == RIVER:
            if self.movable_boats(True):
                self.queue[:0] = [("boatchoice",), ("rn",)]
            else:
                self.queue[:0] = [("riverplace",), ("rn",)]
        elif kind == TEMPLE:
            self.queue.insert(0, ("place",))
        else:
            self.queue.insert(0, ("place",))

    def _take_from_stack(self, s: int) -> None:
        st = self.stacks[s]
        if not st:
            raise RuleViolation(f"stack {self.g.stack_ids[s]} is empty")
        t = st.pop()
        if not st:
            self._depleted(s)
        if s == self.g.river_stack:
            self.tile = t
            self.face = RIVER
            self.queue.insert(0, ("rnchoice",))
        else:
            self.tile = t
            self.face = self.g.tile_kind[t]
            self.queue.insert(0, ("place",))

    def _depleted(self, s: int) -> None:
        """A stack ran out: every hand drops the cards naming it (and draws back to five
        right after the current action, unless the game is about to end)."""
        self.depleted_at_turn.append(self.turn)
        card_kinds = self.g.card_kinds
        card_of = self.g.card_of
        for p, hand in enumerate(self.hands):
            keep = [c for c in hand if card_kinds[card_of[c]][1] != s]
            if len(keep) != len(hand):
                self.discard.extend(c for c in hand if card_kinds[card_of[c]][1] == s)
                self.hands[p] = keep
        if sum(1 for st in self.stacks if not st) < 2:
            order = [(self.player + i) % self.g.num_players for i in range(self.g.num_players)]
            self.queue.insert(0, ("refill", tuple(order)))

    def _play_card(self, action: int) -> None:
        p = self.player
        self.acted = True
        if action == NILE_ACTION:
            self.nile[p] = False
            self.card = -2
            self.queue[:0] = [("nilestack",), ("nilestack",), ("from",)]
            return
        k = action - CARD_BASE
        hand = self.hands[p]
        for i, c in enumerate(hand):
            if self.g.card_of[c] == k:
                hand.pop(i)
                self.discard.append(c)
                break
        else:
            raise RuleViolation(f"card {self.g.card_name(k)} is not in the hand")
        self.card = k
        stack = self.g.card_kinds[k][1]
        self.queue[:0] = [("stack", stack), ("stone",), ("refill", (p,))]

    def _drew(self, c: int) -> None:
        """A card drawn for the first seat of ``draw_seats``; a card naming an empty
        stack is discarded at once (and another drawn)."""
        p = self.draw_seats[0]
        if self._usable(c):
            self.hands[p].append(c)
        else:
            self.discard.append(c)

    def _usable(self, c: int) -> bool:
        s = self.g.card_kinds[self.g.card_of[c]][1]
        return s == ANY or bool(self.stacks[s])

    def _advance(self) -> None:
        """Run automatic steps until a decision or a chance step is due."""
        g = self.g
        while True:
            if self.phase == P_DRAW:
                if self._refill_ready():
                    return
                self.phase = P_WORK
            if not self.queue:
                self._end_turn()
                if self.phase == P_OVER:
                    return
                continue
            step = self.queue.pop(0)
            what = step[0]
            if what == "bag":
                self.acted = False
                if self.bag:
                    self.phase = P_BAG
                    return
            elif what == "place":
                if self.face == TEMPLE:
                    legal = self.place_options(TEMPLE)
                    if not legal:
                        self.removed.append(self.tile)
                        self.temple_removed = True
                        self.tile = -1
                        continue
                    self._ready(P_PLACE, legal)
                    return
                self.phase = P_PLACE
                return
            elif what == "riverplace":
                legal = self.place_options(RIVER)
                if not legal:  # nowhere at all: set aside, like the Temple
                    self.removed.append(self.tile)
                    self.tile = -1
                    continue
                self._ready(P_RIVERPLACE, [RIVER_BASE + q for q in legal])
                return
            elif what == "boatchoice":
                self.phase = P_BOATCHOICE
                return
            elif what == "boatplace":
                self.phase = P_BOATPLACE
                return
            elif what == "rn" or what == "nilestack":  # one tile from the River / Necropolis stack, if it has any
                if self.stacks[g.river_stack]:
                    self._take_from_stack(g.river_stack)
            elif what == "rnchoice":
                self.phase = P_RN
                return
            elif what == "card":
                if self.hands[self.player] or (self.nile[self.player] and self.stacks[g.river_stack]):
                    self.phase = P_CARD
                    return
            elif what == "stack":
                s = step[1]
                if s == ANY:
                    if any(self.stacks):
                        self.phase = P_STACK
                        return
                elif self.stacks[s]:
                    self._take_from_stack(s)
            elif what == "stone":
                if self.stones_left[self.player] > 0:
                    legal = self.stone_options(self.card_size())
                    if legal:
                        self._ready(P_STONE, legal)
                        return
            elif what == "from":
                legal = self.nile_sources()
                if legal:
                    self._ready(P_FROM, legal)
                    return
            elif what == "to":
                self.phase = P_TO
                return
            elif what == "refill":
                if self._ending():
                    continue
                self.draw_seats = [p for p in step[1] if len(self.hands[p]) < g.hand_size]
                if self._refill_ready():
                    return
            else:
                raise RuleViolation(f"unknown step {what}")

    def _refill_ready(self) -> bool:
        """Set up the draw for the first seat that can draw; False when nobody can."""
        g = self.g
        while self.draw_seats:
            p = self.draw_seats[0]
            if len(self.hands[p]) < g.hand_size:
                if not self.deck:
                    self.deck = sorted(c for c in self.discard if self._usable(c))
                    self.discard = [c for c in self.discard if not self._usable(c)]
                if self.deck:
                    self.phase = P_DRAW
                    return True
            self.draw_seats.pop(0)
        return False

    def _ending(self) -> bool:
        return sum(1 for st in self.stacks if not st) >= 2

    def _end_turn(self) -> None:
        g = self.g
        self.turn += 1
        self.card = -1
        if self.turn >= g.num_players:
            self.round_one = False
        if self._ending() or not self.acted:
            self.phase = P_OVER
            return
        self.player = (self.player + 1) % g.num_players
        self.queue = [("bag",), ("card",)]

    # -- scores ---------------------------------------------------------------
    def temple_regions(self) -> set[int]:
        out = set()
        for slot, k in enumerate(self.kind):
            if k == TEMPLE:
                c = self.pos[slot]
                for d in NBR:
                    o = self.at.get(c + d)
                    if o is not None and self.reg[o] >= 0:
                        out.add(self.reg[o])
        return out

    def islands(self) -> list[int]:
        """Land groups enclosed by water (ids)."""
        return [lid for lid, n in self.land_open.items() if n == 0]

    def region_value(self, rid: int, temple: set[int] | None = None) -> int:
        temple = self.temple_regions() if temple is None else temple
        v = len(self.reg_members[rid])
        if rid in temple:
            v *= 2
        if self.land_open[self.land[rid]] == 0:
            v *= 2
        return min(v, self.g.temple_cap)

    def scores(self) -> list[int]:
        n = self.g.num_players
        out = [0] * n
        temple = self.temple_regions()
        for rid, st in self.reg_stones.items():
            best = max(st)
            if best == 0:
                continue
            v = self.region_value(rid, temple)
            for p in range(n):
                if st[p] == best:
                    out[p] += v
        return out

    def returns(self) -> list[float]:
        return [float(x) for x in self.scores()]

    def figures(self) -> dict[str, Any]:
        """Per-game figures for the validator's summary (pooled lists, plain numbers)."""
        return {
            "score": [float(x) for x in self.scores()],
            "islands": float(len(self.islands())),
            "island_tiles": float(sum(len(self.land_members[lid]) for lid in self.islands())),
            "region_size": [float(len(m)) for m in self.reg_members.values()],
            "stones_placed": float(len(self.stone_at)),
            "tiles_on_table": float(len(self.kind)),
            "turns": float(self.turn),
        }

    # -- text -------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.g
        base = action & ~KIND_MASK
        arg = action & KIND_MASK
        ph = self.phase
        seat = f"seat {self.player + 1}"
        if base == DRAW_TILE_BASE:
            return f"draws {g.kind_name(g.tile_kind[arg])} tile {arg} ({g.tile_item[arg]}) from the bag"
        if base == DRAW_CARD_BASE:
            return f"seat {self.draw_seats[0] + 1 if self.draw_seats else '?'} draws card {g.card_name(g.card_of[arg])}"
        if ph == P_PLACE:
            return f"{seat} places {g.kind_name(self.face)} at {xy(action)}"
        if ph == P_BOATPLACE:
            return f"{seat} puts Boat {self.lifted + 1} at {xy(action)}"
        if base == RIVER_BASE:
            return f"{seat} places River at {xy(arg)}"
        if base == NECRO_BASE:
            return f"{seat} places Necropolis at {xy(arg)}"
        if base == BOAT_BASE:
            return f"{seat} replaces Boat {arg + 1} with the River tile"
        if action == NILE_ACTION:
            return f"{seat} plays the Nile card"
        if base == CARD_BASE:
            return f"{seat} plays Horus card {g.card_name(arg)}"
        if base == STACK_BASE:
            return f"{seat} takes from the {g.stack_ids[arg]} stack"
        if base == STONE_BASE:
            return f"{seat} puts a stone at {xy(arg)}"
        if base == FROM_BASE:
            return f"{seat} lifts its stone at {xy(arg)}"
        if base == TO_BASE:
            return f"{seat} moves it to {xy(arg)}"
        return f"action {action}"

    def __str__(self) -> str:
        return render_text(self)

    # -- drawing ----------------------------------------------------------------
    def draw(self, path) -> None:
        from .horus_draw import draw_board

        draw_board(self, path)

    # -- constructed positions (tests) -------------------------------------------
    @classmethod
    def from_position(cls, game: HorusGame, tiles: Sequence[tuple[int, int, int]],
                      stones: Sequence[tuple[int, int, int]] = (), boats: Sequence[tuple[int, int]] | None = None,
                      turn: int | None = None) -> "HorusState":
        """A state with the given tiles ``(x, y, kind)`` on the table (in that order)
        and stones ``(x, y, seat)``, at the start of seat 1's turn after the bag draw
        (no physical tile bookkeeping: the supply is not adjusted)."""
        s = cls(game, deal=False)
        for x, y, kind in tiles:
            c = code(x, y)
            for d in CELLS:
                if c + d in s.cells:
                    raise ValueError(f"tile at {(x, y)} overlaps another")
            slot = s._put(-1, kind, c)
            if kind == BOAT and None in s.boats:
                s.boats[s.boats.index(None)] = slot
        for x, y, p in stones:
            slot = s.at[code(x, y)]
            s.stone_at[slot] = p
            s.reg_stones[s.reg[slot]][p] += 1
            s.stones_left[p] -= 1
        s.turn = game.num_players if turn is None else turn
        s.round_one = s.turn < game.num_players
        s.queue = []
        s.phase = P_CARD
        return s


def parse_board(text: str, letters: Mapping[str, int]) -> list[tuple[int, int, int]]:
    """Tiles from a picture: each tile is a 2 × 2 block of its letter, ``.`` is empty
    table; blocks are read top-left first, row by row (so offset tiles work)."""
    rows = [r for r in (line.strip() for line in text.strip("\n").splitlines()) if r]
    taken: set[tuple[int, int]] = set()
    out = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in ". " or (x, y) in taken:
                continue
            block = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
            for bx, by in block:
                if by >= len(rows) or bx >= len(rows[by]) or rows[by][bx] != ch or (bx, by) in taken:
                    raise ValueError(f"tile {ch!r} at column {x}, row {y} is not a 2 × 2 block")
            taken.update(block)
            out.append((x, y, letters[ch]))
    return out


def render_text(s: HorusState) -> str:
    """The table as text, two characters a tile edge (for traces and failing tests)."""
    if not s.cells:
        return "(empty table)"
    xs = [xy(c)[0] for c in s.cells]
    ys = [xy(c)[1] for c in s.cells]
    letters = {k: s.g.terrains[k][0].upper() for k in range(s.g.nterr)}
    letters.update(KIND_LETTER)
    lines = []
    for y in range(min(ys), max(ys) + 1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            slot = s.cells.get(code(x, y))
            if slot is None:
                row.append(".")
            else:
                ch = letters[s.kind[slot]]
                if slot in s.stone_at and code(x, y) == s.pos[slot]:
                    ch = str(s.stone_at[slot] + 1)
                row.append(ch)
        lines.append("".join(row))
    return "\n".join(lines)


# --------------------------------------------------------------------------- from scratch
# The checker's own geometry, written from the (x, y) offsets and not from the engine's
# tables. Its places are ints of its own coding, ``(x + K_OFF) * K_W + y + K_OFF``: a
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
_K_AROUND: dict[int, tuple[int, ...]] = {}


def k_around(p: int) -> tuple[int, ...]:
    got = _K_AROUND.get(p)
    if got is None:
        got = _K_AROUND[p] = tuple(map(p.__add__, K_NBR))
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
    around = _K_AROUND
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
    around = _K_AROUND
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


# --------------------------------------------------------------------------- checker
class HorusChecker:
    """Judges every action by the rules on its own copy of the table (places as ints
    of its own coding, see :func:`key`; groups by breadth-first search), never with
    the engine's move lists or incremental groups; then checks the engine against it.

    Every step: the action's rule (a tile on free table, touching a tile by at least
    half an edge, River side next to water, the Temple next to water and away from
    region and Necropolis tiles, no Boat left without its way on; a stone on an
    empty region tile of the card's size, first round 1, never in a closed region;
    a Nile move between regions touching the River; a card from the hand) and the
    counts (120 tiles, 80 stones). Every ``full`` step: each physical tile and card
    exactly once, the stones and the Boats where the rules put them. Every
    ``SCRATCH_EVERY``-th full step and at the end (the expensive part, sampled): the
    whole table, no overlap, the free places next to the table, and every region
    and island recomputed from scratch and compared with the engine's incremental
    ones. At the end: two stacks empty (or nothing left to do), each Boat's way on
    searched afresh, the scores recomputed from scratch."""

    def __init__(self, game: HorusGame):
        self.g = game
        self.tiles: dict[int, int] | None = None
        # the places a tile would overlap one at, kept as tiles are added (never taken away),
        # so that the way-on search asks one set instead of four half-cells
        self.overlapped: set[int] = set()
        # places found to have a tile's place within three half-cells (never open table again)
        self.crowded: set[int] = set()
        self.stones: dict[int, int] = {}
        self.boats: list[int | None] = [None, None]
        self.expect: tuple | None = None
        self.removed = 0
        self.total_stones = sum(game.stones_each)
        self.lifted: tuple = (-1, None)
        self.ways: dict[int, tuple[list, int]] = {}  # Boat -> (free places, end) of its way
        self.every_tile = list(range(game.total_tiles))  # each physical tile once, in order
        self.every_card = list(range(game.ncards))
        self.fulls = 0  # full checks so far
        self.scratches = 0  # of which with every group recomputed from scratch
        self.bbox = (1 << 30, -(1 << 30), 1 << 30, -(1 << 30))  # of the places, in offset coordinates
        self.move_from: int | None = None

    # -- the checker's own table ---------------------------------------------------
    def _init(self, s: HorusState) -> None:
        self.tiles = {}
        for slot, c in enumerate(s.pos):
            self._add(key_of_code(c), s.kind[slot])
        for slot, p in s.stone_at.items():
            self.stones[key_of_code(s.pos[slot])] = p
        self.boats = [key_of_code(s.pos[b]) if b is not None else None for b in s.boats]
        self.removed = len(s.removed)

    def _add(self, q: int, kind: int) -> None:
        self.tiles[q] = kind
        self.overlapped.update(range(q - K_W - 1, q - K_W + 2), range(q - 1, q + 2), range(q + K_W - 1, q + K_W + 2))
        qx = q // K_W
        qy = q - qx * K_W
        x0, x1, y0, y1 = self.bbox
        self.bbox = (min(x0, qx), max(x1, qx + 1), min(y0, qy), max(y1, qy + 1))

    def _is_free(self, q: int) -> bool:
        """No tile overlaps place ``q``: two tiles overlap when their places are within
        one half-cell along both axes."""
        return q not in self.overlapped

    def _touching(self, q: int) -> list[int]:
        """The kinds of the tiles touching place ``q``."""
        return [k for k in map(self.tiles.get, _K_AROUND.get(q) or k_around(q)) if k is not None]

    def _crowded(self, q: int) -> bool:
        """Has place ``q`` a tile's place within three half-cells? A yes is remembered:
        tiles are never taken away, and the search asks about the same places again
        and again."""
        if q in self.crowded:
            return True
        if self.tiles.keys().isdisjoint(map(q.__add__, K_CROWD)):
            return False
        self.crowded.add(q)
        return True

    def _boat_open(self, b: int, extra: int | None, water: bool = False, placed: bool = False) -> bool:
        """Can the River go on from a Boat at ``b``: a chain of places, each touching the
        one before, each free table or a water tile, from ``b`` to an open place (free,
        no tile within a tile's width)? ``extra``: a tile about to be placed there
        (a water tile if ``water``). Searched outwards first; the way found is kept,
        and a later tile that lands neither on its free places nor near its end
        leaves it open without a new search. ``placed``: ``extra`` is the tile being
        placed (so a way found with it stays true on the table)."""
        keep = extra is None or placed
        known = self.ways.get(b)
        over = K_OVERSET
        if known is not None and extra is not None:
            free, end = known
            if end - extra not in K_CROWDSET:
                # untouched, or a water tile exactly on one of its places: the way goes through it
                if all(f - extra not in over or (water and f == extra) for f in free):
                    return True
        x0, x1, y0, y1 = self.bbox
        tiles = self.tiles
        overlapped = self.overlapped
        crowded = self.crowded
        crowd = K_CROWDSET
        ex = extra if extra is not None else -(1 << 40)  # far from everything
        parent = {b: None}
        heap = [(0, b)]
        pop = heapq.heappop
        push = heapq.heappush
        around = _K_AROUND
        while heap:
            q = pop(heap)[1]
            for r in around.get(q) or k_around(q):
                if r in parent:
                    continue
                parent[r] = q
                if r == extra:
                    if not water:
                        continue
                elif r in tiles:
                    if tiles[r] not in WATER:
                        continue
                # free, then open
                elif r in overlapped or r - ex in over:
                    continue
                elif r - ex not in crowd and r not in crowded and not self._crowded(r):
                    free = []
                    end = r
                    while r is not None and r != b:
                        if r not in tiles and r != extra:
                            free.append(r)
                        r = parent[r]
                    if keep:
                        self.ways[b] = (free, end)
                    return True
                rx = r // K_W
                ry = r - rx * K_W
                push(heap, (min(rx - x0, x1 - rx, ry - y0, y1 - ry), r))
        if keep:
            self.ways.pop(b, None)
        return False

    def _region(self, q: int) -> set[int]:
        kind = self.tiles[q]
        get = self.tiles.get
        seen = {q}
        todo = [q]
        while todo:
            for r in k_around(todo.pop()):
                if r not in seen and get(r) == kind:
                    seen.add(r)
                    todo.append(r)
        return seen

    def _region_touches_water(self, reg: set[int]) -> bool:
        return any(k in WATER for q in reg for k in self._touching(q))

    # -- per action ---------------------------------------------------------------
    def before(self, s: HorusState, player: int, action: int) -> None:
        if self.tiles is None:
            self._init(s)
        g = self.g
        if player != s.player:
            raise RuleViolation(f"seat {player + 1} acts in seat {s.player + 1}'s turn")
        ph = s.phase
        base = action & ~KIND_MASK
        arg = action & KIND_MASK
        self.expect = None
        if ph in (P_PLACE, P_RIVERPLACE, P_BOATPLACE) or (ph == P_RN and base in (RIVER_BASE, NECRO_BASE)):
            if s.tile < 0:
                raise RuleViolation("a tile is placed, but none is in hand")
            front = g.tile_kind[s.tile]
            if ph == P_PLACE:
                kind = front
                if kind in WATER or kind == NECRO:
                    raise RuleViolation(f"a {g.kind_name(kind)} tile placed as an ordinary tile")
            elif ph == P_BOATPLACE:
                kind = BOAT
                if front != BOAT:
                    raise RuleViolation("a Boat is put down, but the tile in hand is not a Boat")
            elif ph == P_RIVERPLACE:
                kind = RIVER
                if front != RIVER:
                    raise RuleViolation("a River place for a tile that is not River")
            else:
                kind = RIVER if base == RIVER_BASE else NECRO
                if not g.tile_double[s.tile]:
                    raise RuleViolation("a River / Necropolis choice for a tile that is not double-sided")
            if ph == P_RIVERPLACE and self._a_boat_can_move():
                raise RuleViolation("a bag River tile is placed without replacing a Boat, although one could move")
            q = key_of_code(arg)
            self._check_place(s, q, kind)
            self.expect = ("tile", q, kind)
        elif base == BOAT_BASE and ph in (P_BOATCHOICE, P_RN):
            b = arg
            if b not in (0, 1) or self.boats[b] is None:
                raise RuleViolation(f"Boat {b + 1} is not on the table")
            if ph == P_BOATCHOICE and g.tile_kind[s.tile] != RIVER:
                raise RuleViolation("only a River tile replaces a Boat")
            q = self.boats[b]
            self.tiles[q] = RIVER
            self.boats[b] = None
            self.ways.pop(q, None)
            self.lifted = (b, q if ph == P_BOATCHOICE else None)
        elif ph == P_CARD:
            if action == NILE_ACTION:
                if not s.nile[player]:
                    raise RuleViolation(f"seat {player + 1} plays a Nile card it no longer has")
                if not s.stacks[g.river_stack]:
                    raise RuleViolation("the Nile card is played with the River / Necropolis stack empty")
            else:
                k = action - CARD_BASE
                if k not in [g.card_of[c] for c in s.hands[player]]:
                    raise RuleViolation(f"seat {player + 1} plays card {k}, which is not in its hand")
        elif ph == P_STACK:
            if s.card < 0 or g.card_kinds[s.card][1] != ANY:
                raise RuleViolation("a stack is chosen without a '?' card")
            if not (0 <= arg < len(s.stacks)) or not s.stacks[arg]:
                raise RuleViolation(f"stack {arg} is empty")
        elif ph == P_STONE:
            q = key_of_code(arg)
            kind = self.tiles.get(q)
            if kind is None or kind >= g.nterr:
                raise RuleViolation(f"a Kingdom Stone on {key_xy(q)}, which is not a region tile")
            if q in self.stones:
                raise RuleViolation(f"a second Kingdom Stone on the tile at {key_xy(q)}")
            if s.stones_left[player] <= 0:
                raise RuleViolation(f"seat {player + 1} has no Kingdom Stone left")
            size = len(self._region(q))
            want = 1 if s.round_one else g.card_kinds[s.card][2]
            if size >= g.closed:
                raise RuleViolation(f"a Kingdom Stone in a closed region of {size} tiles")
            if want != ANY and size != want:
                raise RuleViolation(f"a Kingdom Stone in a region of {size} tiles with a card of size {want}")
            self.stones[q] = player
        elif ph == P_FROM:
            q = key_of_code(arg)
            if self.stones.get(q) != player:
                raise RuleViolation(f"seat {player + 1} moves a stone at {key_xy(q)} that is not its own")
            if not self._region_touches_water(self._region(q)):
                raise RuleViolation("the Nile card moves a stone from a region away from the River")
            self.move_from = q
        elif ph == P_TO:
            q = key_of_code(arg)
            kind = self.tiles.get(q)
            if kind is None or kind >= g.nterr or q in self.stones:
                raise RuleViolation(f"the Nile card moves a stone to {key_xy(q)}, not an empty region tile")
            reg = self._region(q)
            if self.move_from in reg:
                raise RuleViolation("the Nile card moves a stone within one region")
            if not self._region_touches_water(reg):
                raise RuleViolation("the Nile card moves a stone to a region away from the River")
            self.stones[q] = self.stones.pop(self.move_from)
        else:
            raise RuleViolation(f"action {action} in phase {PHASE_NAMES[ph]}")

    def _check_place(self, s: HorusState, q: int, kind: int) -> None:
        g = self.g
        if not self._is_free(q):
            raise RuleViolation(f"a {g.kind_name(kind)} tile at {key_xy(q)} overlaps a tile")
        near = self._touching(q)
        if not near:
            raise RuleViolation(f"a {g.kind_name(kind)} tile at {key_xy(q)} shares no edge (full or half) with"
                                " a tile")
        if kind == RIVER and s.phase != P_BOATPLACE and not any(k in WATER for k in near):
            raise RuleViolation(f"a River tile at {key_xy(q)} is not next to the River")
        if kind == TEMPLE:
            if not any(k in WATER for k in near):
                raise RuleViolation(f"the Temple at {key_xy(q)} is not next to the River")
            if any(k < g.nterr or k == NECRO for k in near):
                raise RuleViolation(f"the Temple at {key_xy(q)} touches a region or Necropolis tile")
        if kind == BOAT:
            b, old = self.lifted
            if old is not None and q - old not in K_NBRSET:
                raise RuleViolation(f"Boat {b + 1} at {key_xy(q)} does not touch the River tile that replaced it")
            if old is None and not any(k in WATER for k in near):
                raise RuleViolation(f"Boat {b + 1} at {key_xy(q)} is not next to the River")
            self.ways.pop(q, None)  # a way kept for an earlier Boat there may be stale
            if not self._boat_open(q, q, True, placed=True):
                raise RuleViolation(f"Boat {b + 1} at {key_xy(q)} has no way out to open table: the River is"
                                    " blocked")
        for b, bq in enumerate(self.boats):
            if bq is not None and not self._boat_open(bq, q, kind in WATER, placed=True):
                raise RuleViolation(f"a {g.kind_name(kind)} tile at {key_xy(q)} blocks the River: Boat {b + 1} at"
                                    f" {key_xy(bq)} has no way out to open table")

    def after(self, s: HorusState, full: bool) -> None:
        g = self.g
        if self.tiles is None:
            self._init(s)
            self._check_start(s)
        if self.expect is not None:
            _, q, kind = self.expect
            self._add(q, kind)
            if kind == BOAT:
                b = self.lifted[0]
                self.boats[b] = q
            slot = s.at.get(code(*key_xy(q)))
            if slot is None or s.kind[slot] != kind:
                raise RuleViolation(f"the engine did not put the {g.kind_name(kind)} tile at {key_xy(q)}")
            self.expect = None
        if len(s.removed) != self.removed:
            if self._temple_places():
                raise RuleViolation("the Temple was removed although it had a legal place")
            self.removed = len(s.removed)
        held = 1 if s.tile >= 0 else 0
        total = len(s.bag) + sum(map(len, s.stacks)) + len(s.kind) + len(s.removed) + held
        if total != g.total_tiles:
            raise RuleViolation(f"{total} tiles in bag, stacks, table and hand; the game has {g.total_tiles}")
        if len(s.kind) != len(self.tiles):
            raise RuleViolation(f"the engine has {len(s.kind)} tiles on the table, the rules {len(self.tiles)}")
        if len(s.stone_at) + sum(s.stones_left) != self.total_stones or len(s.stone_at) != len(self.stones):
            raise RuleViolation(f"{len(s.stone_at)} stones on the table and {sum(s.stones_left)} in supply;"
                                f" the players have {self.total_stones}")
        for p, hand in enumerate(s.hands):
            if len(hand) > g.hand_size:
                raise RuleViolation(f"seat {p + 1} holds {len(hand)} Horus cards")
        if full:
            self.full(s)

    def _a_boat_can_move(self) -> bool:
        """Could a Boat be replaced and put down next to its old place without blocking?"""
        for b, bq in enumerate(self.boats):
            if bq is None:
                continue
            other = self.boats[1 - b]
            for r in map(bq.__add__, K_NBR):
                if self._is_free(r) and self._boat_open(r, r, True) and \
                        (other is None or self._boat_open(other, r, True)):
                    return True
        return False

    def _check_start(self, s: HorusState) -> None:
        kinds = sorted(self.tiles.values())
        if kinds != sorted([BOAT, BOAT, PYRAMID]) and len(s.kind) == 3:
            raise RuleViolation(f"the game starts with {kinds}, not two Boats and the Step Pyramid")

    def _temple_places(self) -> list[int]:
        out = []
        for q in frontier_of(self.tiles):
            near = self._touching(q)
            if any(k in WATER for k in near) and not any(k < self.g.nterr or k == NECRO for k in near) \
                    and all(bq is None or self._boat_open(bq, q) for bq in self.boats):
                out.append(q)
        return out

    SCRATCH_EVERY = 32  # full checks between two recomputations of every group from scratch

    def full(self, s: HorusState, scratch: bool | None = None, final: bool = False) -> tuple | None:
        """Everything but the groups every time; the groups (regions, islands, free
        places) recomputed from scratch and compared every ``SCRATCH_EVERY``-th time
        (``scratch``: force it on or off)."""
        g = self.g
        self.fulls += 1
        if scratch is None:
            scratch = (self.fulls - 1) % self.SCRATCH_EVERY == 0

        # each physical tile once
        where = [*s.bag, *itertools.chain.from_iterable(s.stacks), *s.phys, *s.removed]
        if s.tile >= 0:
            where.append(s.tile)
        where.sort()
        if where != self.every_tile:
            raise RuleViolation("the physical tiles are not each exactly once in bag, stacks, table and hand")
        cards = [*s.deck, *s.discard, *itertools.chain.from_iterable(s.hands)]
        cards.sort()
        if cards != self.every_card:
            raise RuleViolation(f"{len(cards)} Horus cards in deck, discard and hands, not each of {g.ncards} once")
        pos = s.pos
        shift = K_OFF - OFF  # key_of_code, inline
        stones = {(pos[slot] // W + shift) * K_W + pos[slot] % W + shift: p for slot, p in s.stone_at.items()}
        if stones != self.stones:
            raise RuleViolation("the engine's Kingdom Stones differ from the rules' stones")
        for b, bq in enumerate(self.boats):
            slot = s.boats[b]
            if (slot is None) != (bq is None) or (slot is not None and key_of_code(s.pos[slot]) != bq):
                raise RuleViolation(f"Boat {b + 1} is not where the rules put it")
        if scratch:
            return self.groups(s, final)
        return None

    def groups(self, s: HorusState, final: bool = False) -> tuple[list, list]:
        """The engine's incremental groups against groups recomputed from scratch: no
        overlap, the free places next to the table, every region (and its stones),
        every island; at the end (``final``) each Boat's way on, searched afresh.
        Returns the regions and islands."""
        g = self.g
        self.scratches += 1
        shift = K_OFF - OFF  # key_of_code, inline: thousands a game
        where = [(c // W + shift) * K_W + c % W + shift for c in s.pos]  # slot -> the checker's int for its place
        if len(set(where)) != len(where) or dict(zip(where, s.kind)) != self.tiles:
            raise RuleViolation("the engine's table differs from the rules' table")
        cells = cells_of(self.tiles)  # raises on overlap
        if len(cells) != 4 * len(self.tiles) or len(s.cells) != len(cells):
            raise RuleViolation("tiles overlap")
        front = frontier_of(self.tiles)
        if {(c // W + shift) * K_W + c % W + shift for c in s.frontier} != front:
            raise RuleViolation("the engine's free places next to the table are wrong")
        region_list = regions_of(self.tiles, g.nterr)
        regions = set(region_list)
        engine = {frozenset([where[m] for m in members]) for members in s.reg_members.values()}
        if regions != engine:
            raise RuleViolation(f"the engine's regions differ from the regions recomputed from scratch"
                                f" ({len(engine)} against {len(regions)})")
        for rid, st in s.reg_stones.items():
            count = [0] * g.num_players
            for m in s.reg_members[rid]:
                if m in s.stone_at:
                    count[s.stone_at[m]] += 1
            if count != st:
                raise RuleViolation(f"the engine counts stones {st} in a region that has {count}")
        island_list = islands_of(self.tiles, cells)
        islands = set(island_list)
        engine_islands = {frozenset([where[m] for m in s.land_members[lid]]) for lid in s.islands()}
        if islands != engine_islands:
            raise RuleViolation(f"the engine's islands differ from the islands recomputed from scratch"
                                f" ({len(engine_islands)} against {len(islands)})")
        if final:
            self.ways.clear()  # no way kept: search each afresh
            for b, bq in enumerate(self.boats):
                if bq is not None and not self._boat_open(bq, None):
                    raise RuleViolation(f"Boat {b + 1} at {key_xy(bq)} is blocked")
        return region_list, island_list

    def at_end(self, s: HorusState) -> None:
        regions, islands = self.full(s, scratch=True, final=True)
        empty = sum(1 for st in s.stacks if not st)
        if empty < 2 and s.acted:
            raise RuleViolation(f"the game ended with {empty} empty stack(s); it ends when two are empty")
        last = s.depleted_at_turn[1] if len(s.depleted_at_turn) > 1 else None
        if empty >= 2 and last is not None and last != s.turn - 1:
            raise RuleViolation(f"the second stack ran out in turn {last + 1}, but the game went on to turn {s.turn}")
        scores, _ = scores_of(self.tiles, self.stones, self.g.nterr, self.g.num_players, self.g.temple_cap,
                              regions, islands)
        if scores != s.scores():
            raise RuleViolation(f"the engine scores {s.scores()}, the rules {scores}")


# --------------------------------------------------------------------------- agents
# RandomAgent is the generic one of .api; the greedy player is this game's own.
def _sample(seq: Sequence[int], k: int, rng: random.Random) -> list[int]:
    """``k`` distinct items of ``seq`` (``k`` at most its length), each k-subset equally
    likely, as ``rng.sample`` gives, but drawn with ``rng.random`` (a duplicate is drawn
    again): several times faster for a few items out of a hundred."""
    n = len(seq)
    rand = rng.random
    picked: dict[int, None] = {}  # in the order drawn
    while len(picked) < k:
        picked[int(rand() * n)] = None
    return [seq[i] for i in picked]


class GreedyAgent:
    """Plays sensibly from the public table and its own hand: a stone where it wins
    or ties the most valuable region, the card that allows the best stone, tiles that
    grow the regions it leads (and Necropolis tiles beside the regions others lead),
    the Nile card when no Horus card helps. It sees islands coming
    (:mod:`.horus_islands`): water (River tiles, Boats) closed around the regions it
    leads, terrain set into gaps in the water, a region near closing worth more for
    a stone, and the River stack for a "?" card when a River tile would close an
    island of its own; water round an opponent's regions and land tiles that open
    its own islands count against. Tile places are judged on a random sample of at
    most ``SAMPLE`` legal places, to keep it fast; for water, every legal place
    beside a group of land tiles near closing, and random ones up to ``SAMPLE``."""

    SAMPLE = 16
    NILE_TILES = 2  # the Nile card's River tiles: worth twice the best River tile for our islands

    def __init__(self, game: HorusGame, seat: int):
        from .horus_islands import NEAR_OPEN, IslandOutlook

        self.g = game
        self.seat = seat
        self._outlook = IslandOutlook
        self._near_open = NEAR_OPEN  # closeness() of horus_islands, inline
        self._last: tuple = (None, None)  # (table version, outlook)
        self._kept: tuple = (None, {})  # (stones version, group stakes by (group id, size))
        self._view: HorusView | None = None  # the view of the decision in hand

    def outlook(self, b) -> Any:
        """The island prospects of the table as it is now (see :mod:`.horus_islands`);
        kept while the same table gets no tile and no stone placed or moved (a turn's
        card, stack and tile decisions share one)."""
        stones = (len(b.stone_at), sum(b.stone_at))  # a placed or moved stone changes one or the other
        sizes = self._claimable(b)
        key = (b, len(b.pos), stones, sizes)
        if self._last[0] == key:
            return self._last[1]
        if self._kept[0] != (b, stones, sizes):  # the group stakes of earlier decisions hold while these stay
            self._kept = ((b, stones, sizes), {})
        g = self.g
        out = self._outlook(b, self.seat, g.temple_cap, g.closed, g.nterr, self._kept[1], sizes)
        self._last = (key, out)
        return out

    def _claimable(self, b) -> frozenset[int]:
        """The region sizes this seat can still put a stone into this turn: its Horus card's
        (played), or any of its hand's (not yet played); none after the Nile card."""
        g = self.g
        card = b.card
        if card == -2 or b.stones_left[self.seat] <= 0:
            return frozenset()
        if card >= 0:
            sizes = {g.card_kinds[card][2]}
        elif self._view is not None:  # (asked only in this seat's own turn)
            kinds, of = g.card_kinds, g.card_of
            sizes = {kinds[of[c]][2] for c in self._view.hand}
        else:
            return frozenset()
        if not sizes:
            return frozenset()
        if b.round_one:
            return frozenset((1,))
        if ANY in sizes:
            return frozenset(range(1, g.max_size + 1))
        return frozenset(sizes)

    def _points(self, st: Sequence[int], value: int, me: int) -> float:
        best = max(st)
        return value if best and st[me] == best else 0.0

    def _stone_gain(self, b, rid: int) -> float:
        """What one more stone of this seat in region ``rid`` is worth to it: the region's
        value if that makes it (one of) the leaders and it was not before, half a point
        more for a lead of its own, a little for the region's size."""
        st = b.reg_stones[rid]
        me = self.seat
        size = len(b.reg_members[rid])
        cap = self.g.temple_cap
        # an island doubles the value (10 at most); a group near closing adds part of that
        value = min(size, cap)
        k = b.land_open[b.land[rid]]
        if k <= self._near_open:
            value += (min(2 * size, cap) - value) / (1 + k)
        mine = st[me]
        other = 0
        for p, x in enumerate(st):
            if p != me and x > other:
                other = x
        gain = 0.1 * size
        if mine + 1 >= other and not (mine and mine >= other):
            gain += value
        if mine + 1 > other:
            gain += 0.5
        return gain

    def _nile_move(self, b) -> bool:
        """Could the Nile card move one of our stones from a region by the River to
        another region by the River with an empty tile?"""
        adj, pos, reg = b.adj_water, b.pos, b.reg  # adj_water: the places touching a water tile
        by_river = {rid for rid, members in b.reg_members.items() if any(pos[m] in adj for m in members)}
        ours = {reg[m] for m, p in b.stone_at.items() if p == self.seat} & by_river
        open_ = {rid for rid in by_river if any(m not in b.stone_at for m in b.reg_members[rid])}
        return any(open_ - {rid} for rid in ours)

    def _best_stones(self, b) -> dict[int, float]:
        """The best stone's gain for each region size 1–5 (-1: no place), and for ANY."""
        top = self.g.max_size
        best = {k: -1.0 for k in range(1, top + 1)}
        stone_at = b.stone_at
        for rid, members in b.reg_members.items():
            n = len(members)
            if n <= top:
                for m in members:
                    if m not in stone_at:
                        gain = self._stone_gain(b, rid)
                        if gain > best[n]:
                            best[n] = gain
                        break
        best[ANY] = max(best.values())
        return best

    def act(self, obs: HorusView, legal: Sequence[int], rng: random.Random) -> int:
        b = obs.board
        ph = b.phase
        self._view = obs  # for the hand (see _claimable)
        if len(legal) == 1:
            return legal[0]
        if ph == P_CARD:
            scored = []
            best = self._best_stones(b)
            for a in legal:
                if a == NILE_ACTION:
                    # worth it when it can move a stone of ours and the cards cannot help, or
                    # when its two River tiles close water round our regions
                    v = -2.0
                    if b.stack_size(self.g.river_stack) >= 2:
                        if self._nile_move(b):
                            v = 0.2
                        islands = self._river_prospect(b, self.outlook(b))
                        if islands > 0:
                            v = max(v, self.NILE_TILES * islands)
                else:
                    k = a - CARD_BASE
                    v = best[1 if b.round_one else self.g.card_kinds[k][2]]
                scored.append((v, rng.random(), a))
            return max(scored)[2]
        if ph == P_STONE:
            return self._best_stone(b, legal, STONE_BASE, rng)
        if ph == P_PLACE or ph == P_RN or ph == P_RIVERPLACE or ph == P_BOATPLACE:
            outlook = self.outlook(b)
            if ph == P_BOATPLACE and not outlook.near_slots:  # no island to close: any place will do
                return legal[int(rng.random() * len(legal))]
            if len(legal) <= self.SAMPLE:
                sample = legal
            else:
                # water: every place beside a group near closing, and a random sample
                # filling the rest of the SAMPLE places
                hot = outlook.hot_places(legal) if ph != P_PLACE else ()
                rest = self.SAMPLE - len(hot)
                sample = hot
                if rest > 0:
                    sample = _sample(legal, rest, rng)
                    if hot:
                        sample = sorted(set(sample).union(hot))
            return self._place_values(b, sample, rng, outlook)
        if ph == P_STACK:
            scored = []
            outlook = None
            for a in legal:
                s = a - STACK_BASE
                kind = self.g.stack_kind[s]
                v = 0.0
                if kind == RIVER:  # a River tile closing water round our regions
                    outlook = outlook or self.outlook(b)
                    v = self._river_prospect(b, outlook)
                else:
                    for rid, members in b.reg_members.items():
                        if b.kind[members[0]] == kind:
                            v = max(v, self._points(b.reg_stones[rid], len(members), self.seat))
                scored.append((v, rng.random(), a))
            return max(scored)[2]
        if ph == P_FROM:
            me = self.seat
            scored = []
            for a in legal:
                st = b.reg_stones[b.reg[b.at[a - FROM_BASE]]]
                others = max(x for p, x in enumerate(st) if p != me)
                v = 1.0 if st[me] - others >= 2 or st[me] < others else 0.0
                scored.append((v, rng.random(), a))
            return max(scored)[2]
        if ph == P_TO:
            return self._best_stone(b, legal, TO_BASE, rng)
        return legal[int(rng.random() * len(legal))]

    def _best_stone(self, b, legal: Sequence[int], base: int, rng: random.Random) -> int:
        """The stone place of ``legal`` (actions ``base`` + place) with the best gain; the
        gain is worked out once per region (the legal places are often many tiles of a
        few regions), ties broken at random as before."""
        at, reg = b.at, b.reg
        gains: dict[int, float] = {}
        best = None
        for a in legal:
            rid = reg[at[a - base]]
            gain = gains.get(rid)
            if gain is None:
                gain = gains[rid] = self._stone_gain(b, rid)
            item = (gain, rng.random(), a)
            if best is None or item > best:
                best = item
        return best[2]

    def _river_prospect(self, b, outlook) -> float:
        """The best a River tile from the stack could do for our islands (0 if nothing):
        judged on the places beside a group near closing that touch the River (the
        tile's exact legal places are known only once it is drawn)."""
        frontier, adj = b.frontier, b.adj_water
        best = 0.0
        if not outlook.near_slots:
            return best
        for c in sorted(outlook.near & frontier):
            if c in adj:
                v = outlook.place_value(c, RIVER)
                if v > best:
                    best = v
        return best

    def _place_values(self, b, sample: Sequence[int], rng: random.Random, outlook) -> int:
        """The best of ``sample`` (tile places): for a terrain tile, what the regions it
        joins are worth to this seat afterwards minus before; for a Necropolis, the
        size of the regions others lead beside it (it hems them in) minus those this
        seat leads; for the River side and a Boat, a little for each region it leads
        beside it; and for every tile, how it changes the island prospects of the land
        groups it borders (``outlook``; see :mod:`.horus_islands`). Replacing a Boat
        (the River stack's third choice) counts 0: the Boat's new place is chosen
        next."""
        reg, kind, members, stones = b.reg, b.kind, b.reg_members, b.reg_stones
        face = b.face
        nterr = self.g.nterr
        cap = self.g.temple_cap
        me = self.seat
        points = self._points
        n = self.g.num_players
        best_v, ties = float("-inf"), []  # the best value and the places that have it
        island = outlook.place_value
        near_slots, own_slots, adj_land, adj_water = outlook.near_slots, outlook.own_slots, b.adj_land, b.adj_water
        touch = b.touch
        for action in sample:
            base = action & ~KIND_MASK
            if base == BOAT_BASE:
                v = 0.0
                if v > best_v:
                    best_v, ties = v, [action]
                elif v == best_v:
                    ties.append(action)
                continue
            c = action & KIND_MASK
            k = face if base == PLACE_BASE else (RIVER if base == RIVER_BASE else NECRO)
            # the regions of the tiles touching ``c``, added in the order of NBR (the Necropolis
            # sum below runs over this set: the same order gives the same float)
            nb = touch.get(c) or NO_TILES  # (a legal place touches a tile: always there)
            near = {reg[o] for o in nb if o is not None and reg[o] >= 0}
            if k < nterr:
                same = [r for r in near if kind[members[r][0]] == k]
                if not same:
                    v = 0.0
                elif len(same) == 1:  # the common case, without the sums (the same value)
                    r = same[0]
                    st = stones[r]
                    size = len(members[r])
                    v = points(st, min(size + 1, cap), me) - points(st, size, me)
                else:
                    st = [sum(stones[r][p] for r in same) for p in range(n)]
                    size = 1 + sum(len(members[r]) for r in same)
                    v = points(st, min(size, cap), me) - sum(points(stones[r], len(members[r]), me) for r in same)
            elif k == NECRO:
                v = 0.0
                for r in near:
                    st = stones[r]
                    v += 0.2 * len(members[r]) * (1 if max(st) and st[me] < max(st) else -1)
            else:
                v = sum(0.1 * points(stones[r], len(members[r]), me) for r in near)
            # the island prospects: only near a group near closing, or for a lone land tile
            if k in WATER:
                if near_slots and not near_slots.isdisjoint(nb):
                    v += island(c, k, nb)
            elif (own_slots and not own_slots.isdisjoint(nb)) or (c not in adj_land and adj_water.get(c, 0) >= 2):
                v += island(c, k, nb)  # (a lone tile touching one water tile still faces the table on 6 half-edges)
            if v > best_v:
                best_v, ties = v, [action]
            elif v == best_v:
                ties.append(action)
        return ties[0] if len(ties) == 1 else ties[int(rng.random() * len(ties))]  # a tie: one draw decides


# --------------------------------------------------------------------------- the rules module
class HorusRules:
    """The rules of Horus, for the generic validator."""

    game_id = GAME_ID
    agents: Mapping[str, Callable[[HorusGame, int], Any]] = {"random": RandomAgent, "greedy": GreedyAgent}
    must_finish = {"random": True, "greedy": True}  # the stacks only ever shrink
    quick_games = 25  # the default pass of `cardgen validate horus` (a Horus game takes ~25 ms, checked)

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(range(max(2, lo), hi + 1))

    def setups(self, game) -> tuple[str, ...]:
        return (SETUP,)

    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec:
        from .horus_static import horus_static_spec

        return horus_static_spec(game, locate)

    def load(self, game, num_players: int, setup: str = SETUP) -> HorusGame:
        """Bind the rules to a game whose data passed :meth:`static_spec`'s checks."""
        if setup != SETUP:
            raise CardgenError(f"Horus has one setup, '{SETUP}', not '{setup}'")
        from .horus_static import data_problems

        problems = data_problems(game.data, lambda *a: Where())
        if problems:
            raise CardgenError(f"the data cannot be played: {problems[0].message}")
        try:
            return HorusGame(game.data, num_players)
        except (KeyError, ValueError, TypeError) as exc:
            raise CardgenError(f"the data cannot be played: {exc}") from None


RULES = register(HorusRules())
