"""Where each value of a game's ``data`` stands, kept beside the data.

The loader records the place of every value under ``data`` (in game.yaml or in one
of its data files) while it reads them, so that a later check of the data (the rules'
static checks, the house rules a build refuses) can name the line of a mistake
without reading the YAML again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base.errors import Where


@dataclass(frozen=True)
class Mark:
    """Where one value stands, and the marks of the values it holds: by key for a
    mapping, by index for a list, none for a plain value."""

    where: Where
    children: Mapping[Any, Mark] | tuple[Mark, ...] = ()

    def child(self, key: Any) -> Mark | None:
        """The mark of ``key`` (a mapping's key or a list's index); None when it has none."""
        if isinstance(self.children, tuple):
            if isinstance(key, int) and 0 <= key < len(self.children):
                return self.children[key]
            return None
        try:
            return self.children.get(key)
        except TypeError:  # an unhashable key names nothing
            return None


@dataclass(frozen=True)
class DataMarks:
    """``marks("families", 2, "symbol")`` → the Where of that value of the game's data;
    when the path does not exist to its end, the Where of its deepest part that does;
    when not even its first key exists, the game file. Never raises."""

    data: Mark  # the merged top level: game.yaml's ``data`` and every data file's keys
    game_file: Where

    def __call__(self, *path: Any) -> Where:
        node, where = self.data, self.game_file
        for key in path:
            child = node.child(key)
            if child is None:
                break
            node, where = child, child.where
        return where
