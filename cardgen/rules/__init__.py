"""Rules engines, one module per game, found through a registry: game id → rules.

A rules module registers itself when imported (``register(HapyRules())``).
:func:`rules_for` imports ``cardgen.rules.<game id>`` on demand, so adding a game's
rules means adding one module here; nothing else in cardgen names a game. A game
whose rules are not here may get them from an installed package's ``cardgen.rules``
entry point (:mod:`.plugins`, which also loads a file named with ``--rules``).
"""

from __future__ import annotations

import importlib
import importlib.util
import re

from .api import CHANCE, TERMINAL, Rules, RuleViolation

__all__ = ["CHANCE", "TERMINAL", "Rules", "RuleViolation", "register", "rules_for", "registered"]

_REGISTRY: dict[str, Rules] = {}
_MODULE_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def register(rules: Rules) -> Rules:
    """Make ``rules`` the rules of the game ``rules.game_id`` (replacing any before)."""
    _REGISTRY[rules.game_id] = rules
    return rules


def registered() -> dict[str, Rules]:
    return dict(_REGISTRY)


_NOT_GAMES = frozenset({"api", "tableau", "options", "plugins", "guard", "kit"})


def rules_for(game_id: str) -> Rules | None:
    """The registered rules of a game, importing its module if need be: cardgen's own, else
    an installed package's ``cardgen.rules`` entry point; None if none. Raises
    :class:`~.plugins.RulesPluginError` for an entry point whose rules do not fit."""
    if game_id in _REGISTRY:
        return _REGISTRY[game_id]
    name = game_id.replace("-", "_")
    if _MODULE_RE.match(name) and name not in _NOT_GAMES \
            and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        importlib.import_module(f"{__name__}.{name}")
        if game_id in _REGISTRY:
            return _REGISTRY[game_id]
    from .plugins import entry_point_rules

    return entry_point_rules(game_id)
