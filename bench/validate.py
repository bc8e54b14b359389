"""Benchmark: Hâpy games per second on one core, with every per-step check on.

    python bench/validate.py [--games 300] [--repeat 5] [--setup pyramid] [--check-every 16]

For each player count and player kind it plays the same seeded games ``--repeat``
times and keeps the fastest round (CPU time of this process), so that other work on
the machine disturbs the figure as little as possible. The checks are those of
``cardgen validate``: at every step the rule of the action and the card count
(layout + hands + revealed = 36); at every turn end no set of three kept in hand,
no missed win and clockwise order; every ``--check-every`` steps and at the end the
full check (each card exactly once, what every place shows, availability
recomputed from the cover graph); at the end the winner's condition.

The last line times ``sum(range(100))`` to compare machines: it takes about
0.5 µs on a recent desktop CPU.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgen.loader import load_game  # noqa: E402
from cardgen.rules import rules_for  # noqa: E402
from cardgen.validate.simulate import DEFAULT_CHECK_EVERY, run_config  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games per round (default 300)")
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the fastest counts (default 5)")
    ap.add_argument("--setup", default="pyramid", help="setup layout (default pyramid)")
    ap.add_argument("--check-every", type=int, default=DEFAULT_CHECK_EVERY,
                    help=f"full checks every K steps (default {DEFAULT_CHECK_EVERY})")
    ap.add_argument("--players", default="2,3,4")
    args = ap.parse_args()

    game = load_game("hapy")
    rules = rules_for("hapy")
    print(f"Hâpy Families, setup {args.setup}, {args.games} games per round, best of {args.repeat} rounds, "
          f"full checks every {args.check_every} steps")
    print(f"{'players':>7}  {'kind':<7} {'games/s':>8} {'µs/game':>8} {'turns (median)':>15}")
    configs = [(n, kind, rules.load(game, n, args.setup))
               for n in [int(p) for p in args.players.split(",")] for kind in rules.agents]
    best = {(n, kind): float("inf") for n, kind, _ in configs}
    lengths = {}
    for _ in range(args.repeat):  # rounds interleaved, so that a busy spell of the machine hits every row alike
        for n, kind, gamedef in configs:
            start = time.process_time()
            res = run_config(gamedef, rules.agents[kind], kind, True, args.games, 1, args.check_every)
            best[(n, kind)] = min(best[(n, kind)], time.process_time() - start)
            assert res.failure_count == 0, res.failures[0].message
            lengths[(n, kind)] = statistics.median(res.lengths)
    totals = []
    for n, kind, _ in configs:
        rate = args.games / best[(n, kind)]
        totals.append(rate)
        print(f"{n:>7}  {kind:<7} {rate:>8.0f} {1e6 / rate:>8.0f} {lengths[(n, kind)]:>15g}")
    calib = min(timeit.repeat("sum(range(100))", number=200_000, repeat=5)) / 200_000 * 1e6
    print(f"harmonic mean {len(totals) / sum(1 / r for r in totals):.0f} games/s; "
          f"this machine: sum(range(100)) takes {calib:.2f} µs")


if __name__ == "__main__":
    main()
