"""A translator's catalogue of one language: every string of the game with its source
text, its current translation, where it is used, its placeholders and its room.

The source language is the game's first, or any other it has. The catalogue is read
from the locale files as they are (a language may lack strings: that is what a
translator is there for) and from a rendering of the source language (usage.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..base.errors import CardgenError, Where, display_path
from ..impose.labels import WORDS as SHEET_WORDS
from ..load.game import load_game
from ..load.readroots import game_roots, inside
from ..load.yamlsrc import load_yaml
from ..model.game import Game
from ..model.plural_categories import CATEGORIES
from ..model.pseudo import PSEUDO
from ..render.numberwords import locale_of
from ..render.placeholders import PlaceholderError, parse_placeholders
from ..toolwords import own_words
from .usage import Room, Usage, render_usage
from .yamledit import flatten

TOOL_USES = "cardgen: sheet labels and file titles"
LABEL = "cardgen: the label at a sheet's edge"
TITLE = "cardgen: the title of a PDF file"
SHEET_USES = {  # what each word of the sheet labels is, for its translator
    "front": f"{LABEL}, the fronts' pages (front 1/4)",
    "back": f"{LABEL}, the backs' pages (back 1/4)",
    "page": f"{LABEL}, a page of a board printed in tiles (page 2/6)",
    "of": f"{LABEL}, which tile of a board printed in tiles (B2 of 4×2)",
    "duplex_long": f"{LABEL}, how to print: on both sides, flipped on the long edge",
    "duplex_short": f"{LABEL}, how to print: on both sides, flipped on the short edge",
    "fold_here": f"{LABEL} of a sheet of fronts and backs to fold",
    "backs_shifted": f"{LABEL}: the backs moved by the printer's offset, in mm",
    "decimal": "cardgen: the decimal sign in labels and titles (0.5)",
    "file_cards": f"{TITLE} of the cards",
    "file_gutterfold": f"{TITLE} of the cards to fold",
    "file_sheets": f"{TITLE} of the sheets (rules, boards)",
    "file_printshop": f"{TITLE} for a print shop",
    "two_sided": f"{TITLE} for a print shop: cards printed on both sides",
    "one_sided": f"{TITLE} for a print shop: cards printed on one side",
}


@dataclass(frozen=True)
class Entry:
    key: str
    source: str
    translation: str
    uses: tuple[str, ...]
    placeholders: tuple[str, ...]
    room: Room | None
    plural: str | None = None  # the key of its plural group (``card.tiles``) when it is one of its forms
    sources: tuple[tuple[str, int], ...] = ()  # the template lines that look it up: (template, line)

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


def kit_strings(game: Game, lang: str, source: bool = False) -> dict[str, str]:
    """A language's strings as a translator sees them: its locale file's, then the
    words of the sheet labels (``sheet.<word>``) the file does not set, which cardgen
    prints from its own locale files: for the ``source`` language the words the kit
    prints; for another, cardgen's own words in that language, if it has them (else
    empty: a language cardgen has no words for is printed with English labels until
    they are translated like any other string)."""
    strings = read_locale(game, lang)
    words = {word: game.strings[lang][f"sheet.{word}"] for word in SHEET_WORDS} if source \
        else own_words("sheet", lang)
    for word in SHEET_WORDS:
        key = f"sheet.{word}"
        if not strings.get(key, "").strip():
            strings[key] = words.get(word, "")
    return strings


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


def categories_of(lang: str, kind: str) -> tuple[str, ...]:
    """CLDR's plural (``kind`` "plural") or ordinal categories of a language, in
    CLDR's order, which is also the order of a gettext catalogue's ``msgstr[n]``."""
    loc = locale_of(lang)
    tags = (loc.plural_form if kind == "plural" else loc.ordinal_form).tags | {"other"}
    return tuple(c for c in CATEGORIES if c in tags)


def form_groups(src: dict[str, str], source: str) -> dict[str, str]:
    """The keys of ``src`` that group forms by category (``card.tiles`` of
    ``card.tiles.one`` and ``card.tiles.other``), each with its kind: "plural" when
    every form is a plural category of the source language, else "ordinal"."""
    stems: dict[str, set[str]] = {}
    for key in src:
        stem, _, last = key.rpartition(".")
        if stem and last in CATEGORIES:
            stems.setdefault(stem, set()).add(last)
    plural = set(categories_of(source, "plural"))
    return {stem: "plural" if cats <= plural else "ordinal" for stem, cats in stems.items()
            if "other" in cats and len(cats) > 1}


def source_of(src: dict[str, str], groups: dict[str, str], key: str) -> str | None:
    """The source text a translation of ``key`` translates: its own, or for a form
    the source language lacks (Polish ``few``), the source's ``other``."""
    if key in src:
        return src[key]
    stem, _, last = key.rpartition(".")
    return src.get(f"{stem}.other") if stem in groups and last in CATEGORIES else None


def target_forms(groups: dict[str, str], lang: str, key: str) -> bool:
    """Whether ``key`` is a form ``lang`` has of a group of the source (its CLDR categories)."""
    stem, _, last = key.rpartition(".")
    return stem in groups and last in categories_of(lang, groups[stem])


def catalogue(game: Game, lang: str, source: str | None = None, usage: Usage | None = None) -> list[Entry]:
    """Every string of ``source`` (the first language by default), in its file's order,
    with ``lang``'s current translation (empty when it has none). A group of plural
    or ordinal forms has the forms of ``lang``'s CLDR categories, whichever the
    source has (Polish: one, few, many, other)."""
    source = check_source(game, source)
    src = kit_strings(game, source, source=True)
    target = dict(game.strings[PSEUDO]) if lang == PSEUDO else kit_strings(game, lang, source=lang == source)
    usage = usage or render_usage(game, source)
    tool = used_by_cardgen(game)
    groups = form_groups({k: v for k, v in src.items() if v.strip()}, source)
    out = []
    done: set[str] = set()
    for key, text in src.items():
        if not text.strip():
            continue
        stem = key.rpartition(".")[0]
        keys = [key]
        if stem in groups:
            if stem in done:
                continue
            done.add(stem)
            keys = [f"{stem}.{c}" for c in categories_of(lang, groups[stem])]
        for k in keys:
            text = source_of(src, groups, k) or ""
            room = usage.rooms.get(k) or usage.rooms.get(f"{stem}.other")
            uses = tuple(usage.uses.get(k, usage.uses.get(f"{stem}.other", []) if stem in groups else []))
            word = k.removeprefix("sheet.")
            uses += (TOOL_USES,) if k in tool else (SHEET_USES[word],) if word in SHEET_USES else ()
            lines = usage.sources.get(k) or (usage.sources.get(f"{stem}.other", []) if stem in groups else [])
            out.append(Entry(k, text, target.get(k, ""), uses, placeholders(text) or (), room,
                             stem if groups.get(stem) == "plural" else None, tuple(lines)))
    return out
