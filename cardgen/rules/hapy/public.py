"""Hâpy Families: what the public log tells every seat about the hands.

A re-deal of what a seat cannot see (:meth:`.state.HapyState.scrambled`) must keep it:
a card seen going into a hand stays there, a card asked for in vain goes elsewhere."""

from __future__ import annotations

from collections.abc import Sequence

from .codec import EV_REQUEST, EV_REVEAL, EV_TAKE
from .spec import N_CARDS


def public_record(events: Sequence[tuple], num_players: int) -> tuple[list[int], list[int]]:
    """(holder, lacks) read from the log: per card the seat every seat saw take it God side
    up or be given it on request (until it moves publicly again; -1 unknown or revealed),
    and per seat the cards (bitmask) it was asked for in vain since its last Mummy side up
    take, the only way a card reaches a hand unseen."""
    holder = [-1] * N_CARDS
    lacks = [0] * num_players
    for ev in events:
        kind = ev[0]
        if kind == EV_REQUEST:
            c = ev[3]
            if ev[4]:
                holder[c] = ev[1]
                lacks[ev[2]] &= ~(1 << c)
            else:
                lacks[ev[2]] |= 1 << c
        elif kind == EV_TAKE:
            if ev[3] >= 0:
                holder[ev[3]] = ev[1]
            else:
                lacks[ev[1]] = 0
        elif kind == EV_REVEAL:
            for c in ev[2]:
                holder[c] = -1
    return holder, lacks
