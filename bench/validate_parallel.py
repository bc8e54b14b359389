"""Benchmark: wall-clock time of a whole ``cardgen validate`` pass on one process and on
several (``--jobs``), per game, with the speed-up.

    python bench/validate_parallel.py [--game all|hapy|egypt|farao|horus] [--jobs 2] [--games N] [--repeat 3]

The targets of the issues are per core (``bench/validate.py``); this shows what a user
gets from ``cardgen validate`` on a machine with more than one core. Each round runs
the same validation (every setup, player count and player kind of the game; ``--games``
per configuration, default the game's quick pass) with ``jobs=1`` and with ``--jobs``,
interleaved, and keeps the fastest round of each. It also checks that both reports
agree once their timings are set aside.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _speed import interpreter, machine_yardstick  # noqa: E402

GAMES = ("hapy", "egypt", "farao", "horus")


def main() -> None:
    from cardgen.load.game import load_game
    from cardgen.rules import rules_for
    from cardgen.validation.parallel import usable_cores
    from cardgen.validation.report import without_timings
    from cardgen.validation.runner import DEFAULT_GAMES, ValidateOptions, validate

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="all", choices=("all", *GAMES))
    ap.add_argument("--jobs", type=int, default=0, help="worker processes (default 0: one per usable core)")
    ap.add_argument("--games", type=int, default=None, help="games per configuration (default: the quick pass)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the fastest counts (default 3)")
    args = ap.parse_args()
    jobs = args.jobs or usable_cores()
    print(f"{usable_cores()} usable core(s); comparing 1 process with {jobs}")
    print(f"{'game':<7} {'games':>6} {'1 process (s)':>14} {f'{jobs} processes (s)':>16} {'speed-up':>9}"
          f" {'games/s':>9}  same report")
    for game_id in (GAMES if args.game == "all" else (args.game,)):
        game = load_game(game_id)
        rules = rules_for(game_id)
        games = args.games or getattr(rules, "quick_games", DEFAULT_GAMES)
        best = {1: float("inf"), jobs: float("inf")}
        reports = {}
        for _ in range(args.repeat):
            for j in (1, jobs):
                start = time.perf_counter()
                reports[j] = validate(game, ValidateOptions(games=games, jobs=j))
                best[j] = min(best[j], time.perf_counter() - start)
        total = reports[1]["simulation"]["games"]
        same = without_timings(reports[1]) == without_timings(reports[jobs])
        print(f"{game_id:<7} {total:>6} {best[1]:>14.2f} {best[jobs]:>16.2f} {best[1] / best[jobs]:>8.2f}x"
              f" {total / best[jobs]:>9.0f}  {'yes' if same else 'NO'}")
    print(f"this machine: sum(range(100)) takes {machine_yardstick():.2f} µs on {interpreter()}")


if __name__ == "__main__":
    main()
