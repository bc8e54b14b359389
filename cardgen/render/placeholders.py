"""Filling a locale string's ``{name}`` placeholders, and nothing more.

Python's ``str.format`` follows attributes and indexes inside a placeholder, so a
translation reading ``{x.__init__.__globals__[os].environ}`` would print the build
machine's environment on every card. Locale strings are data from the game folder:
here a placeholder is a plain name, its value a string or a number, and ``{{`` and
``}}`` stand for literal braces; anything else is refused with the key and language.
The colour tags of the inline markup (``{color=red}``, ``{/color}``: layout/inline.py)
are text, kept as they are.
"""

from __future__ import annotations

import re
from string import Formatter
from typing import Any

import jinja2

from .budget import MAX_VALUE, TemplateLimit

Pieces = tuple[tuple[str, str | None], ...]  # (literal text, placeholder name or None)

_PARSER = Formatter()
_COLOUR_TAG = re.compile(r"colou?r=[^{}\s:!]{1,40}|/colou?r")  # as layout/inline.py reads them


class PlaceholderError(jinja2.UndefinedError):
    """A locale string or a value given to it that the plain formatter refuses (an
    UndefinedError, as a placeholder without its value always was)."""


def _shown(field: str) -> str:
    text = "{" + field + "}"
    return repr(text if len(text) <= 60 else text[:59] + "…")


def parse_placeholders(text: str) -> Pieces:
    """Split a locale string into literal text and placeholder names; PlaceholderError
    for a placeholder that is not a plain ``{name}`` (attributes, indexes, format
    specs, conversions, positions)."""
    pieces: list[tuple[str, str | None]] = []
    try:
        parsed = list(_PARSER.parse(text))
    except ValueError as exc:  # a lone "{" or "}"
        raise PlaceholderError(f"{exc} (write {{{{ and }}}} for a literal brace)") from None
    for literal, field, spec, conversion in parsed:
        if field is None:
            pieces.append((literal, None))
            continue
        if _COLOUR_TAG.fullmatch(field) and not spec and not conversion:
            pieces.append((literal + "{" + field + "}", None))  # markup, not a placeholder
            continue
        if not field.isidentifier() or spec or conversion:
            written = field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
            raise PlaceholderError(f"{_shown(written)} is not a plain {{name}}")
        pieces.append((literal, field))
    return tuple(pieces)


def fill_placeholders(pieces: Pieces, values: dict[str, Any]) -> str:
    """The text with each placeholder replaced by its value, printed as ``str`` does."""
    out = []
    size = 0
    for literal, name in pieces:
        out.append(literal)
        size += len(literal)
        if name is None:
            continue
        if name not in values:
            raise PlaceholderError(f"no value for {{{name}}}")
        value = values[name]
        if isinstance(value, jinja2.Undefined):
            value._fail_with_undefined_error()
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            kind = value.__name__ if isinstance(value, type) else type(value).__name__
            raise PlaceholderError(f"the value for {{{name}}} must be text or a number, found {kind}")
        text = str(value)
        size += len(text)
        if size > MAX_VALUE:
            raise TemplateLimit(f"the string would be longer than {MAX_VALUE:,} characters; a template value may "
                                f"hold at most {MAX_VALUE:,}")
        out.append(text)
    return "".join(out)
