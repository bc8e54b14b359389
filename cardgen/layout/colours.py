"""The colours a game may write: ``#rrggbb`` (screen colour, converted for print through
the output profile) and ``cmyk(c,m,y,k)`` in percent (printing inks, passed to a
print-shop file as they are).

One place reads both forms, so the palette check, the layout checker, the template
filters and the painter agree on what a colour is.
"""

from __future__ import annotations

import re

HEX_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
CMYK_RE = re.compile(r"^cmyk\(\s*(\d{1,3}(?:\.\d+)?)\s*,\s*(\d{1,3}(?:\.\d+)?)\s*,\s*(\d{1,3}(?:\.\d+)?)\s*,"
                     r"\s*(\d{1,3}(?:\.\d+)?)\s*\)$")
COLOUR_FORMS = "#rrggbb or cmyk(c,m,y,k) in percent"
"""How an error message names the colours cardgen reads."""


def parse_cmyk(value: str) -> tuple[float, float, float, float] | None:
    """``cmyk(0,60,100,0)`` → (0.0, 0.6, 1.0, 0.0); None for anything else (also a
    value above 100 %)."""
    match = CMYK_RE.match(value.strip()) if isinstance(value, str) else None
    if match is None:
        return None
    inks = tuple(float(v) for v in match.groups())
    if any(v > 100 for v in inks):
        return None
    c, m, y, k = (v / 100 for v in inks)
    return (c, m, y, k)


def is_colour_literal(value: str) -> bool:
    """A colour written out (not a palette name): ``#rrggbb`` or ``cmyk(…)``."""
    return isinstance(value, str) and (bool(HEX_RE.match(value)) or parse_cmyk(value) is not None)


def cmyk_text(inks: tuple[float, float, float, float]) -> str:
    """(0, 0.6, 1, 0) → ``cmyk(0,60,100,0)``, the form a template writes."""
    return "cmyk(" + ",".join(f"{round(v * 100, 2):g}" for v in inks) + ")"


def naive_rgb(value: str) -> tuple[int, int, int]:
    """A colour as 0..255 RGB for screen-side arithmetic (lightness, contrast, mixing
    into a screen colour): a hex colour as it is, a CMYK one by the plain device
    formula (no profile: only for choosing a legible ink, never for printing)."""
    inks = parse_cmyk(value)
    if inks is None:
        digits = value.lstrip("#")
        return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
    c, m, y, k = inks
    return round(255 * (1 - c) * (1 - k)), round(255 * (1 - m) * (1 - k)), round(255 * (1 - y) * (1 - k))
