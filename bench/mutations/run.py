"""Play a mutation's games with the validator's checks, and replay the seed that failed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.validation.simulate import DEFAULT_CHECK_EVERY, run_config

from .catalogue import Mutation
from .patcher import Patcher


@dataclass
class Verdict:
    mutation: Mutation
    seed: int | None  # the first seed that failed (None: none did)
    message: str = ""  # the validator's message for it
    replayed: bool = False  # the replay of that seed failed again

    @property
    def caught(self) -> bool:
        return self.seed is not None and self.replayed


@cache
def _game(game_id: str) -> Any:
    return load_game(game_id)


def _fails(m: Mutation, seed: int, games: int, check_every: int, trace: bool) -> tuple[int | None, str]:
    """Play ``games`` games from ``seed`` with the mutation applied; the first failing seed."""
    rules = rules_for(m.game)
    patch = Patcher()
    try:
        gd = rules.load(_game(m.game), m.players, m.setup)
        m.apply(patch, gd)
        agent = getattr(gd, "_agent", None) or rules.agents[m.agents]
        for s in range(seed, seed + games):
            res = run_config(gd, agent, m.agents, True, 1, s, check_every,
                             trace=(lambda *_: None) if trace else None)
            if res.failure_count:
                return s, res.failures[0].message
            if res.nonterminating:
                return s, f"seed {s} never ends"
        return None, ""
    finally:
        patch.undo()


def judge(m: Mutation, games: int | None = None, check_every: int = DEFAULT_CHECK_EVERY) -> Verdict:
    """Does the validator catch the mutation (its default quick checks, ``check_every``),
    and does the failing seed fail again when replayed as ``cardgen validate --seed S
    --games 1 --trace`` replays it (one game, traced)?"""
    seed, message = _fails(m, 1, games or m.games, check_every, False)
    if seed is None:
        return Verdict(m, None)
    again, _ = _fails(m, seed, 1, check_every, True)
    return Verdict(m, seed, message, again == seed)
