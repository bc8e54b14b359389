"""What Horus is made of: the tile kinds, the rulebook's numbers, and the game's data
read for the rules (:class:`HorusSpec`).

The numbers say where they come from: the rulebook (RULES), the published component
lists (FOUND) or what follows from them (DERIVED); :mod:`.static` checks the game's
data and kit against them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

GAME_ID = "horus"
SETUP = "standard"

# --------------------------------------------------------------------------- kinds
# terrains are 0..T-1 (four in the game); then:
RIVER, BOAT, PYRAMID, NECRO, TEMPLE = 10, 11, 12, 13, 14
WATER = frozenset((RIVER, BOAT, PYRAMID))
SPECIAL_FRONTS = {"river": RIVER, "boat": BOAT, "step_pyramid": PYRAMID, "temple": TEMPLE}
KIND_LETTER = {RIVER: "~", BOAT: "B", PYRAMID: "P", NECRO: "N", TEMPLE: "T"}

ANY = -1  # a "?" on a Horus card (tile or size)

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


class HorusSpec:
    """What the rules read from the game's data, for one player count: the physical
    tiles (kind, where each starts), the stacks, the Horus cards and the numbers.
    The engine, the checker and the players read it; :class:`~.game.HorusGame` adds
    the engine and the checker that play it."""

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

    def kind_name(self, kind: int) -> str:
        if kind < self.nterr:
            return self.terrains[kind]
        return {RIVER: "river", BOAT: "boat", PYRAMID: "step pyramid", NECRO: "necropolis", TEMPLE: "temple"}[kind]

    def card_name(self, kind: int) -> str:
        return self.card_kinds[kind][0]
