"""The check behind "a game folder is data only": a path, once its symlinks are
followed, must still lie under one of the folders it may be read from.

Name checks (no ``..``, no absolute path) stop a game from asking for ``/etc/passwd``;
this stops a symlink inside the folder from doing the same, so a downloaded game folder
cannot make cardgen print, embed or read anything else of the machine. It lives here,
below every stage that reads files (load, layout, render), and imports only errors.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from .errors import CardgenError, Where


def inside(path: Path, roots: Iterable[Path]) -> Path:
    """``path`` with every symlink followed; CardgenError naming the link (and where it
    leads) when that lies outside every root. Roots are resolved too, so a game folder
    reached through a link of its own still works."""
    shown = link_path(path)
    try:
        real = Path(path).resolve(strict=True)
    except FileNotFoundError:
        raise CardgenError("file not found (or a link to nothing)", Where(shown)) from None
    except (OSError, RuntimeError) as exc:  # a link loop, a folder that cannot be entered
        raise CardgenError(f"cannot be followed: {getattr(exc, 'strerror', None) or exc}", Where(shown)) from None
    for root in roots:
        try:
            if real.is_relative_to(Path(root).resolve()):
                return real
        except (OSError, RuntimeError):
            continue
    raise CardgenError(f"links outside the game folder (to {real})", Where(shown))


def link_path(path: Path) -> str:
    """A path as the user should see it (relative to the cwd when under it), with its
    links left as they are: ``display_path`` follows them, so it would name the target."""
    plain = Path(os.path.abspath(path))
    try:
        return str(plain.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def parents_of(search_dirs: Iterable[Path]) -> tuple[Path, ...]:
    """The folders holding each search folder, taken before links are followed: for a
    game's ``fonts/``, ``assets/`` or ``templates/`` that is the game folder, so a whole
    folder linked elsewhere is refused, not trusted as its own root."""
    return tuple(dict.fromkeys(Path(d).parent for d in search_dirs))
