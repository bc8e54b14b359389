"""How the command line reports a user's mistake: one line per problem, then exit 1.

Every command reports through here, so a mistake in a game folder, a settings file or
the file system always looks the same; usage errors (a bad option) are click's, exit 2.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

from ..base.errors import CardgenError, Stopped, os_error

USER_ERROR = 1  # the input is wrong (click exits 2 for usage errors)


def report(exc: CardgenError | OSError) -> None:
    """Print a user error, one problem per line; a file the system refused (a file in
    the way of a folder, no permission, a full disk) is a user error too."""
    for line in (os_error(exc) if isinstance(exc, OSError) else exc).lines():
        click.echo(f"error: {line}", err=True)


def fail(exc: CardgenError | OSError) -> NoReturn:
    """Print a user error, one problem per line, and exit 1."""
    report(exc)
    sys.exit(USER_ERROR)


@contextmanager
def stoppable() -> Iterator[None]:
    """Ctrl-C and SIGTERM stop the command through its clean-up (staging folders
    removed, workers stopped) and print one line, never a traceback; exit 128 + the
    signal's number."""
    def stop(signum: int, frame) -> None:
        raise Stopped("Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name, 128 + signum)

    try:
        old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread (an embedding program): its signals are its own
        old = {}
    try:
        yield
    except Stopped as exc:
        if exc.kit is None:
            click.echo(f"error: stopped by {exc.how}", err=True)
        elif exc.kit_changed:
            click.echo(f"error: stopped by {exc.how}; {exc.kit}/ holds the new kit, whole", err=True)
        else:
            click.echo(f"error: stopped by {exc.how}; {exc.kit}/ is as it was", err=True)
        sys.exit(exc.status)
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
