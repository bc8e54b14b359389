"""Watching the game's folders with watchfiles: the operating system's change events
(inotify, FSEvents, ReadDirectoryChangesW) where it has them, so a save is seen within
a few tens of milliseconds without reading the folders over and over, and the editors'
temporary and swap files already filtered out.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

QUIET_MS = 50  # a save is taken once the files have been quiet this long
MAX_WAIT_MS = 400  # however busy the folder, changes are passed on at least this often


class FolderWatcher:
    """Calls ``on_change(paths)`` from its own thread for each batch of changed files
    below the folders ``folders()`` names (asked again after each batch: a game can
    gain a templates folder)."""

    def __init__(self, folders: Callable[[], list[Path]], on_change: Callable[[list[Path]], Any],
                 force_polling: bool = False):
        self.folders = folders
        self.on_change = on_change
        self.force_polling = force_polling
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name="cardgen-serve-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        from watchfiles import watch

        while not self.stop_event.is_set():
            folders = sorted({p.resolve() for p in self.folders() if p.is_dir()})
            if not folders:
                self.stop_event.wait(0.5)
                continue
            for changes in watch(*folders, stop_event=self.stop_event, step=QUIET_MS, debounce=MAX_WAIT_MS,
                                 rust_timeout=1000, yield_on_timeout=False, force_polling=self.force_polling,
                                 raise_interrupt=False):
                try:
                    self.on_change(sorted({Path(p) for _, p in changes}))
                except Exception:  # a bug in cardgen: said, and the preview keeps watching
                    traceback.print_exc()
                now = sorted({p.resolve() for p in self.folders() if p.is_dir()})
                if now != folders:
                    break  # watch the new set of folders
