"""What the Horus rules need from the game's data and components (the deck check).

Two sides, both named with the file and line to fix:

* the **data** the engine plays (``data.tiles``, ``stacks``, ``horus_cards``,
  ``stone_colours`` and the numbers): :func:`data_problems`, checked against the
  rulebook's facts (RULES), the published component lists (FOUND) and what follows
  from them (DERIVED);
* the **components** the kit prints (decks ``tiles``, ``horus-cards``,
  ``nile-cards``, ``stones``): one :class:`~cardgen.rules.api.StaticSpec` per deck,
  with the copies of each piece the rules need, for the generic check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...base.errors import Where
from ..api import Arrangement, Problem, StaticSpec
from . import rulebook
from .spec import (
    CLOSED_SIZE,
    COLOURS,
    HAND_SIZE,
    HORUS_CARDS,
    MAX_SIZE,
    NILE_CARDS,
    RIVER_BAG,
    RIVER_STACK,
    SETUP,
    STONES_EACH,
    TEMPLE_CAP,
    TERRAIN_STACK,
    TERRAIN_TILES,
    TOTAL_TILES,
)

TILES, CARDS, NILE, STONES = "tiles", "horus-cards", "nile-cards", "stones"
SPECIAL = ("river", "temple", "step_pyramid", "boat")
FIELDS = ("id", "front", "back", "where", "count")


def expected_tiles(terrains: list[str]) -> dict[tuple[str, str, str], int]:
    """(front, back, where) → how many such tiles the game has."""
    out: dict[tuple[str, str, str], int] = {}
    for t in terrains:
        out[(t, "tan", "bag")] = TERRAIN_TILES - TERRAIN_STACK       # DERIVED: 12
        out[(t, "purple", t)] = TERRAIN_STACK                        # FOUND: 8
    out[("river", "necropolis", "river")] = RIVER_STACK              # FOUND: 16, double-sided
    out[("river", "tan", "bag")] = RIVER_BAG                         # DERIVED: 20
    out[("temple", "tan", "bag")] = 1                                # RULES
    out[("step_pyramid", "silver", "start")] = 1                     # RULES
    out[("boat", "silver", "start")] = 2                             # RULES
    return out


def tile_name(key: tuple) -> str:
    front, back, where = key
    place = {"bag": "in the bag", "start": "on the table at the start"}.get(where, f"in the {where} stack")
    face = "River / Necropolis" if back == "necropolis" else front.replace("_", " ")
    back_text = "the Necropolis on its back" if back == "necropolis" else f"a {back} back"
    return f"{face} tile with {back_text} {place}"


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


Add = Callable[..., None]  # add(message, *path): a problem at the data's path


def data_problems(data: Mapping[str, Any], locate: Callable[..., Where]) -> list[Problem]:
    """Every difference between ``data`` and what the rules need, at its line."""
    out: list[Problem] = []

    def add(msg: str, *path: Any) -> None:
        out.append(Problem(msg, locate(*path)))

    terrains = _terrains(data, add)
    if terrains is None:
        return out
    stacks = _stacks(data, terrains, add)
    tiles = data.get("tiles")
    if not isinstance(tiles, (list, tuple)):
        add("the rules need 'tiles': every tile of the game with its count", "tiles")
        return out
    _tile_problems(tiles, terrains, stacks, add)
    _card_problems(data, terrains, add)
    for key, n, what in (("hand_size", HAND_SIZE, "a hand of"), ("nile_cards", NILE_CARDS, "Nile cards:"),
                         ("temple_cap", TEMPLE_CAP, "a region worth at most"),
                         ("closed_region_size", CLOSED_SIZE, "regions closed to stones from")):
        if data.get(key) != n:
            add(f"'{key}' is {data.get(key)!r}; the rules say {what} {n}", key)
    _stone_problems(data, add)
    return out


def _terrains(data: Mapping[str, Any], add: Add) -> list[str] | None:
    """The four region types (None: none to go on with, the problem added)."""
    terrains = data.get("terrains")
    if not isinstance(terrains, (list, tuple)) or not all(isinstance(t, str) and t for t in terrains):
        add("the rules need 'terrains': the list of the four region types", "terrains")
        return None
    if len(terrains) != 4 or len(set(terrains)) != 4:
        add(f"the rules have four different region types (Desert, Hill, Field, Swamp); 'terrains' lists"
            f" {len(terrains)}: {', '.join(terrains)}", "terrains")
        return None
    clash = [t for t in terrains if t in SPECIAL or t in ("any", "necropolis")]
    if clash:
        add(f"terrain '{clash[0]}' has the name of a tile the rules treat apart", "terrains")
        return None
    return list(terrains)


def _stacks(data: Mapping[str, Any], terrains: list[str], add: Add) -> list[str]:
    """The five face-up stacks (when wrong, the rules' five, to go on with)."""
    stacks = data.get("stacks")
    want_stacks = set(terrains) | {"river"}
    if not isinstance(stacks, (list, tuple)) or set(stacks) != want_stacks or len(stacks) != 5:
        add(f"the rules have five face-up stacks, one per terrain and the River / Necropolis stack"
            f" ({', '.join(terrains)}, river); 'stacks' is {list(stacks) if isinstance(stacks, tuple) else stacks!r}",
            "stacks")
        return terrains + ["river"]
    return list(stacks)


def _tile_problems(tiles: list | tuple, terrains: list[str], stacks: list[str], add: Add) -> None:
    """Each tile entry a tile of the game, and as many of each as the rules have."""
    want = expected_tiles(terrains)
    have: dict[tuple, list[tuple[int, int]]] = {}
    ids: dict[str, int] = {}
    fronts = set(terrains) | set(SPECIAL)
    wheres = {"bag", "start"} | set(stacks)
    for i, item in enumerate(tiles):
        key = _tile_key(i, item, ids, fronts, wheres, add)
        if key is None:
            continue
        if key not in want:
            add(f"tile '{item['id']}' ({tile_name(key)}) is not a tile of the game: the rules have"
                f" {TOTAL_TILES} tiles, as listed in the comment above 'tiles'", "tiles", i)
            continue
        have.setdefault(key, []).append((i, item["count"]))
    for key, n in want.items():
        got = have.get(key)
        if not got:
            add(f"no {tile_name(key)}: the rules need {n}", "tiles")
            continue
        total = sum(c for _, c in got)
        if total != n:
            i = got[-1][0]
            front = key[0]
            why = ""
            if front in terrains:
                why = (f" ({TERRAIN_TILES} {front} tiles in all: {TERRAIN_TILES - TERRAIN_STACK} in the bag,"
                       f" {TERRAIN_STACK} in the {front} stack)")
            entries = " + ".join(str(c) for _, c in got)
            add(f"tile '{tiles[i]['id']}': {entries} {tile_name(key)}; the rules need {n}{why}",
                "tiles", i, "count")


def _tile_key(i: int, item: Any, ids: dict[str, int], fronts: set[str], wheres: set[str],
              add: Add) -> tuple | None:
    """Tile entry ``i``'s (front, back, where), or None with its problem added."""
    if not isinstance(item, Mapping):
        add(f"tile entry {i + 1} must be a mapping with {', '.join(FIELDS)}", "tiles", i)
        return None
    missing = [f for f in FIELDS if f not in item]
    if missing:
        add(f"tile entry {i + 1} has no {', '.join(missing)}", "tiles", i)
        return None
    tid, front, back, where, count = (item[f] for f in FIELDS)
    if tid in ids:
        add(f"tile '{tid}' is listed twice (first as entry {ids[tid] + 1})", "tiles", i, "id")
        return None
    ids[tid] = i
    if front not in fronts:
        add(f"tile '{tid}': front '{front}' is no tile of the rules ({', '.join(sorted(fronts))})",
            "tiles", i, "front")
        return None
    if where not in wheres:
        add(f"tile '{tid}': where '{where}' is not the bag, the start or a stack", "tiles", i, "where")
        return None
    if not _int(count) or count < 1:
        add(f"tile '{tid}': count must be a whole number, 1 or more, found {count!r}", "tiles", i, "count")
        return None
    return (front, back, where)


def _card_problems(data: Mapping[str, Any], terrains: list[str], add: Add) -> None:
    """The Horus cards: each a terrain (or '?') and a size, as many as the rules have."""
    cards = data.get("horus_cards")
    if not isinstance(cards, (list, tuple)):
        add(f"the rules need 'horus_cards': the {HORUS_CARDS} Horus cards", "horus_cards")
        return
    total = 0
    seen: dict[str, int] = {}
    for i, c in enumerate(cards):
        if not isinstance(c, Mapping) or not all(k in c for k in ("id", "tile", "size", "count")):
            add(f"Horus card entry {i + 1} needs id, tile, size and count", "horus_cards", i)
            continue
        cid = c["id"]
        if cid in seen:
            add(f"Horus card '{cid}' is listed twice (first as entry {seen[cid] + 1})", "horus_cards", i, "id")
        seen[cid] = i
        if c["tile"] != "any" and c["tile"] not in terrains:
            add(f"Horus card '{cid}': tile '{c['tile']}' is neither a terrain nor 'any' (the black '?')",
                "horus_cards", i, "tile")
        size = c["size"]
        if size != "any" and not (_int(size) and 1 <= size <= MAX_SIZE):
            add(f"Horus card '{cid}': size {size!r} is not 1–{MAX_SIZE} nor 'any' (the '?')",
                "horus_cards", i, "size")
        if not _int(c["count"]) or c["count"] < 1:
            add(f"Horus card '{cid}': count must be a whole number, 1 or more", "horus_cards", i, "count")
        else:
            total += c["count"]
    if total != HORUS_CARDS:
        add(f"'horus_cards' count {total} cards; the rules have {HORUS_CARDS}", "horus_cards")


def _stone_problems(data: Mapping[str, Any], add: Add) -> None:
    """The Kingdom Stones: a colour per player, each with a shape of its own and its stones."""
    colours = data.get("stone_colours")
    if not isinstance(colours, (list, tuple)) or len(colours) != COLOURS:
        got = len(colours) if isinstance(colours, (list, tuple)) else 0
        add(f"the rules have Kingdom Stones in {COLOURS} colours; 'stone_colours' lists {got}", "stone_colours")
        return
    seen_ids: dict[Any, int] = {}
    seen_shapes: dict[Any, int] = {}
    for i, c in enumerate(colours):
        if not isinstance(c, Mapping):
            add(f"stone colour {i + 1} must be a mapping with id, shape and count", "stone_colours", i)
            continue
        cid = c.get("id")
        if not isinstance(cid, str) or not cid:
            add(f"stone colour {i + 1} has no id", "stone_colours", i)
        elif cid in seen_ids:
            add(f"stone colour '{cid}' is listed twice", "stone_colours", i, "id")
        seen_ids[cid] = i
        shape = c.get("shape")
        if not shape:
            add(f"stone colour '{cid}' has no shape (colour must never be the only cue)", "stone_colours", i)
        elif shape in seen_shapes:
            add(f"stone colours '{colours[seen_shapes[shape]].get('id')}' and '{cid}' share the shape"
                f" '{shape}'; each needs its own", "stone_colours", i, "shape")
        seen_shapes[shape] = i
        if c.get("count") != STONES_EACH:
            add(f"stone colour '{cid}' has {c.get('count')!r} stones; the rules give each player {STONES_EACH}",
                "stone_colours", i, "count")


def horus_static_spec(game, locate: Callable[..., Where]) -> StaticSpec:
    """The deck check of Horus: the data (:func:`data_problems`) and the four decks."""
    data = game.data
    problems = data_problems(data, locate)
    terrains = list(data.get("terrains") or ()) if isinstance(data.get("terrains"), (list, tuple)) else []
    want = expected_tiles([t for t in terrains if isinstance(t, str)][:4])
    stacks = [s for s in (data.get("stacks") or ()) if isinstance(s, str)]
    tiles_text = (f"{TOTAL_TILES} tiles: {TERRAIN_TILES - TERRAIN_STACK} in the bag and {TERRAIN_STACK} in the"
                  f" stack of each terrain, {RIVER_STACK} River / Necropolis, {RIVER_BAG} River in the bag, the"
                  " Temple, the Step Pyramid and two Boats")
    fixed: dict[tuple[str, Any], int] = {("tile.where", "bag"): sum(n for k, n in want.items() if k[2] == "bag"),
                                         ("tile.where", "start"): 3}
    for s in stacks:
        fixed[("tile.where", s)] = sum(n for k, n in want.items() if k[2] == s)
    # the Horus cards as the data lists them (their spread is ASSUMED; data_problems checks the total)
    card_want: dict[tuple, int] = {}
    for c in data.get("horus_cards") or ():
        if isinstance(c, Mapping) and _int(c.get("count")):
            key = (c.get("tile"), c.get("size"))
            card_want[key] = card_want.get(key, 0) + c["count"]
    colours = [c.get("id") for c in data.get("stone_colours") or () if isinstance(c, Mapping)]
    also = (
        StaticSpec(component=CARDS, key_fields=("card.tile", "card.size"), expected=tuple(card_want),
                   quantities=card_want, name=lambda k: f"Horus card {k[0]} {k[1]}",
                   expected_text=f"{sum(card_want.values())} Horus cards as 'horus_cards' lists them"),
        StaticSpec(component=NILE, key_fields=(), expected=((),), quantities={(): NILE_CARDS},
                   name=lambda k: "Nile card", expected_text=f"{NILE_CARDS} Nile cards, one per player"),
        StaticSpec(component=STONES, key_fields=("colour.id",), expected=tuple((c,) for c in colours),
                   quantities={(c,): STONES_EACH for c in colours}, name=lambda k: f"stone-{k[0]}",
                   expected_text=f"{COLOURS} × {STONES_EACH} Kingdom Stones"),
    )
    return StaticSpec(
        component=TILES,
        key_fields=("tile.front", "tile.back", "tile.where"),
        expected=tuple(want),
        quantities=want,
        name=tile_name,
        expected_text=tiles_text,
        arrangements=(Arrangement(SETUP, TOTAL_TILES, fixed=fixed, where=locate("tiles"),
                                  detail="the bag, the five stacks and the three start tiles"),),
        problems=tuple(problems),
        also=also,
        players=rulebook.PLAYERS,
        players_text=rulebook.PLAYERS_TEXT,
    )
