"""What an action takes from a hand, and the End phase's legal discards: tables the
engine's hot path reads in one look-up, built as actions and hands are met.

They depend on the action or the hand's counts alone (not on the options nor the
player count), so they are shared by every game played.
"""

from __future__ import annotations

from .bits import LOWK, counts_tuple
from .codec import action_types, discard_action
from .spec import COPIES, KEEP, MAX_DISCARD, NTYPES

# What an action takes from a hand, built as actions are met: its counts (to subtract
# from a hand's counts) and, for the engine's hot path in one look-up, its parts
# ((shift, the row of TAKE for the type and how many) per type, to pick the cards), its
# counts and its number of cards.
DELTA: dict[int, int] = {}
MOVES: dict[int, tuple[tuple[tuple[int, tuple[int, ...]], ...], int, int]] = {}
# every legal End-phase discard, by a hand's counts
DISCARDS: dict[int, list[int]] = {}


def _take_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """TAKE[t][k][v]: the lowest k cards of type t in a hand whose byte of type t is v
    (``LOWK[v][k]`` moved to the type's byte), so that taking them is one look-up."""
    return tuple(tuple(tuple(LOWK[v][k] << (8 * t) for v in range(128)) for k in range(COPIES + 1))
                 for t in range(NTYPES))


TAKE = _take_table()


def learn_action(action: int) -> int:
    """Record an action's counts (:data:`DELTA`) and parts (:data:`MOVES`); its counts."""
    types = action_types(action)
    delta = DELTA[action] = sum(1 << (8 * t) for t in types)
    MOVES[action] = (tuple((8 * t, TAKE[t][types.count(t)]) for t in sorted(set(types))), delta, len(types))
    return delta


def action_move(action: int) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], int, int]:
    """An action's parts, counts and number of cards (see :func:`take_mask`)."""
    m = MOVES.get(action)
    if m is None:
        learn_action(action)
        m = MOVES[action]
    return m


def take_mask(hand: int, action: int) -> int:
    """The cards an action takes from a hand: the lowest copies of each type it uses."""
    mask = 0
    for shift, row in action_move(action)[0]:
        mask |= row[(hand >> shift) & 127]
    return mask


def discard_actions(sig: int) -> list[int]:
    """Every legal End-phase discard of a hand: 0–3 cards, at most 5 kept. Shared: read only."""
    out = DISCARDS.get(sig)
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
        DISCARDS[sig] = out
    return out
