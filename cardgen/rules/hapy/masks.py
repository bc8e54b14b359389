"""Hâpy Families: sets of cards (and of places) as int bitmasks, and their lookup tables.

Card ``c`` is bit ``c``; a family is six bits in a row, so its cards in a mask are
``(mask >> 6 * family) & 63``. The tables here turn such slices into counts and
lists at a lookup each, which is what keeps the engine, the checker and the
greedy player fast; they are built once, at import."""

from __future__ import annotations

from .spec import FAMILIES, N_CARDS, NUMBERS

ALL = (1 << N_CARDS) - 1
FAMILY_MASK = tuple(((1 << NUMBERS) - 1) << (NUMBERS * f) for f in range(FAMILIES))
BITS6 = tuple(tuple(b for b in range(6) if v >> b & 1) for v in range(64))
POP6 = tuple(v.bit_count() for v in range(64))
LOW6 = sum(1 << (6 * f) for f in range(FAMILIES))  # the lowest bit of each family
BIT = tuple(1 << i for i in range(N_CARDS))
BIT_OR_0 = BIT + (0,)  # BIT_OR_0[card] is the card's bit; [-1] (no card) is 0
FAMILY_OF = tuple(c // NUMBERS for c in range(N_CARDS))
SHIFT = tuple(NUMBERS * f for f in range(FAMILIES))

_BITS12: dict[int, tuple[tuple[int, ...], ...]] = {}  # 4096 small tuples per base, sharing their ints


def bits12(base: int) -> tuple[tuple[int, ...], ...]:
    """For each 12-bit value, the tuple of ``base + bit`` for its bits, in order (built once per base)."""
    table = _BITS12.get(base)
    if table is None:
        items = tuple(base + b for b in range(12))  # shared ints
        rows: list[tuple[int, ...]] = [()] * 4096
        for v in range(1, 4096):
            low = (v & -v).bit_length() - 1
            rows[v] = (items[low],) + rows[v & (v - 1)]  # the lowest bit first, then the others in order
        table = _BITS12[base] = tuple(rows)
    return table


PLACES_LO, PLACES_MID, PLACES_HI = bits12(0), bits12(12), bits12(24)  # the places (or cards) of a mask


def mask_cards(mask: int) -> list[int]:
    """The cards of a bitmask, in order."""
    out: list[int] = []
    f = 0
    while mask:
        v = mask & 63
        if v:
            base = f * 6
            out.extend(base + b for b in BITS6[v])
        mask >>= 6
        f += 1
    return out


def sets_and_whole(mask: int) -> tuple[int, bool]:
    """Sets of three and whether a whole family is in a revealed mask."""
    sets = 0
    whole = False
    for f in range(FAMILIES):
        k = POP6[(mask >> (6 * f)) & 63]
        sets += k // 3
        whole = whole or k == 6
    return sets, whole
