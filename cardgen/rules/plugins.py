"""Rules from outside cardgen: an installed package's ``cardgen.rules`` entry point, or a
file named on the command line (``cardgen validate GAME --rules path/to/rules.py``).

A game folder is data only, so nothing here ever looks for Python in it: a file is
imported only when the user names it. Whatever is loaded is held to the rules API
(:mod:`.api`) before the validator plays it, and every way it can fail to fit (it does
not import, registers nothing, registers another game, lacks a member) is one
:class:`RulesPluginError` line naming the file and the problem.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from ..base.errors import CardgenError, Where

ENTRY_POINT_GROUP = "cardgen.rules"

# what a rules object must offer (cardgen.rules.api.Rules), with what each is, for messages
_MEMBERS: tuple[tuple[str, str], ...] = (
    ("game_id", "the game's id, a string"),
    ("agents", "a mapping of player kinds to agent factories"),
    ("must_finish", "a mapping of player kinds to True/False"),
    ("static_spec", "a method static_spec(game, locate)"),
    ("player_counts", "a method player_counts(game)"),
    ("setups", "a method setups(game)"),
    ("load", "a method load(game, num_players, setup)"),
)
_CALLABLE = frozenset({"static_spec", "player_counts", "setups", "load"})


class RulesPluginError(CardgenError):
    """A designer's rules module that cannot be used: one line, naming its file."""


def check_rules_api(rules: Any, game_id: str, where: Where) -> None:
    """Refuse a rules object that does not fit :class:`cardgen.rules.api.Rules` (the first
    mismatch found, as one line at ``where``; a member that raises when read, too)."""
    try:
        _check_members(rules, game_id, where)
    except (CardgenError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # e.g. a property of the designer's that raises
        detail = str(exc).splitlines()[0] if str(exc).strip() else ""
        raise RulesPluginError(f"the rules raised {type(exc).__name__} when their members were read"
                               + (f": {detail}" if detail else ""), where) from None


def _check_members(rules: Any, game_id: str, where: Where) -> None:
    for name, what in _MEMBERS:
        if not hasattr(rules, name):
            raise RulesPluginError(f"the rules {type(rules).__name__} has no '{name}' ({what})", where)
        value = getattr(rules, name)
        if name in _CALLABLE and not callable(value):
            raise RulesPluginError(f"the rules' '{name}' is not callable ({what})", where)
    if not isinstance(rules.game_id, str):
        raise RulesPluginError(f"the rules' game_id is {rules.game_id!r}, not a string", where)
    if rules.game_id != game_id:
        raise RulesPluginError(f"the rules are for game '{rules.game_id}', not '{game_id}'", where)
    if not isinstance(rules.agents, Mapping) or not rules.agents:
        raise RulesPluginError("the rules' agents must be a mapping with at least one player kind", where)
    for kind, factory in rules.agents.items():
        if not callable(factory):
            raise RulesPluginError(f"the rules' agent '{kind}' is not a factory (game, seat) -> agent", where)
    if not isinstance(rules.must_finish, Mapping):
        raise RulesPluginError("the rules' must_finish must be a mapping of player kinds to True/False", where)


def _run_registering(run: Callable[[], Any], where: Where) -> tuple[Any, list[Any]]:
    """Run ``run`` (an import) and return what it gave and the rules it registered, turning
    anything it raises into one line at ``where``."""
    from . import _REGISTRY

    before = dict(_REGISTRY)
    try:
        value = run()
    except CardgenError:
        raise
    except BaseException as exc:  # a designer's module: any failure of it is their message
        if isinstance(exc, KeyboardInterrupt):
            raise
        detail = str(exc).splitlines()[0] if str(exc) else ""
        raise RulesPluginError(f"the rules module raised {type(exc).__name__} on import"
                               + (f": {detail}" if detail else ""), where) from None
    new = [r for gid, r in _REGISTRY.items() if before.get(gid) is not r]
    return value, new


def _adopt(new: list[Any], game_id: str, where: Where, fallback: Any = None) -> Any:
    """The one rules object the import registered for ``game_id`` (or ``fallback``, the
    entry point's own object), checked against the API and registered."""
    from . import register

    chosen = next((r for r in new if getattr(r, "game_id", None) == game_id), None)
    if chosen is None and fallback is not None:
        chosen = fallback
    if chosen is None:
        if new:
            ids = ", ".join(f"'{getattr(r, 'game_id', '?')}'" for r in new)
            raise RulesPluginError(f"the rules module registers rules for {ids}, not for game '{game_id}'", where)
        raise RulesPluginError(f"the rules module registers nothing: it must call"
                               f" cardgen.rules.register(...) with rules whose game_id is '{game_id}'", where)
    check_rules_api(chosen, game_id, where)
    register(chosen)
    return chosen


def load_rules_file(path: Path, game_id: str) -> Any:
    """Import the rules module at ``path`` (named by the user with ``--rules``) and return
    the rules it registers for ``game_id``."""
    where = Where(str(path))
    if path.suffix != ".py":
        raise RulesPluginError("a rules module is a Python file ending in .py", where)
    try:
        resolved = path.resolve(strict=True)
    except OSError:
        raise RulesPluginError("no such rules file", where) from None
    if not resolved.is_file():
        raise RulesPluginError("not a file", where)
    name = "cardgen_rules_file_" + "".join(c if c.isalnum() else "_" for c in resolved.stem)
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise RulesPluginError("cannot be imported as a Python module", where)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look a module up by name

    def run() -> None:
        spec.loader.exec_module(module)  # type: ignore[union-attr]

    try:
        _, new = _run_registering(run, where)
    except CardgenError:
        sys.modules.pop(name, None)
        raise
    return _adopt(new, game_id, where)


_SCANNED: dict[tuple[str, ...], list[metadata.EntryPoint]] = {}


def _entry_points() -> list[metadata.EntryPoint]:
    """The installed ``cardgen.rules`` entry points, read once per search path (reading
    every installed package's metadata takes a tenth of a second)."""
    key = tuple(sys.path)
    found = _SCANNED.get(key)
    if found is None:
        found = _SCANNED[key] = list(metadata.entry_points(group=ENTRY_POINT_GROUP))
    return found


def _where_of(ep: metadata.EntryPoint) -> Where:
    """The module file an entry point names, for messages (its text if not found)."""
    try:
        spec = importlib.util.find_spec(ep.module)
    except Exception:
        spec = None
    origin = getattr(spec, "origin", None)
    return Where(origin if origin else f"entry point '{ep.name} = {ep.value}'")


def entry_point_rules(game_id: str) -> Any | None:
    """The rules an installed package offers for ``game_id`` through a ``cardgen.rules``
    entry point named after the game (``night-sky = my_games.night_sky``, or
    ``my_games.night_sky:RULES`` naming the rules object), loaded and checked; None when
    no installed package offers any."""
    found = [ep for ep in _entry_points() if ep.name == game_id]
    if not found:
        return None
    ep = found[0]
    where = _where_of(ep)
    value, new = _run_registering(ep.load, where)
    fallback = None if getattr(ep, "attr", None) is None else value
    if isinstance(fallback, type):  # the entry point names the rules class: one instance of it
        fallback = _run_registering(fallback, where)[0]
    return _adopt(new, game_id, where, fallback)
