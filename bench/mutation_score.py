"""The mutation score: how many of the catalogue's injected engine bugs the validator catches.

    python bench/mutation_score.py [--game hapy,egypt,horus,farao] [--check-every 16]

For each game: every mutation of ``bench/mutations/catalogue.py`` applied at run time,
its seeds played with the checks of ``cardgen validate`` (the default ``--check-every``)
until one fails, that seed replayed as the printed replay command plays it (one game,
traced) and required to fail again; then caught/total, the score in %, each mutation
with its failing seed and message, and the ones not caught with why.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.mutations.catalogue import by_game  # noqa: E402
from bench.mutations.run import judge  # noqa: E402
from cardgen.validation.simulate import DEFAULT_CHECK_EVERY  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="hapy,egypt,horus,farao")
    ap.add_argument("--check-every", type=int, default=DEFAULT_CHECK_EVERY)
    args = ap.parse_args()
    table = []
    for game in args.game.split(","):
        verdicts = [judge(m, check_every=args.check_every) for m in by_game(game)]
        caught = [v for v in verdicts if v.caught]
        score = 100 * len(caught) / len(verdicts)
        print(f"\n{game}: {len(caught)}/{len(verdicts)} caught ({score:.0f} %)")
        for v in verdicts:
            mark = "✓" if v.caught else "✗"
            where = f"seed {v.seed}" + ("" if v.replayed or v.seed is None else " (replay passed!)")
            print(f"  {mark} {v.mutation.name}: {v.mutation.bug}" + (f" — {where}: {v.message}" if v.seed else ""))
        missed = [v for v in verdicts if not v.caught]
        if missed:
            print("  not caught:")
            for v in missed:
                print(f"    {v.mutation.name}: " + ("no seed failed" if v.seed is None else
                                                     f"seed {v.seed} passed on replay"))
        table.append((game, len(caught), len(verdicts), score))
    print("\ngame     caught  score")
    for game, c, t, score in table:
        print(f"{game:<8} {c:>3}/{t:<3} {score:5.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
