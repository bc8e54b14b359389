"""Files cardgen writes: with the permissions the user's umask gives, and, when the
system refuses a write (a full disk, a quota), an error that names the file.

``tempfile.mkstemp`` makes a file only its owner may read (0600), and Python's write
errors (``No space left on device``) carry no file name; both would surprise a user
whose kit or settings file is written through a temporary file renamed into place.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def new_file_mode() -> int:
    """The mode a new file gets from ``open()``: 0666 less the process's umask."""
    umask = os.umask(0o022)  # the only way to read it is to set it: put it straight back
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def naming(path: Path | str) -> Iterator[None]:
    """An OSError raised while writing ``path`` names it (a write that fails half-way,
    as on a full disk, says only ``No space left on device``)."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise
