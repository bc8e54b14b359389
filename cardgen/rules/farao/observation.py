"""O, Farao!: what one seat may see of a game — the players only ever get this view, never
the state itself, so hidden information stays hidden by construction."""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import FaraoState


class FaraoObservation:
    """What one seat may know, as a live read-only view: its own hand, the others'
    hand sizes, every pyramid, the display, the discard pile (face up), the size of
    the pile, the figure, the scores, and the step in progress (a trade offer, an
    attack, the die roll). Never another player's hand or the order of the pile."""

    __slots__ = ("player", "_s")

    def __init__(self, state: FaraoState, player: int):
        self.player = player
        self._s = state

    # plain fields read through attrgetter (no Python frame per read: the greedy player reads many)
    num_players = property(attrgetter("_s.g.num_players"))
    phase = property(attrgetter("_s.phase"))
    active = property(attrgetter("_s.active"), doc="whose turn it is")
    hand = property(lambda self: tuple(self._s.hands[self.player]), doc="own cards per kind")
    hand_sizes = property(lambda self: tuple(self._s.hand_n))
    pyramids = property(lambda self: tuple(tuple(p) for p in self._s.pyr), doc="every seat's pyramids")
    display = property(lambda self: tuple(self._s.display))
    discard = property(lambda self: tuple(self._s.discard), doc="the discard pile per kind (face up)")
    pile_size = property(attrgetter("_s.pile_n"))
    plateau = property(attrgetter("_s.plateau"))
    final = property(attrgetter("_s.final"), doc="the End card is in the pile")
    scores = property(lambda self: tuple(self._s.score))
    offer = property(attrgetter("_s.offer"), doc="(partner, give, ask) of the trade offer in progress")
    target = property(attrgetter("_s.target"), doc="(seat, slot) of the pyramid the thief is after")
    roll = property(attrgetter("_s.roll"))
    trades_made = property(attrgetter("_s.trades"))
    turn = property(attrgetter("_s.turn"))

    # the live references the greedy player reads without copying (own hand only)
    def own(self) -> list[int]:
        """Own hand per kind (a live list: read only)."""
        return self._s.hands[self.player]

    def pyrs(self, seat: int) -> list[tuple]:
        """A seat's pyramids (a live list: read only)."""
        return self._s.pyr[seat]

    FIELDS = ("player", "num_players", "phase", "active", "hand", "hand_sizes", "pyramids", "display", "discard",
              "pile_size", "plateau", "final", "scores", "offer", "target", "roll", "trades_made", "turn")

    def public(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.FIELDS}
