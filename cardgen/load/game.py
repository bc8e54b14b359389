"""Read a game folder into a checked ``model.Game``, reporting every problem at once.

A game folder holds ``game.yaml`` (the game, its components and cards), and
``locales/<lang>.yaml`` (every string per language). Its templates live in
``<folder>/templates/`` and, for shipped games, in ``templates/<id>/``; shared
macros in ``templates/common/``.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable

from ..errors import CardgenError, Collector, Where, display_path
from ..model.components import Board, Card, Component, Deck, Sheet
from ..model.game import Game, freeze
from ..model.marks import DataMarks, Mark
from ..paths import shipped_fonts_dir, shipped_games_dir, shipped_templates_dir
from ..impose.labels import LOCALE_KEYS as OPTIONAL_KEYS
from .schema import check_keys, check_mapping, describe, get, get_choice, get_size
from .yamlsrc import YDict, YList, load_yaml

GAME_FILE = "game.yaml"
ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
LANG_RE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]+)?$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
# Sane bounds, so that a slip in the data is a clear error rather than a build that
# imposes millions of pieces or pages and never ends.
PIECE_MM = (5.0, 600.0)  # each side of a card, tile or token
BOARD_MM = (20.0, 2000.0)  # each side of a board (A0 is 841 × 1189 mm)
MAX_QUANTITY = 1000  # copies of one card
MAX_PIECES = 10_000  # cards of one component, every copy counted
MISSING_SHOWN = 12  # missing translations named in the one-line message; the rest are counted
PLACEHOLDER_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")

GAME_KEYS_REQUIRED = ("id", "name", "languages", "components")
GAME_KEYS_OPTIONAL = ("players", "fonts", "palette", "data", "data_files")
DECK_KEYS_REQUIRED = ("id", "kind", "size", "front", "cards")
DECK_KEYS_OPTIONAL = ("name", "bleed", "safe", "back", "printshop", "shape", "new_row_per", "header")
SHAPES = ("rect", "circle")
# how imposed sheets may break rows: value → what it means (for the error message)
NEW_ROW_PER = {"card": "each card entry starts a new row"}
SHEET_KEYS_REQUIRED = ("id", "kind", "template")
SHEET_KEYS_OPTIONAL = ("name",)
BOARD_KEYS_REQUIRED = ("id", "kind", "size", "template")
BOARD_KEYS_OPTIONAL = ("name", "bleed", "overlap")
CARD_KEYS_REQUIRED = ("id",)
CARD_KEYS_OPTIONAL = ("quantity", "for_each", "fields", "variant")


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


def load_game(game: str | Path, variants: Iterable[str] = (), *, every_variant: bool = False) -> Game:
    """Load and check a game by id or folder; raises CardgenError/ErrorList.

    Cards marked ``variant: NAME`` are left out of the decks unless NAME is among
    ``variants`` (or ``every_variant`` is set, as ``cardgen list`` does), so every
    later stage (build, manifest, validate) sees the deck the user chose. An
    unknown variant name is an error naming the ones the game has."""
    root = find_game(str(game))
    label = display_path(root / GAME_FILE)
    doc = load_yaml(root / GAME_FILE, label)
    errors = Collector()
    if not check_mapping(doc, Where(label, 1, 1), GAME_FILE, errors):
        errors.raise_if_any()
    check_keys(doc, GAME_KEYS_REQUIRED, GAME_KEYS_OPTIONAL, "the game", errors)

    game_id = get(doc, "id", (str,), "the game", errors, default=root.name)
    if "id" in doc and isinstance(doc["id"], str) and not ID_RE.match(game_id):
        errors.add(f"game id '{game_id}' must be lower-case letters, digits, '-' or '_'", doc.at("id"))
    name_key = get(doc, "name", (str,), "the game", errors, default="game.name")
    languages = _languages(doc, errors)
    players = _players(doc, errors)
    fonts = _string_map(doc, "fonts", errors)
    palette = _string_map(doc, "palette", errors)
    for key, value in palette.items():
        if not COLOUR_RE.match(value):
            errors.add(f"palette colour '{key}' must look like #1f4e8c, found {value!r}", doc["palette"].at(key))
    data = doc.get("data", YDict())
    if not isinstance(data, dict):
        errors.add(f"'data' must be a mapping, found {describe(data)}", doc.at("data"))
        data = YDict()
    data, marks = _data_files(root, doc, data, errors)

    template_dirs = tuple(
        d for d in (root / "templates", shipped_templates_dir() / game_id, shipped_templates_dir() / "common")
    )
    components = _components(doc, data, template_dirs, errors)
    strings = _locales(root, languages, errors)
    _check_font_names(root, doc, fonts, errors)

    used_keys = [(name_key, doc.at("name") if "name" in doc else doc.where)]
    used_keys += [(c.name_key, c.name_where or c.where) for c in components if c.name_key]
    for key, where in used_keys:
        for lang in languages:
            if lang in strings and key not in strings[lang]:
                errors.add(f"string '{key}' is not in locales/{lang}.yaml", where)
    errors.raise_if_any()

    known = tuple(sorted({k.variant for c in components if isinstance(c, Deck) for k in c.cards if k.variant}))
    chosen = tuple(dict.fromkeys(variants))
    unknown = [v for v in chosen if v not in known]
    if unknown:
        has = f"it has: {', '.join(known)}" if known else "it has none"
        raise CardgenError(f"game '{game_id}' has no variant {', '.join(repr(v) for v in unknown)} ({has})",
                           Where(label))
    keep = set(known) if every_variant else set(chosen)
    components = [replace(c, cards=tuple(k for k in c.cards if k.variant is None or k.variant in keep))
                  if isinstance(c, Deck) else c for c in components]

    return Game(
        id=game_id,
        root=root,
        name_key=name_key,
        languages=tuple(languages),
        players=players,
        fonts=freeze(fonts),
        palette=freeze(palette),
        data=freeze(data),
        data_marks=DataMarks(Mark(doc.where, MappingProxyType(marks)), Where(label)),
        components=tuple(components),
        strings=freeze(strings),
        template_dirs=template_dirs,
        where=doc.where,
        variants=tuple(v for v in known if v in keep),
        known_variants=known,
    )


def mark_of(value: Any, where: Where) -> Mark:
    """The marks of a value read from YAML and of everything it holds."""
    if isinstance(value, YDict):
        return Mark(where, MappingProxyType({k: mark_of(v, value.at(k)) for k, v in value.items()}))
    if isinstance(value, YList):
        return Mark(where, tuple(mark_of(v, value.at(i)) for i, v in enumerate(value)))
    return Mark(where)


def _data_files(root: Path, doc: YDict, data: dict, errors: Collector) -> tuple[dict, dict[Any, Mark]]:
    """Merge the top-level keys of each ``data_files`` entry into ``data``; with the
    marks of every top-level key, wherever it was read.

    Large tables (setup layouts, card art lists) can live in files of their own."""
    files = get(doc, "data_files", (list,), "the game", errors, default=[])
    merged = dict(data)
    marks = {k: mark_of(v, data.at(k)) for k, v in data.items()} if isinstance(data, YDict) else {}
    for i, name in enumerate(files):
        where = files.at(i)
        if not isinstance(name, str) or ".." in Path(name).parts or Path(name).is_absolute():
            errors.add(f"data file {name!r} must be a file name inside the game folder", where)
            continue
        path = root / name
        if not path.is_file():
            errors.add(f"data file '{name}' not found", where)
            continue
        try:
            extra = load_yaml(path, display_path(path))
        except CardgenError as exc:
            errors.extend(exc)
            continue
        if not isinstance(extra, YDict):
            errors.add(f"data file '{name}' must hold a mapping", where)
            continue
        for key in extra:
            if key in merged:
                errors.add(f"data key '{key}' is defined twice (game.yaml or an earlier data file)", extra.key_at(key))
            else:
                merged[key] = extra[key]
                marks[key] = mark_of(extra[key], extra.at(key))
    return merged, marks


def _languages(doc: YDict, errors: Collector) -> list[str]:
    langs = get(doc, "languages", (list,), "the game", errors, default=[])
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
    value = doc.get("players", [1, 1])
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and 1 <= value[0] <= value[1]
    ):
        return (value[0], value[1])
    errors.add(f"'players' must be [min, max] whole numbers with 1 <= min <= max, found {value!r}", doc.at("players"))
    return (1, 1)


def _string_map(doc: YDict, key: str, errors: Collector) -> dict[str, str]:
    value = doc.get(key, YDict())
    if not isinstance(value, YDict):
        errors.add(f"'{key}' must be a mapping, found {describe(value)}", doc.at(key))
        return {}
    out = {}
    for k, v in value.items():
        if not isinstance(v, str):
            errors.add(f"'{key}.{k}' must be text, found {describe(v)}", value.at(k))
        else:
            out[str(k)] = v
    return out


def _check_font_names(root: Path, doc: YDict, fonts: dict[str, str], errors: Collector) -> None:
    from ..layout.fonts import FontBook  # local: fonts pulls in reportlab

    book = FontBook([root / "fonts", shipped_fonts_dir()])
    for role, name in fonts.items():
        try:
            book.resolve(name, doc["fonts"].at(role))
        except CardgenError as exc:
            errors.extend(exc)


def _find_template(name: str, template_dirs: tuple[Path, ...]) -> bool:
    return any((d / name).is_file() for d in template_dirs)


def _components(doc: YDict, data: dict, template_dirs: tuple[Path, ...], errors: Collector) -> list[Component]:
    items = get(doc, "components", (list,), "the game", errors, default=[])
    out: list[Component] = []
    seen: dict[str, Where] = {}
    all_card_ids: dict[str, Where] = {}
    for i, item in enumerate(items):
        if not check_mapping(item, items.at(i), f"component {i + 1}", errors):
            continue
        cid = item.get("id")
        what = f"component '{cid}'" if isinstance(cid, str) else f"component {i + 1}"
        kind = item.get("kind")
        if kind == "deck":
            check_keys(item, DECK_KEYS_REQUIRED, DECK_KEYS_OPTIONAL, what, errors)
        elif kind == "sheet":
            check_keys(item, SHEET_KEYS_REQUIRED, SHEET_KEYS_OPTIONAL, what, errors)
        elif kind == "board":
            check_keys(item, BOARD_KEYS_REQUIRED, BOARD_KEYS_OPTIONAL, what, errors)
        else:
            errors.add(f"{what}: 'kind' must be 'deck', 'sheet' or 'board', found {kind!r}", item.at("kind"))
            continue
        cid = get(item, "id", (str,), what, errors, default=f"component{i + 1}")
        if not ID_RE.match(cid):
            errors.add(f"component id '{cid}' must be lower-case letters, digits, '-' or '_'", item.at("id"))
        if cid in seen:
            errors.add(f"component id '{cid}' is used twice (first at line {seen[cid].line})", item.at("id"))
        seen[cid] = item.at("id")
        name_key = get(item, "name", (str,), what, errors)

        for key in ("front", "back", "template", "header"):
            tname = item.get(key)
            if tname is None:
                continue
            if not isinstance(tname, str):
                errors.add(f"'{key}' in {what} must be a template file name, found {describe(tname)}", item.at(key))
            elif ".." in Path(tname).parts or Path(tname).is_absolute():
                errors.add(f"template '{tname}' must be a name inside the templates folder", item.at(key))
            elif not _find_template(tname, template_dirs):
                looked = ", ".join(display_path(d) for d in template_dirs)
                errors.add(f"template '{tname}' not found (looked in: {looked})", item.at(key))

        if kind == "sheet":
            out.append(Sheet(id=cid, name_key=name_key, where=item.where, name_where=item.at("name"),
                             template=_template_name(item, "template") or ""))
            continue
        if kind == "board":
            out.append(_board(item, cid, name_key, what, errors))
            continue
        size = get_size(item, "size", what, errors, PIECE_MM)
        bleed = get(item, "bleed", (float,), what, errors, default=3.0)
        safe = get(item, "safe", (float,), what, errors, default=3.0)
        for key, value in (("bleed", bleed), ("safe", safe)):
            if not 0 <= value <= 20:  # NaN too
                errors.add(f"'{key}' in {what} must be between 0 and 20 mm, found {value}", item.at(key))
            elif size is not None and key == "bleed" and value > min(size):
                errors.add(f"'bleed' in {what} ({value:g} mm) is larger than the piece itself "
                           f"({size[0]:g}×{size[1]:g} mm)", item.at(key))
            elif size is not None and key == "safe" and key in item and 2 * value >= min(size):
                errors.add(f"'safe' in {what} ({value:g} mm on each side) leaves no room inside the "
                           f"{size[0]:g}×{size[1]:g} mm piece", item.at(key))
        printshop = get(item, "printshop", (bool,), what, errors, default=True)
        shape = _shape(item, size, what, errors)
        new_row_per = get_choice(item, "new_row_per", NEW_ROW_PER, what, errors)
        if "header" in item and item.get("back") is not None:
            errors.add(f"'header' in {what} is for one-sided decks (printed on the sheets file); "
                       f"this deck has a back", item.at("header"))
        cards = _cards(item.get("cards"), item.at("cards"), data, cid, errors, all_card_ids)
        out.append(
            Deck(
                id=cid,
                name_key=name_key,
                where=item.where,
                name_where=item.at("name"),
                size=size or (63.0, 88.0),
                bleed=bleed,
                safe=safe,
                front=_template_name(item, "front") or "",
                back=_template_name(item, "back"),
                cards=tuple(cards),
                printshop=printshop,
                shape=shape,
                new_row_per=new_row_per,
                header=_template_name(item, "header"),
            )
        )
    return out


def _shape(item: YDict, size: tuple[float, float] | None, what: str, errors: Collector) -> str:
    """The pieces' outline: ``rect`` (default) or ``circle`` (round tokens, cut guides
    drawn as circles). A circle's size is its diameter, so width must equal height."""
    shape = get(item, "shape", (str,), what, errors, default="rect")
    if shape not in SHAPES:
        errors.add(f"'shape' in {what} must be one of {', '.join(SHAPES)}, found {shape!r}", item.at("shape"))
        return "rect"
    if shape == "circle" and size is not None and abs(size[0] - size[1]) > 1e-9:
        errors.add(f"{what} has shape circle, so its size must be [diameter, diameter], found "
                   f"[{size[0]:g}, {size[1]:g}]", item.at("size"))
    return shape


def _template_name(item: YDict, key: str) -> str | None:
    """The template file a component names under ``key``; None when it names none (or
    not as text, which is reported where the templates are checked)."""
    value = item.get(key)
    return value if isinstance(value, str) else None


def _board(item: YDict, cid: str, name_key: str | None, what: str, errors: Collector) -> Board:
    """A board: one full-size drawing, tiled across as many pages as the paper needs."""
    size = get_size(item, "size", what, errors, BOARD_MM) or (400.0, 280.0)
    bleed = get(item, "bleed", (float,), what, errors, default=3.0)
    overlap = get(item, "overlap", (float,), what, errors, default=10.0)
    if not 0 <= bleed <= 20:
        errors.add(f"'bleed' in {what} must be between 0 and 20 mm, found {bleed}", item.at("bleed"))
    if not 3 <= overlap <= 40:
        errors.add(f"'overlap' in {what} must be between 3 and 40 mm (the glue margin), found {overlap}",
                   item.at("overlap"))
    return Board(id=cid, name_key=name_key, where=item.where, name_where=item.at("name"),
                 size=size, bleed=bleed, template=_template_name(item, "template") or "", overlap=overlap)


def _lookup(binding: dict[str, Any], dotted: str) -> Any:
    value: Any = binding
    for part in dotted.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise KeyError(dotted)
    return value


def _expand_id(template: str, binding: dict[str, Any]) -> str:
    return PLACEHOLDER_RE.sub(lambda m: str(_lookup(binding, m.group(1))), template)


def _for_each_values(spec: YDict, data: dict, what: str, errors: Collector) -> list[tuple[str, list]]:
    axes = []
    for key, source in spec.items():
        where = spec.at(key)
        if isinstance(source, str):
            values = data.get(source)
            if not isinstance(values, list):
                errors.add(f"{what}: for_each '{key}' names '{source}', which is not a list under 'data'", where)
                return []
            axes.append((key, list(values)))
        elif isinstance(source, YDict) and set(source) == {"range"}:
            rng = source["range"]
            if (
                isinstance(rng, list)
                and len(rng) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in rng)
                and rng[0] <= rng[1]
            ):
                if rng[1] - rng[0] >= MAX_PIECES:
                    errors.add(f"{what}: for_each '{key}' range makes {rng[1] - rng[0] + 1:,} cards; a component"
                               f" may have at most {MAX_PIECES:,}", where)
                    return []
                axes.append((key, list(range(rng[0], rng[1] + 1))))
            else:
                errors.add(f"{what}: for_each '{key}' range must be [first, last] whole numbers", where)
                return []
        elif isinstance(source, YList):
            axes.append((key, list(source)))
        else:
            errors.add(
                f"{what}: for_each '{key}' must name a list in 'data', give a list, or {{range: [first, last]}}", where
            )
            return []
    return axes


def _quantity(template: str, binding: dict[str, Any], entry: YDict, errors: Collector,
              data: dict | None = None) -> int | None:
    """A quantity read from the data (``"{tile.count}"``, a for_each item's field, or
    ``"{nile_cards}"``, a key under ``data``), so counts live in one place."""
    m = PLACEHOLDER_RE.fullmatch(template.strip())
    where = entry.at("quantity")
    try:
        value = _lookup(binding, m.group(1))
    except KeyError:
        try:
            value = _lookup(dict(data or {}), m.group(1))
        except KeyError:
            errors.add(f"'quantity' refers to unknown field '{m.group(1)}'", where)
            return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        errors.add(f"'quantity' \"{template}\" gives {value!r}; it must be a whole number, 1 or more", where)
        return None
    if value > MAX_QUANTITY:
        errors.add(f"'quantity' \"{template}\" gives {value:,}; at most {MAX_QUANTITY:,} copies are allowed", where)
        return None
    return value


def _variant(entry: YDict, binding: dict[str, Any], errors: Collector) -> str | None | bool:
    """The variant a card belongs to (``variant: jokers`` or ``"{v.variant}"``); None for
    every build, False after an error."""
    if "variant" not in entry:
        return None
    template = entry["variant"]
    where = entry.at("variant")
    if not isinstance(template, str):
        errors.add(f"'variant' must be a name such as jokers, found {describe(template)}", where)
        return False
    try:
        name = _expand_id(template, binding)
    except KeyError as exc:
        errors.add(f"'variant' \"{template}\" refers to unknown field {exc}", where)
        return False
    if not ID_RE.match(name):
        errors.add(f"variant name {name!r} must be lower-case letters, digits, '-' or '_'", where)
        return False
    return name


def _cards(items: Any, where: Where, data: dict, cid: str, errors: Collector, ids: dict[str, Where]) -> list[Card]:
    what = f"component '{cid}'"
    if not isinstance(items, YList):
        errors.add(f"'cards' in {what} must be a list of card entries, found {describe(items)}", where)
        return []
    out: list[Card] = []
    for i, entry in enumerate(items):
        ewhat = f"card entry {i + 1} of {what}"
        if not check_mapping(entry, items.at(i), ewhat, errors):
            continue
        check_keys(entry, CARD_KEYS_REQUIRED, CARD_KEYS_OPTIONAL, ewhat, errors)
        id_template = get(entry, "id", (str,), ewhat, errors)
        quantity = get(entry, "quantity", (int, str), ewhat, errors, default=1)
        if isinstance(quantity, int) and quantity < 1:
            errors.add(f"'quantity' in {ewhat} must be 1 or more, found {quantity}", entry.at("quantity"))
        elif isinstance(quantity, int) and quantity > MAX_QUANTITY:
            errors.add(f"'quantity' in {ewhat} must be at most {MAX_QUANTITY:,} copies, found {quantity:,}",
                       entry.at("quantity"))
            continue
        elif isinstance(quantity, str) and not PLACEHOLDER_RE.fullmatch(quantity.strip()):
            errors.add(f"'quantity' in {ewhat} must be a whole number (or a placeholder such as"
                       f" \"{{kind.count}}\"), found str '{quantity}'", entry.at("quantity"))
            continue
        fields = get(entry, "fields", (dict,), ewhat, errors, default={})
        spec = entry.get("for_each")
        if spec is not None and not isinstance(spec, YDict):
            errors.add(f"'for_each' in {ewhat} must be a mapping", entry.at("for_each"))
            continue
        axes = _for_each_values(spec, data, ewhat, errors) if spec else []
        if id_template is None or (spec and not axes):
            continue
        names = [name for name, _ in axes]
        combos = math.prod(len(values) for _, values in axes)
        if combos > MAX_PIECES:
            errors.add(f"for_each in {ewhat} makes {combos:,} cards; a component may have at most {MAX_PIECES:,}",
                       entry.at("for_each"))
            continue
        for combo in itertools.product(*(values for _, values in axes)) if axes else [()]:
            binding = dict(zip(names, combo))
            binding.update(fields)
            try:
                card_id = _expand_id(id_template, binding)
            except KeyError as exc:
                errors.add(f"card id '{id_template}' refers to unknown field {exc}", entry.at("id"))
                break
            if card_id in ids:
                errors.add(f"duplicate card id '{card_id}' (first at line {ids[card_id].line})", entry.at("id"))
                continue
            ids[card_id] = entry.at("id")
            copies = _quantity(quantity, binding, entry, errors, data) if isinstance(quantity, str) else quantity
            if copies is None:
                break
            variant = _variant(entry, binding, errors)
            if variant is False:
                break
            out.append(Card(id=card_id, fields=freeze(binding), quantity=copies, where=entry.at("id"),
                            variant=variant))
    pieces = sum(max(card.quantity, 0) for card in out)
    if pieces > MAX_PIECES:
        errors.add(f"{what} has {pieces:,} cards, every copy counted; at most {MAX_PIECES:,} are allowed", where)
    return out


def _flatten(d: YDict, prefix: str, out: dict[str, str], wheres: dict[str, Where], errors: Collector) -> None:
    for key, value in d.items():
        full = f"{prefix}{key}"
        if isinstance(value, YDict):
            _flatten(value, full + ".", out, wheres, errors)
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            out[full] = str(value)
            wheres[full] = d.at(key)
        else:
            errors.add(f"string '{full}' must be text, found {describe(value)}", d.at(key))


def _locales(root: Path, languages: list[str], errors: Collector) -> dict[str, dict[str, str]]:
    strings: dict[str, dict[str, str]] = {}
    for lang in languages:
        path = root / "locales" / f"{lang}.yaml"
        label = display_path(path)
        if not path.is_file():
            errors.add(f"no strings for language '{lang}': file missing", Where(label))
            continue
        try:
            doc = load_yaml(path, label)
        except CardgenError as exc:
            errors.extend(exc)
            continue
        table: dict[str, str] = {}
        if doc is None:
            errors.add("the file is empty: it must map each string key to its text", Where(label))
            continue
        if not check_mapping(doc, Where(label, 1, 1), f"locales/{lang}.yaml", errors):
            continue  # one error for the file, not one per key it lacks
        _flatten(doc, "", table, {}, errors)
        strings[lang] = table
    # every key in every language, but cardgen's own sheet-label words (``sheet.*``), which
    # fall back to built-in ones per language (cardgen.impose.labels)
    every_key = {k for t in strings.values() for k in t} - OPTIONAL_KEYS
    for lang, table in strings.items():
        missing = sorted(every_key - table.keys())
        if missing:
            label = display_path(root / "locales" / f"{lang}.yaml")
            shown = ", ".join(missing[:MISSING_SHOWN])
            more = f" … and {len(missing) - MISSING_SHOWN} more" if len(missing) > MISSING_SHOWN else ""
            errors.add(f"missing {len(missing)} translation(s): {shown}{more}", Where(label))
    return strings
