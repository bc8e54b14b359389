"""What the per-game benchmarks share: timing seeded games with and without the checker,
the speed table, and a yardstick for the machine.

Each round plays the same seeded games; the fastest round counts (CPU time of this
process), so that other work on the machine disturbs the figure as little as possible.
"""

from __future__ import annotations

import argparse
import copy
import platform
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

DEFAULT_CHECK_EVERY = 16  # as cardgen.validation.simulate (cardgen is imported lazily: bench/validate.py
# imports each copy of the package it times itself)


class NoChecks:
    """A checker that checks nothing: the game alone, to see what the checks cost."""

    def before(self, *a) -> None:
        pass

    def after(self, *a) -> None:
        pass

    def at_end(self, *a) -> None:
        pass


def unchecked(gamedef: Any) -> Any:
    """The same game without its checker."""
    bare = copy.copy(gamedef)
    bare.checker = NoChecks
    return bare


@dataclass
class Row:
    players: int
    kind: str
    games_per_s: float
    unchecked_per_s: float
    steps: float  # mean steps (decisions and chance steps) of a game


def time_configs(configs: list[tuple[int, str, Any]], rules: Any, games: int, repeat: int, check_every: int,
                 run_config: Callable, play_game: Callable, warm_up: int = 0,
                 check: Callable[[Any], None] | None = None, step_sample: int = 50) -> list[Row]:
    """Checked and unchecked speed of each (players, kind, gamedef), rounds interleaved so
    that a busy spell of the machine hits every row alike. ``check`` looks at each checked
    result (e.g. that no game failed); ``warm_up`` games fill caches first."""
    if warm_up:
        for _n, kind, gamedef in configs:
            run_config(gamedef, rules.agents[kind], kind, True, warm_up, 10_000, check_every)
    best = {(n, kind): float("inf") for n, kind, _ in configs}
    bare = dict(best)
    for _ in range(repeat):
        for n, kind, gamedef in configs:
            start = time.process_time()
            res = run_config(gamedef, rules.agents[kind], kind, True, games, 1, check_every)
            best[(n, kind)] = min(best[(n, kind)], time.process_time() - start)
            assert res.failure_count == 0, res.failures[0].message
            if check is not None:
                check(res)
            start = time.process_time()
            run_config(unchecked(gamedef), rules.agents[kind], kind, True, games, 1, check_every)
            bare[(n, kind)] = min(bare[(n, kind)], time.process_time() - start)
    rows = []
    for n, kind, gamedef in configs:
        steps = statistics.mean(play_game(gamedef, rules.agents[kind], 1 + i).steps for i in range(step_sample))
        rows.append(Row(n, kind, games / best[(n, kind)], games / bare[(n, kind)], steps))
    return rows


def print_speed(rows: list[Row]) -> None:
    """The table of games per second (checked, unchecked), time per game and per step."""
    print(f"{'players':>7}  {'kind':<7} {'games/s':>8} {'µs/game':>8} {'unchecked g/s':>14} {'steps/game':>11}"
          f" {'µs/step':>8}")
    for r in rows:
        print(f"{r.players:>7}  {r.kind:<7} {r.games_per_s:>8.1f} {1e6 / r.games_per_s:>8.0f}"
              f" {r.unchecked_per_s:>14.1f} {r.steps:>11.0f} {1e6 / r.games_per_s / r.steps:>8.1f}")
    mean = len(rows) / sum(1 / r.games_per_s for r in rows)
    print(f"harmonic mean {mean:.1f} games/s (checked); this machine: sum(range(100)) takes"
          f" {machine_yardstick():.2f} µs on {interpreter()}")


def machine_yardstick() -> float:
    """µs of processor time for ``sum(range(100))``: about 0.5 on a recent desktop CPU, to
    compare machines. Processor time, so that other work on a busy machine is not counted."""
    return min(timeit.repeat("sum(range(100))", number=200_000, repeat=5, timer=time.process_time)) / 200_000 * 1e6


def interpreter() -> str:
    """Which Python ran the figures: builds of one version differ by a third here (an
    optimised build, PGO and LTO, against one compiled without them)."""
    return f"Python {platform.python_version()} ({platform.python_implementation()}, {sys.executable})"


def bench_args(doc: str, games: int, repeat: int, players: str) -> argparse.Namespace:
    """The options every per-game benchmark takes, with that game's defaults."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--games", type=int, default=games, help=f"games per round (default {games})")
    ap.add_argument("--repeat", type=int, default=repeat, help=f"rounds; the fastest counts (default {repeat})")
    ap.add_argument("--check-every", type=int, default=DEFAULT_CHECK_EVERY,
                    help=f"full checks every K steps (default {DEFAULT_CHECK_EVERY})")
    ap.add_argument("--players", default=players, help=f"player counts (default {players})")
    ap.add_argument("--no-figures", action="store_true", help="skip the game's own figures")
    return ap.parse_args()


def bench_configs(game_id: str, args: argparse.Namespace) -> tuple[Any, Any, list[tuple[int, str, Any]]]:
    """The shipped game, its rules, and a (players, kind, game definition) per row."""
    from cardgen.load.game import load_game
    from cardgen.rules import rules_for

    game = load_game(game_id)
    rules = rules_for(game_id)
    counts = [int(p) for p in args.players.split(",")]
    return game, rules, [(n, kind, rules.load(game, n)) for n in counts for kind in rules.agents]


def pooled_figures(gamedef: Any, rules: Any, kind: str, games: int, seed: int = 1) -> dict[str, list[float]]:
    """The engine's per-game figures over the same seeded games as ``cardgen validate``
    (game i with seed + i; the checker does not change the play, so it is left out)."""
    from cardgen.validation.simulate import run_config

    return run_config(unchecked(gamedef), rules.agents[kind], kind, True, games, seed).samples


class _IdleState:
    """A game whose decisions change nothing but a counter: what the runner's loop costs a step."""

    def __init__(self, steps: int, players: int, terminal: int):
        self.terminal = terminal
        self.left = steps
        self.players = players
        self.player = 0

    def current_player(self) -> int:
        return self.player if self.left else self.terminal

    def legal_actions(self) -> list[int]:
        return [0]

    def legal_at(self, u: float) -> int:
        return 0

    def observation(self, player: int) -> None:
        return None

    def apply_action(self, action: int) -> int:
        self.left -= 1
        self.player = (self.player + 1) % self.players
        return self.current_player()

    def returns(self) -> list[float]:
        return [0.0] * self.players

    def length(self) -> int:
        return 0


class _IdleGame:
    setup = "idle"

    def __init__(self, steps: int, terminal: int, players: int = 2):
        self.steps = steps
        self.terminal = terminal
        self.num_players = players

    def new_initial_state(self) -> _IdleState:
        return _IdleState(self.steps, self.num_players, self.terminal)

    def max_game_length(self) -> int:
        return self.steps + 1

    def checker(self) -> NoChecks:
        return NoChecks()


def runner_floor(play_game: Callable, agent: Callable, terminal: int, steps: int = 20_000, repeat: int = 5) -> float:
    """µs a decision step costs the runner itself (``play_game``'s loop, the agent's pick and
    calls to a checker that does nothing) in a game whose steps do nothing: no engine can
    play a step faster through that runner. ``terminal``: the rules API's ``TERMINAL``."""
    game = _IdleGame(steps, terminal)
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        out = play_game(game, agent, 1)
        best = min(best, time.process_time() - start)
        assert out.status == "ok" and out.steps == steps, out
    return best / steps * 1e6
