"""game.yaml's ``icons:``: each name → a glyph of a font or an image of ``assets/``.

    icons:
      coin: {src: coin.svg}
      star: {char: "★", color: gold}
      sun:  {char: "☀", font: NotoSansSymbols2-Regular, scale: 1.2}

The files and fonts are checked where they are used (the layout's check pass, which
knows the face); here only the shape of each entry.
"""

from __future__ import annotations

import math
import re
from pathlib import PurePosixPath

from ..errors import Collector
from ..model.icons import Icon
from .schema import describe
from .yamlsrc import YDict

ICON_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")  # as layout/inline.py reads :name:
ICON_KEYS = ("char", "font", "src", "color", "scale")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
MAX_SCALE = 5.0


def read_icons(doc: YDict, errors: Collector) -> dict[str, Icon]:
    value = doc.get("icons", YDict())
    if not isinstance(value, YDict):
        errors.add(f"'icons' must be a mapping of names to {{char: …}} or {{src: …}}, found {describe(value)}",
                   doc.at("icons"))
        return {}
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
    ok = True
    for key in entry:
        if key not in ICON_KEYS:
            errors.add(f"unknown key '{key}' in icon '{name}' (allowed: {', '.join(ICON_KEYS)})", entry.at(key))
            ok = False
    char, src = entry.get("char"), entry.get("src")
    if (char is None) == (src is None):
        errors.add(f"icon '{name}' needs exactly one of 'char' (a character of a font) and 'src' (an image "
                   f"in assets/)", entry.where)
        return None
    for key in ("char", "font", "src", "color"):
        if key in entry and not isinstance(entry[key], str):
            errors.add(f"'{key}' of icon '{name}' must be text, found {describe(entry[key])}", entry.at(key))
            ok = False
    if isinstance(char, str) and len(char) != 1:
        errors.add(f"'char' of icon '{name}' must be one character, found {char!r}", entry.at("char"))
        ok = False
    if isinstance(src, str):
        path = PurePosixPath(src)
        if path.is_absolute() or ".." in path.parts or "\\" in src:
            errors.add(f"'src' of icon '{name}' must be a file inside the game's assets folder, found {src!r}",
                       entry.at("src"))
            ok = False
        elif path.suffix.lower() not in IMAGE_SUFFIXES:
            errors.add(f"'src' of icon '{name}' must be a .png, .jpg or .svg file, found {src!r}", entry.at("src"))
            ok = False
        if "font" in entry:
            errors.add(f"icon '{name}' is an image: 'font' is for a 'char' icon", entry.at("font"))
            ok = False
    scale = entry.get("scale", 1.0)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale) \
            or not 0 < scale <= MAX_SCALE:
        errors.add(f"'scale' of icon '{name}' must be a number more than 0 and at most {MAX_SCALE:g}, "
                   f"found {scale!r}", entry.at("scale"))
        ok = False
    if not ok:
        return None
    return Icon(name, char=char, font=entry.get("font"), src=src, colour=entry.get("color"), scale=float(scale),
                where=entry.where)
