"""Egypt's cards as bits: a hand is one int, so that the engine's moves are a few
big-int operations.

Cards are numbered ``0..62``: ``type_index * 7 + copy - 1``. A hand is a bitmask with
one byte per type (card ``c`` is bit ``8 * type + copy - 1``), so that :func:`swar`
gives a hand's *counts*: one int holding the number of cards of each type in its
bytes. Cards of one type are alike for the rules, so legal moves and searches are
cached by counts.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate, chain
from operator import getitem

from .spec import ANKH, COPIES, N_CARDS, NTYPES

ANKH_SHIFT = 8 * ANKH  # where the Ankhs' byte of a hand starts
CBIT = tuple(1 << (8 * (c // COPIES) + c % COPIES) for c in range(N_CARDS))  # a card's bit in a hand
CSIG = tuple(1 << (8 * (c // COPIES)) for c in range(N_CARDS))  # a card in a hand's counts
ALL = sum(CBIT)
SIG_SHIFT = 8 * NTYPES
# a card's bit and, above the hand's bits, its counts: the sum over distinct cards gives
# their mask (no two share a bit) and their counts (at most 7 a type) in one pass
# (a dict: its bound __getitem__ is called faster from map than a tuple's)
CBOTH = {c: CBIT[c] | CSIG[c] << SIG_SHIFT for c in range(N_CARDS)}
_M1 = int("55" * NTYPES, 16)
_M2 = int("33" * NTYPES, 16)
_M4 = int("0f" * NTYPES, 16)


def swar(mask: int) -> int:
    """A hand's counts: the number of cards of each type, one per byte."""
    mask -= (mask >> 1) & _M1
    mask = (mask & _M2) + ((mask >> 2) & _M2)
    return (mask + (mask >> 4)) & _M4


def counts_tuple(sig: int) -> tuple[int, ...]:
    return tuple((sig >> (8 * t)) & 255 for t in range(NTYPES))


def counts_sig(counts: Sequence[int]) -> int:
    return sum(k << (8 * t) for t, k in enumerate(counts))


def swar_total(sig: int) -> int:
    """The number of cards in a counts value."""
    return sum((sig >> (8 * t)) & 255 for t in range(NTYPES))


def card_of_bit(pos: int) -> int:
    return (pos >> 3) * COPIES + (pos & 7)


def mask_cards(mask: int) -> list[int]:
    """The cards of a hand mask, in order."""
    out: list[int] = []
    t = 0
    while mask:
        v = mask & 255
        if v:
            out += _BYTE_CARDS[t][v]
        mask >>= 8
        t += 1
    return out


def kth_card(mask: int, k: int) -> int:
    """``mask_cards(mask)[k]``, without building the list: the type from the running
    counts per type (bisected), then the copy within the type's byte."""
    ends = list(accumulate(mask.to_bytes(NTYPES, "little").translate(POP8)))
    t = bisect_right(ends, k)
    if t:
        k -= ends[t - 1]
    return t * COPIES + _BITS7[(mask >> (8 * t)) & 255][k]


def cards_mask(cards) -> int:
    return sum(CBIT[c] for c in cards)


def missing_cards(union: int) -> list[int]:
    """The cards (in order) whose bits are not in ``union``, as :func:`mask_cards` of the rest."""
    return list(chain.from_iterable(map(getitem, _BYTE_CARDS, (ALL & ~union).to_bytes(NTYPES, "little"))))


_BITS7 = tuple(tuple(b for b in range(8) if v >> b & 1) for v in range(256))
_BYTE_CARDS = tuple(tuple(tuple(t * COPIES + b for b in _BITS7[v]) for v in range(256)) for t in range(NTYPES))
# a byte's number of cards, as a translation table: a hand's counts per type as bytes in one call
POP8 = bytes(bin(v).count("1") for v in range(256))


def _lowk_table() -> tuple[tuple[int, ...], ...]:
    """LOWK[v][k]: the lowest k set bits of the 7-bit field v."""
    table = []
    for v in range(128):
        row = [0]
        acc = 0
        for b in range(7):
            if v >> b & 1:
                acc |= 1 << b
                row.append(acc)
        row += [acc] * (8 - len(row))
        table.append(tuple(row))
    return tuple(table)


LOWK = _lowk_table()
