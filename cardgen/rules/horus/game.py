"""The Horus rules bound to the game's data and a player count: what the validator plays
(a :class:`~cardgen.rules.api.GameDef`).

Apart from :mod:`.spec` so that the engine and the checker, which both read the spec,
need not import each other or this module."""

from __future__ import annotations

from .checker import HorusChecker
from .spec import SETUP, HorusSpec
from .state import HorusState


class HorusGame(HorusSpec):
    """The rules bound to the game's data and a player count."""

    setup = SETUP

    def new_initial_state(self) -> HorusState:
        return HorusState(self)

    def max_game_length(self) -> int:
        # every step places a tile, a stone, plays or draws a card or chooses: a generous bound
        return 40 * self.total_tiles

    def checker(self) -> HorusChecker:
        return HorusChecker(self)
