"""A fingerprint of everything a kit is built from, recorded per file in the manifest.

A kit whose files come from different fingerprints mixes old and new designs (a
partial rebuild after a change); ``cardgen build`` names such files and
``cardgen validate --kit`` refuses them.

The fingerprint covers cardgen's version, the game's id and chosen variants, and the
content of every file in the game folder and its template folders. Hidden files and
folders (``.git``, editor swap files), ``__pycache__`` and the output folder, when
it lies inside the game folder, are left out. Links are not followed: a link counts
by the text it holds. Only regular files are read, so a named pipe cannot stall the
build.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..base.errors import CardgenError
from ..model.game import Game
from ..version import __version__

MAX_FILES = 20_000  # files fingerprinted per game; a folder with more is refused
_CHUNK = 1 << 20


def inputs_digest(game: Game, exclude: Iterable[Path] = ()) -> str:
    """The fingerprint of ``game``'s inputs (16 hex digits)."""
    skip = {Path(p).resolve() for p in exclude}
    h = hashlib.sha256(f"cardgen {__version__}\0{game.id}\0{','.join(sorted(game.variants))}\0".encode())
    seen = 0
    for n, folder in enumerate(dict.fromkeys([game.root, *game.template_dirs])):
        if not folder.is_dir():
            continue
        for rel, path in _files(folder, skip):
            seen += 1
            if seen > MAX_FILES:
                raise CardgenError(f"the game's folders hold more than {MAX_FILES:,} files; cardgen fingerprints "
                                   "at most that many")
            h.update(f"{n}\0{rel}\0".encode("utf-8", "surrogateescape"))
            h.update(_file_digest(path))
    return h.hexdigest()[:16]


def _files(folder: Path, skip: set[Path]):
    """(relative name, path) of every file under ``folder``, in a fixed order."""
    out = []
    for here, dirs, files in os.walk(folder, followlinks=False):
        base = Path(here)
        dirs[:] = sorted(d for d in dirs if not _ignored(d) and (base / d).resolve() not in skip)
        for name in sorted(files):
            if not _ignored(name):
                path = base / name
                out.append((path.relative_to(folder).as_posix(), path))
    return out


def _ignored(name: str) -> bool:
    return name.startswith(".") or name == "__pycache__" or name.endswith((".pyc", "~"))


def _file_digest(path: Path) -> bytes:
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            return b"link\0" + os.fsencode(os.readlink(path))
        if not stat.S_ISREG(info.st_mode):
            return b"special\0"
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while chunk := f.read(_CHUNK):
                h.update(chunk)
        return h.digest()
    except OSError as exc:  # unreadable: counted by its error, so it still changes the fingerprint
        return f"unreadable\0{exc.errno}".encode()
