"""Hâpy Families: the game's constants and what the rules need from the game's data.

The numbers every other part of the engine is built on (36 cards, the sets to win,
the phases of a turn, what an empty or Mummy-up place shows), and the reading of
the data: the deck and layouts the rules expect (:func:`static_spec_of`, for the
generic deck check) and the cards in rules order (:func:`deck_cards`, for
binding the rules to a game)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...base.errors import Where
from ..api import Arrangement, GroupSpec, Problem, StaticSpec
from ..options import read_house_rules
from ..tableau import Layout, parse_layout
from . import rulebook

GAME_ID = "hapy"
DECK = "gods"
FAMILIES = 6
NUMBERS = 6
N_CARDS = FAMILIES * NUMBERS
SETS_TO_WIN = {2: 5, 3: 4, 4: 3}
SETUPS = ("pyramid", "mastaba", "temple", "tomb", "giza", "giza-mummy")
GIZA_MUMMY = "giza-mummy"  # Giza with one of its three designs all Mummy side up, made from 'giza'
DERIVED_SETUPS = {GIZA_MUMMY: "giza"}  # setups the rules make from another layout, not read from the data
MAX_TURNS = 1000  # the generous limit: real games last tens of turns

# phases
DEAL, TAKE, REQUEST, KEEP, OVER = range(5)
PHASE_NAMES = ("deal", "take", "request", "keep", "over")
# what a place shows besides a card
EMPTY = -2  # a place without a card
HIDDEN = -1  # a place whose card lies Mummy side up


@dataclass(frozen=True)
class HapyOptions:
    """Where the two rulebooks disagree, a named option (``data.house_rules``).

    ``request_ban``: which card a request may not name. The English rulebook bans the
    card the previous player requested, so a pass lifts the ban
    (``previous_player``, the default); the French one bans the last card requested by
    another player, which a pass leaves in force (``last_other_request``)."""

    request_ban: str = "previous_player"

    CHOICES = {"request_ban": ("previous_player", "last_other_request")}

    @classmethod
    def from_data(cls, data: Any, locate: Callable[..., Where] | None = None) -> tuple[HapyOptions, list[Problem]]:
        return read_house_rules(cls, data, locate)


def giza_mummy(layout: Layout) -> Layout:
    """Giza with its first design all Mummy side up (the rulebook suggests one of the
    three that way)."""
    group = designs(layout)[0]
    return replace(layout, name=GIZA_MUMMY,
                   face_up=tuple(False if p in group else up for p, up in enumerate(layout.face_up)))


def read_layout(name: str, layouts: Mapping[str, Any], locate: Callable[..., Where]) -> tuple[Layout | None, list]:
    """A setup's layout: read from the data, or made from the layout it derives from."""
    base = DERIVED_SETUPS.get(name)
    if base is None:
        return parse_layout(name, layouts[name], locate)
    layout, problems = parse_layout(base, layouts[base], locate)
    return (giza_mummy(layout) if layout is not None else None), problems


def setup_names(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The setups the rules describe, then any further layout the data adds."""
    layouts = data.get("layouts")
    names = list(SETUPS)
    if isinstance(layouts, Mapping):
        names += [k for k in layouts if k not in SETUPS]
    return tuple(names)


def static_spec_of(game, locate: Callable[..., Where]) -> StaticSpec:
    """The deck, families and layouts the rules need, with every problem found in the data."""
    problems: list[Problem] = []
    families = game.data.get("families")
    fam_ids: list[str] = []
    if not isinstance(families, (list, tuple)):
        problems.append(Problem("the rules need 'families' in the game's data: a list of the six families",
                                locate("families")))
    else:
        for i, fam in enumerate(families):
            fid = fam.get("id") if isinstance(fam, Mapping) else None
            if not isinstance(fid, str) or not fid:
                problems.append(Problem(f"family {i + 1} has no 'id'", locate("families", i)))
            else:
                fam_ids.append(fid)
    expected = tuple((fid, n) for fid in fam_ids for n in range(1, NUMBERS + 1))
    arrangements = []
    layouts = game.data.get("layouts")
    if not isinstance(layouts, Mapping):
        problems.append(Problem("the rules need 'layouts' in the game's data (the pyramid and the exploration"
                                " layouts; see card_data/hapy/layouts.yaml)", locate("layouts")))
        layouts = {}
    for name in setup_names(game.data):
        if DERIVED_SETUPS.get(name, name) not in layouts:
            problems.append(Problem(f"layout '{name}' is missing: the rules describe it, the data has none",
                                    locate("layouts")))
            continue
        layout, found = read_layout(name, layouts, locate)
        if name in DERIVED_SETUPS and found:  # named once, at the layout it is made from
            continue
        if layout is None:
            arrangements.append(Arrangement(name, 0, where=locate("layouts", name), problems=tuple(found)))
            continue
        fixed: dict[tuple[str, Any], int] = {}
        for need in layout.need:
            if need:
                for k, v in need.items():
                    fixed[(k, v)] = fixed.get((k, v), 0) + 1
        detail = ("rows of " + "+".join(str(r) for r in layout.rows)) if len(layout.rows) <= 8 \
            else f"{len(layout.rows)} rows"
        if name == "pyramid":
            found += pyramid_problems(game, layout, locate)
        found += variant_problems(name, layout, locate)
        arrangements.append(Arrangement(name, layout.places, fixed, detail, locate("layouts", name), tuple(found)))
    return StaticSpec(
        component=DECK,
        key_fields=("family.id", "number"),
        expected=expected,
        name=lambda key: f"{key[0]}-{key[1]}",
        expected_text=f"{FAMILIES} families × numbers 1–{NUMBERS}",
        groups=(GroupSpec(
            field="family", label="family", plural="families", id_key="id", count=FAMILIES,
            required={"colour": "colour", "symbol": "accessibility symbol", "god": "god"},
            distinct=("id", "colour", "symbol", "god"), palette=("colour",),
            strings={"family.{id}.god": "god name", "family.{id}.animal": "animal name",
                     "symbol.{symbol}": "symbol name"},
            data_list="families"),),
        arrangements=tuple(arrangements),
        problems=tuple(problems + family_problems(game, locate)
                       + HapyOptions.from_data(game.data.get("house_rules"), locate)[1]),
        players=rulebook.PLAYERS,
        players_text=rulebook.PLAYERS_TEXT,
    )


def designs(layout: Layout) -> list[set[int]]:
    """The layout's separate designs: groups of places linked by cards that overlap or
    touch (at most a card apart both ways); a gap wider than a card separates two."""
    seen: set[int] = set()
    out = []
    xs, ys = layout.xs, layout.ys
    for start in range(layout.places):
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for q in range(layout.places):
                if q not in group and abs(xs[p] - xs[q]) <= 1 + 1e-9 and abs(ys[p] - ys[q]) <= 1 + 1e-9:
                    group.add(q)
                    todo.append(q)
        seen |= group
        out.append(group)
    return out


def variant_problems(name: str, layout: Layout, locate) -> list[Problem]:
    """The exploration layouts as the rulebook describes them (their shapes are ours)."""
    out = []
    where = locate("layouts", name)
    if name == "mastaba":
        first = range(min(rulebook.MASTABA_FIRST, layout.places))
        if not all(layout.face_up[p] and (layout.need[p] or {}).get("number") == 1 for p in first) \
                or (layout.rows and layout.rows[0] != rulebook.MASTABA_FIRST):
            out.append(Problem("layout 'mastaba': the first row must be the six number-1 Gods, God side up"
                               " (each with need: {number: 1})", where))
    elif name == "temple":
        sides = sorted(tuple(sorted({layout.face_up[p] for p in group})) for group in designs(layout))
        if sides != [(False,), (True,)]:
            out.append(Problem("layout 'temple': the rules lay two designs, one all Mummy side up and one all God"
                               " side up", where))
    return out


def family_problems(game, locate) -> list[Problem]:
    """Each family's god and sticker symbol as the rulebooks give them."""
    out = []
    for i, fam in enumerate(game.data.get("families") or ()):
        if not isinstance(fam, Mapping):
            continue
        fid, god, symbol = fam.get("id"), fam.get("god"), fam.get("symbol")
        want = rulebook.GODS.get(fid) if isinstance(fid, str) else None
        if want is not None and god != want:
            out.append(Problem(f"family '{fid}': its god is {want} in the rulebook, not {god!r}",
                               locate("families", i, "god")))
        sticker = rulebook.STICKERS.get(god if isinstance(god, str) else "")
        if sticker is not None and symbol != sticker:
            out.append(Problem(f"family '{fid}': the French edition's sticker for {god} is the {sticker},"
                               f" not {symbol!r}", locate("families", i, "symbol")))
    return out


def pyramid_problems(game, layout: Layout, locate) -> list[Problem]:
    """The setup pyramid as the rules describe it: rows 1..8, apex God side up, alternating."""
    out = []
    if list(layout.rows) != list(range(1, 9)):
        out.append(Problem(f"layout 'pyramid': rows of {'+'.join(map(str, layout.rows))}; the rules lay 8 rows"
                           " of 1 to 8 cards", locate("layouts", "pyramid")))
    else:
        i = 0
        for r, size in enumerate(layout.rows):
            if layout.face_up[i] != (r % 2 == 0):
                out.append(Problem(f"layout 'pyramid': row {r + 1} must lie {'God' if r % 2 == 0 else 'Mummy'}"
                                   " side up (apex God side up, then alternating)",
                                   locate("layouts", "pyramid", "rows", r, "side")))
            i += size
        # every card but the base row's lies partly under two cards of the next row
        start = 0
        for r, size in enumerate(layout.rows[:-1]):
            nxt = range(start + size, start + size + layout.rows[r + 1])
            for p in range(start, start + size):
                under = [q for q in layout.covered_by[p] if q in nxt]
                if len(under) != 2:
                    out.append(Problem(f"layout 'pyramid': card {p - start + 1} of row {r + 1} is partly covered"
                                       f" by {len(under)} card(s) of row {r + 2}; the rules lay two over it",
                                       locate("layouts", "pyramid", "rows", r)))
                    break
            start += size
    sheet = game.data.get("pyramid")
    if isinstance(sheet, Mapping) and isinstance(sheet.get("rows"), (list, tuple)):
        if list(sheet["rows"]) != list(layout.rows):
            out.append(Problem(f"data 'pyramid.rows' ({list(sheet['rows'])}) disagrees with layout 'pyramid'"
                               f" ({list(layout.rows)})", locate("pyramid", "rows")))
    return out


def deck_cards(game) -> tuple[list[str], list[str], list[Mapping[str, Any]]]:
    """``(family ids, card ids, card fields)`` of a game whose data passed :func:`static_spec_of`'s
    checks, the cards in rules order: ``family_index * 6 + number - 1``."""
    families = [f["id"] for f in game.data["families"]]
    deck = game.component(DECK)
    by_key = {}
    for card in deck.cards:
        fam = card.fields.get("family")
        key = (fam.get("id") if isinstance(fam, Mapping) else None, card.fields.get("number"))
        by_key[key] = card
    names, fields = [], []
    for fid in families:
        for n in range(1, NUMBERS + 1):
            card = by_key[(fid, n)]
            names.append(card.id)
            fields.append(card.fields)
    return families, names, fields
