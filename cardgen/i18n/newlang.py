"""``cardgen i18n init GAME LANG``: a new language from nothing.

The new ``locales/<lang>.yaml`` is the source language's file with every string
emptied (an empty string is an untranslated one), so it keeps the source's order,
nesting and comments for the translator; ``game.yaml`` gains the language at the end
of its ``languages`` list, edited in place like the locale files.
"""

from __future__ import annotations

import yaml

from ..base.errors import CardgenError, Where, display_path
from ..base.files import write_atomic
from ..load.game import GAME_FILE, LANG_RE
from ..model.game import Game
from ..model.pseudo import PSEUDO
from .catalog import check_source, locale_path
from .yamledit import flatten, set_strings


def _with_language(text: str, lang: str, label: str) -> str:
    """game.yaml's text with ``lang`` appended to its ``languages`` list."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    seq = next((v for k, v in root.value if k.value == "languages"), None) if isinstance(root, yaml.MappingNode) \
        else None
    if not isinstance(seq, yaml.SequenceNode) or not seq.value:
        raise CardgenError("'languages' must be a list to add a language to", Where(label))
    last = seq.value[-1]
    if seq.flow_style:
        at = last.end_mark.index
        return text[:at] + f", {lang}" + text[at:]
    indent = " " * (seq.start_mark.column)
    line_end = text.find("\n", last.end_mark.index)
    line_end = len(text) if line_end < 0 else line_end
    return text[:line_end] + f"\n{indent}- {lang}" + text[line_end:]


def init_language(game: Game, lang: str, source: str | None = None) -> list[str]:
    """Create ``lang``'s locale file and list it in game.yaml; the paths written."""
    source = check_source(game, source)
    game_label = display_path(game.root / GAME_FILE)
    if not LANG_RE.match(lang) or lang == PSEUDO:
        raise CardgenError(f"'{lang}' is not a language code such as de, es or pt-BR", Where(game_label))
    if lang in game.languages:
        raise CardgenError(f"game '{game.id}' already has language '{lang}'", Where(game_label))
    target = locale_path(game, lang)
    if target.exists():
        raise CardgenError(f"{display_path(target)} already exists: add '{lang}' to the languages in {GAME_FILE}",
                           Where(game_label))
    src_path = locale_path(game, source)
    src_text = src_path.read_text(encoding="utf-8")
    new_text = set_strings(src_text, {k: "" for k in flatten(yaml.safe_load(src_text))}, display_path(target))
    game_text = (game.root / GAME_FILE).read_text(encoding="utf-8")
    new_game = _with_language(game_text, lang, game_label)
    if yaml.safe_load(new_game).get("languages") != [*game.languages, lang]:
        raise CardgenError(f"could not add '{lang}' to the languages list", Where(game_label))
    write_atomic(target, new_text.encode("utf-8"))
    write_atomic(game.root / GAME_FILE, new_game.encode("utf-8"))
    return [display_path(target), game_label]
