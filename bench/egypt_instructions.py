"""Benchmark: Egypt's machine instructions per checked game, which, unlike times, do not
depend on the load of the machine (for comparing two versions of the code exactly).

    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/eg.out \\
        PYTHON bench/egypt_instructions.py [--tree DIR] [--games 20] [--warm 100]
    python3 bench/egypt_instructions.py --report /tmp/eg.out [--games 20]

(``PYTHON``: the interpreter itself, ``python3 -c 'import sys; print(sys.executable)'``,
not a wrapper script such as pyenv's shim, which valgrind would follow instead.)

The first command plays, for 2, 4 and 6 players × random and greedy, ``--warm`` games to
fill the tables built on first use, then the ``--games`` seeded games of
``cardgen validate`` (seeds 1…) with every check on, once to warm up and once with
callgrind's instrumentation switched on (``callgrind_control``), dumping one profile per
row. The second prints the instructions per game of each row and their mean; the
mean's ratio between two versions is their speed ratio on the harmonic mean of
``bench/validate.py``'s rows (``callgrind_annotate`` on a dump shows where they go).
``--tree DIR`` times the ``cardgen`` package in DIR (e.g. a checkout of an earlier commit) instead of this one.
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
from pathlib import Path

ROWS = [(n, kind) for n in (2, 4, 6) for kind in ("random", "greedy")]


def play(tree: Path, warm: int, games: int) -> None:
    sys.path.insert(0, str(tree))
    from cardgen.load.game import load_game
    from cardgen.rules import rules_for
    from cardgen.validation import simulate

    game, rules = load_game("egypt"), rules_for("egypt")
    configs = []
    for n, kind in ROWS:
        gamedef = rules.load(game, n, "standard")
        simulate.run_config(gamedef, rules.agents[kind], kind, True, warm, 10_000, 16)
        simulate.run_config(gamedef, rules.agents[kind], kind, True, games, 1, 16)
        configs.append((gamedef, kind))
    pid = str(os.getpid())
    subprocess.run(["callgrind_control", "-i", "on", pid], capture_output=True)
    for gamedef, kind in configs:
        simulate.run_config(gamedef, rules.agents[kind], kind, True, games, 1, 16)
        subprocess.run(["callgrind_control", "-d", pid], capture_output=True)  # one dump per row
    subprocess.run(["callgrind_control", "-i", "off", pid], capture_output=True)


def report(out: str, games: int) -> None:
    dumps = sorted(glob.glob(out + ".*"), key=lambda f: int(f.rsplit(".", 1)[1]))[:len(ROWS)]
    if len(dumps) < len(ROWS):
        sys.exit(f"{out}.1…{len(ROWS)}: expected one dump per row, found {len(dumps)} (was it run under callgrind?)")
    per_game = []
    for path, (n, kind) in zip(dumps, ROWS):
        with open(path) as f:
            total = next(int(line.split()[1]) for line in f if line.startswith(("totals:", "summary:")))
        per_game.append(total / games)
        print(f"{n} players {kind:<7} {total / games / 1e6:7.3f} M instructions/game")
    print(f"mean {sum(per_game) / len(per_game) / 1e6:.3f} M instructions/game")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--warm", type=int, default=100)
    ap.add_argument("--report", default=None, help="the --callgrind-out-file of a run: print its figures")
    args = ap.parse_args()
    if args.report:
        report(args.report, args.games)
    else:
        play(args.tree.resolve(), args.warm, args.games)


if __name__ == "__main__":
    main()
