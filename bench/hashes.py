"""Fingerprint every output cardgen makes, to prove a refactoring changed nothing.

Builds every shipped kit in each configuration worth telling apart (every language,
both papers, print-shop files and boards; --duplex short, --layout gutterfold,
--ink-saver, --variant for games that have one, a back offset), the calibration sheets,
and the JSON report of ``cardgen validate GAME`` without its timings, and prints the
SHA-256 of each file. Everything runs through the command line in fresh processes,
so the script does not depend on how the package is laid out inside.

Output bytes also depend on the libraries that draw and write them (ReportLab, Pillow,
fontTools…), so ``--write`` records their versions beside the reference, in
``hashes-versions.txt`` as a pip constraints file; CI checks the reference in a venv
installed with those versions (``pip install -c bench/hashes-versions.txt -e .``), so a
new upstream release never reads as a change of cardgen's.

Usage:
    python bench/hashes.py --write bench/hashes.json   # record a reference (and its versions)
    python bench/hashes.py --check bench/hashes.json   # compare; exit 1 on any difference
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = ("hapy", "egypt", "farao", "horus")
VARIANTS = {"farao": ("jokers",)}
CONFIGS: dict[str, tuple[str, ...]] = {
    "default": (),
    "duplex-short": ("--duplex", "short"),
    "gutterfold": ("--layout", "gutterfold"),
    "ink-saver": ("--ink-saver",),
    "back-offset": ("--back-offset", "0.5,-1"),
}
CALIBRATIONS = [(paper, duplex, lang) for paper in ("a4", "letter") for duplex in ("long", "short")
                for lang in ("en", "fr", "nl")]
PARTS = ("build", "validate", "calibrate")
TIMINGS = ("elapsed_s", "games_per_s", "jobs")


def cardgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "CARDGEN_CONFIG": str(cwd / "no-settings.cfg"),  # no user settings may leak in
           "CARDGEN_CACHE_DIR": str(cwd / "face-cache")}  # nor faces cached by other builds
    return subprocess.run([sys.executable, "-m", "cardgen", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def strip_timings(value):
    if isinstance(value, dict):
        return {k: strip_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [strip_timings(v) for v in value]
    return value


def fingerprint(work: Path, games: tuple[str, ...], parts: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for game in games if "build" in parts else ():
        configs = dict(CONFIGS)
        for name in VARIANTS.get(game, ()):
            configs[f"variant-{name}"] = ("--variant", name)
        for label, extra in configs.items():
            dest = work / f"{game}-{label}"
            run = cardgen("build", game, "--out", str(dest), *extra, cwd=work)
            if run.returncode != 0:
                sys.exit(f"cardgen build {game} {' '.join(extra)} failed:\n{run.stderr}")
            for f in sorted((dest / game).rglob("*")):
                if f.is_file():
                    out[f"build {game} {label} {f.relative_to(dest / game)}"] = sha(f)
            print(f"  built {game} {label}", file=sys.stderr)
    for game in games if "validate" in parts else ():
        run = cardgen("validate", game, "--json", "-", cwd=work)
        if run.returncode != 0:
            sys.exit(f"cardgen validate {game} failed:\n{run.stderr}")
        report = json.dumps(strip_timings(json.loads(run.stdout)), sort_keys=True, ensure_ascii=False)
        out[f"validate {game} --json"] = hashlib.sha256(report.encode()).hexdigest()
        print(f"  validated {game}", file=sys.stderr)
    for paper, duplex, lang in CALIBRATIONS if "calibrate" in parts else ():
        dest = work / f"calibration-{paper}-{duplex}-{lang}.pdf"
        run = cardgen("calibrate", "--paper", paper, "--duplex", duplex, "--lang", lang, "--out", str(dest), cwd=work)
        if run.returncode != 0:
            sys.exit(f"cardgen calibrate failed:\n{run.stderr}")
        out[f"calibrate {paper} {duplex} {lang}"] = sha(dest)
    return out


def runtime_versions() -> list[str]:
    """``name==version`` of every installed distribution cardgen needs at run time,
    followed through their own requirements (extras and markers left aside)."""
    seen: dict[str, str] = {}
    todo = ["cardgen"]
    while todo:
        name = todo.pop()
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # a requirement for another platform or Python
        key = re.sub(r"[-_.]+", "-", dist.metadata["Name"]).lower()
        if key in seen:
            continue
        seen[key] = dist.version
        for requirement in dist.requires or ():
            if "extra ==" not in requirement:
                todo.append(re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0])
    return sorted(f"{name}=={version}" for name, version in seen.items() if name != "cardgen")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", type=Path, metavar="FILE", help="record the fingerprints in FILE")
    what.add_argument("--check", type=Path, metavar="FILE", help="compare with the fingerprints in FILE")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--only", action="append", choices=PARTS,
                        help="only this part (repeatable): builds, validate reports or calibration sheets")
    args = parser.parse_args()
    parts = tuple(args.only or PARTS)
    with tempfile.TemporaryDirectory(prefix="cardgen-hashes-") as tmp:
        now = fingerprint(Path(tmp), tuple(args.game or GAMES), parts)
    if args.write:
        args.write.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        versions = args.write.with_name(args.write.stem + "-versions.txt")
        versions.write_text("# the libraries bench/hashes.py --write ran with: pip install -c this file\n"
                            + "\n".join(runtime_versions()) + "\n", encoding="utf-8")
        print(f"{len(now)} fingerprints written to {args.write}, the library versions to {versions}")
        return
    if not args.check:
        for key, value in sorted(now.items()):
            print(f"{value}  {key}")
        return
    before = json.loads(args.check.read_text(encoding="utf-8"))
    if args.game or args.only:  # a partial run compares only what it made
        before = {k: v for k, v in before.items() if k.split()[0] in parts
                  and (k.startswith("calibrate") or not args.game or k.split()[1] in args.game)}
    changed = sorted(k for k in before.keys() & now.keys() if before[k] != now[k])
    missing, new = sorted(before.keys() - now.keys()), sorted(now.keys() - before.keys())
    for key in changed:
        print(f"changed  {key}")
    for key in missing:
        print(f"missing  {key}")
    for key in new:
        print(f"new      {key}")
    same = len(before.keys() & now.keys()) - len(changed)
    print(f"{same} identical, {len(changed)} changed, {len(missing)} missing, {len(new)} new")
    sys.exit(1 if changed or missing or new else 0)


if __name__ == "__main__":
    main()
