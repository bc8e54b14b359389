"""Files cardgen writes: with the permissions the user's umask gives, and, when the
system refuses a write (a full disk, a quota), an error that names the file; and the
text of a CSV file, whose cells a spreadsheet program never takes for a formula.

``tempfile.mkstemp`` makes a file only its owner may read (0600), and Python's write
errors (``No space left on device``) carry no file name; both would surprise a user
whose kit or settings file is written through a temporary file renamed into place.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Iterator
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


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet program may read as a formula


def inert_cell(value: object) -> str:
    """A CSV cell that a spreadsheet program shows as text, never runs: a cell starting
    with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``
    (OWASP's rule against CSV injection). Card ids come from a game folder, so from
    anyone, and a print shop opens the file in Excel."""
    text = str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def csv_text(header: Iterable[object], rows: Iterable[Iterable[object]]) -> str:
    """The text of a CSV file (comma-separated, ``\\n`` line ends), every cell made
    inert: the one way cardgen writes a CSV."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in (header, *rows):
        writer.writerow([inert_cell(cell) for cell in row])
    return buffer.getvalue()
