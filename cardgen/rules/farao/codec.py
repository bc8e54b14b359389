"""O, Farao!: the actions as ints — their numbers, how builds and trade offers are packed
into one and unpacked again — and the text of actions, pyramids and states for traces.

A pyramid is ``(base value, rows)``, each row an int ``cards * 8 + jokers`` (see the
package doc); the engine, the checker and the players all read and write it this way."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .spec import (
    ATTACK,
    BLOCK,
    BUILD,
    C_DIE,
    C_DRAW,
    C_STEAL,
    C_TAX,
    CASH,
    DISPLAY_TARGET,
    DRAW,
    END_DISCARD,
    KIND_NAMES,
    LOSS_DISCARD,
    PHASE_NAMES,
    STEAL,
    TAX_BLOCK,
    TRADE,
    TRADE_PICK,
    TRADE_REPLY,
    pyramid_value,
)

if TYPE_CHECKING:
    from .state import FaraoState

# actions (chance actions: a kind for draws and taxes, the roll for the die, a steal code)
PASS = 0
YES = 1
PILE = 2
ACCEPT = 3
DECLINE = 4
BLOCK_ACT = 5
ALLOW = 6
TAX_ACT = 7
TAKE = 20  # + kind
DISCARD = 40  # + kind
CASH_ACT = 60  # + slot
THIEF_ACT = 70  # + 2 * seat + slot
STEAL_ACT = 100  # + 2 * row + joker
TRADE_ACT = 1000  # + 256 * partner + 16 * give + ask
BUILD_ACT = 10000  # + ((16 * slot + value) * 16 + naturals) * 4 + jokers
NEW = 2  # the build slot of a new pyramid


def build_action(slot: int, value: int, naturals: int, jokers: int = 0) -> int:
    return BUILD_ACT + ((16 * slot + value) * 16 + naturals) * 4 + jokers


def decode_build(action: int) -> tuple[int, int, int, int]:
    """``(slot, value, naturals, jokers)`` of a build action."""
    rest, jokers = divmod(action - BUILD_ACT, 4)
    rest, naturals = divmod(rest, 16)
    slot, value = divmod(rest, 16)
    return slot, value, naturals, jokers


def trade_action(partner: int, give: int, ask: int) -> int:
    return TRADE_ACT + 256 * partner + 16 * give + ask


def decode_trade(action: int) -> tuple[int, int, int]:
    partner, rest = divmod(action - TRADE_ACT, 256)
    give, ask = divmod(rest, 16)
    return partner, give, ask


def pyramid_text(pyr: tuple) -> str:
    """A pyramid bottom up, e.g. ``[3×2 / 2×3 (1 Joker)]``."""
    base, rows = pyr
    parts = []
    for i, r in enumerate(rows):
        n, j = r >> 3, r & 7
        parts.append(f"{n}×{base + i}" + (f" ({j} Joker{'s' if j > 1 else ''})" if j else ""))
    return "[" + " / ".join(parts) + "]"


# --------------------------------------------------------------------------- trace text
def action_text(s: FaraoState, action: int) -> str:
    """The trace text of ``action`` in the state ``s`` (before it is applied)."""
    ph = s.phase
    p = s.player
    if ph in (C_DRAW, C_DIE, C_TAX):
        return _chance_text(s, action)
    if ph in (ATTACK, BLOCK, TAX_BLOCK, STEAL, C_STEAL):
        return _attack_text(s, action)
    if ph in (CASH,):
        return "cash nothing" if action == PASS else \
            f"cash {pyramid_text(s.pyr[p][action - CASH_ACT])} for {pyramid_value(s.pyr[p][action - CASH_ACT])}"
    if ph == DRAW:
        return "draw from the pile" if action == PILE else f"take {KIND_NAMES[action - TAKE]} from the display"
    if ph == TRADE and action < BUILD_ACT:
        return "offer a trade" if action == YES else "no (more) trades, no building"
    if ph == BUILD and action == PASS:
        return "no (more) building"
    if ph == TRADE_PICK:
        q, give, ask = decode_trade(action)
        return f"offer {KIND_NAMES[give]} to seat {q + 1} for {KIND_NAMES[ask]}"
    if ph == TRADE_REPLY:
        return "accept the trade" if action == ACCEPT else "decline the trade"
    if ph == BUILD or ph == TRADE:
        slot, v, nat, j = decode_build(action)
        where = "a new pyramid" if slot == NEW else f"pyramid {slot + 1}"
        text = f"build {nat}×{v}" + (f" + {j} Joker(s)" if j else "") + f" on {where}"
        return "no (more) trades; " + text if ph == TRADE else text
    if ph in (LOSS_DISCARD, END_DISCARD):
        return f"discard {KIND_NAMES[action - DISCARD]}"
    return f"action {action}"


def _chance_text(s: FaraoState, action: int) -> str:
    """A draw, the die or the tax collector's pick."""
    ph = s.phase
    if ph == C_DRAW:
        to = "the display" if s.draw_to == DISPLAY_TARGET else f"seat {s.draw_to + 1}"
        return f"{KIND_NAMES[action]} drawn for {to}"
    if ph == C_DIE:
        return f"the die shows {action}"
    return f"the tax collector takes {KIND_NAMES[action]} from seat {s.tax_queue[0] + 1}"


def _attack_text(s: FaraoState, action: int) -> str:
    """Step 5: the thief or tax collector, a block, a theft."""
    ph = s.phase
    if ph == ATTACK:
        if action == PASS:
            return "no thief, no tax collector"
        if action == TAX_ACT:
            return "play the tax collector"
        q, slot = divmod(action - THIEF_ACT, 2)
        return f"send a thief to seat {q + 1}'s pyramid {pyramid_text(s.pyr[q][slot])}"
    if ph in (BLOCK, TAX_BLOCK):
        return "block with a Pharaoh" if action == BLOCK_ACT else "let it pass"
    row, j = divmod(action - STEAL_ACT, 2)
    return f"steal {'a Joker' if j else 'a card'} from row {row + 1}"


def state_text(s: FaraoState) -> str:
    """The whole table in a few lines, every hand shown (for debugging)."""
    lines = [f"turn {s.turn + 1}, {PHASE_NAMES[s.phase]}, seat {s.player + 1} (active"
             f" {s.active + 1}); plateau {s.plateau}; pile {s.pile_n}, discard {s.disc_n},"
             f" display {[KIND_NAMES[k] for k in s.display]}"]
    for q in range(s.g.num_players):
        hand = ", ".join(f"{c}×{KIND_NAMES[k]}" for k, c in enumerate(s.hands[q]) if c) or "—"
        lines.append(f"  seat {q + 1}: {s.score[q]} points; pyramids"
                     f" {' '.join(pyramid_text(p) for p in s.pyr[q]) or '—'}; hand {hand}")
    return "\n".join(lines)
