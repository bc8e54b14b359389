"""O, Farao!: what the rules need from the game — its constants (card kinds, the retail
deck, the board's numbers, the steps of a turn), the house rules and the board read from
the game's data with their problems, and the static spec the generic deck check compares
the data against. Everything else in the package builds on these; nothing here plays."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...base.errors import Where
from ..api import Arrangement, Problem, StaticSpec
from ..options import read_house_rules
from . import rulebook

GAME_ID = "farao"
DECK = "cards"
SETUP = "standard"

# kinds
THIEF, TAX, PHARAOH, END, JOKER = 10, 11, 12, 13, 14
NK = 15
SPECIAL_IDS = {"thief": THIEF, "tax_collector": TAX, "pharaoh": PHARAOH, "end": END}
KIND_NAMES = ("-",) + tuple(f"build-{v}" for v in range(1, 10)) + ("thief", "tax_collector", "pharaoh", "end",
                                                                    "joker")
# FOUND: the retail deck (the Dutch rules give no counts)
RULE_BUILDING = {1: 13, 2: 12, 3: 11, 4: 10, 5: 9, 6: 8, 7: 6, 8: 4, 9: 3}
RULE_SPECIALS = {"thief": 5, "tax_collector": 2, "pharaoh": 3, "end": 1}
RULE_JOKERS = 3
# RULES
PLATEAUS = 11
HAND = 7
DISPLAY = 3
MAX_VALUE = 9

# phases
(CASH, DRAW, TRADE, TRADE_PICK, TRADE_REPLY, BUILD, ATTACK, BLOCK, STEAL, LOSS_DISCARD, TAX_BLOCK,
 END_DISCARD, IDLE, C_DRAW, C_DIE, C_TAX, C_STEAL, OVER) = range(18)
PHASE_NAMES = ("cash", "draw", "trade", "trade offer", "trade reply", "build", "attack", "block",
               "steal", "collapse discard", "tax block", "end discard", "idle", "chance: draw", "chance: die",
               "chance: tax", "chance: steal", "over")
CHANCE_PHASES = frozenset((C_DRAW, C_DIE, C_TAX, C_STEAL))

DISPLAY_TARGET = -1  # where a draw goes (``draw_to``) when it refills the display instead of a hand


def pyramid_value(pyr: tuple) -> int:
    """RULES: the sum of the distinct values times the height."""
    base, rows = pyr
    h = len(rows)
    return h * (h * base + h * (h - 1) // 2)


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class FaraoOptions:
    """The choices where the rulebook is silent (see the package doc)."""

    cash_optional: bool = True  # our reading: step 1 is "may"
    min_rows_to_cash: int = 1  # ASSUMED: a single row is a pyramid
    trade: str = "one_for_one"  # ASSUMED: one card for one, both agreeing ("none": no trading)
    thief_takes: str = "any"  # ASSUMED: the thief's player chooses the card ("random": a random card)
    one_attack_per_turn: bool = True  # ASSUMED: one Thief or one Tax collector a turn
    pharaoh_blocks_each: bool = True  # ASSUMED: each target blocks for itself ("false": one Pharaoh stops a tax)
    final_cash: str = "all"  # our reading: every standing pyramid at the end ("eligible": those that may be cashed)
    joker: str = "wild_in_row"  # the variant: a Joker stands for the card of its row, never alone in a row
    trade_offers: int = 3  # ours: at most this many trade offers a turn
    build: str = "upward"  # ours: new rows only on top; rows may widen while narrower than the row below
    jokers: bool = False  # the variant, off by default
    # the Dutch text says the Thief *may* steal after a winning roll and the Tax collector's
    # player *may* take a card from every other player; we play both as always done
    # (our house rules); steal: optional offers the Thief's player to take nothing
    steal: str = "compulsory"
    tax_take: str = "compulsory"

    CHOICES = {"trade": ("one_for_one", "none"), "thief_takes": ("any", "random"), "final_cash": ("all", "eligible"),
               "joker": ("wild_in_row",), "build": ("upward",), "steal": ("compulsory", "optional"),
               "tax_take": ("compulsory",)}
    BOOLS = ("cash_optional", "one_attack_per_turn", "pharaoh_blocks_each", "jokers")
    INTS = {"min_rows_to_cash": (1, MAX_VALUE), "trade_offers": (0, 20)}

    @classmethod
    def from_data(cls, data: Any, locate: Callable[..., Where] | None = None) -> tuple[FaraoOptions, list[Problem]]:
        """Options from ``data.house_rules`` (missing keys keep their default) and the problems found in it."""
        return read_house_rules(cls, data, locate)


@dataclass(frozen=True)
class Board:
    """The track and the table, from ``data.board`` and friends (checked by the static spec)."""

    plateaus: int = PLATEAUS
    double_from: int = 3
    tall_only_from: int = 7
    tall_rows: int = 3
    hand_limit: int = HAND
    display: int = DISPLAY
    die: int = 6


def read_board(data: Mapping[str, Any], locate: Callable[..., Where] | None = None) -> tuple[Board, list[Problem]]:
    """The board's numbers from the data, each checked (RULES values must be the rulebook's)."""
    loc = locate or (lambda *p: Where())
    problems: list[Problem] = []
    board = data.get("board")
    values: dict[str, int] = {}
    if not isinstance(board, Mapping):
        return Board(), [Problem("the rules need 'board' in the game's data: plateaus, double_from,"
                                 " tall_only_from, tall_rows", loc("board"))]

    def whole(where_path: tuple, value: Any, what: str) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(Problem(f"{what} must be a whole number, found {value!r}", loc(*where_path)))
            return None
        return value

    for key in ("plateaus", "double_from", "tall_only_from", "tall_rows"):
        if key not in board:
            problems.append(Problem(f"'board' has no '{key}'", loc("board")))
            continue
        v = whole(("board", key), board[key], f"board.{key}")
        if v is not None:
            values[key] = v
    if values.get("plateaus", PLATEAUS) != PLATEAUS:
        problems.append(Problem(f"board.plateaus is {values['plateaus']}; the rules have {PLATEAUS} plateaus",
                                loc("board", "plateaus")))
    plateaus = PLATEAUS
    problems += _special_plateau_problems(values, loc)
    r = values.get("tall_rows")
    if r is not None and not 2 <= r <= MAX_VALUE:
        problems.append(Problem(f"board.tall_rows must be 2 to {MAX_VALUE}, found {r}", loc("board", "tall_rows")))
    for key, want in (("hand_limit", HAND), ("display", DISPLAY)):
        v = data.get(key)
        if v != want or isinstance(v, bool):
            problems.append(Problem(f"'{key}' is {v!r}; the rules say {want}", loc(key)))
    die = data.get("die", 6)
    if not isinstance(die, int) or isinstance(die, bool) or not 2 <= die <= 20:
        problems.append(Problem(f"'die' must be the number of sides of the die (2 to 20), found {die!r}", loc("die")))
        die = 6
    if problems:
        return Board(die=die), problems
    return Board(plateaus, values["double_from"], values["tall_only_from"], values["tall_rows"], HAND, DISPLAY,
                 die), problems


def _special_plateau_problems(values: Mapping[str, int], loc: Callable[..., Where]) -> list[Problem]:
    """The two special plateaus lie on the track, the second after the first."""
    problems = []
    plateaus = PLATEAUS
    d = values.get("double_from")
    t = values.get("tall_only_from")
    if d is not None and not 1 < d < plateaus:
        problems.append(Problem(f"board.double_from must be a plateau from 2 to {plateaus - 1}, found {d}",
                                loc("board", "double_from")))
    if t is not None and not 1 < t < plateaus:
        problems.append(Problem(f"board.tall_only_from must be a plateau from 2 to {plateaus - 1}, found {t}",
                                loc("board", "tall_only_from")))
    elif t is not None and d is not None and t <= d:
        problems.append(Problem(f"board.tall_only_from ({t}) must come after board.double_from ({d}): the rules"
                                " name the special plateaus in that order", loc("board", "tall_only_from")))
    return problems


# --------------------------------------------------------------------------- the deck in the data
def card_key(fields: Mapping[str, Any]) -> tuple | None:
    """A card's key for the rules: ``("build", value)`` for a building card (its
    for_each item has a ``value``), ``(id,)`` for the others (the item's ``id``)."""
    for item in fields.values():
        if isinstance(item, Mapping):
            if "value" in item and "id" not in item:
                return ("build", item["value"])
            if "id" in item:
                return (item["id"],)
    return None


def key_name(key: tuple) -> str:
    return f"build-{key[1]}" if key[0] == "build" and len(key) == 2 else str(key[0])


def options_of(game) -> FaraoOptions:
    """The house rules of the data; the Joker variant is on when the data says so or when
    the game was loaded with its cards (``variants`` of the loaded game holding "jokers")."""
    options = FaraoOptions.from_data(game.data.get("house_rules"))[0]
    if "jokers" in (getattr(game, "variants", None) or ()) and not options.jokers:
        options = replace(options, jokers=True)
    return options


def deck_has_jokers(game) -> bool:
    try:
        deck = game.component(DECK)
    except KeyError:
        return False
    return any(card_key(c.fields) == ("joker",) or getattr(c, "variant", None) == "jokers" for c in deck.cards)


def joker_count(game) -> int | None:
    """The Jokers' count in ``data.variant_cards`` (None: no joker entry)."""
    for item in game.data.get("variant_cards") or ():
        if isinstance(item, Mapping) and item.get("id") == "joker":
            return item.get("count")
    return None


def static_spec_of(game, locate: Callable[..., Where]) -> StaticSpec:
    """What the rules need from the game's data: the retail deck (and the Jokers when the deck
    holds them), with the board's and the house rules' problems."""
    problems: list[Problem] = []
    problems += read_board(game.data, locate)[1]
    options, option_problems = FaraoOptions.from_data(game.data.get("house_rules"), locate)
    problems += option_problems
    if options.steal == "optional" and options.thief_takes != "any":
        problems.append(Problem("rule option 'steal: optional' needs 'thief_takes: any' (the Thief's player"
                                " chooses, and may choose nothing)", locate("house_rules", "steal")))
    # a card's key: ("build", value) for a building card, (id,) for the others
    expected: list[tuple] = [("build", v) for v in RULE_BUILDING] + [(sid,) for sid in RULE_SPECIALS]
    quantities: dict[tuple, int] = {("build", v): k for v, k in RULE_BUILDING.items()}
    quantities.update({(sid,): k for sid, k in RULE_SPECIALS.items()})
    text = ("76 building cards (values 1–9: 13, 12, 11, 10, 9, 8, 6, 4 and 3 of them), 5 Thieves, 2 Tax"
            " collectors, 3 Pharaohs and the End card")
    jokers = joker_count(game)
    if jokers is not None and jokers != RULE_JOKERS:
        i = next(i for i, item in enumerate(game.data.get("variant_cards"))
                 if isinstance(item, Mapping) and item.get("id") == "joker")
        problems.append(Problem(f"variant card 'joker' has count {jokers!r}; the retail game has {RULE_JOKERS}",
                                locate("variant_cards", i, "count")))
    if deck_has_jokers(game):
        expected.append(("joker",))
        quantities[("joker",)] = RULE_JOKERS
        text += f", and {RULE_JOKERS} Jokers (variant)"
    if options.jokers and jokers is None:
        problems.append(Problem("rule option 'jokers' is on, but 'variant_cards' has no 'joker' entry to count"
                                " them", locate("house_rules", "jokers")))
    total = sum(quantities.values())

    def where_of(key: tuple) -> Where | None:
        """The data line a card's count comes from, when the data says a count the rules do not."""
        lists = (("building", "value", key[1]),) if key[0] == "build" else \
            (("specials", "id", key[0]), ("variant_cards", "id", key[0]))
        for name, field, want in lists:
            items = game.data.get(name)
            for i, item in enumerate(items if isinstance(items, (list, tuple)) else ()):
                if isinstance(item, Mapping) and item.get(field) == want:
                    return locate(name, i, "count") if item.get("count") != quantities.get(key) else None
        return locate(lists[0][0])  # not in the data at all: the list it belongs to

    return StaticSpec(
        component=DECK,
        key_fields=(),
        expected=tuple(expected),
        name=key_name,
        expected_text=text,
        quantities=quantities,
        key_of=card_key,
        where_of=where_of,
        arrangements=(Arrangement(SETUP, total, detail="one shuffled draw pile (the End card set aside until"
                                  " the last plateau)", where=locate("building")),),
        problems=tuple(problems),
        players=rulebook.PLAYERS,
        players_text=rulebook.PLAYERS_TEXT,
    )


def deck_counts(game, options: FaraoOptions) -> list[int]:
    """The cards of each kind in the game's deck (the Jokers from ``variant_cards`` when the
    variant is on and the deck does not print them)."""
    counts = [0] * NK
    for card in game.component(DECK).cards:
        key = card_key(card.fields)
        if key is None:
            continue
        kind = key[1] if key[0] == "build" else SPECIAL_IDS.get(key[0], JOKER if key[0] == "joker" else 0)
        if kind:
            counts[kind] += card.quantity
    if options.jokers and not counts[JOKER]:
        counts[JOKER] = joker_count(game) or 0
    return counts
