"""How Horus decisions are numbered, and the game as text.

Every decision is one int (as the validator wants): a ``*_BASE`` saying what is done
plus an argument below ``KIND_MASK`` saying where (a place code of :mod:`.geometry`)
or which (Boat, Horus card, stack, physical tile or card drawn). The phase a state
waits in (``P_*``) tells which actions it takes. The text: an action as a trace line
(:func:`action_text`), the table as text (:func:`render_text`) and, for tests, a table
from such a picture (:func:`parse_board`).
"""

from __future__ import annotations

from collections.abc import Mapping

# the place code an action's argument carries (and the state's places): the package's
# vocabulary, so the checker reads it from here like the action numbers
from .geometry import OFF as OFF
from .geometry import W as W
from .geometry import code, xy
from .spec import KIND_LETTER

# --------------------------------------------------------------------------- actions
PLACE_BASE = 0              # + code: put the tile in hand there (its face fixed)
RIVER_BASE = 1 << 20        # + code: the River / Necropolis tile, River side up
NECRO_BASE = 2 << 20        # + code: the same, Necropolis side up
STONE_BASE = 3 << 20        # + code: a Kingdom Stone on the tile there
FROM_BASE = 4 << 20         # + code: the Nile card moves the own stone there …
TO_BASE = 5 << 20           # + code: … to the tile there
BOAT_BASE = 6 << 20         # + boat (0 or 1): the River tile replaces that Boat
CARD_BASE = 7 << 20         # + kind of Horus card (index in data.horus_cards)
NILE_ACTION = CARD_BASE + 4095
STACK_BASE = 8 << 20        # + stack index: a "?" card takes from that stack
DRAW_TILE_BASE = 9 << 20    # chance: + physical tile drawn from the bag
DRAW_CARD_BASE = 10 << 20   # chance: + physical card drawn
KIND_MASK = (1 << 20) - 1
NO_STONE = STONE_BASE + KIND_MASK  # Action 4: a Kingdom Stone *may* be placed; this places none

# decision / chance phases
(P_BAG, P_PLACE, P_BOATCHOICE, P_BOATPLACE, P_RN, P_CARD, P_STACK, P_STONE, P_FROM, P_TO, P_DRAW, P_OVER,
 P_RIVERPLACE, P_WORK) = range(14)
PHASE_NAMES = ("bag", "place", "boat", "boat-place", "river-stack", "card", "stack", "stone", "nile-from",
               "nile-to", "draw", "over", "river-place", "working")


def action_text(s, action: int) -> str:
    """``action`` as a trace line, read in the phase state ``s`` waits in."""
    g = s.g
    base = action & ~KIND_MASK
    arg = action & KIND_MASK
    ph = s.phase
    seat = f"seat {s.player + 1}"
    if base == DRAW_TILE_BASE:
        return f"draws {g.kind_name(g.tile_kind[arg])} tile {arg} ({g.tile_item[arg]}) from the bag"
    if base == DRAW_CARD_BASE:
        return f"seat {s.draw_seats[0] + 1 if s.draw_seats else '?'} draws card {g.card_name(g.card_of[arg])}"
    if ph == P_PLACE:
        return f"{seat} places {g.kind_name(s.face)} at {xy(action)}"
    if ph == P_BOATPLACE:
        return f"{seat} puts Boat {s.lifted + 1} at {xy(action)}"
    if base == RIVER_BASE:
        return f"{seat} places River at {xy(arg)}"
    if base == NECRO_BASE:
        return f"{seat} places Necropolis at {xy(arg)}"
    if action == NO_STONE:
        return f"{seat} places no Kingdom Stone"
    if base == BOAT_BASE:
        return f"{seat} replaces Boat {arg + 1} with the River tile"
    if action == NILE_ACTION:
        return f"{seat} plays the Nile card"
    if base == CARD_BASE:
        return f"{seat} plays Horus card {g.card_name(arg)}"
    if base == STACK_BASE:
        return f"{seat} takes from the {g.stack_ids[arg]} stack"
    if base == STONE_BASE:
        return f"{seat} puts a stone at {xy(arg)}"
    if base == FROM_BASE:
        return f"{seat} lifts its stone at {xy(arg)}"
    if base == TO_BASE:
        return f"{seat} moves it to {xy(arg)}"
    return f"action {action}"


def parse_board(text: str, letters: Mapping[str, int]) -> list[tuple[int, int, int]]:
    """Tiles from a picture: each tile is a 2 × 2 block of its letter, ``.`` is empty
    table; blocks are read top-left first, row by row (so offset tiles work)."""
    rows = [r for r in (line.strip() for line in text.strip("\n").splitlines()) if r]
    taken: set[tuple[int, int]] = set()
    out = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in ". " or (x, y) in taken:
                continue
            block = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
            for bx, by in block:
                if by >= len(rows) or bx >= len(rows[by]) or rows[by][bx] != ch or (bx, by) in taken:
                    raise ValueError(f"tile {ch!r} at column {x}, row {y} is not a 2 × 2 block")
            taken.update(block)
            out.append((x, y, letters[ch]))
    return out


def render_text(s) -> str:
    """The table of state ``s`` as text, two characters a tile edge (for traces and failing tests)."""
    if not s.cells:
        return "(empty table)"
    xs = [xy(c)[0] for c in s.cells]
    ys = [xy(c)[1] for c in s.cells]
    letters = {k: s.g.terrains[k][0].upper() for k in range(s.g.nterr)}
    letters.update(KIND_LETTER)
    lines = []
    for y in range(min(ys), max(ys) + 1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            slot = s.cells.get(code(x, y))
            if slot is None:
                row.append(".")
            else:
                ch = letters[s.kind[slot]]
                if slot in s.stone_at and code(x, y) == s.pos[slot]:
                    ch = str(s.stone_at[slot] + 1)
                row.append(ch)
        lines.append("".join(row))
    return "\n".join(lines)
