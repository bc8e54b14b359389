"""A translator's catalogue of one language: every string of the game with its source
text, its current translation, where it is used, its placeholders and its room.

The source language is the game's first, or any other it has. The catalogue is read
from the locale files as they are (a language may lack strings: that is what a
translator is there for) and from a rendering of the source language (usage.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import CardgenError, Where, display_path
from ..load.game import load_game
from ..load.jail import game_roots, inside
from ..load.yamlsrc import load_yaml
from ..model.game import Game
from ..model.plurals import CATEGORIES
from ..model.pseudo import PSEUDO
from ..render.placeholders import PlaceholderError, parse_placeholders
from .usage import Room, Usage, render_usage
from .yamledit import flatten

TOOL_USES = "cardgen: sheet labels and file titles"


@dataclass(frozen=True)
class Entry:
    key: str
    source: str
    translation: str
    uses: tuple[str, ...]
    placeholders: tuple[str, ...]
    room: Room | None

    def note(self) -> str:
        """The context a translator reads beside the string, one fact a line."""
        lines = [f"used in {u}" for u in self.uses] or ["not used by any template"]
        if self.placeholders:
            lines.append("placeholders: " + ", ".join("{" + p + "}" for p in self.placeholders)
                         + " (keep them as they are)")
        if self.room is not None:
            lines.append(f"room: {self.room.describe()}")
        return "\n".join(lines)


def placeholders(text: str) -> tuple[str, ...] | None:
    """The placeholder names of a string, in order, once each; None if it is malformed."""
    try:
        return tuple(dict.fromkeys(name for _, name in parse_placeholders(text) if name))
    except PlaceholderError:
        return None


COUNT_PLACEHOLDERS = frozenset({"n", "roman"})  # what plural() and ordinal() fill in a plural form


def same_placeholders(key: str, source: str, translation: str) -> bool:
    """Whether a translation has its source's placeholders; a plural form may write
    the count either way ({n} or {roman}), whichever its language needs."""
    want, got = placeholders(source), placeholders(translation)
    if got is None:
        return False
    want_set, got_set = set(want or ()), set(got)
    if key.rpartition(".")[2] in CATEGORIES:
        return want_set - COUNT_PLACEHOLDERS == got_set - COUNT_PLACEHOLDERS
    return want_set == got_set


def locale_path(game: Game, lang: str) -> Path:
    return game.root / "locales" / f"{lang}.yaml"


def read_locale(game: Game, lang: str) -> dict[str, str]:
    """A language's strings as its file holds them (empty when there is no file)."""
    path = locale_path(game, lang)
    if not path.is_file():
        return {}
    return flatten(load_yaml(inside(path, game_roots(game.root)), display_path(path)))


def load_for_translators(game: str | Path) -> Game:
    """The game with every variant's cards, missing strings falling back to the first
    language (so an incomplete language can be rendered and listed)."""
    return load_game(game, every_variant=True, fallback=True)


def used_by_cardgen(game: Game) -> set[str]:
    return {game.name_key, *(c.name_key for c in game.components if c.name_key)}


def check_source(game: Game, source: str | None) -> str:
    source = source or game.languages[0]
    if source not in game.languages:
        raise CardgenError(f"game '{game.id}' has no language '{source}' (it has: {', '.join(game.languages)})",
                           Where(display_path(game.root / "game.yaml")))
    return source


def catalogue(game: Game, lang: str, source: str | None = None, usage: Usage | None = None) -> list[Entry]:
    """Every string of ``source`` (the first language by default), in its file's order,
    with ``lang``'s current translation (empty when it has none)."""
    source = check_source(game, source)
    src = read_locale(game, source)
    target = dict(game.strings[PSEUDO]) if lang == PSEUDO else read_locale(game, lang)
    usage = usage or render_usage(game, source)
    tool = used_by_cardgen(game)
    out = []
    for key, text in src.items():
        if not text.strip():
            continue
        uses = tuple(usage.uses.get(key, [])) + ((TOOL_USES,) if key in tool else ())
        out.append(Entry(key, text, target.get(key, ""), uses, placeholders(text) or (), usage.rooms.get(key)))
    return out
