"""The adaptive quick pass: each configuration played in rounds until its seats' win
rates are known as closely as asked, or its budget of games is spent.

A configuration (setup × player count × player kind) first plays :data:`FIRST_ROUND`
games, then rounds of :data:`ROUND` more while the widest 95 % interval of its seats'
win rates is wider than ``± within`` and it has games left in its budget. The games go
where the doubt is: a configuration whose seats win about evenly (the widest intervals:
two seats at 50 %) plays the most, one with a dominant seat or many seats stops early,
and one whose games fail stops at the end of the round (its balance means nothing
until the bug is fixed; its failing seeds are in the report).

Deterministic, whatever the number of processes: game ``i`` of a configuration is
seeded ``seed + i`` as in a pass of exactly ``--games`` games, so a configuration
plays a prefix of the same seeds, each the same game, and the printed replay command
plays it again. Whether a configuration goes on depends on its own games only (never on
timing or on the other configurations), so a pass limited to one configuration
(``--players 3 --setup giza --agents greedy``) plays the very games the whole pass
played for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .simulate import ConfigResult, wilson

# Games every configuration plays: the bugs of bench/mutations/ fail by seed 16 at the latest.
# It also keeps the legal-list comparisons of issue 29 (a choice missing in one position in
# twenty is found by the quick pass): the checkers compare the engine's list in full on every
# full-check step (every 16 steps), at least 3.4 decisions a game (Hâpy; Egypt 4.4, Horus 7,
# O, Farao! 17, measured), so 20 games make at least 68 comparisons per configuration
# (0.95^68 = 3 % to miss such a choice there) and the smallest quick pass (O, Farao!'s 4
# configurations) 1,376 (0.95^1376 < 1e-30), before the checkers' own extra samples.
FIRST_ROUND = 20
ROUND = 5  # games a configuration in doubt plays next (a round costs next to nothing: measured)
DEFAULT_WITHIN = 0.15  # ± 15 percentage points: a seat's win rate in a quick look, not a balance verdict


@dataclass(frozen=True)
class Plan:
    """How far the adaptive pass goes: ``within``, the half-width of the widest seat's 95 %
    win-rate interval that settles a configuration; ``budget``, its games at most."""

    within: float = DEFAULT_WITHIN
    budget: int = 100

    def round_ends(self) -> list[int]:
        """The games a configuration has played after each round: FIRST_ROUND, then every
        ROUND more, up to the budget."""
        ends = [min(FIRST_ROUND, self.budget)]
        while ends[-1] < self.budget:
            ends.append(min(ends[-1] + ROUND, self.budget))
        return ends


def widest(res: ConfigResult) -> float:
    """The half-width of the widest 95 % interval of a seat's win rate (1 with no finished game)."""
    if not res.completed:
        return 1.0
    half = 0.0
    for wins in res.wins:
        lo, hi = wilson(wins, res.completed)
        assert lo is not None and hi is not None
        half = max(half, (hi - lo) / 2)
    return half


def settled(res: ConfigResult, plan: Plan) -> bool:
    """Whether a configuration stops after its games so far: its seats are known within
    the plan's width, or it failed (the bug first)."""
    return not res.ok or widest(res) <= plan.within


Player = Callable[[list[int], int, int], list[ConfigResult]]  # (configurations, games, first seed) -> results


def play_rounds(count: int, plan: Plan, seed: int, play: Player, merge: Callable[[list[ConfigResult]], ConfigResult]
                ) -> list[ConfigResult]:
    """Every configuration's result after the adaptive pass. ``play(indices, games, seed)``
    plays ``games`` games from ``seed`` for each configuration listed (in one pool of
    workers or in this process); configurations in doubt go on together, round by round."""
    results: list[ConfigResult | None] = [None] * count
    going = list(range(count))
    done = 0
    for end in plan.round_ends():
        if not going:
            break
        parts = play(going, end - done, seed + done)
        for i, part in zip(going, parts):
            earlier = results[i]
            results[i] = part if earlier is None else merge([earlier, part])
        done = end
        going = [i for i in going if not settled(_known(results[i]), plan)]
    return [_known(r) for r in results]


def _known(res: ConfigResult | None) -> ConfigResult:
    assert res is not None  # every configuration plays the first round
    return res


def summary(plan: Plan, results: list[ConfigResult], labels: list[str]) -> dict[str, Any]:
    """What the adaptive pass did, for the report: its width and budget, and the games each
    configuration played with the widest interval they left."""
    return {"within": plan.within, "budget": plan.budget, "first_round": min(FIRST_ROUND, plan.budget),
            "round": ROUND,
            "configs": [{"config": label, "games": r.games, "widest": round(widest(r), 4),
                         "settled": widest(r) <= plan.within, "failed": not r.ok}
                        for label, r in zip(labels, results)]}


def describe(adaptive: dict[str, Any]) -> str:
    """One line for the text report: the target, and how the games were spread."""
    games = [c["games"] for c in adaptive["configs"]]
    short = sum(1 for c in adaptive["configs"] if c["settled"] and c["games"] < adaptive["budget"])
    return (f"  adaptive: each configuration played until every seat's win rate is known within"
            f" ±{100 * adaptive['within']:g} points (95 %), {adaptive['first_round']} games first and"
            f" {adaptive['round']} a round after, {adaptive['budget']} at most: {min(games)}–{max(games)} games a"
            f" configuration, {short} of {len(games)} settled before the budget")


def play_pass(configs: list[Any], plan: Plan, seed: int, check_every: int, jobs: int,
              progress: Callable[[str, int], None] | None = None, trace: Any = None) -> list[ConfigResult]:
    """The adaptive pass over ``configs`` (see :mod:`.parallel`'s ``Config``), its rounds on
    one pool of ``jobs`` processes started once (or in this process, traceable, with 1)."""
    from .parallel import merge, play_here, workers

    if jobs > 1:
        with workers(configs, jobs) as batch:
            return play_rounds(len(configs), plan, seed,
                               lambda indices, games, first: batch(indices, games, first, check_every, progress),
                               merge)

    def play(indices: list[int], games: int, first: int) -> list[ConfigResult]:
        return play_here([configs[i] for i in indices], games, first, check_every, progress, trace)

    return play_rounds(len(configs), plan, seed, play, merge)
