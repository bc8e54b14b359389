"""game.yaml's ``icons:``: each name → a glyph of a font or an image of ``assets/``.

    icons:
      coin: {src: coin.svg}
      star: {char: "★", color: gold}
      sun:  {char: "☀", font: NotoSansSymbols2-Regular, scale: 1.2}

The files and fonts are checked where they are used (the layout's check pass, which
knows the face); here only the shape of each entry.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ..base.errors import Collector
from ..model.icons import Icon
from .gameschema import ICON
from .schema import describe, read_section
from .yamlsrc import YDict

ICON_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")  # as layout/inline.py reads :name:
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


def read_icons(value: YDict, errors: Collector) -> dict[str, Icon]:
    """Each icon of game.yaml's ``icons`` mapping (its type already checked)."""
    icons: dict[str, Icon] = {}
    for name, entry in value.items():
        where = value.at(name)
        name = str(name)
        if not ICON_NAME_RE.match(name):
            errors.add(f"icon name {name!r} must start with a letter and hold only letters, digits, '_' and '-'",
                       where)
            continue
        if not isinstance(entry, YDict):
            errors.add(f"icon '{name}' must be a mapping such as {{char: \"★\"}} or {{src: {name}.svg}}, "
                       f"found {describe(entry)}", where)
            continue
        icon = _read_icon(name, entry, errors)
        if icon is not None:
            icons[name] = icon
    return icons


def _read_icon(name: str, entry: YDict, errors: Collector) -> Icon | None:
    before = len(errors.errors)
    keys = read_section(entry, ICON, f"icon '{name}'", errors)
    char, src = entry.get("char"), entry.get("src")
    if (char is None) == (src is None):
        errors.add(f"icon '{name}' needs exactly one of 'char' (a character of a font) and 'src' (an image "
                   f"in assets/)", entry.where)
        return None
    if isinstance(char, str) and len(char) != 1:
        errors.add(f"'char' of icon '{name}' must be one character, found {char!r}", entry.at("char"))
    if isinstance(src, str):
        path = PurePosixPath(src)
        if path.is_absolute() or ".." in path.parts or "\\" in src:
            errors.add(f"'src' of icon '{name}' must be a file inside the game's assets folder, found {src!r}",
                       entry.at("src"))
        elif path.suffix.lower() not in IMAGE_SUFFIXES:
            errors.add(f"'src' of icon '{name}' must be a .png, .jpg or .svg file, found {src!r}", entry.at("src"))
        if "font" in entry:
            errors.add(f"icon '{name}' is an image: 'font' is for a 'char' icon", entry.at("font"))
    if len(errors.errors) > before:
        return None
    return Icon(name, char=char, font=keys["font"], src=src, colour=keys["color"], scale=float(keys["scale"]),
                where=entry.where)
