"""Egypt's constants and what the rules need from the game's data.

The numbers of the rulebook (nine types of seven cards, their values, 7 a hand, 5
kept, ten turns, the special melds), the phases of a turn and the kinds of public
event; the options read from ``data.house_rules``; and the checks of the deck and
the data against the rules (:func:`build_static_spec`), which ``cardgen validate``
runs before any game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ...base.errors import Where
from ..api import Arrangement, GroupSpec, Problem, StaticSpec
from ..options import read_house_rules
from . import rulebook

GAME_ID = "egypt"
DECK = "cards"
SETUP = "standard"

# RULES: nine types of seven cards and their point values (None: wild)
TYPE_IDS = ("hieroglyph", "slaves", "nile", "temples", "chariots", "pharaohs", "pyramid", "gods", "ankh")
TYPE_NAMES = ("Hieroglyph", "Slaves", "The Nile", "Temples", "Chariots", "Pharaohs", "Pyramid", "The Gods", "Ankh")
RULE_VALUES = (0, 1, 2, 3, 4, 5, 6, 7, None)
NTYPES = 9
ANKH = 8
COPIES = 7
N_CARDS = NTYPES * COPIES
HAND = 7  # RULES: draw up to 7
KEEP = 5  # RULES: discard down to 5
MAX_DISCARD = 3  # RULES: may discard up to 3
TURNS = 10  # RULES: ten turns of 300 years
# RULES: the special melds: (id, types, tribute)
COMBOS = (("builders", (5, 1, 6), 12), ("priests", (3, 0, 7), 10))
COMBO_IDS = tuple(c[0] for c in COMBOS)
MAX_PLAYERS = N_CARDS // HAND  # so that every hand can be filled to 7

# phases
DRAW, CONTROL, VICTIM, STEAL, DYNASTY, DISCARD, OVER = range(7)
PHASE_NAMES = ("draw", "control", "victim", "steal", "dynasty", "discard", "over")
# public events
EV_RESHUFFLE, EV_REVEAL, EV_CONTROL, EV_STEAL, EV_MELD, EV_COMBO, EV_PASS, EV_DISCARD, EV_TURN = range(9)


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class EgyptOptions:
    """The choices where the rulebook is silent or ambiguous (see the doc of
    :mod:`cardgen.rules.egypt`)."""

    ankh_value: str = "meld"  # ASSUMED: "meld" (type and value of its meld) or "zero"
    all_ankh_meld: int | None = 0  # ASSUMED: points per card of an all-Ankh meld; None: not allowed
    ankhs_in_combo: int = 1  # ASSUMED: how many slots of a special meld Ankhs may fill (0..3)
    control_meld: str = "discarded"  # our reading: "discarded" or "returned"
    no_controller: str = "end_phase"  # our reading of "the turn ends": "end_phase" or "next_turn"

    CHOICES = {"ankh_value": ("meld", "zero"), "control_meld": ("discarded", "returned"),
               "no_controller": ("end_phase", "next_turn")}

    @classmethod
    def from_data(cls, data: Any, locate: Callable[..., Where] | None = None) -> tuple[EgyptOptions, list[Problem]]:
        """Options from ``data.house_rules`` (missing keys keep their default), and
        the problems found in it."""
        return read_house_rules(cls, data, locate, _special_option)


def _special_option(key: str, value: Any) -> str | None:
    """The Egypt options that are neither a word nor a plain range."""
    if key == "all_ankh_meld":
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            return ("rule option 'all_ankh_meld' must be the points of an Ankh in an all-Ankh"
                    f" meld (0 or more) or null (not allowed), found {value!r}")
    elif key == "ankhs_in_combo":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
            return f"rule option 'ankhs_in_combo' must be 0 to 3, found {value!r}"
    return None


# --------------------------------------------------------------------------- the deck and the data
def build_static_spec(game, locate: Callable[..., Where]) -> StaticSpec:
    """What the rules need from the deck and the data (the types' values and art, the
    special melds, the house rules), with every problem found in them."""
    problems: list[Problem] = []
    types = game.data.get("types")
    by_id: dict[str, tuple[int, Mapping]] = {}
    if not isinstance(types, (list, tuple)):
        problems.append(Problem("the rules need 'types' in the game's data: a list of the nine card types",
                                locate("types")))
        types = ()
    for i, ty in enumerate(types):
        tid = ty.get("id") if isinstance(ty, Mapping) else None
        if not isinstance(tid, str) or not tid:
            problems.append(Problem(f"card type {i + 1} has no 'id'", locate("types", i)))
            continue
        by_id[tid] = (i, ty)
    for k, tid in enumerate(TYPE_IDS):
        if tid not in by_id:
            continue
        i, ty = by_id[tid]
        want = RULE_VALUES[k]
        have = ty.get("value")
        if want is None:
            if have != "wild":
                problems.append(Problem(f"card type '{tid}' has value {have!r}; the rules make {TYPE_NAMES[k]}"
                                        " cards wild (value: wild)", locate("types", i, "value")))
        elif have != want or isinstance(have, bool):
            problems.append(Problem(f"card type '{tid}' has value {have!r}; the rules give {TYPE_NAMES[k]}"
                                    f" cards {want} point{'s' if want != 1 else ''}",
                                    locate("types", i, "value")))
        variants = ty.get("variants")
        if not isinstance(variants, (list, tuple)) or len(variants) != COPIES:
            got = len(variants) if isinstance(variants, (list, tuple)) else 0
            problems.append(Problem(f"card type '{tid}' lists {got} art variant(s) for its {COPIES} cards"
                                    " ('variants')", locate("types", i, "variants")))
        elif k == 0:  # RULES: a different hieroglyph on each Hieroglyph card
            glyphs = [v.get("glyph") if isinstance(v, Mapping) else None for v in variants]
            dup = sorted({x for x in glyphs if x and glyphs.count(x) > 1}, key=glyphs.index)
            if dup or not all(glyphs):
                what = f"U+{ord(dup[0][0]):04X} is used twice" if dup else "one has none"
                problems.append(Problem("the rules want a different hieroglyph on each of the 7 Hieroglyph"
                                        f" cards ('glyph' of each variant): {what}",
                                        locate("types", i, "variants")))
    problems += combo_problems(game, locate)
    problems += EgyptOptions.from_data(game.data.get("house_rules"), locate)[1]
    return StaticSpec(
        component=DECK,
        key_fields=("type.id", "copy"),
        expected=tuple((tid, k) for tid in TYPE_IDS for k in range(1, COPIES + 1)),
        name=lambda key: f"{key[0]}-{key[1]}",
        expected_text=f"{NTYPES} types × copies 1–{COPIES}",
        groups=(GroupSpec(
            field="type", label="card type", plural="card types", id_key="id", count=NTYPES,
            required={"colour": "colour", "emblem": "emblem", "value": "value"},
            distinct=("id", "colour", "emblem"), palette=("colour",),
            strings={"type.{id}.name": "card name"},
            data_list="types"),),
        # one setup: every card shuffled into the draw deck
        arrangements=(Arrangement(SETUP, N_CARDS, detail="one shuffled draw deck", where=locate("types")),),
        problems=tuple(problems),
        players=rulebook.PLAYERS,
        players_text=rulebook.PLAYERS_TEXT,
    )


def combo_problems(game, locate) -> list[Problem]:
    """The special melds the kit prints (``data.combos``) against the rules."""
    combos = game.data.get("combos")
    if not isinstance(combos, (list, tuple)):
        return [Problem("the rules need 'combos' in the game's data: the two special melds", locate("combos"))]
    out = []
    found = {}
    for i, c in enumerate(combos):
        if isinstance(c, Mapping):
            found[c.get("id")] = (i, c)
    for cid, types, points in COMBOS:
        if cid not in found:
            out.append(Problem(f"special meld '{cid}' is missing from 'combos'", locate("combos")))
            continue
        i, c = found[cid]
        want = sorted(TYPE_IDS[t] for t in types)
        have = c.get("types")
        if not isinstance(have, (list, tuple)) or sorted(map(str, have)) != want:
            out.append(Problem(f"special meld '{cid}' needs one each of {', '.join(TYPE_IDS[t] for t in types)}"
                               f" by the rules (the data says {list(have) if isinstance(have, tuple) else have!r})",
                               locate("combos", i, "types")))
        if c.get("points") != points:
            out.append(Problem(f"special meld '{cid}' is worth {points} by the rules, not {c.get('points')!r}",
                               locate("combos", i, "points")))
    for data_id, (i, _) in found.items():
        if data_id not in COMBO_IDS:
            out.append(Problem(f"special meld '{data_id}' is not in the rules (they have {', '.join(COMBO_IDS)})",
                               locate("combos", i)))
    return out


def card_names_of(game) -> list[str]:
    """The id of each card ``0..62`` in the game's deck (``type-copy`` for any missing)."""
    deck = game.component(DECK)
    by_key = {}
    for card in deck.cards:
        ty = card.fields.get("type")
        by_key[(ty.get("id") if isinstance(ty, Mapping) else None, card.fields.get("copy"))] = card.id
    return [by_key.get((TYPE_IDS[c // COPIES], c % COPIES + 1), f"{TYPE_IDS[c // COPIES]}-{c % COPIES + 1}")
            for c in range(N_CARDS)]


def type_names_of(game) -> list[str]:
    """The types' names in English (else the game's first language), for the traces."""
    lang = "en" if "en" in game.languages else game.languages[0]
    strings = game.strings.get(lang, {})
    return [strings.get(f"type.{tid}.name", TYPE_NAMES[k]) for k, tid in enumerate(TYPE_IDS)]
