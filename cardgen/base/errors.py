"""One exception family for every mistake a user can make.

A CardgenError prints as one line, ``path:line:col: message``, and makes the CLI
exit with status 1. Anything else escaping the CLI is a bug in cardgen.
"""

from __future__ import annotations

import errno
import unicodedata
from dataclasses import dataclass
from pathlib import Path


def is_file(path: Path) -> bool:
    """``path.is_file()``, and False for a name the system refuses to look up (longer
    than a file name may be: pathlib raises OSError for that). A name from a game
    folder is data, so such a name is simply a file that is not there."""
    try:
        return path.is_file()
    except OSError:
        return False


def one_line(text: str) -> str:
    """``text`` with every control, format and line-separator character escaped
    (``\\x0c``, ``\\u2028``, ``\\u202e``): a message quoting a game's text stays one
    line on the terminal, and is read in the order it is written."""
    if text.isprintable():
        return text
    return "".join(c.encode("unicode_escape").decode("ascii")
                   if c != " " and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)


@dataclass(frozen=True)
class Where:
    """A place in a user's file; line and col are 1-based, None when unknown."""

    path: str | None = None
    line: int | None = None
    col: int | None = None

    def prefix(self) -> str:
        parts = [p for p in (self.path, self.line, self.col) if p is not None]
        return ":".join(str(p) for p in parts)


class CardgenError(Exception):
    """A problem in the user's input, reported as one line."""

    def __init__(self, message: str, where: Where | None = None):
        super().__init__(message)
        self.message = message
        self.where = where or Where()

    def __str__(self) -> str:
        prefix = self.where.prefix()
        return f"{prefix}: {self.message}" if prefix else self.message

    def lines(self) -> list[str]:
        return [one_line(str(self))]


@dataclass(frozen=True)
class CardgenWarning:
    """Something the user should hear about that does not stop the build (a cache not
    used, an option that changes nothing, text across a board's seam): a record with
    its text and place, returned by the build beside its files, and an error under
    ``cardgen build --strict``."""

    message: str
    where: Where = Where()

    def __str__(self) -> str:
        prefix = self.where.prefix()
        return f"{prefix}: {self.message}" if prefix else self.message

    def line(self) -> str:
        """How the command line prints it."""
        return one_line(f"warning: {self}")

    def as_error(self) -> CardgenError:
        """The error it becomes when warnings fail the build (``--strict``)."""
        return CardgenError(f"{self.message} (a warning: --strict fails the build on it)", self.where)


class UnknownVariantError(CardgenError):
    """A variant name the game's cards never use: the CLI reports it as a bad option value."""


class ErrorList(CardgenError):
    """Several problems found in one pass, reported together, one per line."""

    errors: list[CardgenError]

    def __init__(self, errors: list[CardgenError]):
        flat: list[CardgenError] = []
        for e in errors:
            flat.extend(e.errors if isinstance(e, ErrorList) else [e])
        self.errors = flat
        super().__init__(f"{len(flat)} problem(s)")

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)

    def lines(self) -> list[str]:
        return [one_line(str(e)) for e in self.errors]


class Collector:
    """Gathers errors so that a pass can report every problem at once."""

    def __init__(self) -> None:
        self.errors: list[CardgenError] = []

    def add(self, message: str, where: Where | None = None) -> None:
        self.errors.append(CardgenError(message, where))

    def extend(self, error: CardgenError) -> None:
        self.errors.extend(error.errors if isinstance(error, ErrorList) else [error])

    def raise_if_any(self) -> None:
        if self.errors:
            raise ErrorList(self.errors) if len(self.errors) > 1 else self.errors[0]


_PLAIN_WORDS = {  # what the system's words mean for the user, where they are cryptic
    errno.EEXIST: "a file stands where a folder is needed",
    errno.ENOTDIR: "a file stands where a folder is needed in this path",
    errno.ENOSPC: "the disk is full",
    errno.EACCES: "you may not write here",
}


def os_error(exc: OSError) -> CardgenError:
    """A file the system refused (a folder that is a file, no permission, a full disk)
    as a one-line user error naming the file."""
    name = exc.filename if exc.filename is not None else None
    what = exc.strerror or str(exc)
    if exc.errno in _PLAIN_WORDS:
        what = f"{what}: {_PLAIN_WORDS[exc.errno]}"
    if exc.filename2 is not None:
        what += f" (moving to {display_path(exc.filename2)})"
    return CardgenError(what, Where(display_path(name)) if name is not None else None)


def not_utf8(exc: UnicodeDecodeError, label: str) -> CardgenError:
    """A file that is not UTF-8 text, at the line and column of its first bad byte
    (a byte offset means nothing to someone looking at the file in an editor)."""
    data = bytes(exc.object)
    line = data.count(b"\n", 0, exc.start) + 1
    line_start = data.rfind(b"\n", 0, exc.start) + 1
    col = len(data[line_start:exc.start].decode("utf-8", errors="replace")) + 1
    return CardgenError(f"not UTF-8 text (byte 0x{data[exc.start]:02X})", Where(label, line, col))


def read_utf8(path: Path, label: str, encoding: str = "utf-8") -> str:
    """A text file cardgen reads (YAML, a template, a manifest), decoded; not UTF-8 is a
    CardgenError at its line. Other OSErrors (not found, a folder) are the caller's."""
    data = path.read_bytes()
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise not_utf8(exc, label) from None


def display_path(path: Path | str, root: Path | None = None) -> str:
    """A path as the user should see it: relative to the cwd when possible."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


class Stopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM while a command runs. ``kit_changed`` says whether the kit
    being built had already been made current when it came."""

    def __init__(self, how: str, status: int):
        super().__init__(how)
        self.how = how
        self.status = status  # the exit status: 128 + the signal's number
        self.kit: str | None = None  # the kit folder being built, if any
        self.kit_changed = False
