"""Rebuild when a game's data or templates change (polling: no extra dependency,
works on every platform and on network drives)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from threading import Event

WATCHED_SUFFIXES = {".yaml", ".yml", ".j2", ".jinja", ".ttf", ".png", ".jpg", ".jpeg"}


def snapshot(folders: Iterable[Path]) -> dict[Path, int]:
    """Modification times of every watched file below ``folders``."""
    state: dict[Path, int] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if path.suffix.lower() in WATCHED_SUFFIXES and path.is_file():
                try:
                    state[path] = path.stat().st_mtime_ns
                except OSError:
                    pass
    return state


def watch(folders: Callable[[], list[Path]], rebuild: Callable[[list[Path]], None], *, interval: float = 0.5,
          stop: Event | None = None, max_rebuilds: int | None = None) -> int:
    """Call ``rebuild(changed_paths)`` after each change; returns the number of rebuilds.

    ``folders`` is re-evaluated after each rebuild (a game may gain a templates folder).
    ``rebuild`` must handle its own errors: a failed rebuild keeps the watch going."""
    stop = stop or Event()
    before = snapshot(folders())
    rebuilds = 0
    while not stop.is_set() and (max_rebuilds is None or rebuilds < max_rebuilds):
        stop.wait(interval)
        now = snapshot(folders())
        if now != before:
            changed = sorted(p for p in set(now) | set(before) if now.get(p) != before.get(p))
            time.sleep(min(interval, 0.2))  # let an editor finish writing
            before = snapshot(folders())
            rebuild(changed)
            rebuilds += 1
    return rebuilds
