"""The mutation score: how many of the catalogue's injected engine bugs the validator catches.

    python bench/mutation_score.py [--game hapy,egypt,horus,farao] [--check-every 16]
                                   [--catalogue first,second]

For each catalogue and game: every mutation of ``bench/mutations/catalogue.py`` (the first
catalogue) or ``bench/mutations/second.py`` (the second, written from the rulebooks apart
from the first) applied at run time,
its configuration played as the adaptive quick pass of ``cardgen validate`` plays it (its
rounds, the default ``--check-every``) until a seed fails, that seed replayed as the printed replay command plays it (one game,
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
    ap.add_argument("--catalogue", default="first,second", help="first, second or both (scored apart)")
    args = ap.parse_args()
    table = []
    for catalogue in args.catalogue.split(","):
        for game in args.game.split(","):
            mutations = by_game(game, catalogue)
            if mutations:
                table.append((catalogue, *score_game(game, catalogue, mutations, args.check_every)))
    print("\ncatalogue game     caught  score")
    for catalogue, game, c, t, score in table:
        print(f"{catalogue:<9} {game:<8} {c:>3}/{t:<3} {score:5.1f} %")
    return 0


def score_game(game: str, catalogue: str, mutations: list, check_every: int) -> tuple[str, int, int, float]:
    """Judge one game's mutations of one catalogue; print each verdict; (game, caught, total, %)."""
    verdicts = [judge(m, check_every=check_every) for m in mutations]
    caught = [v for v in verdicts if v.caught]
    score = 100 * len(caught) / len(verdicts)
    print(f"\n{catalogue} catalogue, {game}: {len(caught)}/{len(verdicts)} caught ({score:.0f} %)")
    for v in verdicts:
        mark = "✓" if v.caught else "✗"
        where = f"seed {v.seed} of {v.games}" + ("" if v.replayed or v.seed is None else " (replay passed!)")
        print(f"  {mark} {v.mutation.name}: {v.mutation.bug}" + (f" — {where}: {v.message}" if v.seed else ""))
    missed = [v for v in verdicts if not v.caught]
    if missed:
        print("  not caught:")
        for v in missed:
            print(f"    {v.mutation.name}: " + ("no seed failed" if v.seed is None else
                                                 f"seed {v.seed} passed on replay"))
    return game, len(caught), len(verdicts), score


if __name__ == "__main__":
    raise SystemExit(main())
