"""Worker processes that never outlive the command that started them.

Ctrl-C reaches every process of the terminal's group: workers ignore it and leave
the parent to stop them, so one line is printed, not one traceback per worker. On
Linux a worker also asks the kernel to kill it when its parent dies (a ``kill -9``
of cardgen), instead of finishing its task into a folder nobody will read.

The pool's modules (multiprocessing, concurrent.futures, ctypes) are imported when
a pool is made: a build of one language (``--jobs 1``) never starts one.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1


def init_worker(parent: int) -> None:
    """The first thing a worker process does (``ProcessPoolExecutor(initializer=…)``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # held by the parent while it forked
    if sys.platform.startswith("linux"):
        import ctypes
        import ctypes.util

        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


_HELD = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while workers start: a forked worker would otherwise
    run the parent's handlers until its initializer replaces them, and a signal that
    lands in the middle of a fork can be lost. A held signal is delivered when the
    block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers are set up by :func:`init_worker`."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, initializer=init_worker, initargs=(os.getpid(),))


def stop(executor: ProcessPoolExecutor) -> None:
    """Stop a pool at once: pending tasks cancelled, running workers killed."""
    for process in list(getattr(executor, "_processes", {}).values()):
        try:
            process.kill()
        except (OSError, AttributeError):
            pass
    executor.shutdown(wait=True, cancel_futures=True)
