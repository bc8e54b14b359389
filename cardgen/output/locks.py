"""File locks that serialise the builds writing one kit, and tell a live build's
staging folder from a killed build's leftover.

Both are ``flock`` locks, which the system drops when their process dies however it
dies, so a killed build never leaves a lock held. Where ``fcntl`` does not exist
(Windows) the locks are no-ops: builds into one folder are then not serialised.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class FileLock:
    """An exclusive lock on ``path``, held until :meth:`release`.

    The file is made when the lock is taken and, with ``remove=True``, deleted again
    when it is released, so that nothing is left behind. A process that was waiting
    on a file deleted under it notices (the name no longer leads to the file it
    locked) and tries again on the new one."""

    def __init__(self, path: Path, remove: bool = False):
        self.path = path
        self.remove = remove
        self.fd: int | None = None

    def acquire(self, wait: bool = True, on_wait: Callable[[], None] | None = None) -> bool:
        """Take the lock; with ``wait`` False, return False at once if another process
        holds it. ``on_wait`` is called once, before blocking, if the lock is taken."""
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            if fcntl is None:
                break
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if not wait:
                    os.close(fd)
                    return False
                if on_wait is not None:
                    on_wait()
                    on_wait = None
                fcntl.flock(fd, fcntl.LOCK_EX)
            if self._still_named(fd):
                break
            os.close(fd)  # its holder deleted it as it let go: lock the file now at the name
        self.fd = fd
        return True

    def _still_named(self, fd: int) -> bool:
        try:
            here = os.stat(self.path)
        except FileNotFoundError:
            return False
        mine = os.fstat(fd)
        return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)

    def release(self) -> None:
        if self.fd is not None:
            if self.remove:
                try:
                    os.unlink(self.path)  # while still held: a waiter then sees the name gone
                except OSError:
                    pass
            os.close(self.fd)  # closing drops the flock
            self.fd = None


def is_abandoned(lock_path: Path) -> bool:
    """Whether the process that made ``lock_path`` is gone: nobody holds it (or it was
    never made, as by a build killed before it could make it)."""
    if not lock_path.is_file():
        return True
    if fcntl is None:  # no locks here: only a day-old leftover is surely abandoned
        import time
        return time.time() - lock_path.stat().st_mtime > 86400
    probe = FileLock(lock_path)
    if probe.acquire(wait=False):
        probe.release()
        return True
    return False
