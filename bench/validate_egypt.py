"""Benchmark: Egypt games per second on one core, with every per-step check on.

    python bench/validate_egypt.py [--games 500] [--repeat 5] [--players 2,3,4,5,6] [--check-every 16]
                                   [--no-figures]

For each player count and player kind it plays the same seeded games ``--repeat``
times and keeps the fastest round (CPU time of this process), so that other work on
the machine disturbs the figure as little as possible. The checks are those of
``cardgen validate egypt``: at every step the rule of the action (a meld of 2+
cards of one type that the player holds, Ankhs wild; a special meld's three types;
a discard of at most 3 that keeps at most 5; the controller alone taking a card and
playing melds), the card count (deck + hands + table + discard = 63) and every
point of tribute; at each phase change the hand sizes, the controller recomputed
from the reveals and the table cleared; every ``--check-every`` steps and at the
end, the full check (each card exactly once, the counts per type, no reveal seen
before every seat has chosen), also at the end of a run of chance steps (a draw
phase, a steal) when 16 steps have passed since the last full check (sampled by the
step counter, so a seed replays it); at the end exactly ten turns and the winners.

The move lists and the greedy players' choices are cached by a hand's counts per
type, and ship complete for the shipped house rules (``cardgen/rules/egypt/tables.bin``);
a warm-up round fills them first for other options, and the table also shows the speed
without the checker, for comparison.

Then, unless ``--no-figures``, it prints what the generic report does not show:
the tribute scored, how often control changes hands, ties (from
``cardgen.rules.egypt.figures.play_statistics``, the same seeded games without the checks).

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

from cardgen.rules.egypt.figures import play_statistics  # noqa: E402
from cardgen.rules.egypt.spec import TURNS  # noqa: E402
from cardgen.validation.simulate import play_game, run_config  # noqa: E402


def main() -> None:
    args = bench_args(__doc__, games=500, repeat=5, players="2,3,4,5,6")
    game, rules, configs = bench_configs("egypt", args)
    print(f"Egypt, {args.games} games per round, best of {args.repeat} rounds, full checks every"
          f" {args.check_every} steps; options {rules.options(game)}")

    def ten_turns(res) -> None:
        assert statistics.median(res.lengths) == TURNS

    # warm-up: fill the caches of moves and greedy choices
    print_speed(time_configs(configs, rules, args.games, args.repeat, args.check_every, run_config, play_game,
                             warm_up=args.games, check=ten_turns))

    if args.no_figures:
        return
    print()
    print("Figures per player count and kind (2,000 seeded games each, the same as cardgen validate's seeds 1…):")
    print(f"{'players':>7}  {'kind':<7} {'tribute/seat':>13} {'winner':>7} {'margin':>7} {'ties':>6}"
          f" {'control changes':>16} {'turns ruled':>12} {'1st ruled':>10} {'melds':>6} {'special':>8}"
          f" {'reshuffles':>10}")
    for n, kind, gamedef in configs:
        f = play_statistics(gamedef, rules.agents[kind], 2000, 1)
        print(f"{n:>7}  {kind:<7} {f['tribute_per_seat']['mean']:>6.1f} (p95 {f['tribute_per_seat']['p95']:>2})"
              f" {f['winning_tribute']['median']:>7} {f['winning_margin']['median']:>7}"
              f" {100 * f['ties_at_the_top'] / f['games']:>5.1f}%"
              f" {f['control_changes_per_game']['mean']:>8.2f} (p95 {f['control_changes_per_game']['p95']})"
              f" {f['turns_with_a_controller']['mean']:>12.2f} {f['first_turn_with_a_controller']['median']:>10}"
              f" {f['melds_per_game']:>6.1f} {f['special_melds_per_game']:>8.2f} {f['reshuffles_per_game']:>10.2f}")
    print("tribute/seat: mean final tribute of a seat (95th percentile); winner, margin: medians; ties: games"
          " whose top score is shared; control changes: mean per game that control passes from one player to"
          " another; turns ruled: turns with a Dynasty phase (of 10); 1st ruled: the median first such turn;"
          " melds, special: played per game; reshuffles: discard piles shuffled into a new deck per game.")


if __name__ == "__main__":
    main()
