"""Egypt's game state: the engine the simulations run (plain ints, bitmasks and lists),
and each seat's view of it.

A turn is the Draw (chance), Control (a simultaneous reveal, one hidden decision per
seat), Dynasty (the controller takes a random card, then plays melds) and End
(discards) phases of the rules (see :mod:`cardgen.rules.egypt`). The state trusts its
own legal moves; :mod:`.checker` judges every step apart from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import floor
from typing import TYPE_CHECKING, Any, NamedTuple

from ..api import CHANCE, TERMINAL, PhaseState, RuleViolation, most_points_win
from .bits import ALL, CBIT, CBOTH, CSIG, SIG_SHIFT, cards_mask, counts_tuple, kth_card, mask_cards, swar
from .codec import COMBO, DISCARD_BASE, PASS, VICTIM_BASE, action_text, action_types, outcome_text
from .moves import DISCARDS, MOVES, action_move, discard_actions
from .spec import (
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
    HAND,
    N_CARDS,
    OVER,
    PHASE_NAMES,
    STEAL,
    TYPE_IDS,
    VICTIM,
)

if TYPE_CHECKING:
    from .game import EgyptGame


class EgyptObservation(NamedTuple):
    """What one seat may know, copied out of the state at one moment (ints and tuples,
    nothing that leads back to the state).

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

    player: int
    num_players: int
    phase: str
    phase_id: int  # the phase as its number (CONTROL, DISCARD…)
    turn: int
    hand_mask: int
    sig: int  # own counts per type, one per byte (see swar)
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    controller: int
    revealed: tuple[int, ...]  # this turn's reveal per seat (PASS for none), once every seat has chosen
    my_reveal: int | None
    table: tuple[int, ...]  # cards laid on the table this turn
    discard: tuple[int, ...]  # the discard pile, face up
    deck_size: int
    events: tuple[tuple, ...]

    @property
    def counts(self) -> tuple[int, ...]:
        """Own cards per type."""
        return counts_tuple(self.sig)

    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(mask_cards(self.hand_mask))

    def public(self) -> dict[str, Any]:
        """Everything the seat may know, as plain values (for tests and traces)."""
        return {k: getattr(self, k) for k in _OBSERVATION_FIELDS} | {"events": self.events}


_OBSERVATION_FIELDS = ("player", "num_players", "phase", "turn", "hand", "counts", "hand_sizes", "scores", "controller",
                       "revealed", "my_reveal", "table", "discard", "deck_size")


_new_observation = tuple.__new__


class EgyptState(PhaseState):
    """A game in progress; :meth:`apply_action` returns the new current player (the
    runner's fast path, see :mod:`cardgen.rules.api`)."""

    OVER_PHASE = OVER
    CHANCE_PHASES = frozenset((DRAW, STEAL))  # the Draw phase and the card the controller takes

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
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == DRAW:
            cards = sorted(self.deck)
        elif self.phase == STEAL:
            cards = mask_cards(self.hand[self.victim])
        else:
            return []
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def chance_kind(self) -> str:
        """The chance node's kind, for the validator's test of chance: a draw from the deck or
        the card the controller takes."""
        return "draw" if self.phase == DRAW else "steal"

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
        """What ``player`` may know now, as a copy (see :class:`EgyptObservation`)."""
        phase = self.phase
        control = phase == CONTROL
        return _new_observation(EgyptObservation, (
            player, self.g.num_players, PHASE_NAMES[phase], phase, self.turn, self.hand[player], self.sig[player],
            tuple(self.hand_n), tuple(self.score), self.controller, () if control else self.shown,
            self.pending[player] if control and self.player > player else None,
            tuple(mask_cards(self.table)), tuple(mask_cards(self.discard)), len(self.deck), tuple(self.events)))

    def scrambled(self, seat: int, rng: random.Random) -> EgyptState:
        """A copy in which everything ``seat`` cannot see is dealt again: the other hands
        and the deck, shuffled together and dealt back (each hand keeps its size; the
        deck in card order), and in the Control phase the reveals the earlier seats chose,
        hidden until every seat has chosen, chosen again at random among those their new
        hands allow. The validator asks a player on it and on the real game, and requires
        the same decision. The copy is for reading: it shares the lists it leaves alone
        with this state, so it must not be played (its ``clone()`` may be)."""
        twin = type(self).__new__(type(self))
        for name in EgyptState.__slots__:
            setattr(twin, name, getattr(self, name))
        others = [q for q in range(self.g.num_players) if q != seat]
        pool = list(self.deck)
        for q in others:
            pool.extend(mask_cards(self.hand[q]))
        pool.sort()  # the unseen cards in an order that does not tell where they lay
        rng.shuffle(pool)
        twin.hand, twin.sig = self.hand[:], self.sig[:]
        k = 0
        for q in others:
            n = self.hand_n[q]
            mask = cards_mask(pool[k:k + n])
            twin.hand[q] = mask
            twin.sig[q] = swar(mask)
            k += n
        twin.deck = sorted(pool[k:])
        if self.phase == CONTROL:
            twin.pending = self.pending[:]
            for q in others:
                if q < self.player:
                    choices = self.g.reveal_actions(twin.sig[q])
                    twin.pending[q] = choices[int(rng.random() * len(choices))]
        return twin

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

    def card_holders(self) -> dict[str, tuple[int, ...]]:
        """The seats that played a card of each type in a meld or a special meld, by type id
        (a type's copies are alike), read from the public log (for the report's per-card
        figures)."""
        played: dict[str, set[int]] = {}
        for ev in self.events:
            if ev[0] == EV_MELD or ev[0] == EV_COMBO:
                for t in set(action_types(ev[2])):
                    played.setdefault(TYPE_IDS[t], set()).add(ev[1])
        return {name: tuple(sorted(seats)) for name, seats in played.items()}

    def length(self) -> int:
        """Turns played."""
        return self.turn

    def clone(self) -> EgyptState:
        s = type(self).__new__(type(self))  # a subclass (e.g. a test's broken engine) stays itself
        for name in EgyptState.__slots__:
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
        """Remove the cards an action uses (the lowest copies of each type:
        :func:`.moves.take_mask`) from a hand; their mask. The counts and the hand size change
        by the action's precomputed counts and size: the engine trusts its own legal
        moves here (the checker judges each action before it is applied and compares
        the counts with the cards in its full checks)."""
        parts, delta, k = MOVES.get(action) or action_move(action)
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
            self.legal = DISCARDS.get(sig) or discard_actions(sig)
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
            self.legal = DISCARDS.get(sig) or discard_actions(sig)
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
        return action_text(self, action)

    def outcome_text(self, before: EgyptState) -> str:
        """For ``--trace``: what the step from ``before`` did (see :func:`.codec.outcome_text`)."""
        return outcome_text(self, before)

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
                      victim: int = -1, deck: Sequence[int] | None = None) -> EgyptState:
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
