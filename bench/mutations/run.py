"""Play a mutation's games with the validator's checks, and replay the seed that failed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.validation import chance
from cardgen.validation.adaptive import Plan, settled
from cardgen.validation.parallel import merge
from cardgen.validation.runner import ValidateOptions, validate
from cardgen.validation.simulate import DEFAULT_CHECK_EVERY, ConfigResult, run_config

from .catalogue import Mutation
from .patcher import Patcher


@dataclass
class Verdict:
    mutation: Mutation
    seed: int | None  # the first seed that failed (None: none did)
    message: str = ""  # the validator's message for it
    replayed: bool = False  # the replay of that seed failed again
    replay: str = ""  # the replay command the validator printed for it
    games: int = 0  # the games the pass played for the mutation's configuration

    @property
    def caught(self) -> bool:
        return self.seed is not None and self.replayed


@cache
def _game(game_id: str) -> Any:
    return load_game(game_id)


def quick_plan(m: Mutation) -> Plan:
    """The adaptive quick pass `cardgen validate GAME` plays for the mutation's game."""
    return Plan(budget=getattr(rules_for(m.game), "quick_games", 100))


def _fails(m: Mutation, seed: int, games: int | None, check_every: int, trace: bool) -> tuple[int | None, str, int]:
    """Play the mutation's configuration with the mutation applied: ``games`` games from
    ``seed``, or (None) as many as the adaptive quick pass plays for it, round by round.
    The first failing seed, its message, and the games the pass played."""
    rules = rules_for(m.game)
    patch = Patcher()
    try:
        gd = rules.load(_game(m.game), m.players, m.setup)
        m.apply(patch, gd)
        agent = getattr(gd, "_agent", None) or rules.agents[m.agents]
        must_finish = rules.must_finish.get(m.agents, True)
        ends = [games] if games is not None else quick_plan(m).round_ends()
        played: ConfigResult | None = None
        for end in ends:  # one seed at a time, stopping at the first that fails, as far as the pass goes
            start = played.games if played is not None else 0
            if m.pooled:  # a bug of chance: the games of one pass, judged together as the validator judges them
                part = run_config(gd, agent, m.agents, must_finish, end - start, seed + start, check_every)
                if part.failure_count:
                    return part.failures[0].seed, part.failures[0].message, end
                played = part if played is None else merge([played, part])
            else:
                for s in range(seed + start, seed + end):
                    part = run_config(gd, agent, m.agents, must_finish, 1, s, check_every,
                                      trace=(lambda *_: None) if trace else None)
                    if part.failure_count:
                        return s, part.failures[0].message, end
                    if part.nonterminating and must_finish:  # an unfinished game fails where the validator says so
                        return s, f"seed {s} never ends", end
                    played = part if played is None else merge([played, part])
            assert played is not None
            if games is None and settled(played, quick_plan(m)):
                break
        assert played is not None
        if m.pooled:
            verdict = chance.judge([("pass", played.chance)])
            if verdict["failed"]:
                return seed, chance.failure_message(verdict["failed"][0], verdict["false_alarm"]), played.games
        return None, "", played.games
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
    replay command does (one game, traced)? The games are those the adaptive quick pass
    plays for the mutation's configuration (it goes on while its seats' win rates are in
    doubt), or exactly ``games``."""
    seed, message, played = _fails(m, 1, games, check_every, False)
    if seed is None:
        return Verdict(m, None, games=played)
    pass_games = played if m.pooled else 1
    again, command = replay(m, seed, check_every, pass_games)
    return Verdict(m, seed, message, again, command, played)
