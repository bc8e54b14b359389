"""Egypt's actions as numbers, and as text for the traces.

Chance actions are card numbers ``0..62``. A reveal or a meld is ``MELD + 100 * type
+ 10 * naturals + ankhs``, a special meld ``COMBO + 10 * combo + the slots Ankhs fill,
as bits``, the choice of whom to take a card from ``VICTIM_BASE + seat``, a discard
``DISCARD_BASE + code`` (the code's decimal digits being the discarded types + 1,
ascending; ``DISCARD_BASE`` alone discards nothing), and ``PASS`` reveals or plays
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .spec import (
    ANKH,
    COMBO_IDS,
    COMBOS,
    CONTROL,
    DISCARD,
    DRAW,
    DYNASTY,
    EV_COMBO,
    EV_CONTROL,
    EV_MELD,
    EV_RESHUFFLE,
    EV_REVEAL,
    EV_STEAL,
    EV_TURN,
    OVER,
    STEAL,
    VICTIM,
)

if TYPE_CHECKING:
    from .state import EgyptState

PASS = 100
MELD = 1000  # + 100 * type + 10 * naturals + ankhs
COMBO = 2000  # + 10 * combo + bits of the slots Ankhs fill
VICTIM_BASE = 3000  # + seat
DISCARD_BASE = 4000  # + code: decimal digits = discarded types + 1, ascending


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


def action_types(action: int) -> list[int]:
    """The type of each card a meld, special meld or discard uses (Ankhs as ``ANKH``)."""
    if action >= DISCARD_BASE:
        return list(decode_discard(action))
    if action >= COMBO:
        ci, fill = divmod(action - COMBO, 10)
        return [ANKH if fill >> slot & 1 else t for slot, t in enumerate(COMBOS[ci][1])]
    t, nat, ank = decode_meld(action)
    return [t] * nat + [ANKH] * ank


# --------------------------------------------------------------------------- text
def describe_action(action: int, type_names: Sequence[str]) -> str:
    """A reveal, meld or special meld in words, with these names of the types."""
    if action == PASS:
        return "nothing"
    if MELD <= action < COMBO:
        t, nat, ank = decode_meld(action)
        if t == ANKH:
            return f"{ank} Ankh(s)"
        return f"{nat} {type_names[t]}" + (f" + {ank} Ankh(s)" if ank else "")
    if COMBO <= action < VICTIM_BASE:
        ci, fill = divmod(action - COMBO, 10)
        slots = [("Ankh for " if fill >> s & 1 else "") + type_names[t]
                 for s, t in enumerate(COMBOS[ci][1])]
        return f"{COMBO_IDS[ci]} ({', '.join(slots)})"
    return f"action {action}"


def action_text(state: EgyptState, action: int) -> str:
    """An action of the state's current player (or of chance), as the trace shows it."""
    g = state.g
    phase = state.phase
    if phase == DRAW:
        return f"seat {state.player + 1} draws {g.card_name(action)}"
    if phase == STEAL:
        return f"seat {state.controller + 1} takes {g.card_name(action)} from seat {state.victim + 1}"
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


def outcome_text(s: EgyptState, before: EgyptState) -> str:
    """What the last step did that its action does not say, from the public log: the
    reveals once every seat has chosen, who takes control, a card taken, melds laid and
    their tribute, a reshuffle, the end of a turn and, at the end, the winner."""
    g = s.g
    out = []
    for ev in s.events[len(before.events):]:
        kind = ev[0]
        if kind == EV_REVEAL:
            out.append("reveals: " + ", ".join(f"seat {q + 1} {g.describe(a)}" for q, a in enumerate(ev[1])))
        elif kind == EV_CONTROL:
            c, changed = ev[1], ev[2]
            out.append("no seat takes control" if c < 0 else
                       f"seat {c + 1} {'takes' if changed else 'keeps'} control")
        elif kind == EV_STEAL:
            out.append(f"seat {ev[1] + 1} takes a card from seat {ev[2] + 1}")
        elif kind in (EV_MELD, EV_COMBO):
            out.append(f"seat {ev[1] + 1} lays {g.describe(ev[2])}: +{ev[3]} tribute, {s.score[ev[1]]} in all")
        elif kind == EV_RESHUFFLE:
            out.append(f"the discard pile is shuffled into a new deck of {ev[1]}")
        elif kind == EV_TURN:
            out.append(f"turn {ev[1]} ends; tribute " + ", ".join(f"seat {q + 1} {x}" for q, x in enumerate(s.score)))
    if s.phase == OVER and before.phase != OVER:
        best = max(s.score)
        won = [q + 1 for q, x in enumerate(s.score) if x == best]
        out.append(f"seat {won[0]} wins with {best} tribute" if len(won) == 1 else
                   f"seats {', '.join(map(str, won))} share the win with {best} tribute")
    return "; ".join(out)
