"""Benchmark: peak memory of a build as the deck grows.

bench/plain-deck copied with 600 and 6,000 cards (``--cards``), each built in a fresh
process (``cardgen build DIR --no-cache --paper a4 --jobs 1``: one process, so its peak
is the build's), and the peak resident memory from ``getrusage`` (``ru_maxrss`` of the
waited-for child). The slope between the decks is what each card costs; the target is
a flat build, under 120 MB at 6,000 cards. ``--baseline DIR`` measures another checkout
the same way, interleaved.

Usage: python bench/memory.py [--cards 600,6000] [--runs 1] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAIN = ROOT / "bench" / "plain-deck"


def env_for(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(root) + os.pathsep + os.environ.get("PYTHONPATH", "")
    return env


def peak_mb(folder: Path, out: Path, root: Path) -> float:
    """The peak resident memory (MB) of one build, in a process of its own."""
    code = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.returncode); "
            "sys.stderr.write(p.stderr.decode()[-2000:] if p.returncode else '')")
    cmd = [sys.executable, "-c", code, sys.executable, "-m", "cardgen", "build", str(folder), "--no-cache",
           "--paper", "a4", "--jobs", "1", "--out", str(out)]
    done = subprocess.run(cmd, cwd=root, env=env_for(root), capture_output=True, text=True, check=True)
    kib, status = done.stdout.split()
    if status != "0":
        sys.exit(f"build failed: {done.stderr}")
    assert resource  # the parent's own rusage is not read: only the build's process
    return int(kib) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="600,6000")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--baseline", type=Path)
    args = parser.parse_args()
    counts = [int(n) for n in args.cards.split(",")]
    roots = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    with tempfile.TemporaryDirectory(prefix="cardgen-memory-") as name:
        tmp = Path(name)
        folders = {}
        for n in counts:
            folder = tmp / f"plain-{n}"
            shutil.copytree(PLAIN, folder)
            game = folder / "game.yaml"
            game.write_text(game.read_text(encoding="utf-8").replace("range: [1, 120]", f"range: [1, {n}]"),
                            encoding="utf-8")
            folders[n] = folder
        peaks: dict[tuple[str, int], list[float]] = {}
        for _ in range(args.runs):
            for n in counts:
                for label, root in roots.items():
                    peaks.setdefault((label, n), []).append(peak_mb(folders[n], tmp / "out", root))
    print(f"peak resident memory of one build process (`cardgen build DIR --no-cache --paper a4 --jobs 1`), "
          f"the lowest of {args.runs} run(s); target < 120 MB at 6,000 cards")
    for label in roots:
        row = [min(peaks[(label, n)]) for n in counts]
        slope = (row[-1] - row[0]) / (counts[-1] - counts[0]) * 1024 if len(counts) > 1 else 0.0
        cells = "  ".join(f"{n:>6,} cards {mb:6.0f} MB" for n, mb in zip(counts, row))
        print(f"  {label:<8} {cells}   {slope:5.1f} KB a card")


if __name__ == "__main__":
    main()
