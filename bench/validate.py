"""Benchmark: simulated games per second on one core, with every per-step check on,
for every shipped game (or one), against each game's target.

    python bench/validate.py [--game all|hapy|egypt|farao|horus] [--games N] [--repeat 5]
                             [--setup NAME] [--players 2,3,4] [--check-every 16] [--baseline DIR]
    python bench/validate.py --passes [--game …] [--runs 3] [--balance] [--baseline DIR]

With ``--passes`` it times whole ``cardgen validate GAME`` processes instead, as a
designer runs them, on every core: the default quick pass (wall and CPU, the median of
``--runs``), and the balance pass (``--balance``: 2,401 games per configuration, for
±2 percentage points on every seat's win rate). The balance pass is estimated from the
quick pass's games per second unless ``--balance`` plays it (minutes for O, Farao! and
Horus). With ``--baseline DIR`` it times the quick pass of both copies of the code
instead, process by process in turn, and prints the CPU speed-up per pair and whether
both reports hold the same figures (the same seeded games).

For each game, player count and player kind it plays the same seeded games ``--repeat``
times and keeps the fastest round (CPU time of this process), so that other work on
the machine disturbs the figure as little as possible. The checks are those of
``cardgen validate``: at every step the rule of the action and the card (tile, stone)
counts; every ``--check-every`` steps and at the end the full checks of each game's
checker (each card exactly once, layouts, regions recomputed from scratch…); at the end
the winner's condition. Games per round default to a few seconds' worth per game
(Hâpy 300, Egypt 300, O, Farao! 60, Horus 20); the setup to Hâpy's pyramid and each
other game's only setup.

``--baseline DIR`` also times another copy of the code (``DIR`` holds its ``cardgen``
package, e.g. a checkout from before a change) in the same process, the two
interleaved row by row and round by round, and prints both with the speed-up: the
machine's noise then hits both alike.

``bench/validate_egypt.py``, ``validate_farao.py`` and ``validate_horus.py`` add each
game's own figures (and the speed without the checker). The last line times
``sum(range(100))`` to compare machines (about 0.5 µs on a recent desktop CPU) and names
the Python that ran the figures (an optimised build runs them up to a third faster).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import statistics
import sys
import time
from pathlib import Path

from _speed import interpreter, machine_yardstick, runner_floor, unchecked  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


GAMES = ("hapy", "egypt", "farao", "horus")
# per game: games per round by default, and the floor in games per second on one core that
# a change must not fall below (the Python engines' speed when the targets were last set)
GAMES_PER_ROUND = {"hapy": 300, "egypt": 300, "farao": 60, "horus": 20}
TARGET = {"hapy": 1200, "egypt": 700, "farao": 130, "horus": 50}
QUICK_PASS_TARGET_S = 2.0
DEFAULT_SETUP = {"hapy": "pyramid"}


def load_tree(root: Path, game_id: str) -> tuple:
    """(load_game, rules_for, run_config, DEFAULT_CHECK_EVERY, modules) of the ``cardgen``
    package in ``root``.

    Each call imports a separate copy of the package: the modules of an earlier copy are
    set aside first, so two copies can be timed side by side in one process. ``modules``
    are this copy's modules, every rules module among them (also those an engine imports
    only when it plays), for :func:`use_tree` to put back before the copy plays."""
    set_aside()
    sys.path.insert(0, str(root))
    try:
        loader = importlib.import_module("cardgen.load.game")
        rules = importlib.import_module("cardgen.rules")
        simulate = importlib.import_module("cardgen.validation.simulate")
        for info in pkgutil.iter_modules(rules.__path__):
            importlib.import_module(f"cardgen.rules.{info.name}")
        game = loader.load_game(game_id)
        game_rules = rules.rules_for(game_id)
    finally:
        sys.path.remove(str(root))
    return game, game_rules, simulate.run_config, simulate.DEFAULT_CHECK_EVERY, ours()


def ours() -> dict:
    return {name: m for name, m in sys.modules.items() if name == "cardgen" or name.startswith("cardgen.")}


def set_aside() -> None:
    for name in ours():
        del sys.modules[name]


def use_tree(tree: tuple) -> None:
    """Make ``tree``'s modules the imported ones, so that an import an engine makes while it
    plays (``from . import helper`` in a function) finds its own copy, not the other one."""
    set_aside()
    sys.modules.update(tree[4])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="all", choices=("all", *GAMES), help="which game (default: all four)")
    ap.add_argument("--games", type=int, default=None, help="games per round (default: per game, see above)")
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the fastest counts (default 5)")
    ap.add_argument("--setup", default=None, help="setup layout (default: Hâpy's pyramid, the others' only one)")
    ap.add_argument("--check-every", type=int, default=None, help="full checks every K steps (default 16)")
    ap.add_argument("--players", default=None, help="player counts, e.g. 2,3,4 (default: all the game allows)")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="a directory holding another copy of the cardgen package, timed alongside")
    ap.add_argument("--ceiling", action="store_true",
                    help="also time each row without its checker, and show the most games/s the runner's"
                         " own loop allows for the row's steps")
    ap.add_argument("--passes", action="store_true",
                    help="time whole `cardgen validate GAME` processes: the quick pass, and the balance pass")
    ap.add_argument("--runs", type=int, default=3, help="with --passes: processes per figure (median)")
    ap.add_argument("--balance", action="store_true", help="with --passes: play the balance pass, not estimate it")
    args = ap.parse_args()
    if args.passes:
        if args.baseline is not None and not (args.baseline / "cardgen" / "__init__.py").is_file():
            sys.exit(f"--baseline {args.baseline}: no cardgen package there")
        passes(GAMES if args.game == "all" else (args.game,), args.runs, args.balance,
               args.baseline.resolve() if args.baseline is not None else None)
        return
    if args.ceiling and args.baseline is not None:
        sys.exit("--ceiling and --baseline: one at a time")
    if args.baseline is not None and not (args.baseline / "cardgen" / "__init__.py").is_file():
        sys.exit(f"--baseline {args.baseline}: no cardgen package there")
    summary = []
    if args.ceiling:
        sys.path.insert(0, str(ROOT))
        try:
            api = importlib.import_module("cardgen.rules.api")
            simulate = importlib.import_module("cardgen.validation.simulate")
            args.floor = runner_floor(simulate.play_game, api.RandomAgent, api.TERMINAL)
        finally:
            sys.path.remove(str(ROOT))
            set_aside()
        print(f"the runner's own loop: {args.floor:.2f} µs a decision step (a random player, a game whose"
              " steps do nothing, no checker)\n")
    for game_id in (GAMES if args.game == "all" else (args.game,)):
        summary.append(bench_game(game_id, args))
        print()
    if len(summary) > 1:
        print("game     harmonic mean   floor  held")
        for game_id, mean in summary:
            print(f"{game_id:<8} {mean:>13.0f} {TARGET[game_id]:>7}  {'yes' if mean >= TARGET[game_id] else 'no'}")
    print(f"this machine: sum(range(100)) takes {machine_yardstick():.2f} µs on {interpreter()}")


def bench_game(game_id: str, args) -> tuple[str, float]:
    """Time one game's rows; print its table; return (game, harmonic mean games/s)."""
    trees = {}
    if args.baseline is not None:
        trees["before"] = load_tree(args.baseline.resolve(), game_id)
    trees["now"] = load_tree(ROOT, game_id)  # last: the modules left imported are this tree's
    game, rules = trees["now"][0], trees["now"][1]
    check_every = args.check_every or trees["now"][3]
    games = args.games or GAMES_PER_ROUND[game_id]
    setup = args.setup or DEFAULT_SETUP.get(game_id) or rules.setups(game)[0]
    counts = [int(p) for p in args.players.split(",")] if args.players else list(rules.player_counts(game))
    counts = [n for n in counts if n in rules.player_counts(game)]
    print(f"{game.name('en')}, setup {setup}, {games} games per round, best of {args.repeat} rounds, "
          f"full checks every {check_every} steps; no lower than {TARGET[game_id]:,} games/s")
    rows = [(n, kind) for n in counts for kind in rules.agents]
    configs = {(t, n, kind): tree[1].load(tree[0], n, setup) for t, tree in trees.items() for n, kind in rows}
    for (t, _n, kind), gamedef in configs.items():  # warm up: tables built on first use
        use_tree(trees[t])
        trees[t][2](gamedef, trees[t][1].agents[kind], kind, True, 2, 10_000, check_every)
    best = {key: float("inf") for key in configs}
    if args.ceiling:  # the same rows without their checker
        configs.update({("bare", n, kind): unchecked(configs[("now", n, kind)]) for n, kind in rows})
        trees["bare"] = trees["now"]
        best.update({("bare", n, kind): float("inf") for n, kind in rows})
    lengths = {}
    for r in range(args.repeat):  # rounds interleaved, so that a busy spell of the machine hits every row alike
        for n, kind in rows:
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for t in order:
                gamedef = configs[(t, n, kind)]
                _, t_rules, run_config, _, _ = trees[t]
                use_tree(trees[t])
                start = time.process_time()
                res = run_config(gamedef, t_rules.agents[kind], kind, True, games, 1, check_every)
                best[(t, n, kind)] = min(best[(t, n, kind)], time.process_time() - start)
                assert res.failure_count == 0, res.failures[0].message
                lengths[(t, n, kind)] = statistics.median(res.lengths) if res.lengths else float("nan")
    totals = []
    if args.ceiling:
        print(f"{'players':>7}  {'kind':<7} {'games/s':>8} {'no checker':>11} {'decisions':>11}"
              f" {'runner alone':>13}")
        bare, floor = [], []
        for n, kind in rows:
            rate = games / best[("now", n, kind)]
            totals.append(rate)
            bare.append(games / best[("bare", n, kind)])
            steps = statistics.mean(_decisions(configs[("now", n, kind)], rules.agents[kind], games))
            floor.append(1e6 / (steps * args.floor))
            print(f"{n:>7}  {kind:<7} {rate:>8.0f} {bare[-1]:>11.0f} {steps:>11.0f} {floor[-1]:>13.0f}")
        print(f"harmonic mean without the checker {len(bare) / sum(1 / r for r in bare):.0f} games/s;"
              f" the runner's loop alone allows {len(floor) / sum(1 / r for r in floor):.0f}")
    elif args.baseline is None:
        print(f"{'players':>7}  {'kind':<7} {'games/s':>8} {'µs/game':>8} {'turns (median)':>15}")
        for n, kind in rows:
            rate = games / best[("now", n, kind)]
            totals.append(rate)
            print(f"{n:>7}  {kind:<7} {rate:>8.0f} {1e6 / rate:>8.0f} {lengths[('now', n, kind)]:>15g}")
    else:
        print(f"{'players':>7}  {'kind':<7} {'before':>8} {'now':>8} {'speed-up':>9} {'µs/game':>8}"
              f" {'turns (median) before/now':>26}")
        for n, kind in rows:
            was = games / best[("before", n, kind)]
            rate = games / best[("now", n, kind)]
            totals.append(rate)
            turns = f"{lengths[('before', n, kind)]:g} / {lengths[('now', n, kind)]:g}"
            print(f"{n:>7}  {kind:<7} {was:>8.0f} {rate:>8.0f} {rate / was:>8.2f}x {1e6 / rate:>8.0f} {turns:>26}")
    mean = len(totals) / sum(1 / r for r in totals)
    print(f"harmonic mean {mean:.0f} games/s")
    return game_id, mean


def _validate_process(game_id: str, extra: list[str], root: Path = ROOT) -> dict:
    """Wall and CPU seconds (this process's children: the command and its workers) of one
    ``cardgen validate`` run of the ``cardgen`` package in ``root``, and its report's games
    and figures (without timings, to compare two copies of the code)."""
    import json
    import os
    import resource
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "PYTHONDONTWRITEBYTECODE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "cardgen", "validate", game_id, "--json", "-", *extra], cwd=root,
                         env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit(f"cardgen validate {game_id} ({root}) failed:\n{run.stderr[-2000:]}")
    sim = json.loads(run.stdout)["simulation"]
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    figures = [{k: v for k, v in c.items() if k not in ("elapsed_s", "games_per_s")} for c in sim["configs"]]
    return {"wall": wall, "cpu": cpu, "games": sim["games"], "configs": len(sim["configs"]),
            "play_s": sim["elapsed_s"], "figures": figures}


def passes(games: tuple[str, ...], runs: int, balance: bool, baseline: Path | None = None) -> None:
    """The quick pass and the balance pass of each game, as `cardgen validate` runs them;
    with ``baseline``, each quick pass also of that copy of the code, the two alternating
    process by process (so a busy spell of the machine hits both alike), with the ratio of
    their CPU times per pair."""
    import os

    sys.path.insert(0, str(ROOT))
    from cardgen.cli.validate import BALANCE_GAMES

    one, five, _ = os.getloadavg()
    print(f"`cardgen validate GAME` on every core ({os.cpu_count()}), median of {runs} processes, load average "
          f"{one:.1f} (5 min {five:.1f}); CPU: the command and its workers")
    if baseline is not None:
        print(f"{'game':<6} {'quick games':>11} {'wall before':>12} {'wall now':>9} {'CPU before':>11}"
              f" {'CPU now':>8} {'CPU speed-up (per pair)':>24}  same figures")
        for game_id in games:
            got: dict[str, list[dict]] = {"before": [], "now": []}
            for r in range(runs):
                for which in (("before", "now") if r % 2 == 0 else ("now", "before")):
                    got[which].append(_validate_process(game_id, [], baseline if which == "before" else ROOT))
            med = {w: {k: statistics.median(x[k] for x in got[w]) for k in ("wall", "cpu")} for w in got}
            ups = sorted(b["cpu"] / n["cpu"] for b, n in zip(got["before"], got["now"]))
            same = all(x["figures"] == got["now"][0]["figures"] for x in got["before"] + got["now"])
            print(f"{game_id:<6} {got['now'][0]['games']:>11,} {med['before']['wall']:>11.2f}s"
                  f" {med['now']['wall']:>8.2f}s {med['before']['cpu']:>10.2f}s {med['now']['cpu']:>7.2f}s"
                  f" {statistics.median(ups):>10.2f}x ({ups[0]:.2f}-{ups[-1]:.2f})  {'yes' if same else 'NO'}")
        print(f"this machine: sum(range(100)) takes {machine_yardstick():.2f} µs on {interpreter()}")
        return
    print(f"{'game':<6} {'configs':>7} {'quick games':>11} {'wall':>7} {'CPU':>7}   {'balance games':>13} "
          f"{'wall':>9}   (quick pass target < {QUICK_PASS_TARGET_S:g} s)")
    for game_id in games:
        got_now = [_validate_process(game_id, []) for _ in range(runs)]
        quick = {k: statistics.median(r[k] for r in got_now) for k in ("wall", "cpu", "play_s")}
        first = got_now[0]
        total = BALANCE_GAMES * first["configs"]
        if balance:
            b = _validate_process(game_id, ["--balance"])
            shown = f"{b['wall']:>8.1f}s"
        else:  # the quick pass's playing pace, over the balance pass's games, plus its start-up
            pace = first["games"] / max(quick["play_s"], 1e-9)
            shown = f"~{total / pace + quick['wall'] - quick['play_s']:>7.0f}s"
        print(f"{game_id:<6} {first['configs']:>7} {first['games']:>11,} {quick['wall']:>6.2f}s {quick['cpu']:>6.2f}s"
              f"   {total:>13,} {shown}")
    print(f"this machine: sum(range(100)) takes {machine_yardstick():.2f} µs on {interpreter()}")


def _decisions(gamedef, agent, games: int) -> list[int]:
    """Decision steps (chance steps left out) of the row's seeded games, as the bench plays them."""
    from cardgen.validation.simulate import play_game

    counts = []
    for i in range(games):
        seats = []
        play_game(gamedef, agent, 1 + i, trace=lambda step, p, text: seats.append(p) if p >= 0 else None)  # noqa: B023 (called within this iteration)
        counts.append(len(seats))
    return counts


if __name__ == "__main__":
    main()
