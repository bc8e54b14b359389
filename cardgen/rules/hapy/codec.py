"""Hâpy Families: how actions and public events are numbered, and how they read in a trace.

An action is a plain int: a take is the place index (``0..35``), a request is
``REQUEST_BASE + seat * 100 + card``, passing is ``PASS`` and the card kept of four
is ``KEEP_BASE + card``. A public event is a tuple whose first item is one of the
``EV_*`` kinds (see :class:`~cardgen.rules.hapy.state.HapyObservation`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .masks import bits12, mask_cards
from .spec import DEAL, N_CARDS, PHASE_NAMES, SETS_TO_WIN, TAKE

if TYPE_CHECKING:  # for annotations only: the state imports this module
    from .state import HapyState

# actions
PASS = 1000
REQUEST_BASE = 2000
KEEP_BASE = 3000
# public events
EV_TAKE, EV_SKIP, EV_REQUEST, EV_PASS, EV_REVEAL, EV_WIN = range(6)

# a request action, split: REQ_TARGET[action - REQUEST_BASE], REQ_CARD[...] (the engine's own moves only)
REQ_TARGET = tuple(a // 100 for a in range(100 * max(SETS_TO_WIN)))
REQ_CARD = tuple(a % 100 for a in range(100 * max(SETS_TO_WIN)))


def request_tables(num_players: int) -> tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]:
    """Per seat: for each other seat in seat order, three tables (cards 0-11, 12-23, 24-35)
    giving, for each 12-bit slice of a card mask, the requests naming its cards from that
    seat, so that listing every legal request is a few lookups (see ``legal_actions``)."""
    return tuple(tuple(bits12(REQUEST_BASE + 100 * t + 12 * k) for t in range(num_players)
                       if t != s for k in range(3)) for s in range(num_players))


def action_text(s: HapyState, action: int) -> str:
    """An action of state ``s``'s current player (or of chance), in words."""
    g = s.g
    if s.phase == DEAL:
        return f"deal {g.card_name(action)} to place {g.deal_order[s.deal_k]}"
    if 0 <= action < N_CARDS and s.phase == TAKE:
        card = s.slot_card[action]
        side = "God side up" if g.face_up[action] else "Mummy side up"
        return f"take place {action} ({g.card_name(card)}, {side})"
    if action == PASS:
        return "request nothing"
    if REQUEST_BASE <= action < KEEP_BASE:
        target, card = divmod(action - REQUEST_BASE, 100)
        return f"ask seat {target + 1} for {g.card_name(card)}"
    if action >= KEEP_BASE:
        return f"keep {g.card_name(action - KEEP_BASE)}, reveal the other three"
    return f"action {action}"


def outcome_text(s: HapyState, before: HapyState) -> str:
    """What the last step did that its action does not say, from the public log: a
    request answered or refused, the sets revealed, the winner."""
    g = s.g
    out = []
    for ev in s.events[len(before.events):]:
        if ev[0] == EV_REQUEST:
            out.append(f"seat {ev[2] + 1} {'gives' if ev[4] else 'does not hold'} {g.card_name(ev[3])}")
        elif ev[0] == EV_REVEAL:
            out.append(f"seat {ev[1] + 1} reveals {', '.join(g.card_name(c) for c in ev[2])}")
        elif ev[0] == EV_WIN:
            out.append(f"seat {ev[1] + 1} wins")
    return "; ".join(out)


def state_text(s: HapyState) -> str:
    """Whose turn and step it is, the cards left in the layout, and every seat's cards."""
    g = s.g
    lines = [f"turn {s.turn + 1}, seat {s.player + 1} to {PHASE_NAMES[s.phase]}, "
             f"{s.pyr} card(s) in the {g.setup}"]
    for seat in range(g.num_players):
        hand = ", ".join(g.card_name(c) for c in mask_cards(s.hand[seat])) or "—"
        rev = ", ".join(g.card_name(c) for c in mask_cards(s.rev[seat])) or "—"
        lines.append(f"  seat {seat + 1}: hand {hand}; revealed {rev}")
    return "\n".join(lines)
