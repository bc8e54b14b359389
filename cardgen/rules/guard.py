"""Calls into a rules module's code made before a game is played (its static spec, player
counts, setups, ``load``, a game's first state, its players and checker, house-rule
checks), where an exception is a bug of the rules, not of cardgen.

During play such an exception is a failed game, listed with its seed. Before play there
is no game to list it with, so it stops the command as one :class:`RulesCrash` line
naming the rules file (and the line of the deepest frame in it), what was asked, and
the setup and player count when there is one. The error pickles, so a worker process
playing the games hands it back to the command like any other user error.
"""

from __future__ import annotations

import inspect
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..base.errors import CardgenError, Where, display_path


class RulesCrash(CardgenError):
    """A rules module's code raised before play: one line naming its file."""


def call_rules(what: str, fn: Callable[..., Any], *args: Any, config: str = "",
               owner: Callable[..., Any] | None = None) -> Any:
    """``fn(*args)``; anything it raises but a :class:`CardgenError` (the rules' own way
    to refuse a game) or Ctrl-C becomes a :class:`RulesCrash`. ``what`` names the call
    (``"new_initial_state()"``), ``config`` the setup and player count, ``owner`` the
    rules' callable whose file to name when ``fn`` is a wrapper around it."""
    try:
        return fn(*args)
    except (CardgenError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # a designer's code: any failure of it is their bug, said in one line
        raise crash(exc, what, owner or fn, config) from None


def crash(exc: BaseException, what: str, owner: Any, config: str = "") -> RulesCrash:
    """The one-line error for ``exc``, raised by the rules' ``owner`` when asked ``what``."""
    detail = str(exc).splitlines()[0] if str(exc).strip() else ""
    context = f" ({config})" if config else ""
    message = f"the rules crashed in {what}{context}: {type(exc).__name__}" + (f": {detail}" if detail else "")
    return RulesCrash(message, place(exc, owner))


def place(exc: BaseException, owner: Any) -> Where:
    """The rules file of ``owner`` and the line of the deepest frame of ``exc`` in it (in
    its package, when the owner's file is a package's ``__init__.py``); the raising
    frame itself when the owner's file is unknown."""
    frames = traceback.extract_tb(exc.__traceback__)
    home = source_file(owner)
    if home is None:
        if not frames:
            return Where()
        return Where(display_path(frames[-1].filename), frames[-1].lineno)
    package = home.parent if home.name == "__init__.py" else None
    for frame in reversed(frames):
        path = Path(frame.filename)
        if path == home or (package is not None and package in path.parents):
            return Where(display_path(path), frame.lineno)
    return Where(display_path(home))


def source_file(owner: Any) -> Path | None:
    """The Python file that defines ``owner`` (a function, bound method, class or
    callable object), or None when it has none (a built-in)."""
    target = getattr(owner, "__func__", owner)
    code = getattr(target, "__code__", None)
    if code is not None:
        return Path(code.co_filename)
    for candidate in (target, type(target)):
        try:
            found = inspect.getsourcefile(candidate)
        except (TypeError, OSError):
            continue
        if found:
            return Path(found)
    return None


def rules_file(rules: Any) -> str:
    """The file of a rules object, as the user should see it (its module's name when it
    has no file)."""
    found = source_file(rules)
    return display_path(found) if found is not None else type(rules).__module__
