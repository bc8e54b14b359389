"""O, Farao!: the simulated players. The random one is the generic :class:`RandomAgent`
of the rules API; the greedy player here plays sensibly from what its seat may see (a
:class:`FaraoObservation`), so the validator's games look like real ones."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .codec import (
    ACCEPT,
    ALLOW,
    BLOCK_ACT,
    CASH_ACT,
    DECLINE,
    DISCARD,
    NEW,
    PASS,
    PILE,
    STEAL_ACT,
    TAKE,
    TAX_ACT,
    THIEF_ACT,
    YES,
    build_action,
    trade_action,
)
from .observation import FaraoObservation
from .spec import (
    ATTACK,
    BLOCK,
    BUILD,
    CASH,
    DRAW,
    END_DISCARD,
    JOKER,
    LOSS_DISCARD,
    MAX_VALUE,
    NK,
    PHARAOH,
    STEAL,
    TAX,
    TAX_BLOCK,
    THIEF,
    TRADE,
    TRADE_PICK,
    TRADE_REPLY,
    pyramid_value,
)

if TYPE_CHECKING:
    from .game import FaraoGame


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
        self._last_hand: tuple[int, ...] | None = None
        self._last_pyrs: tuple[tuple, ...] | None = None
        self._last_worths: list[float] = []
        self._offer: tuple | None = None  # (turn, trades made, the offer planned when saying yes)

    def __deepcopy__(self, memo: dict) -> GreedyAgent:
        """A copy (the validator asks a copy of the player again): the rules are shared,
        the remembered hand and pyramids are tuples, only the last worths are copied."""
        twin = copy.copy(self)
        twin._last_worths = self._last_worths[:]
        return twin

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

    def _remember(self, hand: Sequence[int], pyrs: Sequence[tuple], worths: list[float]) -> None:
        """The last worths and the cards they were worked out for (the observation's tuples)."""
        self._last_hand = tuple(hand)
        self._last_pyrs = tuple(pyrs)
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
            return self._draw(obs, legal)
        if ph == TRADE:
            return self._trade_question(obs, legal)
        if ph == TRADE_PICK:
            # the offer planned a step ago (nothing changed since "yes"), else worked out again
            t = self._offer[1] if self._offer is not None and self._offer[0] == obs.turn and obs.trades_made == 0 \
                else self._trade(obs, legal)
            return t if t is not None and t in legal else legal[0]
        if ph == TRADE_REPLY:
            return self._trade_reply(obs)
        if ph == ATTACK:
            return self._attack(obs, legal)
        if ph == BLOCK:
            return self._thief_block(obs)
        if ph == TAX_BLOCK:
            return BLOCK_ACT if obs.own()[PHARAOH] >= 2 else ALLOW
        if ph == STEAL:  # a greedy player always steals (a PASS is offered with steal: optional)
            return self._steal(obs, [a for a in legal if a != PASS])
        if ph == LOSS_DISCARD or ph == END_DISCARD:
            return self._discard(obs, legal)
        return legal[int(rng.random() * len(legal))]

    def _draw(self, obs: FaraoObservation, legal: Sequence[int]) -> int:
        """Step 2: the display card worth most, if worth more than a card from the pile."""
        best, bw = PILE, 3.2
        worths = self.worths(obs)
        for a in legal:
            if a != PILE:
                w = worths[a - TAKE]
                if w > bw:
                    best, bw = a, w
        return best if best in legal else legal[0]

    def _trade_question(self, obs: FaraoObservation, legal: Sequence[int]) -> int:
        """Step 3's question: offer the trade it plans, else the build it would make, if any."""
        if not obs.trades_made:
            t = self._trade(obs, legal)
            self._offer = (obs.turn, t)
            if t is not None:
                return YES
        # no (more) trades: the build it would make at the build question, if any
        a = self._next_build(obs)
        return a if a is not None and a in legal else PASS

    def _trade_reply(self, obs: FaraoObservation) -> int:
        """Accept a trade that gives it a card worth clearly more than the one it gives."""
        offer = obs.offer
        assert offer is not None  # asked only about an offer
        q, give, ask = offer
        worths = self.worths(obs)
        return ACCEPT if worths[give] > worths[ask] + 0.5 else DECLINE

    def _thief_block(self, obs: FaraoObservation) -> int:
        """Block a thief sent against a pyramid worth 8 or more."""
        target = obs.target
        assert target is not None  # asked only about a thief
        q, slot = target
        return BLOCK_ACT if pyramid_value(obs.pyrs(q)[slot]) >= 8 else ALLOW

    def _discard(self, obs: FaraoObservation, legal: Sequence[int]) -> int:
        """The card worth least."""
        worths = self.worths(obs)
        best, bw = legal[0], worths[legal[0] - DISCARD]
        for a in legal:
            if worths[a - DISCARD] < bw:
                best, bw = a, worths[a - DISCARD]
        return best

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
        target = obs.target
        assert target is not None  # asked only after a thief's roll
        q, slot = target
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
