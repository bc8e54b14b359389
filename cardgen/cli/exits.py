"""How the command line reports a user's mistake: one line per problem, then exit 1.

Every command reports through here, so a mistake in a game folder, a settings file or
the file system always looks the same; usage errors (a bad option) are click's, exit 2.
"""

from __future__ import annotations

import sys

import click

from ..errors import CardgenError, os_error

USER_ERROR = 1  # the input is wrong (click exits 2 for usage errors)


def report(exc: CardgenError | OSError) -> None:
    """Print a user error, one problem per line; a file the system refused (a file in
    the way of a folder, no permission, a full disk) is a user error too."""
    for line in (os_error(exc) if isinstance(exc, OSError) else exc).lines():
        click.echo(f"error: {line}", err=True)


def fail(exc: CardgenError | OSError) -> None:
    """Print a user error, one problem per line, and exit 1."""
    report(exc)
    sys.exit(USER_ERROR)
