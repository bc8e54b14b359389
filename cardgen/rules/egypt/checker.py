"""Egypt's checker: every step of a game judged against the rules and the invariants,
apart from the engine (it decodes the actions itself and counts the cards from the
hands' bits, never from the engine's move lists or counts).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from itertools import combinations_with_replacement
from operator import attrgetter, or_, sub
from typing import TYPE_CHECKING

from ..api import RuleViolation, check_offered
from . import rulebook
from .codec import COMBO, DISCARD_BASE, MELD, PASS, VICTIM_BASE, decode_discard, discard_action
from .rulebook import HAND, KEEP, MAX_DISCARD, TURNS
from .spec import (
    ANKH,
    COMBO_IDS,
    CONTROL,
    DISCARD,
    DRAW,
    DYNASTY,
    EV_COMBO,
    EV_CONTROL,
    EV_DISCARD,
    EV_MELD,
    EV_PASS,
    EV_RESHUFFLE,
    EV_REVEAL,
    EV_STEAL,
    EV_TURN,
    OVER,
    PHASE_NAMES,
    STEAL,
    TYPE_IDS,
    VICTIM,
)

# the rulebook's special melds (their types, in the slot order of the actions) and values, by
# the action's numbering of the types and melds (the codec's), never the engine's own table
RULE_COMBOS = tuple((tuple(TYPE_IDS.index(t) for t in rulebook.COMBOS[cid][0]), rulebook.COMBOS[cid][1])
                    for cid in COMBO_IDS)
RULE_VALUES = tuple(rulebook.VALUES[tid] for tid in TYPE_IDS)
LIST_SAMPLE = 4  # every 4th decision: the engine's legal actions compared with the checker's own list

# The state's cards, read by the package doc's numbering alone (not with the engine's bit
# tables): card ``type * 7 + copy - 1``; a hand, the table and the discard are masks with
# one byte per type, the card at bit ``8 * type + copy - 1``.
COPIES = rulebook.COPIES
NTYPES = rulebook.TYPES
N_CARDS = rulebook.CARDS
_BIT = tuple(1 << (8 * (c // COPIES) + c % COPIES) for c in range(N_CARDS))
_ALL = sum(_BIT)
_ANKH_SHIFT = 8 * ANKH  # where the Ankhs' byte of a hand starts
_POP8 = bytes(bin(v).count("1") for v in range(256))  # a byte's cards: counts per type at one translate
_BYTE_CARDS = tuple(tuple(tuple(t * COPIES + b for b in range(8) if v >> b & 1) for v in range(256))
                    for t in range(NTYPES))


def _cards_of(mask: int) -> list[int]:
    """The cards of a mask, in order."""
    out: list[int] = []
    for t, v in enumerate(mask.to_bytes(NTYPES, "little")):
        out += _BYTE_CARDS[t][v]
    return out


def _counts(mask: int) -> tuple[int, ...]:
    """A mask's cards per type."""
    return tuple(mask.to_bytes(NTYPES, "little").translate(_POP8))

if TYPE_CHECKING:
    from .game import EgyptGame
    from .state import EgyptObservation, EgyptState


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
        self.turns = TURNS  # the rulebook's ten turns, never the engine's own count
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
        # the house rule read from the options themselves, not from the engine's flag for it
        self.discard_on_reveal = game.options.control_meld == "discarded"
        self.asked: set[int] = set()  # the seats asked for a reveal in this Control phase
        self.decisions = 0  # every LIST_SAMPLE-th decision: the engine's list against the checker's
        self.melded = -1  # the controller who just played a meld (the phase goes on, or it had none left)
        self.logged = 0  # the public log's events judged so far
        self.end_queue: list[int] | None = None  # End Phase: the seats still to discard, in seat order (None: not seen begin)
        self.moved: tuple[int, int, int, int, int, int] | None = None  # (phase, seat, hand, table, discard, deck size)

    @staticmethod
    def _held(s: EgyptState, p: int, t: int) -> int:
        return ((s.hand[p] >> (8 * t)) & 255).bit_count()

    def before(self, s: EgyptState, player: int, action: int) -> None:
        """The action's rule, judged from the cards the player holds (every step)."""
        phase = s.phase
        self.decisions += 1
        if not self.decisions % LIST_SAMPLE:
            self._compare_lists(s, player)
        if phase == DYNASTY or phase == DISCARD:
            self.moved = (phase, player, s.hand[player], s.table, s.discard, len(s.deck))
        if phase == CONTROL:
            self._reveal(s, player, action)
        elif phase == DISCARD:
            if self.end_queue is None:
                pass  # an End phase the checker did not see begin (a constructed position)
            elif not self.end_queue or self.end_queue[0] != player:
                nxt = f"seat {self.end_queue[0] + 1}" if self.end_queue else "nobody"
                raise RuleViolation(f"seat {player + 1} discards in the End phase, but {nxt} is next (every player"
                                    " holding cards, in seat order)")
            else:
                self.end_queue.pop(0)
            self._end_discard(s, player, action)
        elif phase == DYNASTY:
            self._dynasty_meld(s, player, action)
        elif phase == VICTIM:
            self._steal(s, player, action)
        else:
            raise RuleViolation(f"seat {player + 1} acted in the {PHASE_NAMES[phase]} phase")

    # The rulebook's phases, one method each: what a seat's action must satisfy.
    def _reveal(self, s: EgyptState, player: int, action: int) -> None:
        """Control Phase: every seat reveals a meld it holds, or nothing (_check_meld inlined:
        every seat reveals every turn)."""
        self.asked.add(player)
        if action != PASS:
            shift, nat, ank, _ = self._meld_need.get(action) or self._meld_rule(player, action, "revealed")
            hand = s.hand[player]
            if ((hand >> shift) & 255).bit_count() < nat or ((hand >> _ANKH_SHIFT) & 255).bit_count() < ank:
                raise RuleViolation(f"seat {player + 1} revealed {self.g.describe(action)} without holding them")

    def _dynasty_meld(self, s: EgyptState, player: int, action: int) -> None:
        """Dynasty Phase: the controller alone plays melds (or a special meld) it holds, or passes."""
        if player != s.controller:
            raise RuleViolation(f"seat {player + 1} plays a meld without controlling Egypt")
        if action == PASS:
            return
        self.melded = player
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

    def _steal(self, s: EgyptState, player: int, action: int) -> None:
        """Dynasty Phase: the controller takes a card from another seat that has one."""
        q = action - VICTIM_BASE
        if player != s.controller:
            raise RuleViolation(f"seat {player + 1} takes a card without controlling Egypt")
        if not (0 <= q < self.g.num_players) or q == player or not s.hand_n[q]:
            raise RuleViolation(f"seat {player + 1} takes a card from seat {q + 1}, who has none to give")

    def _end_discard(self, s: EgyptState, player: int, action: int) -> None:
        """End Phase: up to three cards the seat holds, keeping at most five."""
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
        if not (0 <= ci < len(RULE_COMBOS)) or not 0 <= fill < 8:
            raise RuleViolation(f"seat {player + 1} played an unknown special meld ({action})")
        k = fill.bit_count()
        allowed = self.g.options.ankhs_in_combo
        if k > allowed:
            raise RuleViolation(f"seat {player + 1} filled {k} slot(s) of {COMBO_IDS[ci]} with Ankhs;"
                                f" the options allow {allowed}")
        need = [0] * NTYPES
        for slot, t in enumerate(RULE_COMBOS[ci][0]):
            need[ANKH if fill >> slot & 1 else t] += 1
        rule = (tuple((8 * t, m) for t, m in enumerate(need) if m), RULE_COMBOS[ci][1])
        self._combo_need[action] = rule
        return rule

    def _check_meld(self, s: EgyptState, player: int, action: int, verb: str) -> int:
        """A meld's legality by the rules; its points."""
        need = self._meld_need.get(action) or self._meld_rule(player, action, verb)
        shift, nat, ank, pts = need
        hand = s.hand[player]
        if ((hand >> shift) & 255).bit_count() < nat or ((hand >> _ANKH_SHIFT) & 255).bit_count() < ank:
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

    def chance(self, s: EgyptState, outcomes: list[tuple[int, float]]) -> None:
        """Draw Phase: a card from the shuffled deck, each card in it alike; Dynasty Phase:
        one random card of the chosen player's hand, each alike."""
        if s.phase == DRAW:
            want, where = set(s.deck), "the deck"
        elif s.phase == STEAL:
            want, where = set(_cards_of(s.hand[s.victim])), f"seat {s.victim + 1}'s hand"
        else:
            raise RuleViolation(f"a chance step in the {PHASE_NAMES[s.phase]} phase, which has none")
        cards = [a for a, _ in outcomes]
        if len(set(cards)) != len(cards) or set(cards) != want:
            odd = sorted(set(cards) ^ want)
            raise RuleViolation(f"the {PHASE_NAMES[s.phase]} step declares {len(cards)} card(s) to draw, but {where}"
                                f" holds {len(want)}" + (f" ({self.g.card_name(odd[0])} differs)" if odd else ""))
        if len({p for _, p in outcomes}) > 1:
            raise RuleViolation(f"the {PHASE_NAMES[s.phase]} step declares unequal chances for the cards of {where}")

    def after(self, s: EgyptState, full: bool) -> None:
        """After a step: the card count and the tribute (every step), the phase change
        (when there is one) and, when ``full``, the full check."""
        if len(s.deck) + sum(s.hand_n) + s.table.bit_count() + s.discard.bit_count() != N_CARDS:
            raise RuleViolation(f"the cards add up to {len(s.deck) + sum(s.hand_n) + s.table.bit_count()}"
                                f" + {s.discard.bit_count()}, not {N_CARDS} (deck {len(s.deck)}, hands"
                                f" {list(s.hand_n)}, table {s.table.bit_count()}, discard {s.discard.bit_count()})")
        if self.scorer >= 0:
            self._scored(s.score)
        if self.moved is not None:
            self._zones(s)
        if len(s.events) != self.logged:
            self._public_record(s)
        if s.score != self.scores:
            raise RuleViolation(f"tribute changed without a meld: {self.scores} → {s.score}")
        if s.phase != self.phase or s.turn != self.turn:
            self._transition(s)
        if self.melded >= 0:
            c = self.melded
            self.melded = -1
            if s.phase != DYNASTY and s.turn == self.turn and len(self.own_melds(s, c, True)) > 1:
                raise RuleViolation(f"the Dynasty phase ended after a meld although seat {c + 1} could play another"
                                    " and did not pass: the controller may play one or more melds")
        if full:
            self.conservation(s)
            if s.phase in (CONTROL, DYNASTY, VICTIM, DISCARD):  # the next decision's list, in full
                self._compare_lists(s, s.player)

    def _zones(self, s: EgyptState) -> None:
        """Where the cards of a meld or a discard went: a meld played lies on the table until
        the End phase ("all melds played this turn go to the discard"), a discard goes onto the
        discard pile, never back into the deck."""
        phase, p, hand, table, discard, deck = self.moved  # type: ignore[misc]
        self.moved = None
        gone = hand & ~s.hand[p]
        if phase == DYNASTY and s.phase == DYNASTY and s.turn == self.turn:
            if s.table != table | gone or s.discard != discard:
                raise RuleViolation(f"seat {p + 1}'s meld did not go onto the table (it stays there until the End"
                                    " phase)")
        elif phase == DYNASTY:
            if (s.discard | s.table) & (table | gone) != table | gone and len(s.deck) == deck:
                raise RuleViolation(f"seat {p + 1}'s meld did not reach the discard in the End phase")
        elif any(ev[0] == EV_RESHUFFLE for ev in s.events[self.logged:]):  # the turn ended on an empty deck
            if not set(_cards_of(gone)) <= set(s.deck) or s.discard:
                raise RuleViolation(f"seat {p + 1}'s End-phase discards were not shuffled into the new deck with the"
                                    " discard pile")
        elif len(s.deck) != deck or s.discard & gone != gone:
            raise RuleViolation(f"seat {p + 1}'s End-phase discards did not go onto the discard pile"
                                f" (the deck went from {deck} to {len(s.deck)} cards)")

    _PUBLIC = {EV_RESHUFFLE: 2, EV_REVEAL: 2, EV_CONTROL: 3, EV_STEAL: 3, EV_MELD: 4, EV_COMBO: 4, EV_PASS: 2,
               EV_DISCARD: 3, EV_TURN: 2}

    def _public_record(self, s: EgyptState) -> None:
        """What every seat sees (the public log) holds what the rulebook makes public and nothing
        more: a reshuffle says how many cards the deck gets, not which; the reveals of the
        Control phase appear once every seat has chosen ("simultaneously"); the card the
        controller draws from a hand ("one random card") is named to nobody else."""
        for ev in s.events[self.logged:]:
            kind = ev[0]
            if self._PUBLIC.get(kind) != len(ev):
                raise RuleViolation(f"the public log holds {ev!r}, which is no event the rules make public in that"
                                    " form" + (": the card taken is known to the two players only"
                                               if kind == EV_STEAL else ""))
            if kind == EV_RESHUFFLE and not isinstance(ev[1], int):
                raise RuleViolation("the public log names the cards of the reshuffled deck: the deck is secret")
            if kind == EV_REVEAL and (len(ev[1]) != self.g.num_players or (s.phase == CONTROL
                                                                            and s.turn == self.turn)):
                raise RuleViolation("the public log shows reveals before every seat has chosen: the reveal is"
                                    " simultaneous")
        self.logged = len(s.events)

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
            elif s.phase not in (VICTIM, STEAL) and s.controller >= 0 and s.turn == self.turn:
                # Dynasty Phase: the controller draws a card from another player's hand first
                c = s.controller
                if any(k for q, k in enumerate(sizes) if q != c):
                    raise RuleViolation(f"the Dynasty phase went on without seat {c + 1}, in control, taking a"
                                        " card from another player")
        if old == STEAL:
            c, v = s.controller, s.victim
            if s.hand_n[c] != self.pre_steal[c] + 1 or s.hand_n[v] != self.pre_steal[v] - 1:
                raise RuleViolation(f"the controller (seat {c + 1}) took a card from seat {v + 1}: their hands went"
                                    f" {self.pre_steal[c]}→{s.hand_n[c]} and {self.pre_steal[v]}→{s.hand_n[v]}")
        if s.phase == DISCARD and old != DISCARD:
            if s.table:
                raise RuleViolation("melds stayed on the table into the End phase's discards")
            self.end_sizes = s.hand_n[:]
            self.end_queue = [q for q in range(self.g.num_players) if s.hand_n[q]]
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
        keep = [k - n if n > 0 else k for k, (n, _) in zip(start, keys)] if self.discard_on_reveal else start
        if sizes != keep:
            q = next(q for q, k in enumerate(keep) if sizes[q] != k)
            raise RuleViolation(f"seat {q + 1} holds {sizes[q]} cards after revealing {start[q] - keep[q]} of"
                                f" {start[q]}; {keep[q]} should be left")
        if s.controller < 0 and s.phase in (VICTIM, STEAL, DYNASTY):
            raise RuleViolation("a Dynasty phase began with nobody in control")
        self.pre_steal = sizes
        # Control Phase: each player who has a meld may reveal one: a seat never asked had none
        for q in range(self.g.num_players):
            if q not in self.asked and q != s.controller and len(self.own_melds(s, q, False)) > 1:
                raise RuleViolation(f"seat {q + 1} held a meld but was not asked whether to reveal it in the"
                                    " Control phase")
        self.asked.clear()

    def own_melds(self, s: EgyptState, p: int, dynasty: bool) -> set[int]:
        """The checker's own list of what seat ``p`` may reveal (or, ``dynasty``, play) with its
        hand: nothing; any 2 or more cards of one type with at least one natural, Ankhs wild
        (Ankhs alone where the options allow); in the Dynasty phase the special melds too."""
        opt = self.g.options
        held = [self._held(s, p, t) for t in range(NTYPES)]
        a = held[ANKH]
        out = {PASS}
        for t in range(NTYPES):
            if t == ANKH:
                continue
            for nat in range(1, held[t] + 1):
                for ank in range(0 if nat >= 2 else 1, a + 1):
                    out.add(MELD + 100 * t + 10 * nat + ank)
        if opt.all_ankh_meld is not None:
            out.update(MELD + 100 * ANKH + ank for ank in range(2, a + 1))
        if dynasty:
            for ci, combo in enumerate(RULE_COMBOS):
                for fill in range(1 << len(combo[0])):
                    if fill.bit_count() > opt.ankhs_in_combo:
                        continue
                    need = [0] * NTYPES
                    for slot, t in enumerate(combo[0]):
                        need[ANKH if fill >> slot & 1 else t] += 1
                    if all(need[t] <= held[t] for t in range(NTYPES)):
                        out.add(COMBO + 10 * ci + fill)
        return out

    def _compare_lists(self, s: EgyptState, player: int) -> None:
        """On sampled decisions: the engine offers exactly the checker's own list of the reveals,
        the melds (special melds included) and the seats to take a card from."""
        phase = s.phase
        if phase == CONTROL or phase == DYNASTY:
            want = self.own_melds(s, player, phase == DYNASTY)
        elif phase == VICTIM:
            want = {VICTIM_BASE + q for q in range(self.g.num_players) if q != player and s.hand_n[q]}
        elif phase == DISCARD:
            want = self.own_discards(s, player)
        else:
            return
        check_offered(set(s.legal_actions()), want, f"seat {player + 1}'s {PHASE_NAMES[phase]} step",
                      str if phase == VICTIM else self.g.describe if phase != DISCARD else
                      lambda a: f"discarding {list(decode_discard(a) or ())}")

    def own_discards(self, s: EgyptState, p: int) -> set[int]:
        """End Phase: every choice of 0 to 3 cards (more only to come down to 5) that leaves at
        most 5, by types, from the cards seat ``p`` holds."""
        held = [self._held(s, p, t) for t in range(NTYPES)]
        key = tuple(held)
        known = _DISCARDS.get(key)
        if known is not None:
            return known
        size = sum(held)
        lo, hi = max(0, size - KEEP), min(size, max(MAX_DISCARD, size - KEEP))
        pool = [t for t in range(NTYPES) if held[t]]
        out = set()
        for k in range(lo, hi + 1):
            for types in combinations_with_replacement(pool, k):
                if all(types.count(t) <= held[t] for t in set(types)):
                    out.add(discard_action(list(types)))
        _DISCARDS[key] = out
        return out

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
        if self.end_queue:
            raise RuleViolation(f"the turn ended before seat {self.end_queue[0] + 1} had its End-phase discard")
        self.end_queue = None
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
        rest = _ALL & ~union
        deck = s.deck
        if sum(parts) != union or union & ~_ALL:
            self._explain_loss(s)
        if deck != self._deck_seen:
            if sorted(deck) != _cards_of(_ALL & ~union):
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
                raise RuleViolation(f"seat {q + 1}'s counts per type {tuple(sig[q].to_bytes(NTYPES, 'little'))}"
                                    f" disagree with its cards {_counts(m)}")
        if s.phase == CONTROL:
            views = self._observe(s)
            if any(map(_REVEALED, views)):
                q = next(q for q, v in enumerate(views) if v.revealed)
                raise RuleViolation(f"seat {q + 1} sees the reveals before every seat has chosen")

    def _observe(self, s: EgyptState) -> list[EgyptObservation]:
        """Every seat's view of the state as it is now."""
        self._views_of = s
        self._views = [s.observation(q) for q in range(self.g.num_players)]
        return self._views

    def _explain_loss(self, s: EgyptState) -> None:
        g = self.g
        seen = 0
        for c in s.deck:
            if not 0 <= c < N_CARDS or seen & _BIT[c]:
                raise RuleViolation(f"{g.card_name(c)} is twice in the deck")
            seen |= _BIT[c]
        for name, m in [("the table", s.table), ("the discard", s.discard)] + \
                [(f"seat {q + 1}'s hand", m) for q, m in enumerate(s.hand)]:
            if m & ~_ALL:
                raise RuleViolation(f"{name} holds a bit that is no card")
            twice = seen & m
            if twice:
                raise RuleViolation(f"{g.card_name(_cards_of(twice)[0])} is in two places at once (one is {name})")
            seen |= m
        missing = _cards_of(_ALL & ~seen)
        raise RuleViolation(f"card(s) lost: {', '.join(g.card_name(c) for c in missing[:5]) or '?'}")

    def at_end(self, s: EgyptState) -> None:
        if s.phase != OVER:
            raise RuleViolation("the game stopped before it was over")
        if s.turn != self.turns:
            raise RuleViolation(f"the game lasted {s.turn} turns, not {self.turns}")
        self.conservation(s)
        if s.table:
            raise RuleViolation("melds were left on the table at the end")
        best = max(s.score)
        ret = s.returns()
        for q, x in enumerate(s.score):
            if (ret[q] == 1.0) != (x == best):
                raise RuleViolation(f"seat {q + 1} with {x} tribute has return {ret[q]}; the most tribute is {best}")


_REVEALED = attrgetter("revealed")
_DISCARDS: dict[tuple[int, ...], set[int]] = {}  # the checker's own End-phase lists, by the cards held per type
