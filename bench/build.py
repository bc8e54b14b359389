"""Benchmark: cardgen's build against a plain ReportLab script, the shipped kits, rebuilds.

Every figure is a fresh process (imports, font loading and memory counted honestly),
timed by CPU (user + system of the process and its workers, from ``getrusage``) and
by wall clock; peak memory is the largest sum of resident memory of the process and
its workers at once, sampled every 20 ms. Runs of the things compared alternate
(A, B, A, B…) so that a busy spell of the shared machine hits both alike; the
figure is the median. Sections:

- plain: bench/plain-deck (120 cards) and a copy with 1,200 cards, ``cardgen build
  DIR --paper a4`` against bench/plain_reportlab.py drawing the same (the floor);
- kits: ``cardgen build GAME --no-cache`` of the four shipped games (every language,
  both papers, print-shop files), a clean build;
- rebuild: a copy of Hâpy and of Horus built once, then, each run, one edit (a new
  text for one card's string: the jackal's name in English, on the six jackal cards;
  the Nile card's first instruction in English) and ``cardgen build COPY``, which
  renders from the face cache what the edit did not change, against ``cardgen build
  COPY --no-cache`` of the same edited folder; and ``cardgen build COPY`` again with
  nothing changed (the no-change rebuild), against the same clean build.

cardgen runs as an installed copy does: its modules compiled once (bytecode is written
even where PYTHONDONTWRITEBYTECODE is set), not on every run.

``--baseline DIR`` (a checkout of another commit) times that copy's builds of the plain
decks and the kits and its no-change rebuild too, interleaved with this one's (this, that,
script, …), run in that copy's folder, and prints this copy's CPU as a ratio to that
one's, pair by pair: a change measured paired.

Usage: python bench/build.py [--runs 5] [--only plain,kits,rebuild] [--game hapy] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAIN = ROOT / "bench" / "plain-deck"
GAMES = ("hapy", "egypt", "horus", "farao")
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},  # compiled once, as installed
       "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
CARDGEN = [sys.executable, "-m", "cardgen"]
BASELINE: dict[str, str] | None = None  # --baseline: the environment that runs the other copy
BASELINE_ROOT: Path | None = None  # --baseline: its folder, the working folder of its runs (``python -m``
# puts the working folder first on the path: run from this checkout, the other copy's runs would run this one)


def baseline_env(root: Path) -> dict[str, str]:
    """The environment that runs the cardgen of the checkout ``root`` (its modules compiled once)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "cardgen")], check=True)
    env = {**ENV, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    where = subprocess.run([sys.executable, "-c", "import cardgen; print(cardgen.__file__)"], cwd=root, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).resolve().is_relative_to(root), f"the baseline runs {where}, not the copy in {root}"
    return env


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (from /proc; empty where there is none)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rfind(b")") + 2:].split()[1])
        parents.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(parents.get(p, ()))
    return out


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/statm") as f:
                total += int(f.read().split()[1])
        except OSError:
            pass
    return total * os.sysconf("SC_PAGE_SIZE") / 2**20


def run(cmd: list[str], sample: bool = True, env: dict[str, str] | None = None) -> dict[str, float]:
    """CPU seconds (the process and every child it waited for), wall seconds and
    peak resident memory (MB, all its processes at once) of one command; with the
    baseline's environment, run in the baseline's folder."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    cwd = BASELINE_ROOT if BASELINE_ROOT is not None and env is not None and \
        env.get("PYTHONPATH", "").startswith(str(BASELINE_ROOT) + os.pathsep) else ROOT
    proc = subprocess.Popen(cmd, cwd=cwd, env=env or ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0.0
    while proc.poll() is None:
        if sample:
            peak = max(peak, _rss_mb(_descendants(proc.pid)))
        time.sleep(0.02)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{err}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu": cpu, "wall": wall, "peak": peak}


Runs = dict[str, list[dict[str, float]]]


def paired(runs: int, named: dict[str, Callable[[], dict[str, float]]]) -> Runs:
    """Each command ``runs`` times, alternating (A, B, A, B…); every run's figures."""
    got: Runs = {k: [] for k in named}
    for _ in range(runs):
        for name, fn in named.items():
            got[name].append(fn())
    return got


def median(runs: list[dict[str, float]], figure: str) -> float:
    return statistics.median(r[figure] for r in runs)


def ratio(a: list[dict[str, float]], b: list[dict[str, float]], figure: str) -> str:
    """The median of the per-pair ratios a/b (run i of A against run i of B, made one
    after the other), with their range: a busy spell hits both sides of a pair alike."""
    ratios = sorted(x[figure] / y[figure] for x, y in zip(a, b))
    return f"{statistics.median(ratios):.2f}x [{ratios[0]:.2f}-{ratios[-1]:.2f}]"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def plain_decks(runs: int, tmp: Path) -> None:
    big = tmp / "plain-1200"
    shutil.copytree(PLAIN, big)
    game = big / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("range: [1, 120]", "range: [1, 1200]"), encoding="utf-8")
    out = tmp / "out"
    cmds = {}
    for cards, folder in ((120, PLAIN), (1200, big)):
        cmds[f"cardgen {cards}"] = (lambda folder=folder: run(
            [*CARDGEN, "build", str(folder), "--no-cache", "--paper", "a4", "--out", str(out)]))
        if BASELINE is not None:
            cmds[f"baseline {cards}"] = (lambda folder=folder: run(
                [*CARDGEN, "build", str(folder), "--no-cache", "--paper", "a4", "--out", str(out)], env=BASELINE))
        cmds[f"script {cards}"] = (lambda cards=cards: run(
            [sys.executable, str(ROOT / "bench" / "plain_reportlab.py"), "--cards", str(cards), "--out",
             str(tmp / "rl")]))
    res = paired(runs, cmds)
    print(f"plain deck (title, framed box, wrapped text, a back; A4 + print-shop file), medians of {runs} "
          f"alternating runs; ratios: median of the per-pair ratios [range], {load()}")
    print(f"  {'cards':>5}  {'cardgen CPU':>11} {'script CPU':>10} {'CPU ratio':>20}   {'cardgen wall':>12} "
          f"{'script wall':>11} {'wall ratio':>20}  (target ratio <= 1.5)")
    for cards in (120, 1200):
        a, b = res[f"cardgen {cards}"], res[f"script {cards}"]
        print(f"  {cards:>5}  {median(a, 'cpu'):>10.2f}s {median(b, 'cpu'):>9.2f}s {ratio(a, b, 'cpu'):>20}   "
              f"{median(a, 'wall'):>11.2f}s {median(b, 'wall'):>10.2f}s {ratio(a, b, 'wall'):>20}")
    if BASELINE is not None:
        print("  against the baseline copy (this CPU / its CPU, per pair), and the baseline's own ratio to the script")
        for cards in (120, 1200):
            a, base, b = res[f"cardgen {cards}"], res[f"baseline {cards}"], res[f"script {cards}"]
            print(f"  {cards:>5}  baseline CPU {median(base, 'cpu'):.2f}s, this/baseline {ratio(a, base, 'cpu')}, "
                  f"baseline/script {ratio(base, b, 'cpu')}")


def kits(runs: int, tmp: Path, games: tuple[str, ...]) -> None:
    cmds = {}
    for g in games:
        cmds[g] = lambda g=g: run([*CARDGEN, "build", g, "--no-cache", "--out", str(tmp / "kits")])
        if BASELINE is not None:
            cmds[f"baseline {g}"] = lambda g=g: run([*CARDGEN, "build", g, "--no-cache", "--out", str(tmp / "kits")],
                                                    env=BASELINE)
    res = paired(runs, cmds)
    print(f"shipped kits, clean builds (every language, a4 and letter, print-shop files), median of {runs} "
          f"alternating runs, {load()}")
    print(f"  {'game':<6} {'wall':>7} {'CPU':>7} {'peak memory':>12}   targets: hapy < 1.5 s, horus < 4 s wall; "
          f"< 150 MB")
    for g in games:
        r = res[g]
        print(f"  {g:<6} {median(r, 'wall'):>6.2f}s {median(r, 'cpu'):>6.2f}s {median(r, 'peak'):>9.0f} MB")
    if BASELINE is not None:
        print("  against the baseline copy: its wall, CPU and peak, and this CPU / its CPU per pair [range]")
        for g in games:
            r, base = res[g], res[f"baseline {g}"]
            print(f"  {g:<6} {median(base, 'wall'):>6.2f}s {median(base, 'cpu'):>6.2f}s {median(base, 'peak'):>9.0f} MB"
                  f"   {ratio(r, base, 'cpu')}")


# One card's edit per game: the file, the text and the text it becomes (``{n}``: the run).
EDITS = {
    "hapy": ("locales/en.yaml", "animal: Jackal,", "animal: Jackal {n},"),
    "horus": ("locales/en.yaml", "  place: Take two", "  place: Take {n} two"),
}


def rebuild_one(runs: int, tmp: Path, game: str) -> tuple[list[dict[str, float]] | None, ...]:
    """One game's rebuild after an edit (from the face cache), its clean build of the same
    folder, and a rebuild with nothing changed."""
    folder = tmp / "rebuild" / game
    shutil.copytree(ROOT / "card_data" / game, folder)
    cache_env = {**ENV, "CARDGEN_CACHE_DIR": str(tmp / "face-cache")}
    build = [*CARDGEN, "build", str(folder), "--out", str(tmp / "rebuild-out")]
    run(build, env=cache_env)  # the cache holds the kit as it was
    name, old, new = EDITS[game]
    path = folder / name
    original = path.read_text(encoding="utf-8")
    assert old in original, (game, old)
    edit = iter(range(1, 10_000))

    def edited(cmd: list[str]) -> dict[str, float]:
        path.write_text(original.replace(old, new.format(n=next(edit)), 1), encoding="utf-8")
        return run(cmd, env=cache_env)

    named = {"rebuild": lambda: edited(build), "clean": lambda: edited([*build, "--no-cache"]),
             "warm": lambda: run(build, env=cache_env), "same": lambda: run(build, env=cache_env)}
    if BASELINE is not None:  # the baseline's own record of the same kit (its files come out byte for byte the same)
        base_env = {**BASELINE, "CARDGEN_CACHE_DIR": str(tmp / "face-cache")}
        named["baseline warm"] = lambda: run(build, env=base_env)
        named["baseline same"] = lambda: run(build, env=base_env)
    res = paired(runs, named)
    return res["rebuild"], res["clean"], res["same"], res.get("baseline same")


def rebuilds(runs: int, tmp: Path, games: tuple[str, ...]) -> None:
    """A rebuild after one edit from the face cache against a clean build of the same folder."""
    rows = [(game, *rebuild_one(runs, tmp, game)) for game in games if game in EDITS]
    print(f"rebuild after one edit (every language, a4 and letter), medians of {runs} alternating runs; "
          f"ratio: median of the per-pair ratios [range], {load()}")
    print(f"  {'game':<6} {'rebuild wall':>12} {'CPU':>7}   {'clean wall':>10} {'CPU':>7}   {'CPU ratio':>20}")
    for game, a, b, *_ in rows:
        print(f"  {game:<6} {median(a, 'wall'):>11.2f}s {median(a, 'cpu'):>6.2f}s   {median(b, 'wall'):>9.2f}s "
              f"{median(b, 'cpu'):>6.2f}s   {ratio(a, b, 'cpu'):>20}")
    print("no-change rebuild (the same folder built again, nothing edited) against the clean build above")
    print(f"  {'game':<6} {'no-change wall':>14} {'CPU':>7}   {'CPU ratio':>20}")
    for game, _, b, same, base in rows:
        print(f"  {game:<6} {median(same, 'wall'):>13.2f}s {median(same, 'cpu'):>6.2f}s   {ratio(same, b, 'cpu'):>20}"
              + (f"   baseline {median(base, 'cpu'):.2f}s, this/baseline {ratio(same, base, 'cpu')}" if base else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="plain,kits,rebuild", help="sections, comma-separated")
    parser.add_argument("--game", action="append", help="a shipped game for kits (repeatable)")
    parser.add_argument("--baseline", type=Path, help="another checkout of cardgen, timed interleaved with this one")
    args = parser.parse_args()
    global BASELINE, BASELINE_ROOT
    if args.baseline is not None:
        BASELINE_ROOT = args.baseline.resolve()
        BASELINE = baseline_env(BASELINE_ROOT)
    games = tuple(args.game or GAMES)
    sections = set(args.only.split(","))
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as name:
        tmp = Path(name)
        if "plain" in sections:
            plain_decks(args.runs, tmp)
        if "kits" in sections:
            kits(args.runs, tmp, games)
        if "rebuild" in sections:
            rebuilds(args.runs, tmp, games)


if __name__ == "__main__":
    main()
