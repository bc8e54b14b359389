"""game.yaml's ``components``: decks (with their cards), sheets and boards, each
checked for its own keys, sizes and templates.
"""

from __future__ import annotations

from pathlib import Path

from ..base.errors import Collector, Where, display_path, is_file
from ..impose.honeycomb import hex_box
from ..impose.pathgeom import bounds, path_problem
from ..layout.svgpath import PathError, parse_path
from ..model.components import Board, Component, Deck, Sheet
from .cards import read_cards
from .gameschema import BOARD, COMPONENTS, DECK
from .schema import ID_RE, Checked, Section, check_mapping, describe, get_size, read_section
from .yamlsrc import YDict, YList

MAX_OUTLINE_CHARS = 20_000  # a die-cut outline's path data: far more than any outline needs
SHAPE_KEYS = {k.name: k.only[1] for k in DECK.keys if k.only and k.only[0] == "shape"}  # settings of one shape each


def read_components(items: YList, where: Where | None, data: dict, template_dirs: tuple[Path, ...],
                    errors: Collector) -> list[Component]:
    """Every component of the game's ``components`` list (which stands at ``where``, None
    when the game has none), in game order; ``data`` feeds the decks' for_each."""
    if where is not None and not items:  # a kit with no file in it
        errors.add("'components' in the game is empty: list at least one deck, sheet or board", where)
    out: list[Component] = []
    seen: dict[str, Where] = {}
    all_card_ids: dict[str, Where] = {}  # card ids are unique across the whole game
    for i, item in enumerate(items):
        if not check_mapping(item, items.at(i), f"component {i + 1}", errors):
            continue
        cid = item.get("id")
        what = f"component '{cid}'" if isinstance(cid, str) else f"component {i + 1}"
        kind = item.get("kind")
        section = COMPONENTS.get(kind) if isinstance(kind, str) else None
        if section is None:
            kinds = [f"'{k}'" for k in COMPONENTS]
            errors.add(f"{what}: 'kind' must be {', '.join(kinds[:-1])} or {kinds[-1]}, found {kind!r}",
                       item.at("kind"))
            continue
        keys = read_section(item, section, what, errors)
        cid = keys["id"] if keys["id"] is not None else f"component{i + 1}"
        if not ID_RE.match(cid):
            errors.add(f"component id '{cid}' must be lower-case letters, digits, '-' or '_'", item.at("id"))
        if cid in seen:
            errors.add(f"component id '{cid}' is used twice (first at line {seen[cid].line})", item.at("id"))
        seen[cid] = item.at("id")
        name_key = keys["name"]
        _check_templates(item, what, template_dirs, errors)
        if kind == "sheet":
            out.append(Sheet(id=cid, name_key=name_key, where=item.where, name_where=item.at("name"),
                             template=_template_name(item, "template") or ""))
        elif kind == "board":
            out.append(_board(item, keys, cid, what, errors))
        else:
            out.append(_deck(item, keys, cid, what, data, errors, all_card_ids, template_dirs))
    return out


def _check_templates(item: YDict, what: str, template_dirs: tuple[Path, ...], errors: Collector) -> None:
    """Each template a component names is a file name found in one of the template folders."""
    for key in ("front", "back", "template", "header"):
        tname = item.get(key)
        if tname is None:
            if key in item and key in ("front", "template"):  # `back: null` is a one-sided deck; these are required
                errors.add(f"'{key}' in {what} must be a template file name, found {describe(tname)}", item.at(key))
            continue
        if not isinstance(tname, str):
            errors.add(f"'{key}' in {what} must be a template file name, found {describe(tname)}", item.at(key))
        elif ".." in Path(tname).parts or Path(tname).is_absolute():
            errors.add(f"template '{tname}' must be a name inside the templates folder", item.at(key))
        elif not _find_template(tname, template_dirs):
            looked = ", ".join(display_path(d) for d in template_dirs)
            errors.add(f"template '{tname}' not found (looked in: {looked})", item.at(key))


def _deck(item: YDict, keys: Checked, cid: str, what: str, data: dict, errors: Collector,
          all_card_ids: dict[str, Where], template_dirs: tuple[Path, ...] = ()) -> Deck:
    """A deck: its piece size, bleed and safe margins, outline, sides and cards (``keys``:
    its keys as checked against the deck's table)."""
    if item.get("shape") == "hex":
        size = _hex_size(item, what, errors)
    else:
        size = get_size(item, "size", what, errors, _limits(DECK))
    bleed, safe = keys["bleed"], keys["safe"]
    if size is not None and "bleed" in keys.given and bleed > min(size):
        errors.add(f"'bleed' in {what} ({bleed:g} mm) is larger than the piece itself "
                   f"({size[0]:g}×{size[1]:g} mm)", item.at("bleed"))
    if size is not None and "safe" in keys.given and 2 * safe >= min(size):
        errors.add(f"'safe' in {what} ({safe:g} mm on each side) leaves no room inside the "
                   f"{size[0]:g}×{size[1]:g} mm piece", item.at("safe"))
    shape = _shape(keys, size, item, what, errors)
    settings = _shape_settings(item, keys, shape, size, what, errors)
    new_row_per = keys["new_row_per"]
    if shape == "hex" and new_row_per is not None:
        errors.add(f"'new_row_per' in {what} is not available for hex pieces (they pack in a honeycomb)",
                   item.at("new_row_per"))
    if "header" in item and item.get("back") is not None:
        errors.add(f"'header' in {what} is for one-sided decks (printed on the sheets file); "
                   f"this deck has a back", item.at("header"))
    cards = read_cards(item.get("cards"), item.at("cards"), data, cid, errors, all_card_ids,
                       lambda key, name, where, errs: _card_template(key, name, where, template_dirs, errs),
                       one_sided=item.get("back") is None)
    return Deck(
        id=cid,
        name_key=keys["name"],
        where=item.where,
        name_where=item.at("name"),
        size=size or (63.0, 88.0),
        bleed=bleed,
        safe=safe,
        front=_template_name(item, "front") or "",
        back=_template_name(item, "back"),
        cards=tuple(cards),
        printshop=keys["printshop"],
        shape=shape,
        **settings,
        new_row_per=new_row_per,
        header=_template_name(item, "header"),
    )


def _card_template(key: str, name: str, where: Where, template_dirs: tuple[Path, ...], errors: Collector) -> bool:
    """Whether a card's own front or back template is a file of the template folders."""
    if ".." in Path(name).parts or Path(name).is_absolute():
        errors.add(f"template '{name}' must be a name inside the templates folder", where)
        return False
    if not _find_template(name, template_dirs):
        looked = ", ".join(display_path(d) for d in template_dirs)
        errors.add(f"template '{name}' (the card's own '{key}') not found (looked in: {looked})", where)
        return False
    return True


def _limits(section: Section) -> tuple[float, float]:
    """The smallest and largest side of a component's ``size``, as its table says."""
    sides = section["size"].range
    assert sides is not None, f"the {section.name} table gives its size no range"
    return (sides.low, sides.high)


def _find_template(name: str, template_dirs: tuple[Path, ...]) -> bool:
    return any(is_file(d / name) for d in template_dirs)


def _template_name(item: YDict, key: str) -> str | None:
    """The template file a component names under ``key``; None when it names none (or
    not as text, which is reported where the templates are checked)."""
    value = item.get(key)
    return value if isinstance(value, str) else None


def _hex_size(item: YDict, what: str, errors: Collector) -> tuple[float, float] | None:
    """A hex's size: one number, its flat-to-flat width (the bounding box follows)."""
    value = item.get("size")
    lo, hi = _limits(DECK)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and lo <= value <= hi:
        return hex_box(float(value), item.get("top", "pointy") != "flat")
    errors.add(f"'size' in {what} (shape hex) must be the hex's flat-to-flat width in mm, one number from "
               f"{lo:g} to {hi:g} such as 50, found {describe(value)}", item.at("size"))
    return None


def _shape_settings(item: YDict, keys: Checked, shape: str, size: tuple[float, float] | None, what: str,
                    errors: Collector) -> dict:
    """The settings of the deck's shape: a hex's ``top``, a rounded rectangle's corner
    ``radius``, a die-cut ``outline`` path (scaled to fill ``size``)."""
    for key, owner in SHAPE_KEYS.items():
        if key in item and shape != owner:
            errors.add(f"'{key}' in {what} is for shape {owner}, but the shape is {shape}", item.at(key))
    if shape == "hex":
        return {"hex_top": keys["top"]}
    if shape == "rounded":
        if "radius" not in item:
            errors.add(f"{what} has shape rounded, so it needs 'radius': the corners' radius in mm", item.where)
            return {}
        radius = keys["radius"]
        if "radius" in keys.refused:
            return {}
        if size is not None and radius > min(size) / 2 + 1e-9:
            errors.add(f"'radius' in {what} ({radius:g} mm) is larger than half the piece's shorter side "
                       f"({min(size) / 2:g} mm of {size[0]:g}×{size[1]:g} mm)", item.at("radius"))
        return {"corner_radius": radius}
    if shape == "path":
        return _outline(item, size, what, errors)
    return {}


def _outline(item: YDict, size: tuple[float, float] | None, what: str, errors: Collector) -> dict:
    """A die-cut outline: SVG path data, drawn at any scale; it is stretched so that its
    bounding box is the piece's ``size``."""
    d = item.get("outline")
    if not isinstance(d, str) or not d.strip():
        errors.add(f"{what} has shape path, so it needs 'outline': SVG path data such as "
                   f"'M 0 0 L 40 0 L 20 30 Z', found {describe(d)}", item.at("outline") if "outline" in item
                   else item.where)
        return {}
    if len(d) > MAX_OUTLINE_CHARS:
        errors.add(f"'outline' in {what} is {len(d):,} characters long; at most {MAX_OUTLINE_CHARS:,}",
                   item.at("outline"))
        return {}
    try:
        segments = parse_path(d)
    except PathError as exc:
        errors.add(f"'outline' in {what}: {exc}", item.at("outline"))
        return {}
    problem = path_problem(segments) if segments else "is empty"
    if problem:
        errors.add(f"'outline' in {what} {problem}", item.at("outline"))
        return {}
    if size is None:
        return {"outline": d}
    left, top, right, bottom = bounds(segments)
    if right - left < 1e-9 or bottom - top < 1e-9:
        errors.add(f"'outline' in {what} has no width or no height", item.at("outline"))
        return {}
    return {"outline": d}


def _shape(keys: Checked, size: tuple[float, float] | None, item: YDict, what: str, errors: Collector) -> str:
    """The pieces' outline: ``rect`` (default), ``circle`` (round tokens, cut guides
    drawn as circles: the size is the diameter, so width must equal height), ``hex``,
    ``rounded`` or ``path`` (see the settings above)."""
    shape = keys["shape"]
    if shape == "circle" and size is not None and abs(size[0] - size[1]) > 1e-9:
        errors.add(f"{what} has shape circle, so its size must be [diameter, diameter], found "
                   f"[{size[0]:g}, {size[1]:g}]", item.at("size"))
    return shape


def _board(item: YDict, keys: Checked, cid: str, what: str, errors: Collector) -> Board:
    """A board: one full-size drawing, tiled across as many pages as the paper needs."""
    size = get_size(item, "size", what, errors, _limits(BOARD)) or (400.0, 280.0)
    return Board(id=cid, name_key=keys["name"], where=item.where, name_where=item.at("name"), size=size,
                 bleed=keys["bleed"], template=_template_name(item, "template") or "", overlap=keys["overlap"])
