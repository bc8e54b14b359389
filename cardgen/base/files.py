"""Files cardgen writes: whole or not at all, with the permissions the user expects,
and, when the system refuses a write (a full disk, a quota), an error that names the
file; and the text of a CSV file, whose cells a spreadsheet program never takes for a
formula.

Every file cardgen replaces (a kit's preview, the calibration sheet, the settings
file, a locale file or ``game.yaml`` a translator's catalogue is written into, a face
cache entry) is written by :func:`replacing`: into a temporary file of a name of its
own beside it, flushed to disk, then renamed over it, so a reader sees the old file
or the new one and two writers never share a temporary file. ``tempfile.mkstemp``
makes a file only its owner may read (0600); the file renamed into place gets the
mode of the file it replaces, or the mode ``open()`` would give a new one (0666 less
the umask). Python's write errors (``No space left on device``) carry no file name;
:func:`naming` adds it.
"""

from __future__ import annotations

import csv
import io
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

TEMP_SUFFIX = ".tmp"


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


def is_temporary(name: str) -> bool:
    """Whether a file name is one :func:`replacing` gives its temporary files (a killed
    process may leave one behind)."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


@contextmanager
def replacing(path: Path | str, mode: int | None = None, sync: bool = True) -> Iterator[Path]:
    """A temporary file beside ``path`` to write, renamed over ``path`` when the block
    ends without an exception, and removed when it raises.

    The file gets ``mode`` if given, else the mode of the file it replaces, else 0666
    less the umask; with ``sync`` its bytes reach the disk before the rename, so that a
    crash leaves the old file or the new one, never an empty one. An OSError names
    ``path``.
    """
    path = Path(path)
    with naming(path):
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        if mode is None:
            try:
                mode = stat.S_IMODE(os.stat(path).st_mode)
            except FileNotFoundError:
                mode = new_file_mode()
        os.chmod(tmp, mode)
        if sync:
            fd = os.open(tmp, os.O_RDWR | getattr(os, "O_BINARY", 0))
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and exc.filename in (None, name):
            exc.filename = str(path)  # the user knows the file, not its temporary name
            exc.filename2 = None
        raise


def write_atomic(path: Path | str, data: bytes, mode: int | None = None, sync: bool = True) -> None:
    """Write ``data`` to ``path`` through :func:`replacing` (whole or not at all)."""
    with replacing(path, mode, sync) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)


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
