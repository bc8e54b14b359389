"""Walking a seeded game of random moves, for the tests that look at states on the way."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from cardgen.rules.api import CHANCE, TERMINAL, sample_chance


def decisions(gd: Any, seed: int, limit: int = 400) -> Iterator[tuple[Any, int]]:
    """(state, seat) at the decision points of a seeded random game of ``gd`` (at most
    ``limit`` steps)."""
    rng = random.Random(seed)
    s = gd.new_initial_state()
    for _ in range(limit):
        p = s.current_player()
        if p == TERMINAL:
            return
        if p == CHANCE:
            s.apply_action(sample_chance(s, rng))
            continue
        yield s, p
        legal = s.legal_actions()
        s.apply_action(legal[int(rng.random() * len(legal))])
