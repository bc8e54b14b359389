"""Making a finished kit folder current in one step.

A kit is a folder, ``OUT/<game>/``. The build assembles the new kit in a folder of
its own beside it and then exchanges the two names at once, so that at every
instant ``OUT/<game>`` is either the whole old kit or the whole new one:

* On Linux, ``renameat2(RENAME_EXCHANGE)`` swaps two folders atomically.
* On macOS, ``renamex_np(RENAME_SWAP)`` does the same.
* Elsewhere (or on a file system that refuses the exchange) the old kit is first
  renamed aside to ``OUT/.<game>-previous-kit`` and the new one into place. A kill
  between the two renames leaves no ``OUT/<game>``, only the old kit aside, which
  :func:`recover_previous` puts back before the next build reads the folder.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import sys
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # linux/fs.h
_RENAME_SWAP = 2  # macOS sys/stdio.h


def _libc():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    except OSError:
        return None


_LIBC = _libc()


def _exchange(a: Path, b: Path) -> bool:
    """Swap the names ``a`` and ``b`` atomically; False where this system cannot."""
    if _LIBC is None:
        return False
    if sys.platform.startswith("linux") and hasattr(_LIBC, "renameat2"):
        call = _LIBC.renameat2
        call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        result = call(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    elif sys.platform == "darwin" and hasattr(_LIBC, "renamex_np"):
        call = _LIBC.renamex_np
        call.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
        result = call(os.fsencode(a), os.fsencode(b), _RENAME_SWAP)
    else:
        return False
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
        return False  # this file system or kernel cannot exchange: rename in two steps
    raise OSError(code, os.strerror(code), str(a), None, str(b))


EXCHANGE = True  # tests set this False to exercise the two-rename fallback


def previous_kit(final: Path) -> Path:
    """Where the fallback keeps the old kit while the new one moves in."""
    return final.with_name(f".{final.name}-previous-kit")


def make_current(new: Path, final: Path, step=lambda name: None) -> Path | None:
    """Put the folder ``new`` at ``final``. Returns where the old kit now is (to be
    removed by the caller), or None if there was none. ``step`` is told each step's
    name as it is reached (the fault-injection tests stop the process there)."""
    if not os.path.lexists(final):
        os.rename(new, final)
        step("swapped")
        return None
    if EXCHANGE and _exchange(new, final):
        step("swapped")
        return new  # the old kit now has the staging name
    aside = previous_kit(final)
    os.rename(final, aside)
    step("old kit aside")
    os.rename(new, final)
    step("swapped")
    return aside


def recover_previous(final: Path) -> bool:
    """Undo a fallback swap that was cut short: the old kit aside and no kit in place.
    Returns True if the old kit was put back."""
    aside = previous_kit(final)
    if aside.is_dir() and not aside.is_symlink() and not os.path.lexists(final):
        os.rename(aside, final)
        return True
    return False
