"""Benchmark: Hâpy games per second on one core, with every per-step check on.

    python bench/validate.py [--games 300] [--repeat 5] [--setup pyramid] [--check-every 16]
                             [--baseline DIR]

For each player count and player kind it plays the same seeded games ``--repeat``
times and keeps the fastest round (CPU time of this process), so that other work on
the machine disturbs the figure as little as possible. The checks are those of
``cardgen validate``: at every step the rule of the action and the card count
(layout + hands + revealed = 36); at every turn end no set of three kept in hand,
no missed win and clockwise order; every ``--check-every`` steps and at the end the
full check (each card exactly once, what every place shows, availability
recomputed from the cover graph); at the end the winner's condition.

``--baseline DIR`` also times another copy of the code (``DIR`` holds its ``cardgen``
package, e.g. a checkout from before a change) in the same process, the two
interleaved row by row and round by round, and prints both with the speed-up: the
machine's noise then hits both alike.

The last line times ``sum(range(100))`` to compare machines: it takes about
0.5 µs on a recent desktop CPU.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_tree(root: Path) -> tuple:
    """(load_game, rules_for, run_config, DEFAULT_CHECK_EVERY) of the ``cardgen`` package in ``root``.

    Each call imports a separate copy of the package: the modules of an earlier copy are
    set aside first, so two copies can be timed side by side in one process."""
    for name in [m for m in sys.modules if m == "cardgen" or m.startswith("cardgen.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        loader = importlib.import_module("cardgen.loader")
        rules = importlib.import_module("cardgen.rules")
        simulate = importlib.import_module("cardgen.validate.simulate")
        game = loader.load_game("hapy")
        hapy = rules.rules_for("hapy")
    finally:
        sys.path.remove(str(root))
    return game, hapy, simulate.run_config, simulate.DEFAULT_CHECK_EVERY


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games per round (default 300)")
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the fastest counts (default 5)")
    ap.add_argument("--setup", default="pyramid", help="setup layout (default pyramid)")
    ap.add_argument("--check-every", type=int, default=None, help="full checks every K steps (default 16)")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="a directory holding another copy of the cardgen package, timed alongside")
    args = ap.parse_args()

    trees = {}
    if args.baseline is not None:
        if not (args.baseline / "cardgen" / "__init__.py").is_file():
            sys.exit(f"--baseline {args.baseline}: no cardgen package there")
        trees["before"] = load_tree(args.baseline.resolve())
    trees["now"] = load_tree(ROOT)  # last: the modules left imported are this tree's
    check_every = args.check_every or trees["now"][3]
    print(f"Hâpy Families, setup {args.setup}, {args.games} games per round, best of {args.repeat} rounds, "
          f"full checks every {check_every} steps")
    rows = [(n, kind) for n in [int(p) for p in args.players.split(",")] for kind in trees["now"][1].agents]
    configs = {(t, n, kind): tree[1].load(tree[0], n, args.setup) for t, tree in trees.items() for n, kind in rows}
    for (t, n, kind), gamedef in configs.items():  # warm up: tables built on first use
        trees[t][2](gamedef, trees[t][1].agents[kind], kind, True, 5, 10_000, check_every)
    best = {key: float("inf") for key in configs}
    lengths = {}
    for r in range(args.repeat):  # rounds interleaved, so that a busy spell of the machine hits every row alike
        for n, kind in rows:
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for t in order:
                gamedef = configs[(t, n, kind)]
                game, rules, run_config, _ = trees[t]
                start = time.process_time()
                res = run_config(gamedef, rules.agents[kind], kind, True, args.games, 1, check_every)
                best[(t, n, kind)] = min(best[(t, n, kind)], time.process_time() - start)
                assert res.failure_count == 0, res.failures[0].message
                lengths[(t, n, kind)] = statistics.median(res.lengths)
    totals = []
    if args.baseline is None:
        print(f"{'players':>7}  {'kind':<7} {'games/s':>8} {'µs/game':>8} {'turns (median)':>15}")
        for n, kind in rows:
            rate = args.games / best[("now", n, kind)]
            totals.append(rate)
            print(f"{n:>7}  {kind:<7} {rate:>8.0f} {1e6 / rate:>8.0f} {lengths[('now', n, kind)]:>15g}")
    else:
        print(f"{'players':>7}  {'kind':<7} {'before':>8} {'now':>8} {'speed-up':>9} {'µs/game':>8}"
              f" {'turns (median) before/now':>26}")
        for n, kind in rows:
            was = args.games / best[("before", n, kind)]
            rate = args.games / best[("now", n, kind)]
            totals.append(rate)
            turns = f"{lengths[('before', n, kind)]:g} / {lengths[('now', n, kind)]:g}"
            print(f"{n:>7}  {kind:<7} {was:>8.0f} {rate:>8.0f} {rate / was:>8.2f}x {1e6 / rate:>8.0f} {turns:>26}")
    calib = min(timeit.repeat("sum(range(100))", number=200_000, repeat=5)) / 200_000 * 1e6
    print(f"harmonic mean {len(totals) / sum(1 / r for r in totals):.0f} games/s; "
          f"this machine: sum(range(100)) takes {calib:.2f} µs")


if __name__ == "__main__":
    main()
