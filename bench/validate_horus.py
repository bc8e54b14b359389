"""Benchmark: Horus games per second on one core, with every per-step check on.

    python bench/validate_horus.py [--games 100] [--repeat 3] [--players 2,3,4] [--check-every 16]
                                   [--no-figures]

For each player count and player kind it plays the same seeded games ``--repeat``
times and keeps the fastest round (CPU time of this process), so that other work on
the machine disturbs the figure as little as possible. The checks are those of
``cardgen validate horus``: at every step the rule of the action, judged on the
checker's own copy of the table (a tile on free table touching a tile by at least
half an edge, the River side next to water, the Temple's place, no Boat left
without its way on; a stone on an empty tile of a region of the card's size; a Nile
move between regions by the River) and the counts (120 tiles, 80 stones); every
``--check-every`` steps each tile and card exactly once, the stones and the Boats
compared with the checker's; every 32nd such check and at the end the whole table,
and every region, island and free place recomputed from scratch and compared with
the engine's incremental ones; at the end the scores recomputed from scratch.

The table also shows the speed without the checker, for comparison. Then, unless
``--no-figures``, the per-game figures of ``HorusState.figures`` over the same games:
scores, the winner's margin, regions and their sizes, islands (how many, how often a game
ends with one, their tiles), stones placed.

The last line times ``sum(range(100))`` to compare machines: it takes about
0.5 µs on a recent desktop CPU, and names the Python that ran
the figures (an optimised build runs them up to a third faster).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _speed import bench_args, bench_configs, print_speed, time_configs  # noqa: E402

from cardgen.validation.simulate import play_game, run_config  # noqa: E402


def main() -> None:
    args = bench_args(__doc__, games=100, repeat=3, players="2,3,4")
    game, rules, configs = bench_configs("horus", args)
    print(f"Horus, {args.games} games per round, best of {args.repeat} rounds, full checks every"
          f" {args.check_every} steps")
    print_speed(time_configs(configs, rules, args.games, args.repeat, args.check_every, run_config, play_game,
                             step_sample=20))

    if args.no_figures:
        return
    print()
    print(f"Figures per player count and kind ({args.games} seeded games each, seeds 1…):")
    print(f"{'players':>7}  {'kind':<7} {'score/seat':>10} {'winner':>7} {'margin':>7} {'turns':>6}"
          f" {'regions':>8} {'size':>5} {'largest':>8} {'islands':>8} {'w/ island':>9} {'isl. tiles':>10}"
          f" {'stones':>7}")
    for n, kind, gamedef in configs:
        scores, winners, margins, turns, regions, sizes, largest, islands, stones = ([] for _ in range(9))
        island_tiles = []
        for i in range(args.games):
            final: list = []
            play_game(gamedef, rules.agents[kind], 1 + i, 10 ** 9, final=final)
            f = final[0].figures()
            ranked = sorted(f["score"], reverse=True)
            scores += f["score"]
            winners.append(ranked[0])
            margins.append(ranked[0] - ranked[1])
            turns.append(f["turns"])
            regions.append(len(f["region_size"]))
            sizes += f["region_size"]
            largest.append(max(f["region_size"]))
            islands.append(f["islands"])
            island_tiles.append(f["island_tiles"])
            stones.append(f["stones_placed"])
        print(f"{n:>7}  {kind:<7} {statistics.mean(scores):>10.1f} {statistics.median(winners):>7.0f}"
              f" {statistics.median(margins):>7.0f} {statistics.median(turns):>6.0f}"
              f" {statistics.mean(regions):>8.1f} {statistics.mean(sizes):>5.2f} {statistics.median(largest):>8.0f}"
              f" {statistics.mean(islands):>8.2f} {100 * sum(1 for k in islands if k) / len(islands):>8.0f}%"
              f" {statistics.mean(island_tiles):>10.2f} {statistics.mean(stones):>7.1f}")
    print("score/seat: mean final score of a seat; winner, margin: medians of the top score and of its lead over the"
          " second; turns: median; regions: mean count at the end, size: mean region size, largest: median"
          " largest region; islands: mean land groups enclosed by water at the end, w/ island: games that end with"
          " one, isl. tiles: mean land tiles on islands; stones: mean Kingdom Stones on the table.")


if __name__ == "__main__":
    main()
