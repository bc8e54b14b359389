"""O, Farao!: the rules as a small, fast engine (plain ints and short lists).

Cards of one kind are alike for the rules, so a hand, the draw pile and the
discard pile are lists of counts indexed by a *kind*: ``1..9`` the building
cards of that value, ``THIEF`` (10), ``TAX`` (11, the tax collector),
``PHARAOH`` (12), ``END`` (13, the End card) and ``JOKER`` (14, the variant).
A pyramid is a tuple ``(base value, rows)``, its rows from the bottom up, each
row an int ``cards * 8 + jokers``. A draw from the pile is a uniform draw from
the cards left in it, which *is* a shuffle, so the draws are the only chance
steps a shuffle needs.

A turn is the rulebook's six steps, each as small decisions (``PASS`` first
where a step is optional; trading asks a question before each offer, ``YES``
to offer, so that a player choosing at random does not offer trades all turn
long; the same question ends the trading with the first build or with none, see
step 3). A turn
in which the player can do nothing at all is one decision, ``PASS`` (``IDLE``),
so that a stuck game shows up as a game that does not end:

1. **Cash** (``CASH + slot`` or ``PASS``): one own pyramid with enough rows is
   scored (the sum of its distinct values × its height) and goes to the discard;
   the figure moves one plateau. From ``board.tall_only_from`` only pyramids of
   ``board.tall_rows`` rows or more may be cashed. When the figure reaches the
   last plateau, the discard, the draw pile and the End card are shuffled into a
   new pile.
2. **Draw** (``PILE`` or ``TAKE + kind``): one card from the pile (chance) or
   from the display of three; a display card taken is replaced from the pile.
3. **Trade** (``YES``, then ``TRADE + 256 * partner + 16 * give + ask``, then the
   partner's ``ACCEPT``/``DECLINE``): the active player offers one of its cards for
   a kind of card from another player; the partner decides. The question before
   each offer also ends the trading: ``PASS`` (no trades, no building: on to step
   5) or a build (no (more) trades, and this is the turn's first build). Ending
   the trading and making the first build are one decision because nothing
   happens between them (the player knows no more at the build question than at
   the trade question); it saves a step in most turns, and a player choosing at
   random trades less often (it picks ``YES`` among all its builds) without any
   line of play becoming unreachable.
4. **Build** (``PASS`` or ``BUILD + ((16 * slot + value) * 16 + naturals) * 4 +
   jokers``, again until ``PASS``): cards of one value onto one own pyramid (slot
   0 or 1) or as a new pyramid (slot 2). When no trade offer is possible (nobody
   else holds a card, three offers made, ``trade: none``), the build question is
   asked at once. No trade is offered after a build.
5. **Thief or tax collector** (``PASS``, ``THIEF + 2 * seat + slot`` or ``TAX``):
   the target may block with a Pharaoh (``BLOCK``/``ALLOW``; every target is asked,
   with or without a Pharaoh, so that asking reveals nothing); a thief's die roll
   (chance) higher than the pyramid's height lets the active player take one card
   of it (``STEAL + 2 * row + joker``); a pyramid that no longer follows the rules
   collapses into its owner's hand, who discards down to the hand limit
   (``DISCARD + kind``). A tax collector takes one random card (chance) from the
   hand of every other player who does not block.
6. **Hand to seven**: the active player discards down to seven (``DISCARD +
   kind``) or draws up to seven (chance).

The game ends at once when the End card is drawn; every pyramid still standing
is then cashed (``final_cash``). The most points win; equal points at the top
share the victory.

Choices where the rulebook is silent are named options (:class:`FaraoOptions`),
read from ``data.house_rules``; the values the data sets are the ones played:

* ``cash_optional: true``: step 1 is a "may" (``false``: a player who can cash must);
* ``min_rows_to_cash: 1``: a single row is a pyramid and may be cashed;
* ``trade: one_for_one``: each trade swaps one card for one (``none``: no trading);
* ``thief_takes: any``: the thief's player picks the card (``random``: a chance step);
* ``one_attack_per_turn: true``: one Thief or one Tax collector a turn;
* ``pharaoh_blocks_each: true``: each target blocks for itself (``false``: one
  Pharaoh stops a whole tax collection);
* ``final_cash: all``: at the end every standing pyramid is cashed (``eligible``:
  only those that could be cashed on the last plateau);
* ``joker: wild_in_row``: a Joker stands for the card of its row, never alone.

Besides those, options of ours the data may set:

* ``trade_offers``: 3 (ours): at most three trade offers per turn (so two
  players cannot offer and decline forever);
* ``build``: ``upward`` (ours): a build adds cards of one value to one row of an
  own pyramid (the row must stay narrower than the row below it) or lays a new
  row on top (one value higher, fewer cards than the top row), or starts a new
  pyramid; a turn may make any number of builds, on any of its pyramids;
* ``jokers``: false (the variant, off by default; their number comes from
  ``data.variant_cards``).

And fixed choices of the engine (not options):

* a player has at most one pyramid standing, two once the figure stands on
  ``board.double_from`` or beyond (the data's reading of the first special
  plateau);
* step 2 is not optional when there is a card to take; the display is refilled
  from the pile at once;
* when the pile runs out before the last plateau, the discard pile is shuffled
  into a new pile; with both empty, nobody draws (hands stay short);
* cashed pyramids go to the discard pile; played Thieves, Tax collectors and
  Pharaohs too; the figure stays on the last plateau once there (later cashes
  still score);
* the End card ends the game whenever it leaves the pile, also when it would
  refill the display;
* a Thief may target any pyramid of another player, even one too tall to rob;
  a Tax collector takes a random card, as the taker cannot see the hand;
* discarded cards lie face up: what is discarded is public.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from itertools import chain, compress, islice
from operator import attrgetter, getitem
from typing import Any, Callable, Mapping, Sequence

from ..errors import CardgenError, Where
from . import register
from .api import (CHANCE, TERMINAL, Arrangement, Problem, RandomAgent, RuleViolation, StaticSpec,
                  draw_outcome, most_points_win)
from .options import read_house_rules

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

# actions (chance actions: a kind for draws and taxes, the roll for the die, a steal code)
PASS = 0
YES = 1
PILE = 2
ACCEPT = 3
DECLINE = 4
BLOCK_ACT = 5
ALLOW = 6
TAX_ACT = 7
TAKE = 20  # + kind
DISCARD = 40  # + kind
CASH_ACT = 60  # + slot
THIEF_ACT = 70  # + 2 * seat + slot
STEAL_ACT = 100  # + 2 * row + joker
TRADE_ACT = 1000  # + 256 * partner + 16 * give + ask
BUILD_ACT = 10000  # + ((16 * slot + value) * 16 + naturals) * 4 + jokers
NEW = 2  # the build slot of a new pyramid

DISPLAY_TARGET = -1


def build_action(slot: int, value: int, naturals: int, jokers: int = 0) -> int:
    return BUILD_ACT + ((16 * slot + value) * 16 + naturals) * 4 + jokers


def decode_build(action: int) -> tuple[int, int, int, int]:
    """``(slot, value, naturals, jokers)`` of a build action."""
    rest, jokers = divmod(action - BUILD_ACT, 4)
    rest, naturals = divmod(rest, 16)
    slot, value = divmod(rest, 16)
    return slot, value, naturals, jokers


def trade_action(partner: int, give: int, ask: int) -> int:
    return TRADE_ACT + 256 * partner + 16 * give + ask


def decode_trade(action: int) -> tuple[int, int, int]:
    partner, rest = divmod(action - TRADE_ACT, 256)
    give, ask = divmod(rest, 16)
    return partner, give, ask


def pyramid_value(pyr: tuple) -> int:
    """RULES: the sum of the distinct values times the height."""
    base, rows = pyr
    h = len(rows)
    return h * (h * base + h * (h - 1) // 2)


def pyramid_cards(pyr: tuple) -> int:
    return sum(r >> 3 for r in pyr[1])


def pyramid_text(pyr: tuple) -> str:
    base, rows = pyr
    parts = []
    for i, r in enumerate(rows):
        n, j = r >> 3, r & 7
        parts.append(f"{n}×{base + i}" + (f" ({j} Joker{'s' if j > 1 else ''})" if j else ""))
    return "[" + " / ".join(parts) + "]"


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class FaraoOptions:
    """The choices where the rulebook is silent (see the module doc)."""

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

    CHOICES = {"trade": ("one_for_one", "none"), "thief_takes": ("any", "random"), "final_cash": ("all", "eligible"),
               "joker": ("wild_in_row",), "build": ("upward",)}
    BOOLS = ("cash_optional", "one_attack_per_turn", "pharaoh_blocks_each", "jokers")
    INTS = {"min_rows_to_cash": (1, MAX_VALUE), "trade_offers": (0, 20)}

    @classmethod
    def from_data(cls, data: Any, locate: Callable[..., Where] | None = None) -> tuple["FaraoOptions", list[Problem]]:
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


# --------------------------------------------------------------------------- game
class FaraoGame:
    """The rules bound to a player count, the board and the options (OpenSpiel's ``Game``)."""

    def __init__(self, num_players: int, options: FaraoOptions = FaraoOptions(), board: Board = Board(),
                 counts: Sequence[int] | None = None):
        if not 3 <= num_players <= 4:
            raise CardgenError(f"O, Farao! is played by 3 or 4 players, not {num_players}")
        self.num_players = num_players
        self.setup = SETUP
        self.options = options
        self.board = board
        if counts is None:
            counts = [0] * NK
            for v, k in RULE_BUILDING.items():
                counts[v] = k
            for sid, k in RULE_SPECIALS.items():
                counts[SPECIAL_IDS[sid]] = k
            counts[JOKER] = RULE_JOKERS
        counts = list(counts)
        if not options.jokers:
            counts[JOKER] = 0
        self.counts = tuple(counts)  # cards of each kind in play
        self.counts_list = list(counts)
        self.total = sum(counts)
        self.die = board.die
        self.last = board.plateaus
        self.hand_limit = board.hand_limit
        # the checker's verdict on every pyramid shape it met (a pure function of the shape and the
        # options, so shared by the games of this game object; the engine never reads it)
        self.checker_verdicts = _PyramidCount(options.jokers)
        self.packed_counts = sum(c * KIND_WEIGHT[k] for k, c in enumerate(self.counts))  # the deck, packed
        # the kinds a trade may give or ask, and every offer to partner q giving g: _trade_runs[q][g]
        self._trade_kinds = [k for k in range(1, NK) if k != END and (k != JOKER or options.jokers)]
        # every build without Jokers of 1…n cards of value v on slot s: _build_runs[s][v][n]
        most = max(self.counts[1:MAX_VALUE + 1])
        self._build_runs = [[[[build_action(s, v, k) for k in range(1, n + 1)] for n in range(most + 1)]
                             for v in range(MAX_VALUE + 1)] for s in range(NEW + 1)]
        self._trade_runs = [[[TRADE_ACT + 256 * q + 16 * g + a for a in self._trade_kinds if a != g] for g in range(NK)]
                            for q in range(num_players)]
        # the builds on an own pyramid, per slot and pyramid shape (see _PyramidBuilds), and the new
        # pyramids per value, indexed by the cards of that value held
        self._pyramid_builds = [_PyramidBuilds(self._build_runs[s]) for s in range(NEW)]
        self._new_runs = self._build_runs[NEW][1:MAX_VALUE + 1]
        self._offer_lists: list[dict[bytes, list[int]]] = [{} for _ in range(num_players)]
        # per plateau (index 0 unused): the fewest rows to cash and the pyramids a player may have
        self.rows_to_cash = tuple(self.cash_rows(t) for t in range(board.plateaus + 1))
        self.pyramid_caps = tuple(self.pyramid_cap(t) for t in range(board.plateaus + 1))
        self.trade_offers = options.trade_offers if options.trade != "none" else 0  # offers a turn

    def new_initial_state(self) -> "FaraoState":
        return FaraoState(self)

    def max_game_length(self) -> int:
        """The generous limit, in steps: 500 turns of 80 steps (real games last tens of turns)."""
        return 500 * 80

    def checker(self) -> "FaraoChecker":
        return FaraoChecker(self)

    def cash_rows(self, plateau: int) -> int:
        """The fewest rows a pyramid needs to be cashed with the figure on ``plateau``."""
        b = self.board
        need = self.options.min_rows_to_cash
        if plateau >= b.tall_only_from and b.tall_rows > need:
            need = b.tall_rows
        return need

    def pyramid_cap(self, plateau: int) -> int:
        return 2 if plateau >= self.board.double_from else 1

    def build_actions(self, hand: Sequence[int], pyrs: Sequence[tuple], can_new: bool,
                      head: Sequence[int] = (PASS,)) -> list[int]:
        """``head`` (``PASS``) and every legal build of a hand on its pyramids.

        Not cached as whole lists (hands and pyramids vary so much that fewer than one list
        in ten would be met again); without Jokers it is put together from prepared runs:
        per own pyramid shape the rows that can take cards (:class:`_PyramidBuilds`), per
        value the new pyramids, each indexed by the cards of that value held."""
        if self.options.jokers and hand[JOKER]:
            return self._builds_with_jokers(hand, pyrs, can_new, head)
        out = list(head)
        for slot, pyr in enumerate(pyrs):
            for v, runs in self._pyramid_builds[slot][pyr]:
                out += runs[hand[v]]
        if can_new:
            out += chain.from_iterable(map(getitem, self._new_runs, islice(hand, 1, MAX_VALUE + 1)))
        return out

    def _builds_with_jokers(self, hand: Sequence[int], pyrs: Sequence[tuple], can_new: bool,
                            head: Sequence[int]) -> list[int]:
        """:meth:`build_actions` for a hand holding Jokers (the variant): each build with 0… Jokers."""
        out = list(head)
        jk = hand[JOKER]
        for slot, (base, rows) in enumerate(pyrs):
            h = len(rows)
            for i in range(h + 1):
                v = base + i
                if v > MAX_VALUE:
                    break
                if i < h:
                    cur = rows[i] >> 3
                    nat_cur = cur - (rows[i] & 7)
                    room = (rows[i - 1] >> 3) - 1 - cur if i else 99
                else:
                    nat_cur = 0
                    room = (rows[i - 1] >> 3) - 1
                if room <= 0:
                    continue
                top = min(hand[v], room)
                for nat in range(0 if nat_cur else 1, top + 1):
                    for j in range(0, min(jk, room - nat) + 1):
                        if nat + j:
                            out.append(build_action(slot, v, nat, j))
        if can_new:
            for v in range(1, MAX_VALUE + 1):
                for nat in range(1, hand[v] + 1):
                    for j in range(jk + 1):
                        out.append(build_action(NEW, v, nat, j))
        return out

    OFFER_LISTS_KEPT = 8192  # per seat: a few thousand hands are met in hundreds of games

    def offers(self, p: int, hand: list[int], hand_n: list[int]) -> list[int]:
        """:meth:`trade_actions` of seat ``p``'s hand to the others holding cards, kept per seat
        and (kinds held, seats holding cards): two in three questions meet a list again."""
        key = bytes(map(bool, hand)) + bytes(map(bool, hand_n))
        lists = self._offer_lists[p]
        out = lists.get(key)
        if out is None:
            if len(lists) >= self.OFFER_LISTS_KEPT:
                lists.clear()
            held = sum(1 << k for k, c in enumerate(hand) if c)
            partners = sum(1 << q for q, n in enumerate(hand_n) if n and q != p)
            out = lists[key] = self.trade_actions(held, partners)
        return out

    def trade_actions(self, held: int, partners: int) -> list[int]:
        """Every trade offer: to a partner (bit mask), a held kind (bit mask) for any other kind.

        Built from one prepared run of offers per (partner, kind given), in the order partner,
        given, asked: a list of up to ~400 offers costs a few dozen list extensions (:meth:`offers`
        keeps the lists met, a bounded number per seat)."""
        out: list[int] = []
        runs = self._trade_runs
        kinds = self._trade_kinds
        for q in range(self.num_players):
            if partners >> q & 1:
                row = runs[q]
                for g in kinds:
                    if held >> g & 1:
                        out += row[g]
        return out


class _PyramidBuilds(dict):
    """For one slot, per own pyramid shape (filled as shapes are met): the rows a build
    without Jokers may add to, as ``(value, runs)``, ``runs[held]`` being every build of
    1… cards of that value a hand holding ``held`` of them may make there (at most the
    room the row has: narrower than the row below; empty when nothing is held). A new
    row on top is one value higher and narrower than the top row."""

    def __init__(self, runs: list[list[list[int]]]):
        super().__init__()
        self.runs = runs  # every build of 1…n cards of value v on this slot: runs[v][n]

    def __missing__(self, pyr: tuple) -> list[tuple[int, list[list[int]]]]:
        base, rows = pyr
        out = []
        for i in range(len(rows) + 1):
            v = base + i
            if v > MAX_VALUE:
                break
            below = rows[i - 1] >> 3 if i else 99
            room = below - 1 - (rows[i] >> 3 if i < len(rows) else 0)
            if room > 0:
                by_value = self.runs[v]
                out.append((v, [by_value[min(held, room)] for held in range(len(by_value))]))
        self[pyr] = out
        return out


# --------------------------------------------------------------------------- state
class FaraoObservation:
    """What one seat may know, as a live read-only view: its own hand, the others'
    hand sizes, every pyramid, the display, the discard pile (face up), the size of
    the pile, the figure, the scores, and the step in progress (a trade offer, an
    attack, the die roll). Never another player's hand or the order of the pile."""

    __slots__ = ("player", "_s")

    def __init__(self, state: "FaraoState", player: int):
        self.player = player
        self._s = state

    # plain fields read through attrgetter (no Python frame per read: the greedy player reads many)
    num_players = property(attrgetter("_s.g.num_players"))
    phase = property(attrgetter("_s.phase"))
    active = property(attrgetter("_s.active"), doc="whose turn it is")
    hand = property(lambda self: tuple(self._s.hands[self.player]), doc="own cards per kind")
    hand_sizes = property(lambda self: tuple(self._s.hand_n))
    pyramids = property(lambda self: tuple(tuple(p) for p in self._s.pyr), doc="every seat's pyramids")
    display = property(lambda self: tuple(self._s.display))
    discard = property(lambda self: tuple(self._s.discard), doc="the discard pile per kind (face up)")
    pile_size = property(attrgetter("_s.pile_n"))
    plateau = property(attrgetter("_s.plateau"))
    final = property(attrgetter("_s.final"), doc="the End card is in the pile")
    scores = property(lambda self: tuple(self._s.score))
    offer = property(attrgetter("_s.offer"), doc="(partner, give, ask) of the trade offer in progress")
    target = property(attrgetter("_s.target"), doc="(seat, slot) of the pyramid the thief is after")
    roll = property(attrgetter("_s.roll"))
    trades_made = property(attrgetter("_s.trades"))
    turn = property(attrgetter("_s.turn"))

    # the live references the greedy player reads without copying (own hand only)
    def own(self) -> list[int]:
        """Own hand per kind (a live list: read only)."""
        return self._s.hands[self.player]

    def pyrs(self, seat: int) -> list[tuple]:
        """A seat's pyramids (a live list: read only)."""
        return self._s.pyr[seat]

    FIELDS = ("player", "num_players", "phase", "active", "hand", "hand_sizes", "pyramids", "display", "discard",
              "pile_size", "plateau", "final", "scores", "offer", "target", "roll", "trades_made", "turn")

    def public(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.FIELDS}


class FaraoState:
    __slots__ = ("g", "phase", "player", "active", "hands", "hand_n", "pile", "pile_n", "display", "discard",
                 "disc_n", "pyr", "score", "plateau", "final", "end_out", "turn", "steps", "trades", "attacks",
                 "offer", "target", "roll", "tax_queue", "draw_to", "draw_left", "after", "cashed", "final_cashed",
                 "thefts", "collapses", "blocks", "reshuffles", "attacks_made", "decided", "builds",
                 "trade_or_build")

    live_observations = True

    def __init__(self, game: FaraoGame):
        n = game.num_players
        self.g = game
        self.hands = [[0] * NK for _ in range(n)]
        self.hand_n = [0] * n
        self.pile = list(game.counts)
        self.pile[END] = 0  # RULES: set aside until the last plateau
        self.pile_n = game.total - game.counts[END]
        self.display: list[int] = []
        self.discard = [0] * NK
        self.disc_n = 0
        self.pyr: list[list[tuple]] = [[] for _ in range(n)]
        self.score = [0] * n
        self.plateau = 1
        self.final = False
        self.end_out = game.counts[END]  # the End card, set aside (1) or drawn (1) — not in the pile
        self.turn = 0
        self.steps = 0
        self.trades = 0
        self.attacks = 0
        self.offer: tuple | None = None
        self.target: tuple | None = None
        self.roll = 0
        self.tax_queue: list[int] = []
        self.active = 0
        self.player = 0
        self.cashed: list[int] = []  # the value of every pyramid cashed in play
        self.final_cashed: list[tuple] = []  # (seat, pyramid) cashed at the end
        self.thefts = self.collapses = self.blocks = self.reshuffles = self.attacks_made = 0
        self.decided = True
        self.builds: list[int] = _PASS_ONLY
        self.trade_or_build: list[int] = _PASS_YES
        # the deal: the display, then seven cards each
        self.phase = C_DRAW
        self.draw_to = DISPLAY_TARGET
        self.draw_left = game.board.display
        self.after = self._deal_hands

    def _deal_hands(self) -> None:
        if self.draw_to == DISPLAY_TARGET:
            self._draw(0, self.g.hand_limit, self._deal_hands)
        elif self.draw_to + 1 < self.g.num_players:
            self._draw(self.draw_to + 1, self.g.hand_limit, self._deal_hands)
        else:
            self._start_turn(0)

    # -- queries ------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph >= C_DRAW:
            return TERMINAL if ph == OVER else CHANCE
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return C_DRAW <= self.phase < OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        ph = self.phase
        if ph == C_DRAW:
            n = self.pile_n
            return [(k, c / n) for k, c in enumerate(self.pile) if c]
        if ph == C_DIE:
            return [(r, 1.0 / self.g.die) for r in range(1, self.g.die + 1)]
        if ph == C_TAX:
            q = self.tax_queue[0]
            n = self.hand_n[q]
            return [(k, c / n) for k, c in enumerate(self.hands[q]) if c]
        if ph == C_STEAL:
            seat, slot = self.target
            base, rows = self.pyr[seat][slot]
            total = sum(r >> 3 for r in rows)
            out = []
            for i, r in enumerate(rows):
                nat = (r >> 3) - (r & 7)
                if nat:
                    out.append((STEAL_ACT + 2 * i, nat / total))
                if r & 7:
                    out.append((STEAL_ACT + 2 * i + 1, (r & 7) / total))
            return out
        return []

    def sample_chance(self, rng: random.Random) -> int:
        ph = self.phase
        if ph == C_DRAW:
            return _pick(self.pile, int(rng.random() * self.pile_n))
        if ph == C_DIE:
            return 1 + int(rng.random() * self.g.die)
        if ph == C_TAX:
            q = self.tax_queue[0]
            return _pick(self.hands[q], int(rng.random() * self.hand_n[q]))
        return draw_outcome(self.chance_outcomes(), rng)

    def apply_chance_run(self, rng: random.Random) -> list[int]:
        """Every chance step up to the next decision, with exactly the draws of
        ``sample_chance`` + ``apply_action`` one by one."""
        out = []
        while True:
            ph = self.phase
            if ph == C_DRAW:  # the common case, inlined: the same draw, no dispatch
                a = _pick(self.pile, int(rng.random() * self.pile_n))
                self._drawn(a)
                self.steps += 1
            elif C_DRAW < ph < OVER:
                a = self.sample_chance(rng)
                self.apply_action(a)
            else:
                return out
            out.append(a)

    def legal_actions(self) -> list[int]:
        """The legal actions (sometimes a shared list: read it, never change it)."""
        ph = self.phase
        p = self.player
        g = self.g
        if ph == TRADE:  # the most frequent questions first
            return self.trade_or_build
        if ph == BUILD:
            return self.builds
        if ph == CASH:
            need = g.rows_to_cash[self.plateau]
            out = [CASH_ACT + s for s, pyr in enumerate(self.pyr[p]) if len(pyr[1]) >= need]
            return ([PASS] + out) if g.options.cash_optional else out
        if ph == DRAW:
            out = [PILE] if self.pile_n or self.disc_n else []
            seen = 0
            for k in self.display:
                if not seen >> k & 1:
                    seen |= 1 << k
                    out.append(TAKE + k)
            return out
        if ph == END_DISCARD or ph == LOSS_DISCARD:  # every kind held, in kind order
            return list(compress(_DISCARD_RUN, islice(self.hands[p], 1, None)))
        if ph == TRADE_PICK:
            return g.offers(p, self.hands[p], self.hand_n)
        if ph == TRADE_REPLY:
            return _ACCEPT_DECLINE if self.hands[p][self.offer[2]] else _DECLINE
        if ph == ATTACK:
            return self._attacks()
        if ph == BLOCK or ph == TAX_BLOCK:
            return _ALLOW_BLOCK if self.hands[p][PHARAOH] else _ALLOW_ONLY
        if ph == STEAL:
            seat, slot = self.target
            out = []
            for i, r in enumerate(self.pyr[seat][slot][1]):
                if (r >> 3) - (r & 7):
                    out.append(STEAL_ACT + 2 * i)
                if r & 7:
                    out.append(STEAL_ACT + 2 * i + 1)
            return out
        if ph == IDLE:
            return _PASS_ONLY
        if ph < OVER:
            return [a for a, _ in self.chance_outcomes()]
        return []

    def _attacks(self) -> list[int]:
        p = self.player
        h = self.hands[p]
        out = [PASS]
        if h[THIEF]:
            for q, pyrs in enumerate(self.pyr):
                if q != p:
                    for slot in range(len(pyrs)):
                        out.append(THIEF_ACT + 2 * q + slot)
        if h[TAX]:
            out.append(TAX_ACT)
        return out

    def observation(self, player: int) -> FaraoObservation:
        return FaraoObservation(self, player)

    def returns(self) -> list[float]:
        """1 for every seat with the most points (all 1: a draw), 0 for the others."""
        if self.phase != OVER:
            return [0.0] * self.g.num_players
        return most_points_win(self.score)

    def length(self) -> int:
        """Turns played."""
        return self.turn

    def figures(self) -> dict[str, float | list[float]]:
        """Per-game figures for the report: lists are pooled over the games."""
        return {
            "score": [float(x) for x in self.score],
            "winning_score": float(max(self.score)),
            "pyramid_value": [float(v) for v in self.cashed] + [float(pyramid_value(p)) for _, p in self.final_cashed],
            "pyramids_cashed": float(len(self.cashed) + len(self.final_cashed)),
            "turns": float(self.turn),
            "thefts": float(self.thefts),
            "collapses": float(self.collapses),
            "blocks": float(self.blocks),
            "reshuffles": float(self.reshuffles),
        }

    def clone(self) -> "FaraoState":
        s = FaraoState.__new__(FaraoState)
        for name in self.__slots__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = [x[:] if isinstance(x, list) else x for x in v]
            setattr(s, name, v)
        # bound continuations point at the old state: rebind by name
        s.after = getattr(s, self.after.__name__) if self.after is not None else None
        return s

    # -- moves --------------------------------------------------------------------
    def apply_action(self, action: int) -> int:
        ph = self.phase
        if ph < IDLE:
            self.decided = True
        # the most frequent steps first
        if ph == TRADE:
            if action == YES:
                self.phase = TRADE_PICK
            elif action == PASS:  # no (more) trades and no building
                self._to_attack()
            else:  # no (more) trades: the turn's first build
                self._build(action)
        elif ph == DRAW:
            if action == PILE:
                self._draw(self.player, 1, self._to_trade)
            else:
                k = action - TAKE
                self.display.remove(k)
                self._gain(self.player, k)
                self._draw(DISPLAY_TARGET, 1, self._to_trade)
        elif ph == BUILD:
            if action == PASS:
                self._to_attack()
            else:
                self._build(action)
        elif ph == TRADE_PICK:
            self.offer = decode_trade(action)
            self.trades += 1
            self.player = self.offer[0]
            self.phase = TRADE_REPLY
        elif ph == TRADE_REPLY:
            q, give, ask = self.offer
            if action == ACCEPT:
                p = self.active
                hp, hq = self.hands[p], self.hands[q]
                hp[give] -= 1
                hq[give] += 1
                hq[ask] -= 1
                hp[ask] += 1
            self.offer = None
            self.player = self.active
            self._to_trade(same_cards=action != ACCEPT)
        elif ph == END_DISCARD:
            p = self.player
            self._lose(p, action - DISCARD)
            if self.hand_n[p] <= self.g.hand_limit:
                self._end_turn()
        elif ph == ATTACK:
            self._attack(action)
        elif ph == CASH:
            if action != PASS:
                self._cash(action - CASH_ACT)
            self._to_draw()
        elif ph == C_DRAW:
            self._drawn(action)
        elif ph == BLOCK:
            seat = self.player
            self.player = self.active
            if action == BLOCK_ACT:
                self._lose(seat, PHARAOH)
                self.blocks += 1
                self.target = None
                self._to_attack()
            else:
                self.phase = C_DIE
        elif ph == C_DIE:
            self.roll = action
            seat, slot = self.target
            if action > len(self.pyr[seat][slot][1]):
                self.phase = STEAL if self.g.options.thief_takes == "any" else C_STEAL
            else:
                self.target = None
                self._to_attack()
        elif ph == TAX_BLOCK:
            q = self.player
            self.player = self.active
            if action == BLOCK_ACT:
                self._lose(q, PHARAOH)
                self.blocks += 1
                if self.g.options.pharaoh_blocks_each:
                    del self.tax_queue[0]
                else:
                    self.tax_queue.clear()
                self._next_tax()
            else:
                self.phase = C_TAX
        elif ph == C_TAX:
            q = self.tax_queue.pop(0)
            hq = self.hands[q]
            hq[action] -= 1
            self.hand_n[q] -= 1
            self._gain(self.active, action)
            self._next_tax()
        elif ph == STEAL or ph == C_STEAL:
            self._steal(action)
        elif ph == LOSS_DISCARD:
            q = self.player
            self._lose(q, action - DISCARD)
            if self.hand_n[q] <= self.g.hand_limit:
                self.player = self.active
                self._to_attack()
        elif ph == IDLE:
            self.decided = True
            self._end_turn()
        else:
            raise RuleViolation("an action was applied after the end of the game")
        self.steps += 1
        ph = self.phase
        if ph >= C_DRAW:
            return TERMINAL if ph == OVER else CHANCE
        return self.player

    # cards in and out of hands
    def _gain(self, seat: int, kind: int) -> None:
        self.hands[seat][kind] += 1
        self.hand_n[seat] += 1

    def _lose(self, seat: int, kind: int) -> None:
        """A card from a hand to the discard pile."""
        self.hands[seat][kind] -= 1
        self.hand_n[seat] -= 1
        self.discard[kind] += 1
        self.disc_n += 1

    # draws
    def _draw(self, target: int, n: int, then) -> None:
        self.draw_to = target
        self.draw_left = n
        self.after = then
        self._next_draw()

    def _next_draw(self) -> None:
        if self.draw_left <= 0:
            self.after()
            return
        if not self.pile_n:
            if self.disc_n:  # ours: the discard becomes the new pile
                self.pile, self.discard = self.discard, self.pile
                self.pile_n, self.disc_n = self.disc_n, 0
                self.reshuffles += 1
            else:
                self.draw_left = 0
                self.after()
                return
        self.phase = C_DRAW

    def _drawn(self, kind: int) -> None:
        self.pile[kind] -= 1
        self.pile_n -= 1
        if kind == END:  # RULES: the game ends at once
            self.end_out += 1
            self._finish()
            return
        t = self.draw_to
        if t == DISPLAY_TARGET:
            self.display.append(kind)
        else:
            self.hands[t][kind] += 1
            self.hand_n[t] += 1
        self.draw_left -= 1
        self._next_draw()

    # the turn's steps
    def _start_turn(self, p: int) -> None:
        self.active = self.player = p
        self.decided = False
        self.trades = 0
        self.attacks = 0
        need = self.g.rows_to_cash[self.plateau]
        for pyr in self.pyr[p]:
            if len(pyr[1]) >= need:
                self.phase = CASH
                return
        self._to_draw()

    def _cash(self, slot: int) -> None:
        p = self.player
        pyr = self.pyr[p].pop(slot)
        v = pyramid_value(pyr)
        self.score[p] += v
        self.cashed.append(v)
        self._to_discard(pyr)
        if self.plateau < self.g.last:
            self.plateau += 1
            if self.plateau == self.g.last:  # RULES: discard, pile and End card shuffled together
                pile = self.pile
                disc = self.discard
                for k in range(NK):
                    pile[k] += disc[k]
                    disc[k] = 0
                pile[END] += 1
                self.end_out -= 1
                self.pile_n += self.disc_n + 1
                self.disc_n = 0
                self.final = True

    def _to_discard(self, pyr: tuple) -> None:
        base, rows = pyr
        disc = self.discard
        for i, r in enumerate(rows):
            j = r & 7
            disc[base + i] += (r >> 3) - j
            disc[JOKER] += j
            self.disc_n += r >> 3

    def _to_draw(self) -> None:
        if self.pile_n or self.disc_n or self.display:
            self.phase = DRAW
        else:
            self._to_trade()

    def _to_trade(self, same_cards: bool = False) -> None:
        """Step 3, when a trade offer is possible: one question, "offer a trade", "no (more) trades,
        build this" or "no trades, no building" (the end of trading and the first build decided at
        once: nothing happens between them, so the player knows no less). ``same_cards``: after a
        declined offer the builds are those of the last question."""
        p = self.active
        self.player = p
        g = self.g
        if self.trades < g.trade_offers and self.hand_n[p]:
            for q, n in enumerate(self.hand_n):
                if n and q != p:
                    if not same_cards:
                        self.trade_or_build = self._builds(_PASS_YES)
                    self.phase = TRADE
                    return
        self._to_build()

    def _builds(self, head: Sequence[int] = (PASS,)) -> list[int]:
        """``head`` (``PASS``) and the active player's legal builds now."""
        p = self.player
        g = self.g
        return g.build_actions(self.hands[p], self.pyr[p], len(self.pyr[p]) < g.pyramid_caps[self.plateau], head)

    def _to_build(self) -> None:
        """Step 4 (again after each build): build or ``PASS``; skipped when nothing can be built."""
        builds = self._builds()
        if len(builds) > 1:
            self.builds = builds
            self.phase = BUILD
        else:
            self._to_attack()

    def _build(self, action: int) -> None:
        slot, v, nat, j = decode_build(action)
        p = self.player
        h = self.hands[p]
        h[v] -= nat
        h[JOKER] -= j
        self.hand_n[p] -= nat + j
        pyrs = self.pyr[p]
        add = ((nat + j) << 3) + j
        if slot == NEW:
            pyrs.append((v, (add,)))
        else:
            base, rows = pyrs[slot]
            i = v - base
            if i == len(rows):
                pyrs[slot] = (base, rows + (add,))
            else:
                pyrs[slot] = (base, rows[:i] + (rows[i] + add,) + rows[i + 1:])
        self._to_build()

    def _to_attack(self) -> None:
        p = self.active
        self.player = p
        h = self.hands[p]
        if (h[THIEF] or h[TAX]) and (self.attacks == 0 or not self.g.options.one_attack_per_turn):
            if h[TAX]:
                self.phase = ATTACK
                return
            for q, pyrs in enumerate(self.pyr):
                if q != p and pyrs:
                    self.phase = ATTACK
                    return
        self._to_end()

    def _attack(self, action: int) -> None:
        p = self.player
        if action == PASS:
            self._to_end()
            return
        self.attacks += 1
        self.attacks_made += 1
        if action == TAX_ACT:
            self._lose(p, TAX)
            n = self.g.num_players
            self.tax_queue = [(p + i) % n for i in range(1, n)]
            self._next_tax()
            return
        self._lose(p, THIEF)
        q, slot = divmod(action - THIEF_ACT, 2)
        self.target = (q, slot)
        self.player = q  # always asked, Pharaoh or not, so that nobody learns who holds one
        self.phase = BLOCK

    def _steal(self, action: int) -> None:
        row, joker = divmod(action - STEAL_ACT, 2)
        q, slot = self.target
        self.target = None
        base, rows = self.pyr[q][slot]
        r = rows[row] - 8 - joker
        self._gain(self.active, JOKER if joker else base + row)
        self.thefts += 1
        n = r >> 3
        top = row == len(rows) - 1
        if n == 0 and top:
            rows = rows[:-1]
            if rows:
                self.pyr[q][slot] = (base, rows)
            else:
                del self.pyr[q][slot]
        elif n and n - (r & 7) and (top or n > rows[row + 1] >> 3):
            self.pyr[q][slot] = (base, rows[:row] + (r,) + rows[row + 1:])
        else:  # RULES: it no longer follows the rules: it collapses into its owner's hand
            self.collapses += 1
            del self.pyr[q][slot]
            hq = self.hands[q]
            rows = rows[:row] + (r,) + rows[row + 1:]
            for i, x in enumerate(rows):
                j = x & 7
                hq[base + i] += (x >> 3) - j
                hq[JOKER] += j
                self.hand_n[q] += x >> 3
            if self.hand_n[q] > self.g.hand_limit:
                self.player = q
                self.phase = LOSS_DISCARD
                return
        self._to_attack()

    def _next_tax(self) -> None:
        queue = self.tax_queue
        while queue:
            q = queue[0]
            if not self.hand_n[q]:
                del queue[0]
                continue
            self.player = q  # always asked (see _attack)
            self.phase = TAX_BLOCK
            return
        self.player = self.active
        self._to_attack()

    def _to_end(self) -> None:
        p = self.active
        self.player = p
        n = self.hand_n[p]
        limit = self.g.hand_limit
        if n > limit:
            self.phase = END_DISCARD
        elif n < limit:
            self._draw(p, limit - n, self._end_turn)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if not self.decided:  # a turn with nothing to decide is one decision: pass (no endless loop of turns)
            self.player = self.active
            self.phase = IDLE
            return
        self.turn += 1
        self._start_turn((self.active + 1) % self.g.num_players)

    def _finish(self) -> None:
        """The End card is drawn: the standing pyramids are cashed and the game is over."""
        g = self.g
        need = g.cash_rows(self.plateau) if g.options.final_cash == "eligible" else 0
        for q, pyrs in enumerate(self.pyr):
            keep = []
            for pyr in pyrs:
                if len(pyr[1]) >= need:
                    self.score[q] += pyramid_value(pyr)
                    self.final_cashed.append((q, pyr))
                    self._to_discard(pyr)
                else:
                    keep.append(pyr)
            self.pyr[q] = keep
        self.phase = OVER
        self.player = -1
        self.draw_left = 0
        self.offer = self.target = None

    # -- text ---------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        ph = self.phase
        p = self.player
        if ph == C_DRAW:
            to = "the display" if self.draw_to == DISPLAY_TARGET else f"seat {self.draw_to + 1}"
            return f"{KIND_NAMES[action]} drawn for {to}"
        if ph == C_DIE:
            return f"the die shows {action}"
        if ph == C_TAX:
            return f"the tax collector takes {KIND_NAMES[action]} from seat {self.tax_queue[0] + 1}"
        if ph in (CASH,):
            return "cash nothing" if action == PASS else \
                f"cash {pyramid_text(self.pyr[p][action - CASH_ACT])} for {pyramid_value(self.pyr[p][action - CASH_ACT])}"
        if ph == DRAW:
            return "draw from the pile" if action == PILE else f"take {KIND_NAMES[action - TAKE]} from the display"
        if ph == TRADE and action < BUILD_ACT:
            return "offer a trade" if action == YES else "no (more) trades, no building"
        if ph == BUILD and action == PASS:
            return "no (more) building"
        if ph == TRADE_PICK:
            q, give, ask = decode_trade(action)
            return f"offer {KIND_NAMES[give]} to seat {q + 1} for {KIND_NAMES[ask]}"
        if ph == TRADE_REPLY:
            return "accept the trade" if action == ACCEPT else "decline the trade"
        if ph == BUILD or ph == TRADE:
            slot, v, nat, j = decode_build(action)
            where = "a new pyramid" if slot == NEW else f"pyramid {slot + 1}"
            text = f"build {nat}×{v}" + (f" + {j} Joker(s)" if j else "") + f" on {where}"
            return "no (more) trades; " + text if ph == TRADE else text
        if ph == ATTACK:
            if action == PASS:
                return "no thief, no tax collector"
            if action == TAX_ACT:
                return "play the tax collector"
            q, slot = divmod(action - THIEF_ACT, 2)
            return f"send a thief to seat {q + 1}'s pyramid {pyramid_text(self.pyr[q][slot])}"
        if ph in (BLOCK, TAX_BLOCK):
            return "block with a Pharaoh" if action == BLOCK_ACT else "let it pass"
        if ph in (STEAL, C_STEAL):
            row, j = divmod(action - STEAL_ACT, 2)
            return f"steal {'a Joker' if j else 'a card'} from row {row + 1}"
        if ph in (LOSS_DISCARD, END_DISCARD):
            return f"discard {KIND_NAMES[action - DISCARD]}"
        return f"action {action}"

    def __str__(self) -> str:
        lines = [f"turn {self.turn + 1}, {PHASE_NAMES[self.phase]}, seat {self.player + 1} (active"
                 f" {self.active + 1}); plateau {self.plateau}; pile {self.pile_n}, discard {self.disc_n},"
                 f" display {[KIND_NAMES[k] for k in self.display]}"]
        for q in range(self.g.num_players):
            hand = ", ".join(f"{c}×{KIND_NAMES[k]}" for k, c in enumerate(self.hands[q]) if c) or "—"
            lines.append(f"  seat {q + 1}: {self.score[q]} points; pyramids"
                         f" {' '.join(pyramid_text(p) for p in self.pyr[q]) or '—'}; hand {hand}")
        return "\n".join(lines)

    # -- constructed positions (tests, debugging) --------------------------------
    @classmethod
    def from_position(cls, game: FaraoGame, hands: Sequence[Mapping[int, int]], pyramids: Sequence[Sequence] = (),
                      display: Sequence[int] = (), discard: Mapping[int, int] | None = None, plateau: int = 1,
                      active: int = 0, scores: Sequence[int] = (), final: bool = False,
                      pile: Mapping[int, int] | None = None) -> "FaraoState":
        """A position at the start of ``active``'s turn. ``hands``: per seat ``{kind: count}``;
        ``pyramids``: per seat a list of ``(base, [(cards, jokers) or cards, …])``. Every card not
        placed lies in the pile (the End card too when ``final``) unless ``pile`` is given."""
        s = cls.__new__(cls)
        n = game.num_players
        s.g = game
        s.hands = [[0] * NK for _ in range(n)]
        for q, h in enumerate(hands):
            for k, c in h.items():
                s.hands[q][k] += c
        s.hand_n = [sum(h) for h in s.hands]
        s.pyr = [[] for _ in range(n)]
        for q, pyrs in enumerate(pyramids):
            for base, rows in pyrs:
                enc = tuple(((r[0] << 3) + r[1]) if isinstance(r, tuple) else (r << 3) for r in rows)
                s.pyr[q].append((base, enc))
        s.display = list(display)
        s.discard = [0] * NK
        for k, c in (discard or {}).items():
            s.discard[k] += c
        s.disc_n = sum(s.discard)
        used = [0] * NK
        for h in s.hands:
            for k in range(NK):
                used[k] += h[k]
        for k in s.display:
            used[k] += 1
        for k in range(NK):
            used[k] += s.discard[k]
        for pyrs in s.pyr:
            for base, rows in pyrs:
                for i, r in enumerate(rows):
                    used[base + i] += (r >> 3) - (r & 7)
                    used[JOKER] += r & 7
        if pile is not None:
            s.pile = [0] * NK
            for k, c in pile.items():
                s.pile[k] += c
        else:
            s.pile = [game.counts[k] - used[k] for k in range(NK)]
            s.pile[END] = 1 if final else 0
        for k in range(NK):
            if used[k] + s.pile[k] + (0 if k != END else (0 if final else 1)) > game.counts[k]:
                raise ValueError(f"a position uses more {KIND_NAMES[k]} cards than the game has")
        s.pile_n = sum(s.pile)
        s.score = list(scores) + [0] * (n - len(scores))
        s.plateau = plateau
        s.final = final
        s.end_out = game.counts[END] - s.pile[END]
        s.turn = 0
        s.steps = 0
        s.trades = s.attacks = 0
        s.offer = s.target = None
        s.roll = 0
        s.tax_queue = []
        s.draw_to = 0
        s.draw_left = 0
        s.after = None
        s.cashed = []
        s.final_cashed = []
        s.thefts = s.collapses = s.blocks = s.reshuffles = s.attacks_made = 0
        s.decided = True
        s.builds = _PASS_ONLY
        s.trade_or_build = _PASS_YES
        s._start_turn(active)
        return s


_DISCARD_RUN = tuple(DISCARD + k for k in range(1, NK))  # a discard of each kind, in kind order
_PASS_YES = [PASS, YES]
_PASS_ONLY = [PASS]
_ACCEPT_DECLINE = [DECLINE, ACCEPT]
_DECLINE = [DECLINE]
_ALLOW_BLOCK = [ALLOW, BLOCK_ACT]
_ALLOW_ONLY = [ALLOW]


def _pick(counts: Sequence[int], r: int) -> int:
    """The kind of the ``r``-th card of a list of counts."""
    for k, c in enumerate(counts):
        if r < c:
            return k
        r -= c
    raise RuleViolation("a draw from an empty pile")


# --------------------------------------------------------------------------- checks
_ACTIVE_ONLY = frozenset((CASH, DRAW, TRADE, TRADE_PICK, BUILD, ATTACK, STEAL, END_DISCARD, IDLE))


KIND_WEIGHT = tuple(256 ** (NK - 1 - k) for k in range(NK))
"""A kind's place in a packed count (``int.from_bytes(bytes(counts), "big")``): one byte per kind."""


class _PyramidCount(dict):
    """The checker's own count of a pyramid's cards, by pyramid (filled as pyramids are
    met): ``(cards, by kind)``, the cards by kind packed like the lists (:data:`KIND_WEIGHT`:
    each row's naturals of its value, base + row, its Jokers Jokers); ``cards`` is -1 for a
    pyramid that breaks the rules (:func:`pyramid_problem`). Valid shapes are few (values
    1–9, rows narrowing): a few thousand at most."""

    def __init__(self, jokers: bool):
        super().__init__()
        self.jokers = jokers

    def __missing__(self, pyr: tuple) -> tuple[int, int]:
        if pyramid_problem(pyr, self.jokers):
            self[pyr] = (-1, 0)
            return -1, 0
        base, rows = pyr
        packed = 0
        for i, r in enumerate(rows):
            j = r & 7
            packed += ((r >> 3) - j) * KIND_WEIGHT[base + i] + j * KIND_WEIGHT[JOKER]
        count = self[pyr] = (sum(r >> 3 for r in rows), packed)
        return count


def _row(cards: int, jokers: int) -> int:
    """A pyramid row's code (see the module doc) from its cards and the Jokers among them."""
    return (cards << 3) + jokers


def rows_of(pyr: tuple) -> list[tuple[int, int]]:
    """A pyramid's rows as ``(cards, jokers)``, bottom up."""
    return [(r >> 3, r & 7) for r in pyr[1]]


def pyramid_problem(pyr: Any, jokers_allowed: bool) -> str | None:
    """Why a pyramid breaks the rules (None: it follows them), from the rules text alone:
    every row has fewer cards than the row below it and a value one higher; a Joker
    never stands alone in a row."""
    try:
        base, enc = pyr
        rows = rows_of(pyr)
    except (TypeError, ValueError):
        return f"{pyr!r} is no pyramid"
    if not rows:
        return "a pyramid without rows"
    if not isinstance(base, int) or not 1 <= base <= MAX_VALUE or base + len(rows) - 1 > MAX_VALUE:
        return f"values {base}…{base + len(rows) - 1} are not all building values 1–{MAX_VALUE}"
    below = None
    for i, (n, j) in enumerate(rows):
        if n < 1:
            return f"row {i + 1} is empty"
        if j and not jokers_allowed:
            return f"row {i + 1} holds a Joker, which this game does not use"
        if n - j < 1:
            return f"row {i + 1} holds Jokers only"
        if below is not None and n >= below:
            return f"row {i + 1} has {n} cards, not fewer than the {below} of the row below"
        below = n
    return None


def rule_value(pyr: tuple) -> int:
    """The value by the rules' words: the sum of the distinct values times the height."""
    base, rows = pyr
    values = {base + i for i in range(len(rows))}
    return sum(values) * len(rows)


class FaraoChecker:
    """Checks each action against the rules and the invariants, apart from the engine.

    It recomputes what an action must do from the rules (a pyramid's validity and
    value, which pyramids may be cashed and how many a player may have, a thief's
    roll against the height, a collapse) and compares the state after it. Every
    step: the action's rule, the cards add up (pile + display + discard + hands +
    pyramids + the End card = the deck), no trade offer after a build in the same
    turn, scores change only by a cash of the right value, the figure on the track
    and moving one plateau per cash, every standing pyramid valid (a verdict kept
    per pyramid shape; a seat's pyramids are judged again, and their cards counted
    again, only when they differ from those of the step before: a pyramid is an
    immutable value), the hands of the players not on turn within the limit; at
    every turn change the hand of the player who ended it at seven (fewer only when no card is left to draw) and the
    next seat on turn. Every ``full`` step: each kind counted everywhere, every
    standing pyramid valid, the pyramid caps, where the End card is (the runner
    samples them: every ``check_every`` steps, a run of draws counted as its steps).
    At the end: the End card drawn, every pyramid cashed (``final_cash:
    all``), the scores equal to the sum of the cashes, the winners.
    """

    def __init__(self, game: FaraoGame):
        self.g = game
        n = game.num_players
        self.scores = [0] * n
        self.plateau = 1
        self.turn = 0
        self.active = 0
        self.expect: tuple | None = None
        self._cards = game.checker_verdicts
        self._pyr_seen: list[list[tuple]] = [[] for _ in range(n)]  # each seat's pyramids as last judged
        self._pyr_cards = [0] * n  # and their cards
        self._pyr_total = 0
        self.who = [f"seat {q + 1}" for q in range(n)]
        self.built_in_turn = -1  # the last turn with a build: no trade offer after it
        self.total = game.total
        self.hand_limit = game.hand_limit

    def before(self, s: FaraoState, player: int, action: int) -> None:
        g = self.g
        ph = s.phase
        who = self.who[player]
        if ph == TRADE and action < BUILD_ACT:  # the most frequent question first
            if action != PASS and action != YES:
                raise RuleViolation(f"{who} answered {action} to whether to trade")
            if action == YES:
                if s.trades >= g.options.trade_offers:
                    raise RuleViolation(f"{who} offers trade {s.trades + 1}; {g.options.trade_offers} are allowed")
                if self.built_in_turn == s.turn:
                    raise RuleViolation(f"{who} offers a trade after building: step 3 comes before step 4")
            if player != s.active:
                raise RuleViolation(f"{who} trades in seat {s.active + 1}'s turn")
            return
        hand = s.hands[player]
        if ph in _ACTIVE_ONLY and player != s.active:
            raise RuleViolation(f"{who} acts in seat {s.active + 1}'s turn")
        if ph == BUILD or ph == TRADE:  # a build at the trade question ends the trading
            if action == PASS:
                return
            self.built_in_turn = s.turn
            slot, v, nat, j = decode_build(action)
            if not (BUILD_ACT <= action and 0 <= slot <= NEW and 1 <= v <= MAX_VALUE):
                raise RuleViolation(f"{who} made an impossible build ({action})")
            if hand[v] < nat or hand[JOKER] < j or (j and not g.options.jokers):
                raise RuleViolation(f"{who} builds {nat}×{v} + {j} Joker(s) without holding them")
            pyrs = s.pyr[player]
            if slot == NEW:
                cap = 2 if s.plateau >= g.board.double_from else 1
                if len(pyrs) >= cap:
                    raise RuleViolation(f"{who} starts pyramid {len(pyrs) + 1} with the figure on plateau"
                                        f" {s.plateau}: the rules allow {cap}")
                new = (v, (_row(nat + j, j),))
            else:
                if slot >= len(pyrs):
                    raise RuleViolation(f"{who} builds on a pyramid it does not have")
                base, rows = pyrs[slot]
                i = v - base
                if i < 0 or i > len(rows):
                    raise RuleViolation(f"{who} builds {v}s on a pyramid of {base}…{base + len(rows) - 1}")
                if i == len(rows):  # a new row on top
                    new = (base, rows + (_row(nat + j, j),))
                else:  # the row's cards and Jokers, each grown
                    r = rows[i]
                    new = (base, rows[:i] + (_row((r >> 3) + nat + j, (r & 7) + j),) + rows[i + 1:])
            if self._cards[new][0] < 0:  # the verdict is kept per pyramid shape
                why = pyramid_problem(new, g.options.jokers)
                raise RuleViolation(f"{who}'s build {nat}×{v}+{j}J makes a pyramid that breaks the rules: {why}")
            self.expect = ("build", player, slot, new, s.hand_n[player] - nat - j, len(pyrs) + (slot == NEW))
        elif ph == DRAW:
            if action == PILE:
                if not (s.pile_n or s.disc_n):
                    raise RuleViolation(f"{who} draws from an empty pile")
            elif action - TAKE not in s.display:
                raise RuleViolation(f"{who} takes {KIND_NAMES[action - TAKE] if 0 < action - TAKE < NK else action}"
                                    " which is not in the display")
        elif ph == LOSS_DISCARD or ph == END_DISCARD:
            k = action - DISCARD
            if not 0 < k < NK or not hand[k]:
                raise RuleViolation(f"{who} discards a card it does not hold")
            if s.hand_n[player] <= g.hand_limit:
                raise RuleViolation(f"{who} discards with {s.hand_n[player]} cards, within the limit")
        elif ph == TRADE_PICK:
            if g.options.trade == "none":
                raise RuleViolation(f"{who} offers a trade although trading is off")
            q, give, ask = decode_trade(action)
            if self.built_in_turn == s.turn:
                raise RuleViolation(f"{who} offers a trade after building: step 3 comes before step 4")
            if s.trades >= g.options.trade_offers:
                raise RuleViolation(f"{who} makes trade offer {s.trades + 1}; {g.options.trade_offers} are allowed")
            if not 0 <= q < g.num_players or q == player:
                raise RuleViolation(f"{who} offers a trade to seat {q + 1}: the active player trades with another")
            if not hand[give] or give == ask or ask in (0, END) or ask >= NK or (ask == JOKER and not g.options.jokers):
                raise RuleViolation(f"{who} offers {KIND_NAMES[give]} for {KIND_NAMES[ask % NK]}: not a possible trade")
        elif ph == TRADE_REPLY:
            q, give, ask = s.offer
            if player != q:
                raise RuleViolation(f"{who} answers a trade offered to seat {q + 1}")
            if action == ACCEPT:
                if not hand[ask]:
                    raise RuleViolation(f"{who} accepts a trade giving {KIND_NAMES[ask]} it does not hold")
                a = s.active
                self.expect = ("trade", a, q, s.hands[a][give] - 1, s.hands[a][ask] + 1, hand[give] + 1,
                               hand[ask] - 1, give, ask)
        elif ph == ATTACK:
            if action == PASS:
                return
            if g.options.one_attack_per_turn and s.attacks:
                raise RuleViolation(f"{who} sends a second thief or tax collector this turn")
            if action == TAX_ACT:
                if not hand[TAX]:
                    raise RuleViolation(f"{who} plays a tax collector it does not hold")
                return
            q, slot = divmod(action - THIEF_ACT, 2)
            if not hand[THIEF]:
                raise RuleViolation(f"{who} sends a thief it does not hold")
            if q == player or not 0 <= q < g.num_players or slot >= len(s.pyr[q]):
                raise RuleViolation(f"{who} sends a thief to a pyramid that is not another player's")
        elif ph == BLOCK or ph == TAX_BLOCK:
            if action == BLOCK_ACT and not hand[PHARAOH]:
                raise RuleViolation(f"{who} blocks without a Pharaoh")
            if ph == BLOCK and player != s.target[0]:
                raise RuleViolation(f"{who} blocks a thief sent to seat {s.target[0] + 1}")
        elif ph == CASH:
            if action == PASS:
                if not g.options.cash_optional:
                    raise RuleViolation(f"{who} passes step 1 although cashing is compulsory (cash_optional: false)")
                return
            slot = action - CASH_ACT
            if not 0 <= slot < len(s.pyr[player]):
                raise RuleViolation(f"{who} cashes a pyramid it does not have")
            pyr = s.pyr[player][slot]
            need = g.options.min_rows_to_cash
            if s.plateau >= g.board.tall_only_from:
                need = max(need, g.board.tall_rows)
            if len(pyr[1]) < need:
                raise RuleViolation(f"{who} cashes a pyramid of {len(pyr[1])} row(s) with the figure on plateau"
                                    f" {s.plateau}; it needs {need}")
            self.expect = ("cash", player, rule_value(pyr), min(s.plateau + 1, g.board.plateaus),
                           len(s.pyr[player]) - 1)
        elif ph == STEAL:
            q, slot = s.target
            pyr = s.pyr[q][slot]
            row, joker = divmod(action - STEAL_ACT, 2)
            rows = rows_of(pyr)
            if s.roll <= len(rows):
                raise RuleViolation(f"{who} steals after rolling {s.roll} against a pyramid of height {len(rows)}")
            if not 0 <= row < len(rows) or (joker and not rows[row][1]) or (not joker and rows[row][0] == rows[row][1]):
                raise RuleViolation(f"{who} steals a card that is not in the pyramid")
            rows[row] = (rows[row][0] - 1, rows[row][1] - joker)
            while rows and rows[-1][0] == 0:
                rows.pop()
            after = (pyr[0], tuple((n << 3) + j for n, j in rows))
            collapses = bool(rows) and pyramid_problem(after, g.options.jokers) is not None
            self.expect = ("steal", player, q, slot, after if rows else None, collapses, s.hand_n[player] + 1,
                           s.hand_n[q] + (pyramid_cards(after) if collapses else 0), len(s.pyr[q]))
        elif ph == IDLE:
            if action != PASS:
                raise RuleViolation(f"{who} did something ({action}) in a turn where nothing can be done")
        else:
            raise RuleViolation(f"{who} acted in the {PHASE_NAMES[ph]} step")

    def after(self, s: FaraoState, full: bool) -> None:
        """The checks of every step (see the class doc), the cheapest first; the full ones when due."""
        g = self.g
        pyr = s.pyr
        if pyr != self._pyr_seen:  # a seat's pyramids changed: judge them again (the others were judged)
            for q, pyrs in enumerate(pyr):
                if pyrs != self._pyr_seen[q]:
                    self._judge_pyramids(q, pyrs)
        hand_n = s.hand_n
        total = s.pile_n + s.disc_n + len(s.display) + sum(hand_n) + self._pyr_total + s.end_out
        if total != self.total:
            raise RuleViolation(f"the cards add up to {total}, not {g.total} (pile {s.pile_n}, discard {s.disc_n},"
                                f" display {len(s.display)}, hands {s.hand_n}, pyramids {self._pyr_total},"
                                f" End card {s.end_out})")
        exp = self.expect
        if exp is not None:
            self.expect = None
            self._expected(s, exp)
        if s.plateau != self.plateau or s.score != self.scores:
            self._score_moved(s)
        if max(hand_n) > self.hand_limit:
            for q, n in enumerate(hand_n):
                if n > g.hand_limit and q != s.active and not (s.phase == LOSS_DISCARD and q == s.player):
                    raise RuleViolation(f"seat {q + 1} holds {n} cards out of turn; the limit is {g.hand_limit}")
        if s.turn != self.turn:
            self._turn_change(s)
        if full:  # the runner samples them: every check_every steps (chance runs counted) and at the end
            self.conservation(s)

    def _score_moved(self, s: FaraoState) -> None:
        """The scores or the figure changed without a cash (the final cashes excepted)."""
        if s.score != self.scores and s.phase != OVER:
            raise RuleViolation(f"the scores changed without a cash: {self.scores} → {s.score}")
        if s.plateau != self.plateau:
            raise RuleViolation(f"the figure moved from plateau {self.plateau} to {s.plateau} without a cash")

    def _judge_pyramids(self, q: int, pyrs: list[tuple]) -> None:
        """Every pyramid of seat ``q`` follows the rules; its card count kept for the sum of the cards.

        Called when the seat's pyramids differ from those judged last: a pyramid is an immutable
        value, so pyramids judged before and unchanged since still follow the rules."""
        sizes = self._cards
        cards = 0
        for pyr in pyrs:
            k = sizes[pyr][0]
            if k < 0:  # every standing pyramid follows the rules, at every step
                raise RuleViolation(f"a pyramid {pyramid_text(pyr)} breaks the rules:"
                                    f" {pyramid_problem(pyr, self.g.options.jokers)}")
            cards += k
        self._pyr_seen[q] = pyrs[:]
        self._pyr_cards[q] = cards
        self._pyr_total = sum(self._pyr_cards)

    def _expected(self, s: FaraoState, exp: tuple) -> None:
        what = exp[0]
        if what == "build":
            _, p, slot, new, size, count = exp
            pyrs = s.pyr[p]
            got = pyrs[-1] if slot == NEW else (pyrs[slot] if slot < len(pyrs) else None)
            if got != new or len(pyrs) != count or s.hand_n[p] != size:
                raise RuleViolation(f"seat {p + 1}'s build gave {pyramid_text(got) if got else 'nothing'} and a hand"
                                    f" of {s.hand_n[p]}; the rules give {pyramid_text(new)} and {size}")
        elif what == "cash":
            _, p, value, plateau, count = exp
            self.scores[p] += value
            if s.phase != OVER and s.score[p] != self.scores[p]:
                raise RuleViolation(f"seat {p + 1} scored {s.score[p] - self.scores[p] + value} for a pyramid worth"
                                    f" {value}")
            if s.plateau != plateau:
                raise RuleViolation(f"the figure stands on plateau {s.plateau} after a cash; it should be on {plateau}")
            self.plateau = plateau
            if len(s.pyr[p]) != count:
                raise RuleViolation(f"seat {p + 1} still has {len(s.pyr[p])} pyramid(s) after cashing one")
            if plateau == self.g.board.plateaus and not s.final:
                raise RuleViolation("the figure reached the last plateau but the End card is not in the pile")
        elif what == "trade":
            _, a, q, ag, aa, qg, qa, give, ask = exp
            if (s.hands[a][give], s.hands[a][ask], s.hands[q][give], s.hands[q][ask]) != (ag, aa, qg, qa):
                raise RuleViolation(f"the trade of {KIND_NAMES[give]} for {KIND_NAMES[ask]} between seats {a + 1}"
                                    f" and {q + 1} did not swap one card each")
        elif what == "steal":
            _, p, q, slot, after, collapses, p_size, q_size, count = exp
            if s.hand_n[p] != p_size:
                raise RuleViolation(f"seat {p + 1} holds {s.hand_n[p]} cards after stealing one; {p_size} expected")
            if collapses or after is None:
                if len(s.pyr[q]) != count - 1:
                    raise RuleViolation(f"seat {q + 1}'s pyramid should be gone after the theft"
                                        f"{' (it collapses)' if collapses else ''}")
                if collapses and s.phase != LOSS_DISCARD and s.hand_n[q] != min(q_size, self.g.hand_limit):
                    raise RuleViolation(f"seat {q + 1} holds {s.hand_n[q]} cards after its pyramid collapsed;"
                                        f" {q_size} expected")
            elif s.pyr[q][slot] != after:
                raise RuleViolation(f"seat {q + 1}'s pyramid is {pyramid_text(s.pyr[q][slot])} after the theft;"
                                    f" the rules leave {pyramid_text(after)}")

    def _turn_change(self, s: FaraoState) -> None:
        g = self.g
        if s.turn != self.turn + 1:
            raise RuleViolation(f"the turn count went from {self.turn} to {s.turn}")
        prev = self.active
        n = s.hand_n[prev]
        if n > g.hand_limit or (n < g.hand_limit and (s.pile_n or s.disc_n)):
            raise RuleViolation(f"seat {prev + 1} ended its turn with {n} cards; the rules say {g.hand_limit}")
        if s.active != (prev + 1) % g.num_players:
            raise RuleViolation(f"seat {s.active + 1} plays after seat {prev + 1}")
        self.turn = s.turn
        self.active = s.active

    def conservation(self, s: FaraoState) -> None:
        """Each kind of card counted everywhere; every pyramid valid; caps; the End card.

        The kinds are counted all at once as one int with a byte per kind (:data:`KIND_WEIGHT`):
        each list packed by ``bytes``, which refuses a count below 0 or above 255, each standing
        pyramid by its packed cards (kept per pyramid shape, like its verdict). With every count
        in 0…255 and all of them adding up to the deck's size (fewer than 256 cards), the packed
        sums are equal exactly when every kind's count is. Anything amiss is looked at again
        kind by kind (:meth:`_conservation_by_kind`), which names the fault."""
        g = self.g
        hands = s.hands
        hand_n = s.hand_n
        pile, discard, display = s.pile, s.discard, s.display
        try:
            packed = int.from_bytes(bytes(pile), "big") + int.from_bytes(bytes(discard), "big")
            for h in hands:
                packed += int.from_bytes(bytes(h), "big")
        except ValueError:  # a negative count (or an absurd one)
            self._conservation_by_kind(s)
            return
        weight = KIND_WEIGHT
        for k in display:
            packed += weight[k]
        cards = s.pile_n + s.disc_n + len(display) + sum(hand_n) + s.end_out
        cap = 2 if s.plateau >= g.board.double_from else 1
        sizes = self._cards
        for pyrs in s.pyr:
            if len(pyrs) > cap:
                self._conservation_by_kind(s)
                return
            for pyr in pyrs:
                k, by_kind = sizes[pyr]
                if k < 0:
                    self._conservation_by_kind(s)
                    return
                cards += k
                packed += by_kind
        packed += s.end_out * weight[END]
        if (packed != g.packed_counts or cards != g.total or g.total > 255 or list(map(sum, hands)) != hand_n
                or s.pile_n != sum(pile) or s.disc_n != sum(discard) or len(display) > g.board.display
                or not 1 <= s.plateau <= g.board.plateaus or s.final != (s.plateau == g.board.plateaus)
                or (s.phase != OVER and pile[END] != (1 if s.final else 0))):
            self._conservation_by_kind(s)

    def _conservation_by_kind(self, s: FaraoState) -> None:
        """:meth:`conservation` the long way, kind by kind and place by place: it raises, naming
        the fault, for whatever the packed count found amiss."""
        g = self.g
        hands = s.hands
        seen = [sum(x) for x in zip(s.pile, s.discard, *hands)]
        for k in s.display:
            seen[k] += 1
        if list(map(sum, hands)) != s.hand_n or min(map(min, hands)) < 0:
            for q, h in enumerate(hands):
                if sum(h) != s.hand_n[q] or min(h) < 0:
                    raise RuleViolation(f"seat {q + 1}'s hand {h} does not hold its {s.hand_n[q]} cards")
        cap = 2 if s.plateau >= g.board.double_from else 1
        sizes = self._cards
        for q, pyrs in enumerate(s.pyr):
            if len(pyrs) > cap:
                raise RuleViolation(f"seat {q + 1} has {len(pyrs)} pyramids with the figure on plateau {s.plateau}")
            for pyr in pyrs:
                if sizes[pyr][0] < 0:
                    why = pyramid_problem(pyr, g.options.jokers)
                    raise RuleViolation(f"seat {q + 1}'s pyramid {pyramid_text(pyr)} breaks the rules: {why}")
                v = pyr[0]
                for r in pyr[1]:
                    j = r & 7
                    seen[v] += (r >> 3) - j
                    seen[JOKER] += j
                    v += 1
        seen[END] += s.end_out
        if seen != g.counts_list:
            if min(s.pile) < 0 or min(s.discard) < 0:
                raise RuleViolation("a negative count in the pile or the discard")
            k = next(k for k in range(NK) if seen[k] != g.counts[k])
            raise RuleViolation(f"{seen[k]} {KIND_NAMES[k]} card(s) in play; the deck has {g.counts[k]}")
        if s.pile_n != sum(s.pile) or s.disc_n != sum(s.discard) or min(s.pile) < 0 or min(s.discard) < 0:
            raise RuleViolation(f"the pile counts {s.pile_n} but holds {sum(s.pile)}, the discard {s.disc_n} but"
                                f" holds {sum(s.discard)}")
        if len(s.display) > g.board.display:
            raise RuleViolation(f"{len(s.display)} cards in the display")
        if not 1 <= s.plateau <= g.board.plateaus:
            raise RuleViolation(f"the figure stands off the track (plateau {s.plateau})")
        if s.final != (s.plateau == g.board.plateaus):
            raise RuleViolation("the End card's shuffle does not match the figure's plateau")
        if s.phase != OVER and s.pile[END] != (1 if s.final else 0):
            raise RuleViolation("the End card is in the pile before the last plateau (or missing after it)")

    def at_end(self, s: FaraoState) -> None:
        g = self.g
        if s.phase != OVER:
            raise RuleViolation("the game stopped before it was over")
        if not s.final or s.end_out != g.counts[END] or s.pile[END]:
            raise RuleViolation("the game ended without the End card being drawn after the last plateau")
        self.conservation(s)
        if g.options.final_cash == "all" and any(s.pyr):
            raise RuleViolation("pyramids are left standing at the end; every one is cashed")
        final = [0] * g.num_players
        for q, pyr in s.final_cashed:
            final[q] += rule_value(pyr)
        want = [a + b for a, b in zip(self.scores, final)]
        if s.score != want:
            raise RuleViolation(f"the final scores are {s.score}; the cashes add up to {want}")
        best = max(s.score)
        for q, r in enumerate(s.returns()):
            if (r == 1.0) != (s.score[q] == best):
                raise RuleViolation(f"seat {q + 1} with {s.score[q]} points has return {r}; the most is {best}")


# --------------------------------------------------------------------------- agents
# RandomAgent is the generic one of .api; the greedy player is this game's own.
class GreedyAgent:
    """Plays sensibly with what it may see: its own hand, the pyramids, the display.

    * Builds toward valuable pyramids: for each own pyramid (and for a new one, when
      it may start one) it works out the tallest pyramid the cards in its hand can
      make (:func:`plan`), and builds the next step of the plan that gains most.
    * Cashes a pyramid when it is worth a lot, or when its hand cannot make it
      taller and it is worth something (from the second special plateau: whenever
      it may).
    * Takes a display card it needs, else draws from the pile.
    * Trades only when it gains: it offers the card it needs least for the card its
      best pyramid needs next (once a turn), and accepts an offer only when the card
      it gets is worth more to it than the card it gives.
    * Sends a thief at the most valuable pyramid the die can rob (lower than the
      die's sides) and takes the card that costs the owner most (a collapse if it
      can); plays a tax collector when no pyramid worth 12 or more can be robbed;
      blocks a thief aimed at a pyramid worth 8 or more, and a tax collector when
      it holds two Pharaohs.
    """

    CASH_AT = 30
    CASH_STUCK = 10

    def __init__(self, game: FaraoGame, seat: int):
        self.g = game
        self.seat = seat
        self.jokers = game.options.jokers
        self._last_hand: list[int] | None = None
        self._last_pyrs: list[tuple] | None = None
        self._last_worths: list[float] = []
        self._offer: tuple | None = None  # (turn, trades made, the offer planned when saying yes)

    def worth(self, obs: FaraoObservation, kind: int) -> float:
        """How much a card is worth keeping, to this player, now."""
        return self.worths(obs)[kind]

    def worths(self, obs: FaraoObservation) -> list[float]:
        """:meth:`worth` of every kind (a pure function of the hand and the own pyramids). The last
        answer is kept for the same cards; a cache of all answers met rarely hit (three in four
        hands are new), so there is none."""
        hand = obs.own()
        pyrs = obs.pyrs(self.seat)
        if hand == self._last_hand and pyrs == self._last_pyrs:
            return self._last_worths
        out = [0.0] * NK
        for kind in range(1, MAX_VALUE + 1):
            held = hand[kind]
            w = _BASE_WORTH[kind][held if held < 3 else 3]  # 1 + 0.05 × kind + 0.4 × (up to 3 held)
            if kind > 1 and hand[kind - 1]:
                w += 0.5
            if kind < MAX_VALUE and hand[kind + 1]:
                w += 0.5
            out[kind] = w
        for base, rows in pyrs:
            lack = lacking(base, rows, hand)
            for kind in range(base, min(base + len(rows), MAX_VALUE + 1)):
                out[kind] += 0.5
            for kind in lack:
                if kind:
                    out[kind] += 3.0 if len(lack) == 1 else 1.5
        for kind, w in _SPECIAL_WORTH.items():
            out[kind] = w
        self._remember(hand, pyrs, out)
        return out

    def _remember(self, hand: list[int], pyrs: list[tuple], worths: list[float]) -> None:
        """The last worths and the cards they were worked out for (copies: the live lists change)."""
        self._last_hand = hand[:]
        self._last_pyrs = pyrs[:]
        self._last_worths = worths

    def act(self, obs: FaraoObservation, legal: Sequence[int], rng: random.Random) -> int:
        ph = obs.phase
        if len(legal) == 1:
            return legal[0]
        if ph == BUILD:
            a = self._next_build(obs)
            return a if a is not None else PASS
        if ph == CASH:
            return self._cash(obs, legal)
        if ph == DRAW:
            best, bw = PILE, 3.2
            worths = self.worths(obs)
            for a in legal:
                if a != PILE:
                    w = worths[a - TAKE]
                    if w > bw:
                        best, bw = a, w
            return best if best in legal else legal[0]
        if ph == TRADE:
            if not obs.trades_made:
                t = self._trade(obs, legal)
                self._offer = (obs.turn, t)
                if t is not None:
                    return YES
            # no (more) trades: the build it would make at the build question, if any
            a = self._next_build(obs)
            return a if a is not None and a in legal else PASS
        if ph == TRADE_PICK:
            # the offer planned a step ago (nothing changed since "yes"), else worked out again
            t = self._offer[1] if self._offer is not None and self._offer[0] == obs.turn and obs.trades_made == 0 \
                else self._trade(obs, legal)
            return t if t is not None and t in legal else legal[0]
        if ph == TRADE_REPLY:
            q, give, ask = obs.offer
            worths = self.worths(obs)
            return ACCEPT if worths[give] > worths[ask] + 0.5 else DECLINE
        if ph == ATTACK:
            return self._attack(obs, legal)
        if ph == BLOCK:
            q, slot = obs.target
            return BLOCK_ACT if pyramid_value(obs.pyrs(q)[slot]) >= 8 else ALLOW
        if ph == TAX_BLOCK:
            return BLOCK_ACT if obs.own()[PHARAOH] >= 2 else ALLOW
        if ph == STEAL:
            return self._steal(obs, legal)
        if ph == LOSS_DISCARD or ph == END_DISCARD:
            worths = self.worths(obs)
            best, bw = legal[0], worths[legal[0] - DISCARD]
            for a in legal:
                if worths[a - DISCARD] < bw:
                    best, bw = a, worths[a - DISCARD]
            return best
        return legal[int(rng.random() * len(legal))]

    def _next_build(self, obs: FaraoObservation) -> int | None:
        """The first build of the plan that gains most, or None when no plan gains."""
        hand = obs.own()
        pyrs = obs.pyrs(self.seat)
        can_new = len(pyrs) < self.g.pyramid_cap(obs.plateau)
        jk = hand[JOKER] if self.jokers else 0
        best, gain = None, 0
        for slot, (base, rows) in enumerate(pyrs):
            widths = [r >> 3 for r in rows]
            height, need = plan(base, widths, hand, jk)
            if height > len(rows):
                d = pyramid_value((base, (0,) * height)) - pyramid_value((base, rows))
                if d > gain:
                    i = next(i for i, k in enumerate(need) if k)
                    nat = min(need[i], hand[base + i])
                    best, gain = build_action(slot, base + i, nat, need[i] - nat), d
        if can_new:
            for v in range(1, MAX_VALUE + 1):
                if hand[v]:
                    if not jk and (pyrs or hand[v] < 2) and (hand[v] < 2 or v == MAX_VALUE or not hand[v + 1]):
                        continue  # without Jokers a lone row (skipped below), known without planning
                    height, need = plan(v, [], hand, jk)
                    d = pyramid_value((v, (0,) * height))
                    if height == 1 and (pyrs or hand[v] < 2):
                        continue  # a lone row is worth starting only as a first pyramid
                    if d > gain:
                        nat = max(hand[v], need[0]) if need[0] <= hand[v] else hand[v]
                        best, gain = build_action(NEW, v, nat, max(0, need[0] - nat)), d
        return best

    def _cash(self, obs: FaraoObservation, legal: Sequence[int]) -> int:
        pyrs = obs.pyrs(self.seat)
        hand = obs.own()
        jk = hand[JOKER] if self.jokers else 0
        late = obs.plateau >= self.g.board.tall_only_from
        best, bv = PASS, -1
        for a in legal:
            if a == PASS:
                continue
            base, rows = pyr = pyrs[a - CASH_ACT]
            v = pyramid_value(pyr)
            grows = plan(base, [r >> 3 for r in rows], hand, jk)[0] > len(rows)
            if v >= self.CASH_AT or (not grows and (v >= self.CASH_STUCK or late or base + len(rows) > MAX_VALUE)):
                if v > bv:
                    best, bv = a, v
        if best == PASS and PASS not in legal:
            return legal[0]
        return best

    def _trade(self, obs: FaraoObservation, legal: Sequence[int]) -> int | None:
        pyrs = obs.pyrs(self.seat)
        hand = obs.own()
        want = None
        for base, rows in sorted(pyrs, key=pyramid_value, reverse=True):
            lack = lacking(base, rows, hand)
            if len(lack) == 1:  # one card away from a taller pyramid
                want = lack[0]
                break
        if want is None:
            return None
        worths = self.worths(obs)
        give = None  # the held card worth least to it (the lowest kind of those), not the one it wants
        for k in range(1, NK):
            if hand[k] and k != want and (give is None or worths[k] < worths[give]):
                give = k
        if give is None or worths[give] >= worths[want]:
            return None
        sizes = obs.hand_sizes
        partners = [q for q in range(obs.num_players) if q != self.seat and sizes[q]]
        if not partners:
            return None
        q = max(partners, key=lambda q: (sizes[q], -q))
        a = trade_action(q, give, want)
        return a if obs.phase != TRADE_PICK or a in legal else None

    def _attack(self, obs: FaraoObservation, legal: Sequence[int]) -> int:
        best, bv = PASS, 0
        for a in legal:
            if THIEF_ACT <= a < STEAL_ACT:
                q, slot = divmod(a - THIEF_ACT, 2)
                pyr = obs.pyrs(q)[slot]
                if len(pyr[1]) < self.g.die:
                    v = pyramid_value(pyr)
                    if v > bv:
                        best, bv = a, v
        if TAX_ACT in legal and bv < 12 and sum(obs.hand_sizes) - obs.hand_sizes[self.seat] > 0:
            return TAX_ACT
        return best

    def _steal(self, obs: FaraoObservation, legal: Sequence[int]) -> int:
        q, slot = obs.target
        base, rows = obs.pyrs(q)[slot]
        best, key = legal[0], None
        for a in legal:
            row, joker = divmod(a - STEAL_ACT, 2)
            r = rows[row] - 8 - joker
            n = r >> 3
            top = row == len(rows) - 1
            if n == 0 and top:
                left = pyramid_value((base, rows[:-1])) if len(rows) > 1 else 0
            elif n and n - (r & 7) and (top or n > rows[row + 1] >> 3):
                left = pyramid_value((base, rows[:row] + (r,) + rows[row + 1:]))
            else:
                left = -1  # it collapses
            k = (left, -self.worths(obs)[JOKER if joker else base + row])
            if key is None or k < key:
                best, key = a, k
        return best


_SPECIAL_WORTH = {THIEF: 3.0, TAX: 2.5, PHARAOH: 3.5, JOKER: 5.0}
# a building card's base worth, by kind and by how many are held (up to 3): computed as the
# greedy player always did, so that the same sums give the same floats
_BASE_WORTH = [[1.0 + 0.05 * kind + 0.4 * min(held, 3) for held in range(4)] for kind in range(MAX_VALUE + 1)]


def lacking(base: int, rows: Sequence[int], hand: Sequence[int]) -> list[int]:
    """The values a pyramid still lacks (beyond the hand) to grow one row taller:
    each row at least as wide as the rows above it need (empty: the hand suffices;
    ``[0]``: it can never grow, its next value being above 9)."""
    height = len(rows) + 1
    if base + height - 1 > MAX_VALUE:
        return [0]
    out = []
    for i in range(height):
        have = rows[i] >> 3 if i < len(rows) else 0
        if height - i - have > hand[base + i]:
            out.append(base + i)
    return out


def plan(base: int, widths: Sequence[int], hand: Sequence[int], jokers: int = 0) -> tuple[int, list[int]]:
    """The tallest pyramid a hand can make of a pyramid (``widths``: its rows' cards,
    bottom up; empty for a new one of value ``base``): its height and the cards each
    row needs (the narrowest rows that reach that height, Jokers filling what the
    hand lacks, never alone in a row)."""
    h = len(widths)
    best_h, best_need = h, [0] * h
    for height in range(max(h + 1, 1), MAX_VALUE - base + 2):
        need = []
        left = jokers
        ok = True
        for i in range(height):
            have = widths[i] if i < h else 0
            k = height - i - have
            if k <= 0:
                need.append(0)
                continue
            nat = hand[base + i]
            if nat >= k:
                need.append(k)
                continue
            if (nat == 0 and have == 0) or k - nat > left:
                ok = False
                break
            left -= k - nat
            need.append(k)
        if not ok:
            break
        best_h, best_need = height, need
    return best_h, best_need


# --------------------------------------------------------------------------- the rules module
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


class FaraoRules:
    """The rules of O, Farao!, for the generic validator."""

    game_id = GAME_ID
    agents: Mapping[str, Callable[[FaraoGame, int], Any]] = {"random": RandomAgent, "greedy": GreedyAgent}
    must_finish = {"random": True, "greedy": True}

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(range(max(3, lo), min(hi, 4) + 1))

    def setups(self, game) -> tuple[str, ...]:
        return (SETUP,)

    def options(self, game) -> FaraoOptions:
        """The house rules of the data; the Joker variant is on when the data says so or when
        the game was loaded with its cards (``variants`` of the loaded game holding "jokers")."""
        options = FaraoOptions.from_data(game.data.get("house_rules"))[0]
        if "jokers" in (getattr(game, "variants", None) or ()) and not options.jokers:
            options = replace(options, jokers=True)
        return options

    @staticmethod
    def _deck_has_jokers(game) -> bool:
        try:
            deck = game.component(DECK)
        except KeyError:
            return False
        return any(card_key(c.fields) == ("joker",) or getattr(c, "variant", None) == "jokers" for c in deck.cards)

    @staticmethod
    def _joker_count(game) -> int | None:
        for item in game.data.get("variant_cards") or ():
            if isinstance(item, Mapping) and item.get("id") == "joker":
                return item.get("count")
        return None

    def data_problems(self, game, locate: Callable[..., Where]) -> list[Problem]:
        """The house rules' mistakes, which ``cardgen build`` refuses too: the rules
        summary prints the options chosen."""
        return FaraoOptions.from_data(game.data.get("house_rules"), locate)[1]

    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec:
        problems: list[Problem] = []
        problems += read_board(game.data, locate)[1]
        options, option_problems = FaraoOptions.from_data(game.data.get("house_rules"), locate)
        problems += option_problems
        expected = [("build", v) for v in RULE_BUILDING] + [(sid,) for sid in RULE_SPECIALS]
        quantities = {("build", v): k for v, k in RULE_BUILDING.items()}
        quantities.update({(sid,): k for sid, k in RULE_SPECIALS.items()})
        text = ("76 building cards (values 1–9: 13, 12, 11, 10, 9, 8, 6, 4 and 3 of them), 5 Thieves, 2 Tax"
                " collectors, 3 Pharaohs and the End card")
        jokers = self._joker_count(game)
        if jokers is not None and jokers != RULE_JOKERS:
            i = next(i for i, item in enumerate(game.data.get("variant_cards"))
                     if isinstance(item, Mapping) and item.get("id") == "joker")
            problems.append(Problem(f"variant card 'joker' has count {jokers!r}; the retail game has {RULE_JOKERS}",
                                    locate("variant_cards", i, "count")))
        if self._deck_has_jokers(game):
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
        )

    def load(self, game, num_players: int, setup: str = SETUP, options: FaraoOptions | None = None) -> FaraoGame:
        """Bind the rules to a game whose data passed :meth:`static_spec`'s checks."""
        if setup != SETUP:
            raise CardgenError(f"O, Farao! has one setup, '{SETUP}', not '{setup}'")
        options = options or self.options(game)
        board = read_board(game.data)[0]
        counts = [0] * NK
        for card in game.component(DECK).cards:
            key = card_key(card.fields)
            if key is None:
                continue
            kind = key[1] if key[0] == "build" else SPECIAL_IDS.get(key[0], JOKER if key[0] == "joker" else 0)
            if kind:
                counts[kind] += card.quantity
        if options.jokers and not counts[JOKER]:
            counts[JOKER] = self._joker_count(game) or 0
        return FaraoGame(num_players, options, board, counts)


RULES = register(FaraoRules())
