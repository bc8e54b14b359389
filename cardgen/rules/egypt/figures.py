"""Egypt's figures beyond the generic validate report (tribute, control changes, ties),
from seeded games played without the checks."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..api import CHANCE, TERMINAL, player_rng

if TYPE_CHECKING:
    from .game import EgyptGame


def play_statistics(gamedef: EgyptGame, make_agent: Callable[[EgyptGame, int], Any], games: int,
                    seed: int = 1) -> dict[str, Any]:
    """Figures the generic report does not show: the tribute scored, how often control
    changes hands, ties…

    Plays the same seeded games as ``cardgen validate`` (game ``i`` with
    ``random.Random(seed + i)`` for chance and :func:`~cardgen.rules.api.player_rng` for
    each seat, the same draws and choices) without the checks."""
    scores: list[int] = []
    winning: list[int] = []
    margins: list[int] = []
    changes: list[int] = []
    control_turns: list[int] = []
    first_control: list[int] = []
    reshuffles = ties = combos = melds = 0
    for i in range(games):
        rng = random.Random(seed + i)
        seats = [player_rng(seed + i, q) for q in range(gamedef.num_players)]
        state = gamedef.new_initial_state()
        acts = [make_agent(gamedef, q).act for q in range(gamedef.num_players)]
        first = 0
        while True:
            p = state.current_player()
            if p == TERMINAL:
                break
            if p == CHANCE:
                state.apply_chance_run(rng)
                continue
            state.apply_action(acts[p](state.observation(p), state.legal_actions(), seats[p]))
            if not first and state.controller >= 0:
                first = state.turn + 1
        sc = sorted(state.score, reverse=True)
        scores += state.score
        winning.append(sc[0])
        margins.append(sc[0] - sc[1])
        ties += sc[0] == sc[1]
        changes.append(state.changes)
        control_turns.append(state.control_turns)
        first_control.append(first or gamedef.turns + 1)
        reshuffles += state.reshuffles
        combos += state.combos_played
        melds += state.melds_played

    def summary(xs: list[int]) -> dict[str, float]:
        ys = sorted(xs)
        k = len(ys)
        return {"mean": round(sum(ys) / k, 2), "min": ys[0], "p5": ys[int(0.05 * (k - 1))],
                "median": ys[k // 2], "p95": ys[int(0.95 * (k - 1) + 0.5)], "max": ys[-1]}

    hist: dict[int, int] = {}
    for x in scores:
        hist[x // 10 * 10] = hist.get(x // 10 * 10, 0) + 1
    return {
        "games": games,
        "players": gamedef.num_players,
        "tribute_per_seat": summary(scores),
        "winning_tribute": summary(winning),
        "winning_margin": summary(margins),
        "ties_at_the_top": ties,
        "tribute_histogram": {f"{lo}–{lo + 9}": k for lo, k in sorted(hist.items())},
        "control_changes_per_game": summary(changes),
        "turns_with_a_controller": summary(control_turns),
        "first_turn_with_a_controller": summary(first_control),
        "reshuffles_per_game": round(reshuffles / games, 2),
        "melds_per_game": round(melds / games, 2),
        "special_melds_per_game": round(combos / games, 2),
    }
