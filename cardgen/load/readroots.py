"""Which folders a game may read from: its own folder and cardgen's shipped folders
(games, templates, fonts); every file the loader reads is checked against them with
:func:`cardgen.base.jail.inside`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..base.jail import inside
from ..base.paths import shipped_fonts_dir, shipped_games_dir, shipped_templates_dir

__all__ = ["game_roots", "inside", "roots_around", "shipped_roots"]


def shipped_roots() -> tuple[Path, ...]:
    """cardgen's own folders, which any game may read (shared macros, fonts)."""
    return (shipped_games_dir(), shipped_templates_dir(), shipped_fonts_dir())


def game_roots(folder: Path) -> tuple[Path, ...]:
    """What the game in ``folder`` may read: that folder and the shipped folders (a
    shipped game's folder is its folder under ``card_data/``)."""
    return (folder, *shipped_roots())


def roots_around(search_dirs: Iterable[Path]) -> tuple[Path, ...]:
    """The roots for files looked up in ``search_dirs`` (a game's ``templates/`` or
    ``fonts/`` and shipped folders): the game folder holding each folder of its own,
    taken before links are followed, and the shipped folders."""
    shipped = {r.resolve() for r in shipped_roots()}
    own = [Path(d).parent for d in search_dirs
           if not ({Path(d).resolve(), Path(d).resolve().parent} & shipped)]
    return (*dict.fromkeys(own), *shipped_roots())
