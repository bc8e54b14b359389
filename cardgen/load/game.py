"""Read a game folder into a checked ``model.Game``, reporting every problem at once.

A game folder holds ``game.yaml`` (the game, its components and cards), and
``locales/<lang>.yaml`` (every string per language). Its templates live in
``<folder>/templates/`` and, for shipped games, in ``templates/<id>/``; shared
macros in ``templates/common/``. This module reads the game's own keys and puts
the parts together: components (:mod:`.components`, :mod:`.cards`), data
(:mod:`.data`) and strings (:mod:`.locales`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from ..base.errors import CardgenError, Collector, UnknownVariantError, Where, display_path
from ..base.paths import shipped_fonts_dir, shipped_games_dir, shipped_templates_dir
from ..layout.colours import is_colour_literal
from ..model.components import Component, Deck
from ..model.game import Game
from ..model.pseudo import PSEUDO, pseudo_table
from .components import read_components
from .data import freeze, read_data
from .expect import read_expect
from .gameschema import GAME
from .icons import read_icons
from .locales import read_locales
from .printsettings import read_print
from .readroots import game_roots, inside
from .schema import ID_RE, check_mapping, read_section
from .yamlsrc import YDict, YList, load_yaml

GAME_FILE = "game.yaml"
LANG_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]+)?$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


def shipped_game_ids() -> list[str]:
    root = shipped_games_dir()
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / GAME_FILE).is_file())


def find_game(game: str) -> Path:
    """A shipped game id or the path of a game folder → that folder."""
    path = Path(game)
    if (path / GAME_FILE).is_file():
        return path
    if ID_RE.match(game) and (shipped_games_dir() / game / GAME_FILE).is_file():
        return shipped_games_dir() / game
    if path.is_dir():
        raise CardgenError(f"'{game}' is a folder but has no {GAME_FILE}")
    shipped = ", ".join(shipped_game_ids()) or "none"
    raise CardgenError(f"unknown game '{game}' (shipped games: {shipped}; or give the path of a game folder)")


def load_game(game: str | Path, variants: Iterable[str] = (), *, every_variant: bool = False,
              fallback: bool = False) -> Game:
    """Load and check a game by id or folder; raises CardgenError/ErrorList.

    Cards marked ``variant: NAME`` are left out of the decks unless NAME is among
    ``variants`` (or ``every_variant`` is set, as ``cardgen list`` does), so every
    later stage (build, manifest, validate) sees the deck the user chose. An
    unknown variant name is an error naming the ones the game has.

    A language with missing strings is unfinished (``Game.unfinished`` says which
    strings): it never fails the load, but a build of it does unless ``fallback`` is
    set, when its missing strings take the first language's text (``Game.fallbacks``). Every game also has
    the pseudo-language (``pseudo``), derived from its first language."""
    root = find_game(str(game))
    label = display_path(root / GAME_FILE)
    doc = load_yaml(inside(root / GAME_FILE, game_roots(root)), label)
    errors = Collector()
    if not check_mapping(doc, Where(label, 1, 1), GAME_FILE, errors):
        errors.raise_if_any()
    keys = read_section(doc, GAME, "the game", errors)

    game_id = keys["id"] if keys["id"] is not None else root.name
    if "id" in keys.given and not ID_RE.match(game_id):
        errors.add(f"game id '{game_id}' must be lower-case letters, digits, '-' or '_'", doc.at("id"))
    name_key = keys["name"] if keys["name"] is not None else "game.name"
    languages = _languages(doc, keys["languages"], errors)
    players = _players(doc, errors)
    fonts = _strings(keys["fonts"])
    palette = _strings(keys["palette"])
    for key, value in palette.items():
        if not is_colour_literal(value):
            errors.add(f"palette colour '{key}' must look like #1f4e8c or cmyk(0,60,100,0), found {value!r}",
                       doc["palette"].at(key))
    ink_palette = _ink_palette(doc, _strings(keys["ink_saver"]), palette, errors)
    icons = read_icons(keys["icons"], errors)
    printing = read_print(root, keys["print"], errors)
    data, marks = read_data(root, keys["data"], keys["data_files"], doc.where, Where(label), errors)

    template_dirs = tuple(
        d for d in (root / "templates", shipped_templates_dir() / game_id, shipped_templates_dir() / "common")
    )
    components = read_components(keys["components"], doc.at("components") if "components" in keys.given else None,
                                 data, template_dirs, errors)
    expect = read_expect(keys["expect"], components, data, errors) if "expect" in keys.given else {}
    strings, unfinished, fallbacks = _read_strings(root, languages, fallback, errors)
    _check_font_names(root, doc, fonts, errors)
    _check_names_translated(doc, name_key, components, languages, strings, errors)
    errors.raise_if_any()

    known = tuple(sorted({k.variant for c in components if isinstance(c, Deck) for k in c.cards if k.variant}))
    keep = _chosen_variants(game_id, known, variants, every_variant, Where(label))
    every_card = {c.id: c.cards for c in components if isinstance(c, Deck)}
    components = [replace(c, cards=tuple(k for k in c.cards if k.variant is None or k.variant in keep))
                  if isinstance(c, Deck) else c for c in components]
    _check_decks_not_empty(doc, components, every_card, errors)
    errors.raise_if_any()

    return Game(
        id=game_id,
        root=root,
        name_key=name_key,
        languages=tuple(languages),
        players=players,
        players_where=doc.at("players"),
        fonts=freeze(fonts),
        palette=freeze(palette),
        ink_palette=freeze(ink_palette),
        data=freeze(data),
        data_marks=marks,
        components=tuple(components),
        strings=freeze(strings),
        template_dirs=template_dirs,
        where=doc.where,
        variants=tuple(v for v in known if v in keep),
        known_variants=known,
        fallbacks=freeze(fallbacks),
        unfinished=freeze(unfinished),
        icons=icons,
        expect=MappingProxyType(expect),
        printing=printing,
    )


def reload_strings(game: Game, *, fallback: bool = False) -> Game | None:
    """``game`` with its locale files read again and the rest as it was loaded: what a
    save of ``locales/`` alone changes, without reading game.yaml and the data again
    (the live preview). ``fallback`` as ``game`` was loaded with. None when the strings
    have a problem: ``load_game`` then says which, at its file and line."""
    errors = Collector()
    strings, unfinished, fallbacks = _read_strings(game.root, list(game.languages), fallback, errors)
    names = [game.name_key, *(c.name_key for c in game.components if c.name_key)]
    if errors.errors or any(key not in strings[lang] for key in names for lang in game.languages):
        return None
    return replace(game, strings=freeze(strings), fallbacks=freeze(fallbacks), unfinished=freeze(unfinished))


def _read_strings(root: Path, languages: list[str], fallback: bool, errors: Collector
                  ) -> tuple[dict[str, dict[str, str]], dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
    """Every language's strings (the pseudo-language's too), the strings each unfinished
    language lacks, and with ``fallback`` those it takes from the first language."""
    unfinished: dict[str, tuple[str, ...]] = {}
    strings = read_locales(root, languages, errors, unfinished)
    fallbacks = {lang: frozenset(missing) for lang, missing in unfinished.items()} if fallback else {}
    if languages and languages[0] in strings and PSEUDO not in strings:
        strings[PSEUDO] = pseudo_table(strings[languages[0]])
    return strings, unfinished, fallbacks


def _check_decks_not_empty(doc: YDict, components: list[Component], every_card: dict[str, tuple],
                           errors: Collector) -> None:
    """Every deck has a card in this build: an empty one would be a PDF of no pages,
    which PDF readers refuse. A deck whose cards (``every_card``, before the variants
    were chosen) are all in variants names them."""
    entries = {c.get("id"): c for c in doc.get("components", []) if isinstance(c, YDict)}
    for component in components:
        if isinstance(component, Deck) and not component.cards:
            entry = entries.get(component.id)
            where = entry.at("cards") if entry is not None else component.where
            variants = sorted({k.variant for k in every_card.get(component.id, ()) if k.variant})
            hint = (f": its cards are all in variant{'s' if len(variants) > 1 else ''} {', '.join(variants)} "
                    f"(build with --variant {variants[0]})" if variants else "")
            errors.add(f"deck '{component.id}' has no cards{hint}", where)


def _chosen_variants(game_id: str, known: tuple[str, ...], variants: Iterable[str], every_variant: bool,
                     where: Where) -> set[str]:
    """The variants whose cards stay in the decks; a name the game's cards never use is
    an error naming the ones they do."""
    chosen = tuple(dict.fromkeys(variants))
    unknown = [v for v in chosen if v not in known]
    if unknown:
        has = f"it has: {', '.join(known)}" if known else "it has none"
        raise UnknownVariantError(f"game '{game_id}' has no variant {', '.join(repr(v) for v in unknown)} ({has})", where)
    return set(known) if every_variant else set(chosen)


def _check_names_translated(doc: YDict, name_key: str, components: list[Component], languages: list[str],
                            strings: dict[str, dict[str, str]], errors: Collector) -> None:
    """The game's name and each component's name are strings of every language."""
    used_keys = [(name_key, doc.at("name") if "name" in doc else doc.where)]
    used_keys += [(c.name_key, c.name_where or c.where) for c in components if c.name_key]
    for key, where in used_keys:
        for lang in languages:
            if lang in strings and key not in strings[lang]:
                errors.add(f"string '{key}' is not in locales/{lang}.yaml", where)


def _languages(doc: YDict, langs: YList, errors: Collector) -> list[str]:
    out = []
    for i, lang in enumerate(langs):
        if not isinstance(lang, str) or not LANG_RE.match(lang):
            errors.add(f"language {lang!r} is not a language code such as en, fr, nl", langs.at(i))
        elif lang in out:
            errors.add(f"language '{lang}' is listed twice", langs.at(i))
        else:
            out.append(lang)
    if "languages" in doc and not langs:
        errors.add("a game needs at least one language", doc.at("languages"))
    return out


def _players(doc: YDict, errors: Collector) -> tuple[int, int]:
    value = doc.get("players", list(GAME["players"].default))
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and 1 <= value[0] <= value[1]
    ):
        return (value[0], value[1])
    errors.add(f"'players' must be [min, max] whole numbers with 1 <= min <= max, found {value!r}", doc.at("players"))
    return GAME["players"].default


def _strings(table: dict) -> dict[str, str]:
    """A mapping of names to text, without the values that are not (reported as the
    table was read)."""
    return {str(k): v for k, v in table.items() if isinstance(v, str)}


def _check_font_names(root: Path, doc: YDict, fonts: dict[str, str], errors: Collector) -> None:
    from ..layout.fontfiles import FontFiles

    book = FontFiles([root / "fonts", shipped_fonts_dir()], roots=game_roots(root))
    for role, name in fonts.items():
        try:
            book.resolve(name, doc["fonts"].at(role))
        except CardgenError as exc:
            errors.extend(exc)


def _ink_palette(doc: YDict, table: dict[str, str], palette: dict[str, str], errors: Collector) -> dict[str, str]:
    """``ink_saver``: the colours drawn instead of others by a build with
    ``--ink-saver`` (a palette name or ``#rrggbb`` → a palette name, ``#rrggbb`` or
    ``none``), so a game saves ink without a template reading ``ink_saver``."""
    out: dict[str, str] = {}
    for key, value in table.items():
        where = doc["ink_saver"].at(key)
        if key not in palette and not COLOUR_RE.match(key):
            errors.add(f"ink_saver colour '{key}' must be a palette name or look like #1f4e8c", doc["ink_saver"].key_at(key))
        elif value not in palette and value != "none" and not COLOUR_RE.match(value):
            errors.add(f"ink_saver colour '{key}' must become a palette name, #rrggbb or none, found {value!r}", where)
        else:
            out[key.lower() if key.startswith("#") else key] = value
    return out
