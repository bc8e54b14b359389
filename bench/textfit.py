"""Benchmark: the text fitter and flow layout over every text of a shipped kit.

The faces of one language of a game are rendered once; then each round fits every
`text` op and lays out every `flow` op again (the engine's memo emptied), and, as the
reference in the same run, wraps each text op's plain words once at its size with
ReportLab's ``simpleSplit`` (one greedy pass, no shrinking, no markup: a floor). Rounds
alternate between the three, and the fastest round of each counts (CPU time of this
process), so that other work on the machine disturbs the figures as little as possible.

``--against DIR`` runs the same measurement with another copy of cardgen (a folder
holding a ``cardgen`` package, e.g. an older commit unpacked with ``git archive``) in a
child process, and prints both.

Usage: python bench/textfit.py [--game hapy] [--lang en] [--rounds 7] [--against DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(game_id: str, lang: str, rounds: int) -> dict:
    from reportlab.lib.utils import simpleSplit

    from cardgen.base.errors import Collector
    from cardgen.base.paths import shipped_games_dir
    from cardgen.layout.inline import plain
    from cardgen.layout.ops import leaf_ops
    from cardgen.load.game import load_game
    from cardgen.pipeline import BuildOptions, KitBuilder

    game = load_game(shipped_games_dir() / game_id)
    builder = KitBuilder(game, BuildOptions(langs=(lang,)))
    kit = builder.render_lang(lang, Collector())
    engine = builder.text
    faces = [*kit.fronts.values(), *kit.backs.values(), *(f for fs in kit.sheets.values() for f in fs),
             *kit.boards.values()]
    texts, flows, seen = [], [], set()
    for face in faces:
        for op in leaf_ops(face.ops):
            key = (op.kind, repr(sorted(op.args.items())))
            if key in seen:
                continue
            seen.add(key)
            (texts if op.kind == "text" else flows if op.kind == "flow" else []).append(op)
    fonts = [(plain(op.args["text"]), builder.book.register(engine.text_fonts(op.args).regular), op.args.get("size") or 9.0, op.args["w"])
             for op in texts]

    def fit_all():
        engine._fits.clear()
        for op in texts:
            engine.fit_op(op)

    def flow_all():
        engine._flows.clear()
        for op in flows:
            engine.flow_op(op)

    def split_all():
        for text, font, size, w in fonts:
            simpleSplit(text, font, size, w * 72 / 25.4)

    best = {"fit": float("inf"), "flow": float("inf"), "split": float("inf")}
    for _ in range(rounds):
        for name, job in (("fit", fit_all), ("flow", flow_all), ("split", split_all)):
            t0 = time.process_time()
            job()
            best[name] = min(best[name], time.process_time() - t0)
    return {"texts": len(texts), "flows": len(flows), **best}


def report(label: str, r: dict) -> None:
    print(f"{label}: {r['texts']} text ops fitted in {r['fit'] * 1000:.1f} ms "
          f"({r['fit'] / r['split']:.1f}× one simpleSplit wrap of each, {r['split'] * 1000:.1f} ms); "
          f"{r['flows']} flow ops in {r['flow'] * 1000:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="hapy")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--against", type=Path, help="another copy of cardgen to time the same way")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the child's answer
    a = ap.parse_args()
    if a.json:
        print(json.dumps(measure(a.game, a.lang, a.rounds)))
        return
    sys.path.insert(0, str(ROOT))
    if not a.against:
        report(f"{a.game} [{a.lang}]", measure(a.game, a.lang, a.rounds))
        return
    # Both copies in child processes, alternating, the fastest of two runs each.
    runs: dict[str, list[dict]] = {"mine": [], "other": []}
    for _ in range(2):
        for name, path in (("other", a.against.resolve()), ("mine", ROOT)):
            env = {**os.environ, "PYTHONPATH": str(path)}
            out = subprocess.run([sys.executable, __file__, "--game", a.game, "--lang", a.lang, "--rounds",
                                  str(a.rounds), "--json"], env=env, capture_output=True, text=True, check=True)
            runs[name].append(json.loads(out.stdout))
    mine, other = ({k: min(r[k] for r in runs[name]) for k in runs[name][0]} for name in ("mine", "other"))
    report(f"{a.game} [{a.lang}], this cardgen", mine)
    report(f"{a.game} [{a.lang}], {a.against.name}", other)
    print(f"this/other: fit {mine['fit'] / other['fit']:.2f}×, flow {mine['flow'] / other['flow']:.2f}×")


if __name__ == "__main__":
    main()
