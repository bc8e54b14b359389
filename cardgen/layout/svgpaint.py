"""An SVG's paints checked before svglib reads it: what cardgen cannot draw as the SVG
says is refused here, never drawn some other way.

svglib draws a fill of ``url(#id)`` naming a ``<linearGradient>`` or ``<radialGradient>``
(cardgen draws the gradient itself, :mod:`.svggradient`). It leaves out, without a word,
a gradient or pattern on a stroke, a pattern fill, a fill with a fallback colour
(``url(#g) red``) and a gradient's ``spreadMethod`` or focal point: the shape would
print unfilled, unstroked or differently shaded. Each is refused with the element
that asks for it.
"""

from __future__ import annotations

import re
from typing import Any

from ..base.errors import CardgenError

GRADIENTS = ("linearGradient", "radialGradient")

_PAINT = re.compile(r"(?<![-\w])(fill|stroke)\s*:\s*([^;}]*)", re.I)
_GRADIENT_URL = re.compile(r"""url\(\s*(['"]?)#([^'"]+?)\1\s*\)""")


def local_name(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def describe(el: Any) -> str:
    """``<rect id="sky"> at line 4``: an element as a message names it."""
    ident = f' id="{el.get("id")}"' if el.get("id") else ""
    line = f" at line {el.sourceline}" if getattr(el, "sourceline", None) else ""
    return f"<{local_name(el.tag)}{ident}>{line}"


def check_paints(root: Any, ids: dict[str, Any]) -> None:
    """Raise CardgenError for the first paint or gradient cardgen cannot draw."""
    for el in root.iter():
        name = local_name(el.tag)
        paints = [(attr, el.get(attr)) for attr in ("fill", "stroke") if el.get(attr) is not None]
        paints += [(m.group(1).lower(), m.group(2)) for m in _PAINT.finditer(el.get("style") or "")]
        if name == "style":
            paints += [(m.group(1).lower(), m.group(2)) for m in _PAINT.finditer(el.text or "")]
        for prop, value in paints:
            _check_paint(el, prop, value.strip(), ids)
        if name in GRADIENTS:
            _check_gradient(el, name)


def _check_paint(el: Any, prop: str, value: str, ids: dict[str, Any]) -> None:
    if "url(" not in value.lower():
        return
    where = describe(el)
    if prop == "stroke":
        raise CardgenError(f"the SVG's {where} strokes with {value[:60]!r}; cardgen draws gradients in fills only "
                           f"(turn the stroke into a filled path: \"Stroke to Path\" in Inkscape)")
    match = _GRADIENT_URL.fullmatch(value)
    if match is None:
        raise CardgenError(f"the SVG's {where} fills with {value[:60]!r}; a fill may be a colour or url(#id) of a "
                           f"gradient, with nothing after it")
    target = ids.get(match.group(2))
    if target is None:
        raise CardgenError(f"the SVG's {where} fills with {value[:60]!r}, but the SVG has no element with that id")
    if local_name(target.tag) not in GRADIENTS:
        raise CardgenError(f"the SVG's {where} fills with a <{local_name(target.tag)}>; cardgen draws fills of "
                           f"colours and of <linearGradient> and <radialGradient> only")


def _check_gradient(el: Any, name: str) -> None:
    where = describe(el)
    spread = (el.get("spreadMethod") or "pad").strip()
    if spread != "pad":
        raise CardgenError(f"the SVG's {where} has spreadMethod=\"{spread[:20]}\"; cardgen draws only \"pad\" "
                           f"(the end colours carry on past the ends)")
    units = (el.get("gradientUnits") or "objectBoundingBox").strip()
    if units not in ("objectBoundingBox", "userSpaceOnUse"):
        raise CardgenError(f"the SVG's {where} has gradientUnits=\"{units[:30]}\"; it must be objectBoundingBox "
                           f"or userSpaceOnUse")
    if name == "radialGradient":
        for focus, centre in (("fx", "cx"), ("fy", "cy")):
            if el.get(focus) is not None and _number(el.get(focus)) != _number(el.get(centre) or "50%"):
                raise CardgenError(f"the SVG's {where} has a focal point ({focus}) away from its centre "
                                   f"({centre}); cardgen draws radial gradients centred on their centre only")
        if el.get("fr") is not None and _number(el.get("fr")) != 0:
            raise CardgenError(f"the SVG's {where} has a focal radius (fr); cardgen draws radial gradients from "
                               f"their centre only")


def _number(text: str) -> float | str:
    """A length as a number to compare (a percentage as a fraction), else the text."""
    text = text.strip()
    try:
        return float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        return text
