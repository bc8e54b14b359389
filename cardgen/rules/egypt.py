"""Egypt: the rules as a small, fast engine (plain ints, bitmasks and lists).

Cards are numbered ``0..62``: ``type_index * 7 + copy - 1``, the nine types in the
rulebook's order (Hieroglyph 0, Slaves 1, The Nile 2, Temples 3, Chariots 4,
Pharaohs 5, Pyramid 6, The Gods 7, Ankh wild). A hand is a bitmask with one byte
per type (card ``c`` is bit ``8 * type + copy - 1``), so that a few big-int
operations (:func:`swar`) give a hand's *counts*: one int holding the number of
cards of each type in its bytes. Cards of one type are alike for the rules, so
legal moves and searches are cached by counts.

A turn (ten in a game) is four phases:

1. **Draw** (chance): seat by seat, each hand is filled to 7 with uniformly random
   cards of the deck; an empty deck takes the discard pile, shuffled (a uniform
   draw from the cards left *is* a shuffle, so the reshuffle needs no random step).
2. **Control**: a simultaneous reveal, modelled as one decision per seat in turn
   whose result stays hidden (see :class:`EgyptObservation`) until every seat has
   chosen: reveal one meld (``MELD + 100 * type + 10 * naturals + ankhs``) or
   nothing (``PASS``). A meld is 2+ cards of one type, Ankhs wild. The most cards
   wins; equal sizes compare points; a tie at the top means nobody wins; nobody
   winning keeps the last controller; with no controller yet there is no Dynasty
   phase this turn.
3. **Dynasty**: the controller picks a player with cards (``VICTIM + seat``;
   automatic when only one has any) and takes one of their cards at random
   (chance), then plays melds (``MELD + …``, scoring the sum of the cards' values)
   and special melds (``COMBO + 10 * combo + the slots Ankhs fill, as bits``), one
   action each, until ``PASS``.
4. **End**: every meld on the table goes to the discard; each seat in turn
   discards 0–3 cards and must keep at most 5 (``DISCARD + code``, the code's
   decimal digits being the discarded types + 1, ascending; ``DISCARD`` alone
   discards nothing).

After ten turns the most tribute wins; equal tribute at the top is a tie.

Where the rulebook is silent or ambiguous, the choices are named options
(:class:`EgyptOptions`), read from ``data.house_rules`` in the game's YAML so a
user can change them in one place:

* ``ankh_value: meld`` (ASSUMED): an Ankh takes the type and the value of its
  meld (``zero``: an Ankh counts 0 points);
* ``all_ankh_meld: 0`` (ASSUMED): a meld of Ankhs only is allowed and worth 0 a
  card (``null``: not allowed);
* ``ankhs_in_combo: 1`` (ASSUMED): an Ankh may fill one slot of a special meld
  (0: none; up to 3);
* ``control_meld: discarded`` (our reading): the rulebook's examples say the
  players *play* their control melds, and "all melds played this turn go to the
  discard", while tribute is only earned in the Dynasty phase; so a revealed meld
  stays on the table, scores nothing, and is discarded in the End phase — the
  controller scores only with what is left (``returned``: revealed cards go back
  to the hand and may then be played for tribute);
* ``no_controller: end_phase`` (our reading of "the turn ends"): with no
  controller yet, the Dynasty phase is skipped and the End phase still clears the
  table and the hands (``next_turn``: the table is cleared and the next turn
  starts at once, with no discarding);
* the controller takes its random card from another player's hand (taking one
  from its own hand would change nothing).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from functools import reduce
from itertools import accumulate, chain
from math import floor
from operator import attrgetter, getitem, or_, sub
from typing import Any, Callable, Mapping, Sequence

from ..errors import CardgenError, Where
from . import register
from .api import (CHANCE, TERMINAL, Arrangement, GroupSpec, Problem, RandomAgent, RuleViolation, StaticSpec,
                  most_points_win)
from .options import read_house_rules

GAME_ID = "egypt"
DECK = "cards"
SETUP = "standard"

# RULES: nine types of seven cards and their point values (None: wild)
TYPE_IDS = ("hieroglyph", "slaves", "nile", "temples", "chariots", "pharaohs", "pyramid", "gods", "ankh")
TYPE_NAMES = ("Hieroglyph", "Slaves", "The Nile", "Temples", "Chariots", "Pharaohs", "Pyramid", "The Gods", "Ankh")
RULE_VALUES = (0, 1, 2, 3, 4, 5, 6, 7, None)
NTYPES = 9
ANKH = 8
ANKH_SHIFT = 8 * ANKH  # where the Ankhs' byte of a hand starts
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
# actions (chance actions are card numbers 0..62)
PASS = 100
MELD = 1000  # + 100 * type + 10 * naturals + ankhs
COMBO = 2000  # + 10 * combo + bits of the slots Ankhs fill
VICTIM_BASE = 3000  # + seat
DISCARD_BASE = 4000  # + code: decimal digits = discarded types + 1, ascending
# public events
EV_RESHUFFLE, EV_REVEAL, EV_CONTROL, EV_STEAL, EV_MELD, EV_COMBO, EV_PASS, EV_DISCARD, EV_TURN = range(9)

# -- bits ----------------------------------------------------------------------------
CBIT = tuple(1 << (8 * (c // COPIES) + c % COPIES) for c in range(N_CARDS))  # a card's bit in a hand
CSIG = tuple(1 << (8 * (c // COPIES)) for c in range(N_CARDS))  # a card in a hand's counts
ALL = sum(CBIT)
SIG_SHIFT = 8 * NTYPES
# a card's bit and, above the hand's bits, its counts: the sum over distinct cards gives
# their mask (no two share a bit) and their counts (at most 7 a type) in one pass
# (a dict: its bound __getitem__ is called faster from map than a tuple's)
CBOTH = {c: CBIT[c] | CSIG[c] << SIG_SHIFT for c in range(N_CARDS)}
_M1 = int("55" * NTYPES, 16)
_M2 = int("33" * NTYPES, 16)
_M4 = int("0f" * NTYPES, 16)
_GUARD = int("80" * NTYPES, 16)


def swar(mask: int) -> int:
    """A hand's counts: the number of cards of each type, one per byte."""
    mask -= (mask >> 1) & _M1
    mask = (mask & _M2) + ((mask >> 2) & _M2)
    return (mask + (mask >> 4)) & _M4


def counts_tuple(sig: int) -> tuple[int, ...]:
    return tuple((sig >> (8 * t)) & 255 for t in range(NTYPES))


def counts_sig(counts: Sequence[int]) -> int:
    return sum(k << (8 * t) for t, k in enumerate(counts))


def card_of_bit(pos: int) -> int:
    return (pos >> 3) * COPIES + (pos & 7)


def mask_cards(mask: int) -> list[int]:
    """The cards of a hand mask, in order."""
    out: list[int] = []
    t = 0
    while mask:
        v = mask & 255
        if v:
            out += _BYTE_CARDS[t][v]
        mask >>= 8
        t += 1
    return out


def kth_card(mask: int, k: int) -> int:
    """``mask_cards(mask)[k]``, without building the list: the type from the running
    counts per type (bisected), then the copy within the type's byte."""
    ends = list(accumulate(mask.to_bytes(NTYPES, "little").translate(_POP8)))
    t = bisect_right(ends, k)
    if t:
        k -= ends[t - 1]
    return t * COPIES + _BITS7[(mask >> (8 * t)) & 255][k]


def cards_mask(cards) -> int:
    return sum(CBIT[c] for c in cards)


_BITS7 = tuple(tuple(b for b in range(8) if v >> b & 1) for v in range(256))
_POP = tuple(len(b) for b in _BITS7)
_BYTE_CARDS = tuple(tuple(tuple(t * COPIES + b for b in _BITS7[v]) for v in range(256)) for t in range(NTYPES))


def _lowk_table() -> tuple[tuple[int, ...], ...]:
    """LOWK[v][k]: the lowest k set bits of the 7-bit field v."""
    table = []
    for v in range(128):
        row = [0]
        acc = 0
        for b in range(7):
            if v >> b & 1:
                acc |= 1 << b
                row.append(acc)
        row += [acc] * (8 - len(row))
        table.append(tuple(row))
    return tuple(table)


LOWK = _lowk_table()


def meld_action(t: int, naturals: int, ankhs: int) -> int:
    return MELD + 100 * t + 10 * naturals + ankhs


def decode_meld(action: int) -> tuple[int, int, int]:
    t, rest = divmod(action - MELD, 100)
    nat, ank = divmod(rest, 10)
    return t, nat, ank


def combo_action(combo: int, fill: int = 0) -> int:
    return COMBO + 10 * combo + fill


def discard_action(types: Sequence[int]) -> int:
    code = 0
    for t in sorted(types):
        code = code * 10 + t + 1
    return DISCARD_BASE + code


def decode_discard(action: int) -> tuple[int, ...]:
    code = action - DISCARD_BASE
    out = []
    while code:
        code, d = divmod(code, 10)
        out.append(d - 1)
    return tuple(reversed(out))


# What an action takes from a hand, built as actions are met: its counts (to subtract
# from a hand's counts) and, for the engine's hot path in one look-up, its parts
# ((shift, the row of TAKE for the type and how many) per type, to pick the cards), its
# counts and its number of cards.
_DELTA: dict[int, int] = {}
_MOVES: dict[int, tuple[tuple[tuple[int, tuple[int, ...]], ...], int, int]] = {}


def _take_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """TAKE[t][k][v]: the lowest k cards of type t in a hand whose byte of type t is v
    (``LOWK[v][k]`` moved to the type's byte), so that taking them is one look-up."""
    return tuple(tuple(tuple(LOWK[v][k] << (8 * t) for v in range(128)) for k in range(COPIES + 1))
                 for t in range(NTYPES))


TAKE = _take_table()


def _action_types(action: int) -> list[int]:
    if action >= DISCARD_BASE:
        return list(decode_discard(action))
    if action >= COMBO:
        ci, fill = divmod(action - COMBO, 10)
        return [ANKH if fill >> slot & 1 else t for slot, t in enumerate(COMBOS[ci][1])]
    t, nat, ank = decode_meld(action)
    return [t] * nat + [ANKH] * ank


def _learn(action: int) -> int:
    types = _action_types(action)
    delta = _DELTA[action] = sum(1 << (8 * t) for t in types)
    _MOVES[action] = (tuple((8 * t, TAKE[t][types.count(t)]) for t in sorted(set(types))), delta, len(types))
    return delta


def _move(action: int) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], int, int]:
    """An action's parts, counts and number of cards (see :func:`take_mask`)."""
    m = _MOVES.get(action)
    if m is None:
        _learn(action)
        m = _MOVES[action]
    return m


def take_mask(hand: int, action: int) -> int:
    """The cards an action takes from a hand: the lowest copies of each type it uses."""
    mask = 0
    for shift, row in _move(action)[0]:
        mask |= row[(hand >> shift) & 127]
    return mask


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class EgyptOptions:
    """The choices where the rulebook is silent or ambiguous (see the module doc)."""

    ankh_value: str = "meld"  # ASSUMED: "meld" (type and value of its meld) or "zero"
    all_ankh_meld: int | None = 0  # ASSUMED: points per card of an all-Ankh meld; None: not allowed
    ankhs_in_combo: int = 1  # ASSUMED: how many slots of a special meld Ankhs may fill (0..3)
    control_meld: str = "discarded"  # our reading: "discarded" or "returned"
    no_controller: str = "end_phase"  # our reading of "the turn ends": "end_phase" or "next_turn"

    CHOICES = {"ankh_value": ("meld", "zero"), "control_meld": ("discarded", "returned"),
               "no_controller": ("end_phase", "next_turn")}

    @classmethod
    def from_data(cls, data: Any, locate: Callable[..., Where] | None = None) -> tuple["EgyptOptions", list[Problem]]:
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


# --------------------------------------------------------------------------- game
# Move lists and searches depend only on the options and a hand's counts: shared by
# every game bound to the same options, and built as hands are met.
_TABLES: dict[tuple, dict[str, dict]] = {}
_DISCARDS: dict[int, list[int]] = {}


class EgyptGame:
    """The rules bound to a player count and the options (OpenSpiel's ``Game``)."""

    def __init__(self, num_players: int, options: EgyptOptions = EgyptOptions(), card_names: Sequence[str] | None = None,
                 type_names: Sequence[str] = TYPE_NAMES, turns: int = TURNS):
        if not 2 <= num_players <= MAX_PLAYERS:
            raise CardgenError(f"Egypt is played by 2 to {MAX_PLAYERS} players (7 cards a hand from 63),"
                               f" not {num_players}")
        self.num_players = num_players
        self.setup = SETUP
        self.options = options
        self.turns = turns
        self.type_names = tuple(type_names)
        self.card_names = tuple(card_names) if card_names else tuple(
            f"{TYPE_IDS[c // COPIES]}-{c % COPIES + 1}" for c in range(N_CARDS))
        o = options
        self.values = tuple(0 if x is None else x for x in RULE_VALUES)
        self.ankh_points = tuple((x if o.ankh_value == "meld" else 0) for x in self.values[:ANKH]) + (0,)
        self.all_ankh = o.all_ankh_meld
        self.discard_on_reveal = o.control_meld == "discarded"
        key = (o.ankh_value, o.all_ankh_meld, o.ankhs_in_combo)
        tables = _TABLES.setdefault(key, {"melds": {}, "reveals": {}, "best": {}, "points": {},
                                          "control": {PASS: (-1, 0)}})
        self._control_keys = tables["control"]
        self._melds = tables["melds"]
        self._reveals = tables["reveals"]
        self._best = tables["best"]
        self._points = tables["points"]
        # the greedy players' choices, a pure function of what they see (see GreedyAgent)
        self.greedy_tables: dict[str, dict] = tables.setdefault(("greedy", o.control_meld, num_players), {})
        # the actions the checker decoded itself, shared by its checkers (one per game played)
        self.checker_tables: tuple[dict, dict, dict, dict] = ({}, {}, {}, {})

    # OpenSpiel-style
    def new_initial_state(self) -> "EgyptState":
        return EgyptState(self)

    def max_game_length(self) -> int:
        # per turn: at most every card drawn twice over (a reshuffle), one reveal and one
        # discard per seat, a victim, a steal and at most 8 melds and a pass: generous
        return self.turns * (2 * N_CARDS + 3 * self.num_players + 12)

    def checker(self) -> "EgyptChecker":
        return EgyptChecker(self)

    def card_index(self, name: str) -> int:
        return self.card_names.index(name)

    def card_name(self, card: int) -> str:
        return self.card_names[card] if 0 <= card < N_CARDS else f"card {card}"

    # -- the rules on counts (pure functions, cached) ------------------------------
    def meld_points(self, t: int, nat: int, ank: int) -> int:
        """A meld's tribute: the sum of its cards' values (an Ankh per the options)."""
        if t == ANKH:
            return ank * (self.all_ankh or 0)
        return nat * self.values[t] + ank * self.ankh_points[t]

    def points(self, action: int) -> int:
        """The tribute of a meld or special meld action."""
        p = self._points.get(action)
        if p is None:
            if action >= COMBO:
                p = COMBOS[(action - COMBO) // 10][2]
            else:
                p = self.meld_points(*decode_meld(action))
            self._points[action] = p
        return p

    def control_key(self, action: int) -> tuple[int, int]:
        """How a revealed meld ranks for control: (cards, points), the most cards first;
        ``PASS`` ranks (-1, 0). Cached per action."""
        key = self._control_keys.get(action)
        if key is None:
            size = (action - MELD) % 100
            key = self._control_keys[action] = (size // 10 + size % 10, self.points(action))
        return key

    def control_winner(self, shown: Sequence[int]) -> int:
        """Who wins control with these reveals (PASS: none): -1 when nobody reveals or
        the best are tied."""
        try:
            keys = list(map(self._control_keys.__getitem__, shown))
        except KeyError:  # a meld met for the first time
            keys = [self.control_key(a) for a in shown]
        best = max(keys)
        if best[0] < 0 or keys.count(best) > 1:
            return -1
        return keys.index(best)

    def combo_ok(self, counts: Sequence[int], combo: int, fill: int) -> bool:
        """Can a hand of these counts pay special meld ``combo``, Ankhs in the slots of ``fill``?"""
        k = fill.bit_count()
        if k > self.options.ankhs_in_combo or counts[ANKH] < k:
            return False
        for slot, t in enumerate(COMBOS[combo][1]):
            if not fill >> slot & 1 and counts[t] < 1:
                return False
        return True

    def reveal_actions(self, sig: int) -> list[int]:
        """The melds one may reveal in the Control phase (``PASS`` first). Shared: read only."""
        out = self._reveals.get(sig)
        if out is None:
            out = self._reveals[sig] = [PASS] + self._plain_melds(counts_tuple(sig))
        return out

    def meld_actions(self, sig: int) -> list[int]:
        """What the controller may play in the Dynasty phase (``PASS`` first). Shared: read only."""
        out = self._melds.get(sig)
        if out is None:
            counts = counts_tuple(sig)
            out = [PASS] + self._plain_melds(counts)
            for ci in range(len(COMBOS)):
                for fill in range(8):
                    if self.combo_ok(counts, ci, fill):
                        out.append(combo_action(ci, fill))
            self._melds[sig] = out
        return out

    def _plain_melds(self, counts: Sequence[int]) -> list[int]:
        out = []
        a = counts[ANKH]
        for t in range(ANKH):
            for nat in range(1, counts[t] + 1):
                for ank in range(0 if nat >= 2 else 1, a + 1):
                    out.append(meld_action(t, nat, ank))
        if self.all_ankh is not None:
            for ank in range(2, a + 1):
                out.append(meld_action(ANKH, 0, ank))
        return out

    @staticmethod
    def discard_actions(sig: int) -> list[int]:
        """Every legal End-phase discard of a hand: 0–3 cards, at most 5 kept. Shared: read only."""
        out = _DISCARDS.get(sig)
        if out is None:
            left = list(counts_tuple(sig))
            size = sum(left)
            lo = max(0, size - KEEP)
            hi = min(size, max(MAX_DISCARD, size - KEEP))
            out = []

            def rec(start: int, chosen: list[int]) -> None:
                if len(chosen) >= lo:
                    out.append(discard_action(chosen))
                if len(chosen) == hi:
                    return
                for t in range(start, NTYPES):
                    if left[t]:
                        left[t] -= 1
                        chosen.append(t)
                        rec(t, chosen)
                        chosen.pop()
                        left[t] += 1

            rec(0, [])
            _DISCARDS[sig] = out
        return out

    def best_tribute(self, sig: int) -> int:
        """The most tribute a controller can score from a hand of these counts (exact search)."""
        best = self._best.get(sig)
        if best is None:
            best = 0
            for a in self.meld_actions(sig):
                if a == PASS:
                    continue
                d = _DELTA.get(a) or _learn(a)
                total = self.points(a) + self.best_tribute(sig - d)
                if total > best:
                    best = total
            self._best[sig] = best
        return best

    def describe(self, action: int) -> str:
        if action == PASS:
            return "nothing"
        if MELD <= action < COMBO:
            t, nat, ank = decode_meld(action)
            if t == ANKH:
                return f"{ank} Ankh(s)"
            return f"{nat} {self.type_names[t]}" + (f" + {ank} Ankh(s)" if ank else "")
        if COMBO <= action < VICTIM_BASE:
            ci, fill = divmod(action - COMBO, 10)
            slots = [("Ankh for " if fill >> s & 1 else "") + self.type_names[t]
                     for s, t in enumerate(COMBOS[ci][1])]
            return f"{COMBO_IDS[ci]} ({', '.join(slots)})"
        return f"action {action}"


# --------------------------------------------------------------------------- state
class EgyptObservation:
    """What one seat may know, as a read-only view of the state at this moment.

    Only public information and the seat's own hand. During the Control phase the
    choices of the seats that already chose stay hidden (``revealed`` is empty)
    until the last seat has chosen; ``my_reveal`` is the seat's own choice. The
    discard pile is face up; the card the controller takes is known to the
    controller and the victim only (through their hands). ``events`` is the public
    log: ``(EV_RESHUFFLE, cards)``, ``(EV_REVEAL, meld or PASS per seat)``,
    ``(EV_CONTROL, controller or -1, changed)``, ``(EV_STEAL, controller, victim)``,
    ``(EV_MELD | EV_COMBO, seat, action, points)``, ``(EV_PASS, seat)``,
    ``(EV_DISCARD, seat, types)``, ``(EV_TURN, turns played)``.
    """

    __slots__ = ("player", "_s")

    def __init__(self, state: "EgyptState", player: int):
        self.player = player
        self._s = state

    # the plain public fields read through C-level getters (attrgetter): the greedy player reads
    # some of them at every decision
    num_players = property(attrgetter("_s.g.num_players"))
    phase = property(lambda self: PHASE_NAMES[self._s.phase])
    phase_id = property(attrgetter("_s.phase"), doc="the phase as its number (CONTROL, DISCARD…)")
    turn = property(attrgetter("_s.turn"))
    hand_mask = property(lambda self: self._s.hand[self.player])
    sig = property(lambda self: self._s.sig[self.player], doc="own counts per type, one per byte (see swar)")
    counts = property(lambda self: counts_tuple(self._s.sig[self.player]), doc="own cards per type")
    hand_sizes = property(lambda self: tuple(self._s.hand_n))
    scores = property(lambda self: tuple(self._s.score))
    controller = property(attrgetter("_s.controller"))
    revealed = property(lambda self: self._s.shown if self._s.phase != CONTROL else (),
                        doc="this turn's reveal per seat (PASS for none), once every seat has chosen")
    my_reveal = property(lambda self: self._s.pending[self.player] if self._s.phase == CONTROL
                         and self._s.player > self.player else None)
    table = property(lambda self: tuple(mask_cards(self._s.table)), doc="cards laid on the table this turn")
    discard = property(lambda self: tuple(mask_cards(self._s.discard)), doc="the discard pile, face up")
    deck_size = property(lambda self: len(self._s.deck))
    events = property(attrgetter("_s.events"))

    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(mask_cards(self._s.hand[self.player]))

    FIELDS = ("player", "num_players", "phase", "turn", "hand", "counts", "hand_sizes", "scores", "controller",
              "revealed", "my_reveal", "table", "discard", "deck_size")

    def public(self) -> dict[str, Any]:
        """Everything the seat may know, as plain values (for tests and traces)."""
        return {k: getattr(self, k) for k in self.FIELDS} | {"events": tuple(self.events)}


class EgyptState:
    """A game in progress; :meth:`apply_action` returns the new current player and the
    observations are live views (the runner's fast paths, see :mod:`cardgen.rules.api`)."""

    live_observations = True  # observation(p) always shows the state as it is now

    __slots__ = ("g", "phase", "turn", "player", "deck", "discard", "hand", "sig", "hand_n", "table", "score",
                 "controller", "pending", "shown", "victim", "events", "steps", "changes", "reshuffles",
                 "control_turns", "melds_played", "combos_played", "legal")

    def __init__(self, game: EgyptGame):
        n = game.num_players
        self.g = game
        self.phase = DRAW
        self.turn = 0
        self.player = 0
        self.deck = list(range(N_CARDS))
        self.discard = 0
        self.hand = [0] * n
        self.sig = [0] * n
        self.hand_n = [0] * n
        self.table = 0
        self.score = [0] * n
        self.controller = -1
        self.pending = [PASS] * n
        self.shown: tuple[int, ...] = ()
        self.victim = -1
        self.events: list[tuple] = []
        self.steps = 0
        self.changes = 0  # control passed from one player to another
        self.reshuffles = 0
        self.control_turns = 0  # turns with a Dynasty phase
        self.melds_played = 0
        self.combos_played = 0
        self.legal: list[int] = []  # the legal actions of the seat to act (Control, Dynasty, End)
        self._next_draw()

    # -- queries ----------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == DRAW or phase == STEAL:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == DRAW or self.phase == STEAL

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == DRAW:
            cards = sorted(self.deck)
        elif self.phase == STEAL:
            cards = mask_cards(self.hand[self.victim])
        else:
            return []
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def sample_chance(self, rng: random.Random) -> int:
        """A uniform draw from :meth:`chance_outcomes` with the given random source."""
        if self.phase == DRAW:
            deck = self.deck
            return deck[int(rng.random() * len(deck))]
        return kth_card(self.hand[self.victim], int(rng.random() * self.hand_n[self.victim]))

    def apply_chance_run(self, rng: random.Random) -> list[int]:
        """Every chance step up to the next decision, with exactly the draws and moves of
        ``sample_chance`` + ``apply_action`` one by one.

        A draw swaps the card drawn with the deck's last card as one by one, but the
        deck is cut once per hand and the hand's bits and counts are added once."""
        out: list[int] = []
        rand = rng.random
        while self.phase == DRAW:
            self._draw_hands(rand, out)
        if self.phase == STEAL:
            card = kth_card(self.hand[self.victim], int(rand() * self.hand_n[self.victim]))
            self._steal(card)
            out.append(card)
            self.steps += 1
        return out

    def _draw_hands(self, rand: Callable[[], float], out: list[int]) -> None:
        """Fill the hands seat by seat from the current one while the deck lasts, then let
        :meth:`_next_draw` reshuffle or move on to the Control phase.

        The draws of all the seats are one run of swaps on the deck, seat after seat
        taking the next cards drawn, as one by one (``floor`` of the non-negative
        ``rand() * m`` is ``sample_chance``'s ``int``, and cheaper to call)."""
        hand, sig, hand_n = self.hand, self.sig, self.hand_n
        seats = self.g.num_players
        deck = self.deck
        p = self.player
        n = len(deck)
        needs = [HAND - k if k < HAND else 0 for k in hand_n[p:]]
        total = sum(needs)
        if total > n:
            total = n  # the deck runs out on the way: _next_draw reshuffles the discard
        for m in range(n, n - total, -1):
            i = floor(rand() * m)
            out.append(deck[i])
            deck[i] = deck[m - 1]
        del deck[n - total:]
        drawn = out[len(out) - total:]
        at = 0
        for q in range(p, seats):
            k = needs[q - p]
            if k > total - at:
                k = total - at
            if k:
                cards = drawn[at:at + k]
                at += k
                both = sum(map(CBOTH.__getitem__, cards))
                hand[q] |= both & ALL
                sig[q] += both >> SIG_SHIFT
                hand_n[q] += k
        self.steps += total
        self._next_draw()  # from seat p: the first seat still short of cards, or the Control phase

    def legal_actions(self) -> list[int]:
        """The legal actions (often a shared list: read it, never change it)."""
        phase = self.phase
        if phase == CONTROL or phase == DISCARD or phase == DYNASTY:
            return self.legal
        if phase == VICTIM:
            p = self.player
            return [VICTIM_BASE + q for q in range(self.g.num_players) if q != p and self.hand_n[q]]
        if phase == DRAW:
            return sorted(self.deck)
        if phase == STEAL:
            return mask_cards(self.hand[self.victim])
        return []

    def observation(self, player: int) -> EgyptObservation:
        return EgyptObservation(self, player)

    def returns(self) -> list[float]:
        """1 for every seat with the most tribute (all 1: a draw), 0 for the others."""
        if self.phase != OVER:
            return [0.0] * self.g.num_players
        return most_points_win(self.score)

    def winners(self) -> tuple[int, ...]:
        best = max(self.score)
        return tuple(s for s, x in enumerate(self.score) if x == best)

    def figures(self) -> dict[str, Any]:
        """Per-game figures for the validate report: the tribute every seat scored,
        the winner's, how often control changed hands, turns with a Dynasty phase."""
        top = sorted(self.score, reverse=True)
        return {"tribute": list(self.score), "winning_tribute": top[0], "winning_margin": top[0] - top[1],
                "control_changes": self.changes, "turns_with_a_controller": self.control_turns,
                "reshuffles": self.reshuffles}

    def length(self) -> int:
        """Turns played."""
        return self.turn

    def clone(self) -> "EgyptState":
        s = EgyptState.__new__(EgyptState)
        for name in self.__slots__:
            v = getattr(self, name)
            setattr(s, name, v[:] if isinstance(v, list) else v)
        return s

    # -- moves ------------------------------------------------------------------
    def apply_action(self, action: int) -> int:
        """Apply one action of the current player (or of chance); the new current player.

        A reveal goes on to the next seat with a choice here (:meth:`_next_reveal` inlined:
        every seat reveals every turn)."""
        phase = self.phase
        if phase == CONTROL:
            p = self.player
            self.pending[p] = action
            g = self.g
            n = g.num_players
            known = g._reveals
            sig = self.sig
            p += 1
            while p < n:
                legal = known.get(sig[p]) or g.reveal_actions(sig[p])
                if len(legal) > 1:
                    self.player = p
                    self.legal = legal
                    self.steps += 1
                    return p
                p += 1
            self._resolve_control()
        elif phase == DISCARD:
            self._discard(action)
        elif phase == DYNASTY:
            self._play(action)
        elif phase == DRAW:
            deck = self.deck
            i = deck.index(action)
            deck[i] = deck[-1]
            deck.pop()
            p = self.player
            self.hand[p] |= CBIT[action]
            self.sig[p] += CSIG[action]
            self.hand_n[p] += 1
            self._next_draw()
        elif phase == VICTIM:
            self.victim = action - VICTIM_BASE
            self.phase = STEAL
        elif phase == STEAL:
            self._steal(action)
        else:
            raise RuleViolation("an action was applied after the end of the game")
        self.steps += 1
        phase = self.phase
        if phase == DRAW or phase == STEAL:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.player

    def _take(self, seat: int, action: int) -> int:
        """Remove the cards an action uses (the lowest copies of each type: :func:`take_mask`)
        from a hand; their mask. The counts and the hand size change
        by the action's precomputed counts and size: the engine trusts its own legal
        moves here (the checker judges each action before it is applied and compares
        the counts with the cards in its full checks)."""
        parts, delta, k = _MOVES.get(action) or _move(action)
        h = self.hand[seat]
        mask = 0
        for shift, row in parts:
            mask |= row[(h >> shift) & 127]
        self.hand[seat] = h & ~mask
        self.sig[seat] -= delta
        self.hand_n[seat] -= k
        return mask

    def _next_draw(self) -> None:
        """Move to the next seat that needs cards (reshuffling when the deck is empty),
        or on to the Control phase."""
        n = self.g.num_players
        p = self.player
        hand_n = self.hand_n
        while p < n:
            if hand_n[p] < HAND:
                if not self.deck:
                    if not self.discard:
                        p += 1  # no card left anywhere (cannot happen with 7 × seats ≤ 63)
                        continue
                    self.deck = mask_cards(self.discard)
                    self.events.append((EV_RESHUFFLE, len(self.deck)))
                    self.discard = 0
                    self.reshuffles += 1
                self.player = p
                return
            p += 1
        self.phase = CONTROL
        self.player = -1
        self._next_reveal()

    def _next_reveal(self) -> None:
        """The next seat to choose its reveal; a seat without any meld reveals nothing
        without a decision."""
        p = self.player + 1
        g = self.g
        n = g.num_players
        known = g._reveals
        sig = self.sig
        while p < n:
            legal = known.get(sig[p]) or g.reveal_actions(sig[p])
            if len(legal) > 1:
                self.player = p
                self.legal = legal
                return
            p += 1
        self._resolve_control()

    def _resolve_control(self) -> None:
        g = self.g
        pending = self.pending
        self.shown = shown = tuple(pending)
        self.events.append((EV_REVEAL, shown))
        winner = g.control_winner(shown)
        if g.discard_on_reveal:
            for s, a in enumerate(shown):
                if a != PASS:
                    self.table |= self._take(s, a)
        old = self.controller
        if winner >= 0:
            self.controller = winner
            if old >= 0 and winner != old:
                self.changes += 1
        c = self.controller
        self.events.append((EV_CONTROL, c, c != old))
        self.pending = [PASS] * g.num_players
        if c < 0:
            if g.options.no_controller == "end_phase":
                self._start_end()
            else:
                self.discard |= self.table
                self.table = 0
                self._end_turn()
            return
        self.control_turns += 1
        self.player = c
        hand_n = self.hand_n
        victims = [q for q in range(g.num_players) if q != c and hand_n[q]]
        if not victims:
            self.phase = DYNASTY
            self._dynasty_choice()
        elif len(victims) == 1:
            self.victim = victims[0]
            self.phase = STEAL
        else:
            self.phase = VICTIM

    def _steal(self, card: int) -> None:
        v = self.victim
        c = self.controller
        bit = CBIT[card]
        self.hand[v] &= ~bit
        self.sig[v] -= CSIG[card]
        self.hand_n[v] -= 1
        self.hand[c] |= bit
        self.sig[c] += CSIG[card]
        self.hand_n[c] += 1
        self.events.append((EV_STEAL, c, v))
        self.phase = DYNASTY
        self.player = c
        self._dynasty_choice()

    def _dynasty_choice(self) -> None:
        """Let the controller choose, unless it cannot play any meld: then the End phase."""
        g = self.g
        sig = self.sig[self.player]
        legal = self.legal = g._melds.get(sig) or g.meld_actions(sig)
        if len(legal) == 1:
            self.events.append((EV_PASS, self.player))
            self._start_end()

    def _play(self, action: int) -> None:
        p = self.player
        if action == PASS:
            self.events.append((EV_PASS, p))
            self._start_end()
            return
        self.table |= self._take(p, action)
        pts = self.g.points(action)
        if action >= COMBO:
            self.combos_played += 1
            self.events.append((EV_COMBO, p, action, pts))
        else:
            self.melds_played += 1
            self.events.append((EV_MELD, p, action, pts))
        self.score[p] += pts
        self._dynasty_choice()

    def _start_end(self) -> None:
        self.discard |= self.table
        self.table = 0
        self.phase = DISCARD
        self.player = -1
        self._next_discard()

    def _next_discard(self) -> None:
        p = self.player + 1
        n = self.g.num_players
        hand_n = self.hand_n
        while p < n and not hand_n[p]:
            p += 1  # nothing to decide with an empty hand
        if p < n:
            self.player = p
            sig = self.sig[p]
            self.legal = _DISCARDS.get(sig) or self.g.discard_actions(sig)
        else:
            self._end_turn()

    def _discard(self, action: int) -> None:
        """One seat's End-phase discard, then the next seat with cards (:meth:`_next_discard`
        inlined: every seat discards every turn)."""
        p = self.player
        if action != DISCARD_BASE:
            self.discard |= self._take(p, action)
        self.events.append((EV_DISCARD, p, action))
        n = self.g.num_players
        hand_n = self.hand_n
        p += 1
        while p < n and not hand_n[p]:
            p += 1  # nothing to decide with an empty hand
        if p < n:
            self.player = p
            sig = self.sig[p]
            self.legal = _DISCARDS.get(sig) or self.g.discard_actions(sig)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self.turn += 1
        self.events.append((EV_TURN, self.turn))
        if self.turn >= self.g.turns:
            self.phase = OVER
            self.player = -1
            return
        self.phase = DRAW
        self.player = 0
        self._next_draw()

    # -- text -------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.g
        phase = self.phase
        if phase == DRAW:
            return f"seat {self.player + 1} draws {g.card_name(action)}"
        if phase == STEAL:
            return f"seat {self.controller + 1} takes {g.card_name(action)} from seat {self.victim + 1}"
        if phase == CONTROL:
            return f"reveal {g.describe(action)} (hidden until every seat has chosen)"
        if phase == VICTIM:
            return f"take a random card from seat {action - VICTIM_BASE + 1}"
        if phase == DYNASTY:
            if action == PASS:
                return "play no more melds"
            return f"play {g.describe(action)} for {g.points(action)}"
        if phase == DISCARD:
            types = decode_discard(action)
            return "discard " + (", ".join(g.type_names[t] for t in types) if types else "nothing")
        return f"action {action}"

    def __str__(self) -> str:
        g = self.g
        lines = [f"turn {self.turn + 1}, {PHASE_NAMES[self.phase]}, seat {self.player + 1}; controller "
                 f"{'none' if self.controller < 0 else self.controller + 1}; deck {len(self.deck)},"
                 f" discard {self.discard.bit_count()}, table {self.table.bit_count()}"]
        for s in range(g.num_players):
            hand = ", ".join(g.card_name(c) for c in mask_cards(self.hand[s])) or "—"
            lines.append(f"  seat {s + 1}: {self.score[s]} tribute; hand {hand}")
        return "\n".join(lines)

    # -- constructed positions (tests, debugging) -----------------------------
    @classmethod
    def from_position(cls, game: EgyptGame, hands: Sequence[Sequence[int]], phase: int = CONTROL,
                      controller: int = -1, scores: Sequence[int] = (), turn: int = 0,
                      discard: Sequence[int] = (), table: Sequence[int] = (), player: int = 0,
                      victim: int = -1, deck: Sequence[int] | None = None) -> "EgyptState":
        """A position at the start of ``phase`` (``CONTROL``, ``DYNASTY``, ``DISCARD`` or
        ``DRAW``); every card not placed lies in the deck unless ``deck`` is given."""
        s = cls.__new__(cls)
        n = game.num_players
        hands = [list(h) for h in hands] + [[] for _ in range(n - len(hands))]
        placed = [c for h in hands for c in h] + list(discard) + list(table)
        rest = [c for c in range(N_CARDS) if c not in set(placed)]
        if deck is not None:
            placed += list(deck)
        if sorted(placed + ([] if deck is not None else rest)) != list(range(N_CARDS)):
            raise ValueError("a position must place each of the 63 cards exactly once")
        s.g = game
        s.phase = phase
        s.turn = turn
        s.player = player
        s.deck = list(deck) if deck is not None else rest
        s.discard = cards_mask(discard)
        s.table = cards_mask(table)
        s.hand = [cards_mask(h) for h in hands]
        s.sig = [swar(m) for m in s.hand]
        s.hand_n = [len(h) for h in hands]
        s.score = list(scores) + [0] * (n - len(scores))
        s.controller = controller
        s.pending = [PASS] * n
        s.shown = ()
        s.victim = victim
        s.events = []
        s.steps = 0
        s.changes = 0
        s.reshuffles = 0
        s.control_turns = 0
        s.melds_played = 0
        s.combos_played = 0
        s.legal = []
        if phase == DRAW:
            s.player = 0
            s._next_draw()
        elif phase == CONTROL:
            s.player = player - 1
            s._next_reveal()
        elif phase == DYNASTY:
            s.player = controller
            s._dynasty_choice()
        elif phase == DISCARD:
            s.player = player - 1
            s._next_discard()
        return s


# --------------------------------------------------------------------------- checks
def _control_rank(a: int, values: Sequence[int], ankh_value: str, all_ankh: int | None) -> tuple[int, int]:
    """A revealed meld's rank for control from the rules text: (cards, points); PASS (-1, 0)."""
    if a == PASS:
        return (-1, 0)
    t, rest = divmod(a - MELD, 100)
    nat, ank = divmod(rest, 10)
    if t == ANKH:
        pts = ank * (all_ankh or 0)
    else:
        pts = nat * values[t] + (ank * values[t] if ankh_value == "meld" else 0)
    return (nat + ank, pts)


def control_winner(melds: Sequence[int], values: Sequence[int], ankh_value: str, all_ankh: int | None) -> int:
    """Who wins control from the revealed melds (PASS: none), from the rules text alone:
    the most cards, then the most points; a tie at the top: nobody (-1)."""
    keys = [_control_rank(a, values, ankh_value, all_ankh) for a in melds]
    top = max(keys)
    if top[0] < 0 or keys.count(top) > 1:
        return -1
    return keys.index(top)


class EgyptChecker:
    """Checks each action against the rules and the invariants, apart from the engine.

    It decodes actions itself and counts cards from the hands' bits, never from the
    engine's move lists or counts. Every step: the action's rule (a meld of 2+
    cards of one type the player holds, Ankhs wild; a special meld's three types,
    Ankhs in at most the allowed slots; a discard of at most 3 that keeps at most 5;
    the controller alone taking a card and playing melds), the card count (deck +
    hands + table + discard = 63) and every point of tribute; at each phase change:
    hand sizes (7 after the draw, the reveal taken off under ``discarded``, +1/−1
    after the steal, at most 5 after the End phase), the controller recomputed from
    the reveals, the table cleared; every ``full`` step: each card exactly once, the
    counts per type, and no reveal visible before every seat has chosen; at the end:
    exactly ten turns and the winners.

    Cheaply: it decodes each action once (for every game of the same game
    definition) and then compares only the cards held per type; the controller is
    recomputed once per set of reveals met; the full check runs when the runner asks
    (it samples them, every ``check_every`` steps, and at the end).
    """

    def __init__(self, game: EgyptGame):
        self.g = game
        n = game.num_players
        self.phase = DRAW
        self.turn = 0
        self.expect_points = 0
        self.scorer = -1
        self.scores = [0] * n
        self.start_sizes = [0] * n
        self.pre_steal = [0] * n
        self.end_sizes: list[int] | None = None
        self.last_controller = -1
        self.values = tuple(0 if v is None else v for v in RULE_VALUES)
        self.full_hands = [HAND] * n  # the hand sizes after a Draw phase
        self.no_reveals = (PASS,) * n  # the reveals of a Control phase where nobody could reveal a meld
        self._views_of: EgyptState | None = None  # the state whose seats' views are in _views
        self._views: list[EgyptObservation] = []
        self._deck_seen: list[int] | None = None  # the deck the last full check verified
        self._rest_seen = 0  # and the cards it held
        # what each action needs, decoded by the checker itself the first time a checker of
        # this game meets it (by the options alone: shared by the checkers of every game played)
        self._meld_need, self._discard_need, self._combo_need, self._control_of = game.checker_tables

    @staticmethod
    def _held(s: EgyptState, p: int, t: int) -> int:
        return ((s.hand[p] >> (8 * t)) & 255).bit_count()

    def before(self, s: EgyptState, player: int, action: int) -> None:
        """The action's rule, judged from the cards the player holds (every step)."""
        phase = s.phase
        if phase == CONTROL:  # _check_meld inlined: every seat reveals every turn
            if action != PASS:
                shift, nat, ank, _ = self._meld_need.get(action) or self._meld_rule(player, action, "revealed")
                hand = s.hand[player]
                if ((hand >> shift) & 255).bit_count() < nat or ((hand >> ANKH_SHIFT) & 255).bit_count() < ank:
                    raise RuleViolation(f"seat {player + 1} revealed {self.g.describe(action)} without holding them")
        elif phase == DISCARD:
            parts, k = self._discard_need.get(action) or self._discard_rule(player, action)
            hand = s.hand[player]
            for shift, m in parts:
                if ((hand >> shift) & 255).bit_count() < m:
                    t = shift // 8
                    raise RuleViolation(f"seat {player + 1} discards {m} {self.g.type_names[t]} but holds"
                                        f" {self._held(s, player, t)}")
            size = s.hand_n[player]
            if k > MAX_DISCARD and k > size - KEEP:
                raise RuleViolation(f"seat {player + 1} discards {k} cards; at most {MAX_DISCARD} may go")
            if size - k > KEEP:
                raise RuleViolation(f"seat {player + 1} keeps {size - k} cards; at most {KEEP} may stay")
        elif phase == DYNASTY:
            if player != s.controller:
                raise RuleViolation(f"seat {player + 1} plays a meld without controlling Egypt")
            if action == PASS:
                return
            if action >= COMBO:
                parts, pts = self._combo_need.get(action) or self._combo_rule(player, action)
                hand = s.hand[player]
                for shift, m in parts:
                    if ((hand >> shift) & 255).bit_count() < m:
                        raise RuleViolation(f"seat {player + 1} played {COMBO_IDS[(action - COMBO) // 10]} without"
                                            f" the {self.g.type_names[shift // 8]} it needs")
                self.expect_points = pts
            else:
                self.expect_points = self._check_meld(s, player, action, "played")
            self.scorer = player
        elif phase == VICTIM:
            q = action - VICTIM_BASE
            if player != s.controller:
                raise RuleViolation(f"seat {player + 1} takes a card without controlling Egypt")
            if not (0 <= q < self.g.num_players) or q == player or not s.hand_n[q]:
                raise RuleViolation(f"seat {player + 1} takes a card from seat {q + 1}, who has none to give")
        else:
            raise RuleViolation(f"seat {player + 1} acted in the {PHASE_NAMES[phase]} phase")

    def _discard_rule(self, player: int, action: int) -> tuple[tuple[tuple[int, int], ...], int]:
        """A discard's cards per type ((shift, how many)) and their number, decoded by
        the checker; kept per action once found well formed."""
        types = decode_discard(action) if DISCARD_BASE <= action < DISCARD_BASE + 10 ** 9 else None
        if types is None or any(not 0 <= t < NTYPES for t in types):
            raise RuleViolation(f"seat {player + 1} made an impossible discard ({action})")
        need = (tuple((8 * t, types.count(t)) for t in sorted(set(types))), len(types))
        self._discard_need[action] = need
        return need

    def _combo_rule(self, player: int, action: int) -> tuple[tuple[tuple[int, int], ...], int]:
        """A special meld's cards per type ((shift, how many), Ankhs in the filled slots)
        and its tribute, checked against the options; kept per action once found legal."""
        ci, fill = divmod(action - COMBO, 10)
        if not (0 <= ci < len(COMBOS)) or not 0 <= fill < 8:
            raise RuleViolation(f"seat {player + 1} played an unknown special meld ({action})")
        k = fill.bit_count()
        allowed = self.g.options.ankhs_in_combo
        if k > allowed:
            raise RuleViolation(f"seat {player + 1} filled {k} slot(s) of {COMBO_IDS[ci]} with Ankhs;"
                                f" the options allow {allowed}")
        need = [0] * NTYPES
        for slot, t in enumerate(COMBOS[ci][1]):
            need[ANKH if fill >> slot & 1 else t] += 1
        rule = (tuple((8 * t, m) for t, m in enumerate(need) if m), COMBOS[ci][2])
        self._combo_need[action] = rule
        return rule

    def _check_meld(self, s: EgyptState, player: int, action: int, verb: str) -> int:
        """A meld's legality by the rules; its points."""
        need = self._meld_need.get(action) or self._meld_rule(player, action, verb)
        shift, nat, ank, pts = need
        hand = s.hand[player]
        if ((hand >> shift) & 255).bit_count() < nat or ((hand >> ANKH_SHIFT) & 255).bit_count() < ank:
            raise RuleViolation(f"seat {player + 1} {verb} {self.g.describe(action)} without holding them")
        return pts

    def _meld_rule(self, player: int, action: int, verb: str) -> tuple[int, int, int, int]:
        """A meld's form by the rules (2+ cards of one type, Ankhs wild, an all-Ankh meld
        only if the options allow it) and its points; kept per action once found legal."""
        g = self.g
        if not MELD <= action < COMBO:
            raise RuleViolation(f"seat {player + 1} {verb} something that is not a meld ({action})")
        t, rest = divmod(action - MELD, 100)
        nat, ank = divmod(rest, 10)
        if not 0 <= t < NTYPES or nat + ank < 2:
            raise RuleViolation(f"seat {player + 1} {verb} a meld of {nat + ank} card(s): a meld is 2 or more")
        if t == ANKH:
            if nat or g.options.all_ankh_meld is None:
                raise RuleViolation(f"seat {player + 1} {verb} a meld of Ankhs only, which the options forbid")
        elif nat < 1:
            raise RuleViolation(f"seat {player + 1} {verb} a {g.type_names[t]} meld without a {g.type_names[t]}")
        if t == ANKH:
            pts = ank * (g.options.all_ankh_meld or 0)
        else:
            v = self.values[t]
            pts = nat * v + (ank * v if g.options.ankh_value == "meld" else 0)
        rule = (8 * t, nat, ank, pts)
        self._meld_need[action] = rule
        return rule

    def after(self, s: EgyptState, full: bool) -> None:
        """After a step: the card count and the tribute (every step), the phase change
        (when there is one) and, when ``full``, the full check."""
        if len(s.deck) + sum(s.hand_n) + s.table.bit_count() + s.discard.bit_count() != N_CARDS:
            raise RuleViolation(f"the cards add up to {len(s.deck) + sum(s.hand_n) + s.table.bit_count()}"
                                f" + {s.discard.bit_count()}, not {N_CARDS} (deck {len(s.deck)}, hands"
                                f" {list(s.hand_n)}, table {s.table.bit_count()}, discard {s.discard.bit_count()})")
        if self.scorer >= 0:
            self._scored(s.score)
        if s.score != self.scores:
            raise RuleViolation(f"tribute changed without a meld: {self.scores} → {s.score}")
        if s.phase != self.phase or s.turn != self.turn:
            self._transition(s)
        if full:
            self.conservation(s)

    def _scored(self, score: list[int]) -> None:
        """The tribute of the meld just played, as the checker decoded it."""
        p = self.scorer
        scores = self.scores
        if score[p] - scores[p] != self.expect_points:
            raise RuleViolation(f"seat {p + 1} scored {score[p] - scores[p]} for a meld worth {self.expect_points}")
        scores[p] = score[p]
        self.scorer = -1

    def _transition(self, s: EgyptState) -> None:
        """The checks of each phase change since the last step, in the order of a turn.

        A run of chance steps may go on through the Control phase when nobody can
        reveal a meld (no decision): the reveals are then all ``PASS``, nothing leaves
        the hands and, with a controller and two players, the steal follows in the
        same run. Those phase changes are checked here one after the other, the hand
        sizes before the steal recomputed from after it."""
        old = self.phase
        # the hand sizes at the phase change being checked (kept as start_sizes and pre_steal)
        sizes = s.hand_n[:] if old == DRAW or old == CONTROL else []
        stolen = False  # a steal followed in the same run of chance steps
        if old == DRAW:  # every hand filled to 7 (there are always cards enough for 7 × seats ≤ 63)
            through = s.phase != CONTROL and s.turn == self.turn
            if through and s.controller >= 0 and s.phase != VICTIM:
                stolen = True
                sizes[s.controller] -= 1
                sizes[s.victim] += 1
            if sizes != self.full_hands and (s.deck or s.discard):
                q = next(q for q, k in enumerate(sizes) if k != HAND)
                raise RuleViolation(f"seat {q + 1} holds {sizes[q]} cards after the Draw phase, not {HAND}")
            self.start_sizes = sizes
            if through:
                if s.shown != self.no_reveals:
                    raise RuleViolation("the Control phase ended without a decision although a seat revealed a meld")
                old = CONTROL
        if old == CONTROL:
            self._control_resolved(s, sizes)
            if stolen:
                old = STEAL
        if old == STEAL:
            c, v = s.controller, s.victim
            if s.hand_n[c] != self.pre_steal[c] + 1 or s.hand_n[v] != self.pre_steal[v] - 1:
                raise RuleViolation(f"the controller (seat {c + 1}) took a card from seat {v + 1}: their hands went"
                                    f" {self.pre_steal[c]}→{s.hand_n[c]} and {self.pre_steal[v]}→{s.hand_n[v]}")
        if s.phase == DISCARD and old != DISCARD:
            if s.table:
                raise RuleViolation("melds stayed on the table into the End phase's discards")
            self.end_sizes = s.hand_n[:]
        if s.turn != self.turn:
            self._turn_change(s, old)
        self.phase = s.phase

    def _control_resolved(self, s: EgyptState, sizes: list[int]) -> None:
        """The reveal resolved: who controls (recomputed from the reveals), what left the
        hands (``sizes``: the hand sizes after the reveal)."""
        shown = s.shown
        if len(shown) != self.g.num_players:
            raise RuleViolation("the Control phase ended before every seat had chosen")
        w, keys = self._control_winner(shown)
        want = w if w >= 0 else self.last_controller
        if s.controller != want:
            got = f"seat {s.controller + 1}" if s.controller >= 0 else "nobody"
            raise RuleViolation(f"{got} controls Egypt after the reveal; the rules give it to "
                                f"{('seat ' + str(want + 1)) if want >= 0 else 'nobody'}")
        self.last_controller = s.controller
        start = self.start_sizes
        # a revealed meld's cards leave the hand under "discarded" (a rank's size: its cards, PASS -1)
        keep = [k - n if n > 0 else k for k, (n, _) in zip(start, keys)] if self.g.discard_on_reveal else start
        if sizes != keep:
            q = next(q for q, k in enumerate(keep) if sizes[q] != k)
            raise RuleViolation(f"seat {q + 1} holds {sizes[q]} cards after revealing {start[q] - keep[q]} of"
                                f" {start[q]}; {keep[q]} should be left")
        if s.controller < 0 and s.phase in (VICTIM, STEAL, DYNASTY):
            raise RuleViolation("a Dynasty phase began with nobody in control")
        self.pre_steal = sizes

    def _control_winner(self, shown: tuple[int, ...]) -> tuple[int, list[tuple[int, int]]]:
        """:func:`control_winner`, with each meld's rank decoded once per action; and the ranks."""
        ranks = self._control_of
        try:
            keys = list(map(ranks.__getitem__, shown))
        except KeyError:  # a meld met for the first time
            opt = self.g.options
            for a in shown:
                if a not in ranks:
                    ranks[a] = _control_rank(a, self.values, opt.ankh_value, opt.all_ankh_meld)
            keys = list(map(ranks.__getitem__, shown))
        best = max(keys)
        if best[0] < 0 or keys.count(best) > 1:
            return -1, keys
        return keys.index(best), keys

    def _turn_change(self, s: EgyptState, old: int) -> None:
        """The End phase's checks: the table cleared, at most 5 cards kept, at most 3 (or
        down to 5) discarded; one turn at a time, except turns that pass without a
        decision under ``no_controller: next_turn`` (nobody in control nor able to reveal
        a meld, so the hands, full, never change: the rest of the game passes so)."""
        if s.turn != self.turn + 1:
            idle = (old == DRAW and self.g.options.no_controller == "next_turn" and s.controller < 0
                    and s.shown == self.no_reveals and s.hand_n == self.full_hands)
            if not idle:
                raise RuleViolation(f"the turn went from {self.turn + 1} to {s.turn + 1}")
        if s.table:
            raise RuleViolation("melds stayed on the table after the End phase")
        sizes = self.end_sizes
        if sizes is not None:  # the End phase ran: at most 5 kept, at most 3 (or down to 5) discarded
            kept = s.hand_n
            if max(kept) > KEEP:
                q = next(q for q, k in enumerate(kept) if k > KEEP)
                raise RuleViolation(f"seat {q + 1} kept {kept[q]} cards after the End phase")
            if max(map(sub, sizes, kept)) > MAX_DISCARD:  # more than 3 only when going down to 5
                for q, k in enumerate(kept):
                    if sizes[q] - k > max(MAX_DISCARD, sizes[q] - KEEP):
                        raise RuleViolation(f"seat {q + 1} discarded {sizes[q] - k} cards in the End phase")
        self.end_sizes = None
        self.turn = s.turn

    def conservation(self, s: EgyptState) -> None:
        """Each card exactly once (deck, hands, table, discard); counts recomputed.

        The places other than the deck share no card when their sum is their union (a
        card in two places would carry); the deck, sorted, must then be exactly the
        cards missing from that union. A deck equal to the one the last full check
        verified holds the same cards, so then only the missing cards are compared (the
        deck only changes in the Draw phase, about every other full check)."""
        hands = s.hand
        parts = (s.table, s.discard, *hands)
        union = reduce(or_, parts)
        rest = ALL & ~union
        deck = s.deck
        if sum(parts) != union or union & ~ALL:
            self._explain_loss(s)
        if deck != self._deck_seen:
            if sorted(deck) != missing_cards(union):
                self._explain_loss(s)
            self._deck_seen = deck[:]
            self._rest_seen = rest
        elif rest != self._rest_seen:
            self._explain_loss(s)
        if list(map(int.bit_count, hands)) != s.hand_n:
            q = next(q for q, m in enumerate(hands) if m.bit_count() != s.hand_n[q])
            raise RuleViolation(f"seat {q + 1}'s hand counts {s.hand_n[q]} but holds {hands[q].bit_count()}")
        sig = s.sig
        for q, m in enumerate(hands):
            if m.to_bytes(NTYPES, "little").translate(_POP8) != sig[q].to_bytes(NTYPES, "little"):
                raise RuleViolation(f"seat {q + 1}'s counts per type {counts_tuple(sig[q])} disagree with its cards"
                                    f" {counts_tuple(swar(m))}")
        if s.phase == CONTROL:
            views = self._views if self._views_of is s else self._observe(s)
            if any(map(_REVEALED, views)):
                q = next(q for q, v in enumerate(views) if v.revealed)
                raise RuleViolation(f"seat {q + 1} sees the reveals before every seat has chosen")

    def _observe(self, s: EgyptState) -> list[EgyptObservation]:
        """Every seat's view of the state (live views: made once per game)."""
        self._views_of = s
        self._views = [s.observation(q) for q in range(self.g.num_players)]
        return self._views

    def _explain_loss(self, s: EgyptState) -> None:
        g = self.g
        seen = 0
        for c in s.deck:
            if not 0 <= c < N_CARDS or seen & CBIT[c]:
                raise RuleViolation(f"{g.card_name(c)} is twice in the deck")
            seen |= CBIT[c]
        for name, m in [("the table", s.table), ("the discard", s.discard)] + \
                [(f"seat {q + 1}'s hand", m) for q, m in enumerate(s.hand)]:
            if m & ~ALL:
                raise RuleViolation(f"{name} holds a bit that is no card")
            twice = seen & m
            if twice:
                raise RuleViolation(f"{g.card_name(mask_cards(twice)[0])} is in two places at once (one is {name})")
            seen |= m
        missing = mask_cards(ALL & ~seen)
        raise RuleViolation(f"card(s) lost: {', '.join(g.card_name(c) for c in missing[:5]) or '?'}")

    def at_end(self, s: EgyptState) -> None:
        if s.phase != OVER:
            raise RuleViolation("the game stopped before it was over")
        if s.turn != self.g.turns:
            raise RuleViolation(f"the game lasted {s.turn} turns, not {self.g.turns}")
        self.conservation(s)
        if s.table:
            raise RuleViolation("melds were left on the table at the end")
        best = max(s.score)
        ret = s.returns()
        for q, x in enumerate(s.score):
            if (ret[q] == 1.0) != (x == best):
                raise RuleViolation(f"seat {q + 1} with {x} tribute has return {ret[q]}; the most tribute is {best}")


_POP8 = bytes(bin(v).count("1") for v in range(256))  # the checker counts each type's byte by itself
_REVEALED = attrgetter("revealed")


def missing_cards(union: int) -> list[int]:
    """The cards (in order) whose bits are not in ``union``, as :func:`mask_cards` of the rest."""
    return list(chain.from_iterable(map(getitem, _BYTE_CARDS, (ALL & ~union).to_bytes(NTYPES, "little"))))


# --------------------------------------------------------------------------- agents
# RandomAgent is the generic one of .api; the greedy player is this game's own.
class GreedyAgent:
    """Plays sensibly with what it may know: its own hand, the public counts and scores.

    * Control: weighs each meld it could reveal (or none) by a rough chance of
      winning control with it — bigger melds win more often, against more players
      less often — times the tribute it could then score with the cards left (an
      exact search over melds and special melds), minus, under ``discarded``, what
      the cards it risks for nothing are worth. It never sees the other choices.
    * Dynasty: takes a card from the player with the most cards (the leader on a
      tie), then plays the meld that starts the best-scoring sequence.
    * End: discards the cards least likely to score (it keeps pairs, high values,
      Ankhs and special-meld parts) when a fresh card is worth more.

    Its choices depend only on its counts per type (and whether it holds control),
    so they are cached for every greedy player of the same options and player count.
    """

    # chance that one opponent does not beat a meld of this size
    HOLD = (0.0, 0.0, 0.5, 0.78, 0.93, 0.98, 0.995) + (1.0,) * 10
    KEEP_CONTROL = 0.45  # chance, per opponent, that nobody takes control from a controller who passes
    STEAL = 3.0  # what the card taken from a player is worth
    REFILL = 2.6  # what a fresh card from the deck is worth, kept in hand
    COMBO_PART = 1.5  # a card that belongs to a special meld

    def __init__(self, game: EgyptGame, seat: int):
        self.g = game
        self.seat = seat
        self.opp = game.num_players - 1
        t = game.greedy_tables
        if not t:
            t.update(held={}, free={}, melds={}, discards={}, keep={})
        self._held, self._free, self._melds, self._discards, self._keep = (
            t["held"], t["free"], t["melds"], t["discards"], t["keep"])

    def act(self, obs: EgyptObservation, legal: Sequence[int], rng: random.Random) -> int:
        phase = obs.phase_id
        if phase == CONTROL:
            sig = obs.sig
            cache = self._held if obs.controller == self.seat else self._free
            a = cache.get(sig)
            if a is None:
                a = cache[sig] = self._control(sig, obs.controller == self.seat, legal)
            return a
        if phase == DISCARD:
            sig = obs.sig
            a = self._discards.get(sig)
            if a is None:
                a = self._discards[sig] = self._discard(sig, legal)
            return a
        if phase == DYNASTY:
            sig = obs.sig
            a = self._melds.get(sig)
            if a is None:
                a = self._melds[sig] = self._meld(sig, legal)
            return a
        if phase == VICTIM:
            sizes = obs.hand_sizes
            scores = obs.scores
            return max(legal, key=lambda a: (sizes[a - VICTIM_BASE], scores[a - VICTIM_BASE], -a))
        return legal[int(rng.random() * len(legal))]

    def _control(self, sig: int, held: bool, legal: Sequence[int]) -> int:
        g = self.g
        base = g.best_tribute(sig) + self.STEAL
        keep_chance = self.KEEP_CONTROL ** self.opp if held else 0.0
        best_a, best_v = PASS, keep_chance * base
        for a in legal:
            if a == PASS:
                continue
            t, nat, ank = decode_meld(a)
            hold = self.HOLD[nat + ank] + (0.02 * g.values[t] / 7 if t != ANKH else 0.0)
            chance = max(min(1.0, hold) ** self.opp, keep_chance)
            if g.discard_on_reveal:
                rest = sig - (_DELTA.get(a) or _learn(a))
                v = chance * (g.best_tribute(rest) + self.STEAL) - \
                    (1 - chance) * 0.5 * (self.keep_value(sig) - self.keep_value(rest))
            else:
                v = chance * base
            if v > best_v:
                best_v, best_a = v, a
        return best_a

    def _meld(self, sig: int, legal: Sequence[int]) -> int:
        g = self.g
        best_a, best_v = PASS, 0
        for a in legal:
            if a == PASS:
                continue
            v = g.points(a) + g.best_tribute(sig - (_DELTA.get(a) or _learn(a)))
            if v > best_v:
                best_v, best_a = v, a
        return best_a

    def keep_value(self, sig: int) -> float:
        """What a hand is worth keeping: its tribute now plus the promise of its cards."""
        v = self._keep.get(sig)
        if v is None:
            g = self.g
            counts = counts_tuple(sig)
            v = float(g.best_tribute(sig))
            for t in range(ANKH):
                if counts[t]:
                    v += 0.45 * g.values[t] * min(counts[t], 2)
            v += 4.0 * counts[ANKH]
            for _, types, _ in COMBOS:
                have = sum(1 for t in types if counts[t])
                if have >= 2:
                    v += self.COMBO_PART * have
            self._keep[sig] = v
        return v

    def _discard(self, sig: int, legal: Sequence[int]) -> int:
        best_a, best_v = legal[0], -1e9
        for a in legal:
            d = _DELTA.get(a)
            if d is None:
                d = _learn(a)
            v = self.keep_value(sig - d) + self.REFILL * swar_total(d)
            if v > best_v:
                best_v, best_a = v, a
        return best_a


def swar_total(sig: int) -> int:
    """The number of cards in a counts value."""
    return sum((sig >> (8 * t)) & 255 for t in range(NTYPES))


# --------------------------------------------------------------------------- figures
def play_statistics(gamedef: EgyptGame, make_agent: Callable[[EgyptGame, int], Any], games: int,
                    seed: int = 1) -> dict[str, Any]:
    """Figures the generic report does not show: the tribute scored, how often control
    changes hands, ties…

    Plays the same seeded games as ``cardgen validate`` (game ``i`` with
    ``random.Random(seed + i)``, the same draws and choices) without the checks."""
    scores: list[int] = []
    winning: list[int] = []
    margins: list[int] = []
    changes: list[int] = []
    control_turns: list[int] = []
    first_control: list[int] = []
    reshuffles = ties = combos = melds = 0
    for i in range(games):
        rng = random.Random(seed + i)
        state = gamedef.new_initial_state()
        acts = [make_agent(gamedef, q).act for q in range(gamedef.num_players)]
        first = 0
        while True:
            p = state.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                state.apply_chance_run(rng)
                continue
            state.apply_action(acts[p](state.observation(p), state.legal_actions(), rng))
            if not first and state.controller >= 0:
                first = state.turn + 1
        sc = sorted(state.score, reverse=True)
        scores += state.score
        winning.append(sc[0])
        margins.append(sc[0] - sc[1])
        ties += sc[0] == sc[1]
        changes.append(state.changes)
        control_turns.append(state.control_turns)
        first_control.append(first or gamedef.turns + 1)
        reshuffles += state.reshuffles
        combos += state.combos_played
        melds += state.melds_played

    def summary(xs: list[int]) -> dict[str, float]:
        ys = sorted(xs)
        k = len(ys)
        return {"mean": round(sum(ys) / k, 2), "min": ys[0], "p5": ys[int(0.05 * (k - 1))],
                "median": ys[k // 2], "p95": ys[int(0.95 * (k - 1) + 0.5)], "max": ys[-1]}

    hist: dict[int, int] = {}
    for x in scores:
        hist[x // 10 * 10] = hist.get(x // 10 * 10, 0) + 1
    return {
        "games": games,
        "players": gamedef.num_players,
        "tribute_per_seat": summary(scores),
        "winning_tribute": summary(winning),
        "winning_margin": summary(margins),
        "ties_at_the_top": ties,
        "tribute_histogram": {f"{lo}–{lo + 9}": k for lo, k in sorted(hist.items())},
        "control_changes_per_game": summary(changes),
        "turns_with_a_controller": summary(control_turns),
        "first_turn_with_a_controller": summary(first_control),
        "reshuffles_per_game": round(reshuffles / games, 2),
        "melds_per_game": round(melds / games, 2),
        "special_melds_per_game": round(combos / games, 2),
    }


# --------------------------------------------------------------------------- the rules module
class EgyptRules:
    """The rules of Egypt, for the generic validator."""

    game_id = GAME_ID
    agents: Mapping[str, Callable[[EgyptGame, int], Any]] = {"random": RandomAgent, "greedy": GreedyAgent}
    must_finish = {"random": True, "greedy": True}  # ten turns, always

    def player_counts(self, game) -> tuple[int, ...]:
        lo, hi = game.players
        return tuple(range(max(2, lo), min(hi, MAX_PLAYERS) + 1))

    def setups(self, game) -> tuple[str, ...]:
        return (SETUP,)

    def options(self, game) -> EgyptOptions:
        return EgyptOptions.from_data(game.data.get("house_rules"))[0]

    def data_problems(self, game, locate: Callable[..., Where]) -> list[Problem]:
        """The house rules' mistakes, which ``cardgen build`` refuses too: the rules
        summary prints the options chosen."""
        return EgyptOptions.from_data(game.data.get("house_rules"), locate)[1]

    # -- what the rules need ---------------------------------------------------
    def static_spec(self, game, locate: Callable[..., Where]) -> StaticSpec:
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
        problems += self._check_combos(game, locate)
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
        )

    def _check_combos(self, game, locate) -> list[Problem]:
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
        for cid, (i, _) in found.items():
            if cid not in COMBO_IDS:
                out.append(Problem(f"special meld '{cid}' is not in the rules (they have {', '.join(COMBO_IDS)})",
                                   locate("combos", i)))
        return out

    # -- play -----------------------------------------------------------------
    def load(self, game, num_players: int, setup: str = SETUP, turns: int = TURNS,
             options: EgyptOptions | None = None) -> EgyptGame:
        """Bind the rules to a game whose data passed :meth:`static_spec`'s checks."""
        if setup != SETUP:
            raise CardgenError(f"Egypt has one setup, '{SETUP}', not '{setup}'")
        deck = game.component(DECK)
        by_key = {}
        for card in deck.cards:
            ty = card.fields.get("type")
            by_key[(ty.get("id") if isinstance(ty, Mapping) else None, card.fields.get("copy"))] = card.id
        names = [by_key.get((TYPE_IDS[c // COPIES], c % COPIES + 1), f"{TYPE_IDS[c // COPIES]}-{c % COPIES + 1}")
                 for c in range(N_CARDS)]
        lang = "en" if "en" in game.languages else game.languages[0]
        strings = game.strings.get(lang, {})
        type_names = [strings.get(f"type.{tid}.name", TYPE_NAMES[k]) for k, tid in enumerate(TYPE_IDS)]
        return EgyptGame(num_players, options or self.options(game), names, type_names, turns)


RULES = register(EgyptRules())
