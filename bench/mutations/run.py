"""Play a mutation's games with the validator's checks, and replay the seed that failed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.validation import chance
from cardgen.validation.runner import ValidateOptions, validate
from cardgen.validation.simulate import DEFAULT_CHECK_EVERY, run_config

from .catalogue import Mutation
from .patcher import Patcher


@dataclass
class Verdict:
    mutation: Mutation
    seed: int | None  # the first seed that failed (None: none did)
    message: str = ""  # the validator's message for it
    replayed: bool = False  # the replay of that seed failed again
    replay: str = ""  # the replay command the validator printed for it

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
        must_finish = rules.must_finish.get(m.agents, True)
        if m.pooled:  # a bug of chance: the games of one pass, judged together as the validator judges them
            res = run_config(gd, agent, m.agents, must_finish, games, seed, check_every)
            if res.failure_count:
                return res.failures[0].seed, res.failures[0].message
            verdict = chance.judge([("pass", res.chance)])
            if verdict["failed"]:
                return seed, chance.failure_message(verdict["failed"][0], verdict["false_alarm"])
            return None, ""
        for s in range(seed, seed + games):
            res = run_config(gd, agent, m.agents, must_finish, 1, s, check_every,
                             trace=(lambda *_: None) if trace else None)
            if res.failure_count:
                return s, res.failures[0].message
            if res.nonterminating and must_finish:  # an unfinished game fails where the validator says so
                return s, f"seed {s} never ends"
        return None, ""
    finally:
        patch.undo()


def replay(m: Mutation, seed: int, check_every: int = DEFAULT_CHECK_EVERY, games: int = 1) -> tuple[bool, str]:
    """Run the validator as its printed replay command does (``--seed S --games 1 --players N
    --setup X --agents K --trace``, in this process so that the mutation applies): did seed
    ``S`` fail again? And the replay command the validator printed for the failure. A bug
    of chance is replayed as the pass it was found in (``games`` games from ``S``)."""
    rules = rules_for(m.game)
    patch = Patcher()

    def loader(honest):
        def load(game, n, setup):
            gd = honest(game, n, setup)
            m.apply(patch, gd)
            agent = getattr(gd, "_agent", None)
            if agent is not None:
                patch.set(rules, "agents", {**rules.agents, m.agents: agent})
            return gd
        return load
    patch.wrap(rules, "load", loader)
    try:
        opts = ValidateOptions(games=games, seed=seed, players=(m.players,), setups=(m.setup,), agents=(m.agents,),
                               check_every=check_every, trace=None if games > 1 else (lambda line: None), jobs=1,
                               game_arg=m.game)
        report = validate(_game(m.game), opts)
    finally:
        patch.undo()
    failed = [f for f in report["simulation"]["failures"]
              if f["seed"] == seed and (not f.get("nonterminating") or f.get("counts_as_failure"))]
    return bool(failed), failed[0]["replay"] if failed else ""


def judge(m: Mutation, games: int | None = None, check_every: int = DEFAULT_CHECK_EVERY) -> Verdict:
    """Does the validator catch the mutation (its default quick checks, ``check_every``),
    and does the failing seed fail again when the validator replays it as its printed
    replay command does (one game, traced)?"""
    seed, message = _fails(m, 1, games or m.games, check_every, False)
    if seed is None:
        return Verdict(m, None)
    pass_games = (games or m.games) if m.pooled else 1
    again, command = replay(m, seed, check_every, pass_games)
    return Verdict(m, seed, message, again, command)
