"""Benchmark: O, Farao! games per second on one core, with every per-step check on.

    python bench/validate_farao.py [--games 200] [--repeat 3] [--players 3,4] [--check-every 16]
                                   [--no-figures]

For each player count and player kind it plays the same seeded games ``--repeat``
times and keeps the fastest round (CPU time of this process), so that other work on
the machine disturbs the figure as little as possible. The checks are those of
``cardgen validate farao``: at every step the rule of the action (a build that
keeps the pyramid valid with cards the player holds and within the pyramid cap, a
cash of a pyramid tall enough for the figure's plateau, a trade with another
player and none after a build, a theft after a roll higher than the height, discards only above the hand
limit), the cards adding up to the deck, scores changing only by a cash of the
right value, the figure moving one plateau per cash, hands within the limit out of
turn, seven cards at every turn's end; every ``--check-every`` decision steps (and
at most every 16 steps at the end of a run of draws) and at the end, the full
check (every kind counted everywhere, every pyramid valid, the caps, the End card);
at the end the End card drawn, every pyramid cashed and the scores.

The table also shows the speed without the checker, for comparison, and the steps
a game takes (decisions and chance steps). Then, unless ``--no-figures``, the game
figures the validator's report summarises (``FaraoState.figures``): scores, the
value of the cashed pyramids, turns, thefts and collapses.

The last line times ``sum(range(100))`` to compare machines: it takes about
0.5 µs on a recent desktop CPU, and names the Python that ran
the figures (an optimised build runs them up to a third faster).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _speed import bench_args, bench_configs, pooled_figures, print_speed, time_configs  # noqa: E402

from cardgen.validation.simulate import play_game, run_config  # noqa: E402


def main() -> None:
    args = bench_args(__doc__, games=200, repeat=3, players="3,4")
    game, rules, configs = bench_configs("farao", args)
    print(f"O, Farao!, {args.games} games per round, best of {args.repeat} rounds, full checks every"
          f" {args.check_every} steps; options {rules.options(game)}")

    def finished(res) -> None:
        assert not res.nonterminating, res.nonterminating

    print_speed(time_configs(configs, rules, args.games, args.repeat, args.check_every, run_config, play_game,
                             warm_up=20, check=finished))

    if args.no_figures:
        return
    print()
    print("Figures per player count and kind (500 seeded games each, the same as cardgen validate's seeds 1…):")
    print(f"{'players':>7}  {'kind':<7} {'score/seat':>11} {'winner':>7} {'pyramid':>8} {'cashed':>7} {'turns':>6}"
          f" {'p95':>5} {'thefts':>7} {'collapses':>10} {'blocks':>7} {'reshuffles':>11}")
    for n, kind, gamedef in configs:
        f = pooled_figures(gamedef, rules, kind, 500)
        mean = statistics.mean
        turns = sorted(f["turns"])
        print(f"{n:>7}  {kind:<7} {mean(f['score']):>11.1f} {statistics.median(f['winning_score']):>7.0f}"
              f" {mean(f['pyramid_value']):>8.1f} {mean(f['pyramids_cashed']):>7.1f} {statistics.median(turns):>6.0f}"
              f" {turns[int(0.95 * (len(turns) - 1))]:>5.0f} {mean(f['thefts']):>7.2f} {mean(f['collapses']):>10.2f}"
              f" {mean(f['blocks']):>7.2f} {mean(f['reshuffles']):>11.2f}")
    print("score/seat: mean final score of a seat; winner: median winning score; pyramid: mean value of a cashed"
          " pyramid (in play and at the end); cashed: pyramids cashed per game; turns: median and 95th percentile;"
          " thefts, collapses, blocks (Pharaohs played), reshuffles (discard → pile): means per game.")


if __name__ == "__main__":
    main()
