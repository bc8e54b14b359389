"""Egypt's rules bound to a player count and the options (OpenSpiel's ``Game``): the
rules on a hand's counts (its legal reveals and melds, their tribute and rank for
control, the best tribute a hand can score), cached as hands are met.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...base.errors import CardgenError
from .bits import counts_tuple
from .checker import EgyptChecker
from .codec import COMBO, MELD, PASS, combo_action, decode_meld, describe_action, meld_action
from .moves import DELTA, DISCARDS, learn_action
from .spec import (
    ANKH,
    COMBOS,
    COPIES,
    MAX_PLAYERS,
    N_CARDS,
    RULE_VALUES,
    SETUP,
    TURNS,
    TYPE_IDS,
    TYPE_NAMES,
    EgyptOptions,
)
from .state import EgyptState
from .tables import shipped_tables

# Move lists and searches depend only on the options and a hand's counts: shared by
# every game bound to the same options. Those of the shipped options start complete (read
# from the file of .tables, before any worker process is forked); others are built as
# hands are met.
_TABLES: dict[tuple, dict] = {}


def table_key(o: EgyptOptions) -> tuple:
    """The options the move lists, searches and the greedy players' choices depend on."""
    return (o.ankh_value, o.all_ankh_meld, o.ankhs_in_combo)


def _start_tables(key: tuple) -> dict:
    """The tables for these options: the shipped ones where they are for them (and for this
    code), else empty ones."""
    tables = shipped_tables(key)
    if tables is None:
        return empty_tables()
    DISCARDS.update(tables.pop("discard_lists"))
    return tables


def empty_tables() -> dict:
    return {"melds": {}, "reveals": {}, "best": {}, "points": {}, "control": {PASS: (-1, 0)},
            "greedy": {"melds": {}, "discards": {}, "keep": {}}}


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
        key = table_key(o)
        tables = _TABLES.get(key)
        if tables is None:
            tables = _TABLES[key] = _start_tables(key)
        self._control_keys = tables["control"]
        self._melds = tables["melds"]
        self._reveals = tables["reveals"]
        self._best = tables["best"]
        self._points = tables["points"]
        # the greedy players' choices, a pure function of what they see (see GreedyAgent): in
        # the Control phase also of the player count and the control_meld option, the others not
        own = tables.setdefault(("greedy", o.control_meld, num_players), {"held": {}, "free": {}})
        self.greedy_tables: dict[str, dict] = {**tables["greedy"], **own}
        # the actions the checker decoded itself, shared by its checkers (one per game played)
        self.checker_tables: tuple[dict, dict, dict, dict] = ({}, {}, {}, {})

    # OpenSpiel-style
    def new_initial_state(self) -> EgyptState:
        return EgyptState(self)

    def max_game_length(self) -> int:
        # per turn: at most every card drawn twice over (a reshuffle), one reveal and one
        # discard per seat, a victim, a steal and at most 8 melds and a pass: generous
        return self.turns * (2 * N_CARDS + 3 * self.num_players + 12)

    def checker(self) -> EgyptChecker:
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

    def best_tribute(self, sig: int) -> int:
        """The most tribute a controller can score from a hand of these counts (exact search)."""
        best = self._best.get(sig)
        if best is None:
            best = 0
            for a in self.meld_actions(sig):
                if a == PASS:
                    continue
                d = DELTA.get(a) or learn_action(a)
                total = self.points(a) + self.best_tribute(sig - d)
                if total > best:
                    best = total
            self._best[sig] = best
        return best

    def describe(self, action: int) -> str:
        """A reveal, meld or special meld in words (for traces and the checker's messages)."""
        return describe_action(action, self.type_names)
