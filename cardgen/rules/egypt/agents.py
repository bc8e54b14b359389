"""Egypt's simulated players: the greedy one (the random one is the generic
:class:`cardgen.rules.api.RandomAgent`)."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .bits import counts_tuple, swar_total
from .codec import PASS, VICTIM_BASE, decode_meld
from .moves import DELTA, learn_action
from .spec import ANKH, COMBOS, CONTROL, DISCARD, DYNASTY, VICTIM

if TYPE_CHECKING:
    from .game import EgyptGame
    from .state import EgyptObservation


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
    so they are cached for every greedy player of the same options (its Control-phase
    choices: of the same options and player count).
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
        self._held, self._free, self._melds, self._discards, self._keep = (
            t["held"], t["free"], t["melds"], t["discards"], t["keep"])

    def __deepcopy__(self, memo: dict) -> GreedyAgent:
        """The player has no memory of its own (its tables are caches of pure choices,
        shared by every greedy player of the game): a copy is a shallow one."""
        return copy.copy(self)

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
                rest = sig - (DELTA.get(a) or learn_action(a))
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
            v = g.points(a) + g.best_tribute(sig - (DELTA.get(a) or learn_action(a)))
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
            d = DELTA.get(a)
            if d is None:
                d = learn_action(a)
            v = self.keep_value(sig - d) + self.REFILL * swar_total(d)
            if v > best_v:
                best_v, best_a = v, a
        return best_a
