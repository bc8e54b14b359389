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

QUIET_MS = 25  # a save is taken once the files have been quiet this long (editors write one in well under that)
MAX_WAIT_MS = 400  # however busy the folder, changes are passed on at least this often
SETUP_MS = 100  # how soon an idle watch reports that it is set up (and sees a stop)


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
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="cardgen-serve-watch", daemon=True)

    def start(self, timeout: float = 30.0) -> None:
        """Start watching; returns once the system is watching the folders (a file saved
        before that would go unseen)."""
        self.thread.start()
        self.ready.wait(timeout)

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        from watchfiles import watch

        first = True
        while not self.stop_event.is_set():
            folders = sorted({p.resolve() for p in self.folders() if p.is_dir()})
            if not folders:
                self.ready.set()
                self.stop_event.wait(0.5)
                continue
            watching = False
            # yield_on_timeout: an empty batch says the watch is set up (and lets the stop be seen)
            for changes in watch(*folders, stop_event=self.stop_event, step=QUIET_MS, debounce=MAX_WAIT_MS,
                                 rust_timeout=SETUP_MS, yield_on_timeout=True, force_polling=self.force_polling,
                                 raise_interrupt=False):
                paths = sorted({Path(p) for _, p in changes})
                if not watching:
                    watching = True
                    self.ready.set()
                    if not first and not paths:  # a save between two watches: look once
                        paths = [folders[0]]
                first = False
                if not paths:
                    continue
                try:
                    self.on_change(paths)
                except Exception:  # a bug in cardgen: said, and the preview keeps watching
                    traceback.print_exc()
                now = sorted({p.resolve() for p in self.folders() if p.is_dir()})
                if now != folders:
                    break  # watch the new set of folders
