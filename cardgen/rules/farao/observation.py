"""O, Farao!: what one seat may see of a game. The players only ever get this view: a
copy made of ints and tuples, holding nothing that leads back to the state, so hidden
information stays hidden by construction."""

from __future__ import annotations

from typing import Any, NamedTuple


class FaraoObservation(NamedTuple):
    """What one seat may know, copied out of the state at one moment: its own hand, the
    others' hand sizes, every pyramid, the display, the discard pile (face up), the size
    of the pile, the figure, the scores, and the step in progress (a trade offer, an
    attack, the die roll). Never another player's hand or the order of the pile."""

    player: int
    num_players: int
    phase: int
    active: int  # whose turn it is
    hand: tuple[int, ...]  # own cards per kind
    hand_sizes: tuple[int, ...]
    pyramids: tuple[tuple[tuple, ...], ...]  # every seat's pyramids, each (base, rows)
    display: tuple[int, ...]
    discard: tuple[int, ...]  # the discard pile per kind (face up)
    pile_size: int
    plateau: int
    final: bool  # the End card is in the pile
    scores: tuple[int, ...]
    offer: tuple[int, int, int] | None  # (partner, give, ask) of the trade offer in progress
    target: tuple[int, int] | None  # (seat, slot) of the pyramid the thief is after
    roll: Any
    trades_made: int
    turn: int

    def own(self) -> tuple[int, ...]:
        """Own hand per kind."""
        return self.hand

    def pyrs(self, seat: int) -> tuple[tuple, ...]:
        """A seat's pyramids."""
        return self.pyramids[seat]

    def public(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in _FIELDS}


_FIELDS = ("player", "num_players", "phase", "active", "hand", "hand_sizes", "pyramids", "display", "discard",
           "pile_size", "plateau", "final", "scores", "offer", "target", "roll", "trades_made", "turn")
