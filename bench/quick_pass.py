"""Benchmark: the quick pass of each shipped game, as `cardgen validate GAME` runs it,
paired against a reference in the same run.

    python bench/quick_pass.py [--game hapy,egypt,farao,horus] [--runs 3] [--jobs 0]
                               [--baseline DIR]

For each game it runs whole ``cardgen validate GAME`` processes, alternating (so a busy
spell of the machine hits both alike):

- ``now``: the default quick pass (adaptive: each configuration until its seats' win
  rates are known within the default width, or the game's budget is spent);
- ``fixed``: the same code with ``--games Q``, Q the game's quick-pass budget (100; Horus
  25): the fixed pass the quick pass was before it became adaptive;
- with ``--baseline DIR`` (a checkout of the code before a change, e.g. ``git archive
  main | tar -x -C DIR``): that copy's default quick pass too.

Per figure: the median wall and CPU seconds (the command and its workers) of ``--runs``
processes, the games played, and games per CPU second ("games/s per core": the pace of
the checked games, start-up included) against the figures before the adaptive pass
(one-core games/s of ``bench/validate.py``: 819 Hâpy, 406 Egypt, 109 O, Farao!, 34 Horus).
Each copy of the code keeps its bytecode in a cache of its own (filled by an untimed
run), as an installed cardgen does. Only ratios between rows of the same run mean much
on a shared machine.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("hapy", "egypt", "farao", "horus")
BEFORE_PER_CORE = {"hapy": 819, "egypt": 406, "farao": 109, "horus": 34}  # games/s, one core, before
TARGET_S = 2.0


def run(game: str, extra: list[str], root: Path) -> dict:
    """Wall and CPU seconds of one ``cardgen validate`` process of the package in ``root``,
    its games and its figures (without timings, to compare runs)."""
    env = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "PYTHONPYCACHEPREFIX": _bytecode_dir(root)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardgen", "validate", game, "--json", "-", *extra], cwd=root,
                          env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"cardgen validate {game} {' '.join(extra)} ({root}) failed:\n{done.stderr[-2000:]}")
    sim = json.loads(done.stdout)["simulation"]
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": wall, "cpu": cpu, "games": sim["games"], "configs": len(sim["configs"]),
            "spread": [c["games"] for c in sim["configs"]]}


_CACHES: dict[Path, str] = {}


def _bytecode_dir(root: Path) -> str:
    """A bytecode cache of the copy in ``root``, outside it: the processes start as a
    designer's do (``pip install`` compiles the modules), not compiling every module
    each time, and the copies do not share one."""
    if root not in _CACHES:
        _CACHES[root] = tempfile.mkdtemp(prefix="cardgen-quick-pass-pyc-")
        atexit.register(shutil.rmtree, _CACHES[root], True)
    return _CACHES[root]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default=",".join(GAMES))
    ap.add_argument("--runs", type=int, default=3, help="processes per figure (median; default 3)")
    ap.add_argument("--jobs", type=int, default=0, help="--jobs of each run (default 0: every core)")
    ap.add_argument("--baseline", type=Path, default=None, help="a copy of the code before the change, timed too")
    args = ap.parse_args()
    if args.baseline is not None and not (args.baseline / "cardgen" / "__init__.py").is_file():
        sys.exit(f"--baseline {args.baseline}: no cardgen package there")
    sys.path.insert(0, str(ROOT))
    from cardgen.rules import rules_for
    from cardgen.validation.runner import DEFAULT_GAMES

    one, five, _ = os.getloadavg()
    print(f"`cardgen validate GAME --jobs {args.jobs}` on {os.cpu_count()} cores, median of {args.runs} processes"
          f" each, alternating; load average {one:.1f} (5 min {five:.1f}); CPU: the command and its workers")
    print(f"{'game':<6} {'pass':<9} {'games':>6} {'wall':>7} {'CPU':>7} {'games/s/core':>13} {'before':>7}"
          f"  {'wall vs fixed':>13}  games per configuration")
    jobs = ["--jobs", str(args.jobs)]
    for game in args.game.split(","):
        budget = getattr(rules_for(game), "quick_games", DEFAULT_GAMES)
        kinds = {"now": ([*jobs], ROOT), "fixed": (["--games", str(budget), *jobs], ROOT)}
        if args.baseline is not None:
            kinds["baseline"] = ([*jobs], args.baseline.resolve())
        got: dict[str, list[dict]] = {k: [] for k in kinds}
        for extra, root in kinds.values():  # untimed: fills each copy's bytecode cache
            run(game, [*extra, "--games", "1"], root)
        for r in range(args.runs):
            for kind in (list(kinds) if r % 2 == 0 else list(reversed(kinds))):
                extra, root = kinds[kind]
                got[kind].append(run(game, extra, root))
        med = {k: {x: statistics.median(g[x] for g in v) for x in ("wall", "cpu")} for k, v in got.items()}
        pairs = sorted(n["wall"] / f["wall"] for n, f in zip(got["now"], got["fixed"]))
        for kind, runs in got.items():
            games = runs[0]["games"]
            spread = runs[0]["spread"]
            ratio = f"{statistics.median(pairs):.2f}x" if kind == "now" else ""
            print(f"{game:<6} {kind:<9} {games:>6,} {med[kind]['wall']:>6.2f}s {med[kind]['cpu']:>6.2f}s"
                  f" {games / med[kind]['cpu']:>13.0f} {BEFORE_PER_CORE[game]:>7}  {ratio:>13}"
                  f"  {min(spread)}–{max(spread)}")
    print(f"(target: the quick pass under {TARGET_S:g} s wall on 2 cores; games/s/core counts the start-up too)")


if __name__ == "__main__":
    main()
