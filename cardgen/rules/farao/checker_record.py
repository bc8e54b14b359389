"""O, Farao!: the checker's own record of the face-up discard pile and of what every seat
sees, and the legal lists of the decisions the step-by-step checker does not list itself
(a trade offer and its reply, a Pharaoh's block, a discard down to seven).

Written from the rulebook: the discard pile is face up, so every card that reaches it does
so by a public act (a cashed pyramid, a card discarded down to seven, a Thief, Tax
collector or Pharaoh played); a hand is secret, so what every seat sees (the observation's
shared part, the step's outcome text) names no card that moved from hand to hand unseen.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..api import RuleViolation
from . import rulebook
from .codec import ACCEPT, ALLOW, BLOCK_ACT, CASH_ACT, DECLINE, DISCARD, TAX_ACT, THIEF_ACT, trade_action
from .spec import (
    ATTACK,
    BLOCK,
    CASH,
    END,
    END_DISCARD,
    JOKER,
    KIND_NAMES,
    LOSS_DISCARD,
    NK,
    PHARAOH,
    TAX,
    TAX_BLOCK,
    THIEF,
)

if TYPE_CHECKING:
    from .state import FaraoState

# a draw step refills at most a hand of seven and the display of three: a pile holding more
# cannot have run out (and been replaced by the discard) within one step
MOST_DRAWN_IN_A_STEP = 2 * rulebook.HAND + rulebook.DISPLAY
_WORD = {k: re.compile(rf"(?<![\w-]){re.escape(KIND_NAMES[k])}(?![\w-])") for k in range(1, NK)}


def trade_offers(s: FaraoState, p: int, jokers: bool) -> set[int]:
    """Step 3: one held card (never the End card) offered to any other player holding cards,
    for a card of any other kind a player may hold."""
    jokers = bool(jokers)
    hand = s.hands[p]
    out: set[int] = set()
    for q, n in enumerate(s.hand_n):
        if q == p or not n:
            continue
        for give in _ASKS[jokers]:
            if hand[give]:
                offers = _OFFERS.get((q, give, jokers))
                if offers is None:
                    offers = _OFFERS[q, give, jokers] = _offers(q, give, jokers)
                out.update(offers)
    return out


# the kinds a player may ask for, without and with the Jokers variant
_ASKS = {jokers: tuple(k for k in range(1, NK) if k != END and (k != JOKER or jokers)) for jokers in (False, True)}
_OFFERS: dict[tuple[int, int, bool], tuple[int, ...]] = {}  # (partner, card given, Jokers on): every offer


def _offers(q: int, give: int, jokers: bool) -> tuple[int, ...]:
    """Every offer of ``give`` to seat ``q``: for any other kind a player may ask for."""
    return tuple(trade_action(q, give, ask) for ask in _ASKS[jokers] if ask != give)


def trade_replies(s: FaraoState, p: int) -> set[int]:
    """Step 3: the partner may decline, and accept when it holds the card asked."""
    offer = s.offer
    assert offer is not None  # an offer is being answered
    return {DECLINE} | ({ACCEPT} if s.hands[p][offer[2]] else set())


def blocks(s: FaraoState, p: int) -> set[int]:
    """Step 5: a Thief or a Tax collector may be blocked with a Pharaoh held."""
    return {ALLOW} | ({BLOCK_ACT} if s.hands[p][PHARAOH] else set())


def discards(s: FaraoState, p: int) -> set[int]:
    """Step 6 (and a collapse): any card held may be discarded."""
    return {DISCARD + k for k in range(1, NK) if s.hands[p][k]}


class DiscardRecord:
    """The face-up discard pile by kind, kept from the public acts that feed it; the pile is
    shuffled back into the draw pile when that runs out and on the last plateau."""

    def __init__(self) -> None:
        self.kinds = [0] * NK
        self.pile_before = -1  # the draw pile's size after the step before

    def act(self, s: FaraoState, player: int, action: int, last_plateau: int) -> None:
        """A decision's cards to the discard, by the rulebook."""
        ph = s.phase
        if ph == CASH and action >= CASH_ACT:
            base, rows = s.pyr[player][action - CASH_ACT]
            for i, r in enumerate(rows):
                self.kinds[base + i] += (r >> 3) - (r & 7)
                self.kinds[JOKER] += r & 7
            if s.plateau + 1 == last_plateau:  # discard, pile and End card shuffled together
                self.kinds = [0] * NK
        elif ph in (END_DISCARD, LOSS_DISCARD):
            self.kinds[action - DISCARD] += 1
        elif ph in (BLOCK, TAX_BLOCK) and action == BLOCK_ACT:
            self.kinds[PHARAOH] += 1
        elif ph == ATTACK and action == TAX_ACT:
            self.kinds[TAX] += 1
        elif ph == ATTACK and action >= THIEF_ACT:
            self.kinds[THIEF] += 1

    def compare(self, s: FaraoState) -> None:
        """The engine's discard pile holds what the public acts put there, card for card."""
        if s.discard != self.kinds:
            if not s.disc_n and 0 <= self.pile_before <= MOST_DRAWN_IN_A_STEP:
                self.kinds = [0] * NK  # the pile ran out: the discard became the new pile
            else:
                k = next(k for k in range(NK) if s.discard[k] != self.kinds[k])
                raise RuleViolation(f"the discard pile holds {s.discard[k]} {KIND_NAMES[k]} card(s); the cards"
                                    f" discarded, cashed and played put {self.kinds[k]} there")
        self.pile_before = s.pile_n


def public_view(s: FaraoState, seat: int) -> None:
    """What every seat sees, in the observation, is what lies on the table: the display, the
    face-up discard, the pile's size, the hand sizes, the pyramids, the figure, the scores, the
    die (while a thief's roll is on the table)."""
    obs = s.observation(seat)
    shown = {"display": (tuple(obs.display), tuple(s.display)), "discard": (tuple(obs.discard), tuple(s.discard)),
             "pile size": (obs.pile_size, s.pile_n), "hand sizes": (tuple(obs.hand_sizes), tuple(s.hand_n)),
             "pyramids": (tuple(map(tuple, obs.pyramids)), tuple(map(tuple, s.pyr))),
             "figure": (obs.plateau, s.plateau), "scores": (tuple(obs.scores), tuple(s.score)),
             "die": (obs.roll, s.roll), "own hand": (tuple(obs.hand), tuple(s.hands[seat]))}
    for what, (seen, table) in shown.items():
        if seen != table:
            raise RuleViolation(f"seat {seat + 1}'s view shows {what} {seen}; the table holds {table}")
    if len(s.display) > rulebook.DISPLAY:
        raise RuleViolation(f"{len(s.display)} cards in the display; the rulebook lays out {rulebook.DISPLAY}")


def _public_kinds(s: FaraoState) -> list[int]:
    """Every card kind where all can see it: the display, the discard pile, the pyramids."""
    seen = list(s.discard)
    for k in s.display:
        seen[k] += 1
    for pyrs in s.pyr:
        for base, rows in pyrs:
            for i, r in enumerate(rows):
                seen[base + i] += (r >> 3) - (r & 7)
                seen[JOKER] += r & 7
    return seen


def public_outcome(before: FaraoState, after: FaraoState, step: str) -> None:
    """The step's outcome text (the public record of ``--trace``) names a card kind only where
    the kind moved in plain sight (display, discard, pyramids) in the step."""
    said = after.outcome_text(before)
    if not said:
        return
    moved = [a != b for a, b in zip(_public_kinds(before), _public_kinds(after))]
    for k, word in _WORD.items():
        if not moved[k] and word.search(said):
            raise RuleViolation(f"the outcome of {step} names {KIND_NAMES[k]}, which moved unseen: '{said}'"
                                " is public, the hands are not")
