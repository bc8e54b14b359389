"""Benchmark: how long ``cardgen serve`` takes from saving one locale string to the new
picture being served, against a full ``cardgen build`` of that language and paper.

For each game a copy of its folder is served on 127.0.0.1 by a preview started in this
process, and a client does what the page does: it has every face picture already, it
listens to the event stream, and after each save asks for the view and for the
pictures whose id changed. Each round changes the string (so the faces showing it
change) and times, from just before the file is written:

  event    the save seen, the game loaded and the changed faces rendered (and drawn), the page told
  served   the view fetched and every changed picture drawn and received
  settled  the page told that the sheets are rendered and imposed again too

Each round starts once the last one settled (and the watcher is quiet).

The rebuild is ``cardgen build GAME --lang L --paper P --jobs 1`` in a fresh process
(imports included, as a designer waits for it). Medians of the rounds are printed.
Usage: python bench/serve.py [--rounds 7] [--game hapy --game horus]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (locale key, its English text): the smallest string change each game has. No Hâpy
# string is on one card only: a family's animal name is on that family's six cards.
KEYS = {"hapy": ("family.jackal.animal", "Jackal"), "horus": ("nile.title", "Nile card")}
TARGET_S = 0.3  # the goal for a change of one face


def _get(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise SystemExit(f"GET {path}: {response.status}")
        return body
    finally:
        conn.close()


def _listen(port: int, messages: queue.Queue) -> None:
    """The page's event stream: each message with the time it arrived."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request("GET", "/events")
    stream = conn.getresponse()
    for raw in stream.fp:
        line = raw.decode().rstrip("\n")
        if line.startswith("data: "):
            messages.put((time.perf_counter(), json.loads(line[6:])))


def _set_string(path: Path, key: str, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    leaf = key.split(".")[-1]
    for before in (f"{leaf}: {old},", f"{leaf}: {old}\n"):
        if before in text:
            path.write_text(text.replace(before, before.replace(old, new), 1), encoding="utf-8")
            return
    raise SystemExit(f"{key}: {old!r} not found in {path}")


def bench_serve(game_id: str, folder: Path, lang: str, paper: str, rounds: int) -> dict:
    from cardgen.serve import LivePreview

    key, text = KEYS[game_id]
    locale = folder / "locales" / f"{lang}.yaml"
    live = LivePreview(str(folder), lang=lang, paper=paper)
    live.start(in_thread=True)
    port = live.server.server_address[1]
    try:
        query = f"/api/view?lang={lang}&paper={paper}"
        faces = {f["slot"]: f["id"] for f in json.loads(_get(port, query))["faces"]}
        for pid in faces.values():  # the open page has every picture already
            _get(port, f"/picture/{pid}.png")
        messages: queue.Queue = queue.Queue()
        threading.Thread(target=_listen, args=(port, messages), daemon=True).start()
        while live.hub.listeners < 1:
            time.sleep(0.01)
        events, served, settled, changed_counts = [], [], [], []
        current = text
        for n in range(rounds):
            new = f"{text} {n + 1}"
            draws = live.preview.face_draws
            time.sleep(0.3)  # the watcher settled after the last round
            while not messages.empty():  # events of the last round
                messages.get()
            t0 = time.perf_counter()
            _set_string(locale, key, current, new)
            current = new
            t_event, message = messages.get(timeout=120)
            if message["errors"]:
                raise SystemExit(f"the change broke the game: {message['errors']}")
            last = message
            view = json.loads(_get(port, query))
            now = {f["slot"]: f["id"] for f in view["faces"]}
            changed = [pid for slot, pid in now.items() if faces.get(slot) != pid]
            for pid in changed:
                _get(port, f"/picture/{pid}.png")
            t_done = time.perf_counter()
            t_settled = t_event
            while "faces" in last:  # the first of two messages: the sheets follow
                t_settled, last = messages.get(timeout=120)
            faces = now
            settled.append(t_settled - t0)
            events.append(t_event - t0)
            served.append(t_done - t0)
            changed_counts.append((len(changed), live.preview.face_draws - draws))
    finally:
        live.stop()
    return {"key": key, "event": statistics.median(events), "served": statistics.median(served),
            "settled": statistics.median(settled),
            "best": min(served), "worst": max(served), "changed": changed_counts[-1], "faces": len(faces)}


def bench_build(folder: Path, lang: str, paper: str, rounds: int) -> float:
    times = []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cardgen", "build", str(folder), "--lang", lang, "--paper", paper,
                            "--jobs", "1", "--out", out], check=True, capture_output=True, env=env)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(KEYS), help="repeatable; default: all")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--build-rounds", type=int, default=3)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--paper", default="a4")
    args = parser.parse_args()
    from cardgen.base.paths import shipped_games_dir

    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; medians of {args.rounds} saves "
          f"and {args.build_rounds} builds ({args.lang}, {args.paper})")
    for game_id in args.game or sorted(KEYS):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(shutil.copytree(shipped_games_dir() / game_id, Path(tmp) / "games" / game_id))
            r = bench_serve(game_id, folder, args.lang, args.paper, args.rounds)
            build = bench_build(folder, args.lang, args.paper, args.build_rounds)
        changed, drawn = r["changed"]
        target = f"   (target < {TARGET_S} s)" if changed == 1 else ""
        print(f"{game_id}: {r['key']} changed → {changed} of {r['faces']} faces changed, {drawn} drawn")
        print(f"  save → event            {r['event']:.3f} s")
        print(f"  save → picture served   {r['served']:.3f} s   (best {r['best']:.3f}, worst {r['worst']:.3f}){target}")
        print(f"  save → sheets settled   {r['settled']:.3f} s")
        print(f"  cardgen build           {build:.3f} s   ({build / r['served']:.1f}× the preview)")


if __name__ == "__main__":
    main()
