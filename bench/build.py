"""Benchmark: build the whole Hâpy kit (3 languages × 2 papers + print-shop files).

Prints wall time and peak memory. Each run is a fresh process (so imports, font
loading and the maximum resident set are counted honestly); the figure reported is
the median of the runs. Usage: python bench/build.py [--runs 5] [--game hapy]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from cardgen.pipeline import BuildOptions, build_game
from cardgen.load.game import load_game
t1 = time.perf_counter()
game = load_game(sys.argv[1])
_, written = build_game(game, BuildOptions(out_dir=__import__("pathlib").Path(sys.argv[2]), jobs=int(sys.argv[3])))
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "build_s": t2 - t1, "files": len(written),
                  "pages": sum(f.pages for f in written),
                  "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "child_maxrss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="hapy")
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (0 = one per core, 1 = serial)")
    args = parser.parse_args()
    results = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", CHILD, args.game, out, str(args.jobs)], capture_output=True, text=True,
                                  cwd=Path(__file__).resolve().parent.parent)
            wall = time.perf_counter() - start
            if proc.returncode != 0:
                sys.exit(f"build failed:\n{proc.stderr}")
            r = json.loads(proc.stdout)
            r["process_s"] = wall
            results.append(r)
    keys = ("import_s", "build_s", "process_s", "maxrss_mb", "child_maxrss_mb")
    med = {k: statistics.median(r[k] for r in results) for k in keys}
    jobs = args.jobs or os.cpu_count() or 1
    peak = med["maxrss_mb"] + (min(jobs, 3) * med["child_maxrss_mb"] if med["child_maxrss_mb"] else 0)
    print(f"game {args.game}: {results[0]['files']} files, {results[0]['pages']} pages, "
          f"jobs={args.jobs or 'auto'}, median of {args.runs} runs")
    print(f"  build (load + render + write): {med['build_s']:.3f} s   (target < 1.5 s)")
    print(f"  imports:                       {med['import_s']:.3f} s")
    print(f"  whole process:                 {med['process_s']:.3f} s")
    print(f"  main process max RSS:          {med['maxrss_mb']:.1f} MB")
    print(f"  largest worker max RSS:        {med['child_maxrss_mb']:.1f} MB")
    print(f"  peak memory, upper bound:      {peak:.1f} MB   (target < 150 MB; main + workers running at once)")


if __name__ == "__main__":
    main()
