"""Counts and numbers in a language's own way, by CLDR's rules through Babel.

A locale string may hold plural forms keyed by CLDR's categories
(``cards: {one: "{n} card", other: "{n} cards"}``); ``plural("setup.cards", n)``
picks the form the language's rules give for ``n`` (``other`` when the language has
no form of its own for that category) and fills ``{n}`` with the number written the
language's way. ``ordinal("rank", n)`` does the same with the ordinal rules
(``rank: {one: "{n}st", two: "{n}nd", few: "{n}rd", other: "{n}th"}``), where a form
may write ``{roman}`` for the number in Roman numerals instead (French
``{roman}ᵉ dynastie``); ``number(n)`` writes a number alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

import jinja2
from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal

from ..model.plural_categories import CATEGORIES


@lru_cache(maxsize=64)
def locale_of(lang: str) -> Locale:
    """Babel's locale for a language code (``en``, ``pt-BR``); English when CLDR does
    not know it, so a new language still builds."""
    try:
        return Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def category(lang: str, n: int | float, ordinal: bool = False) -> str:
    """CLDR's plural (or ordinal) category of ``n`` in ``lang``: one, few, other…"""
    loc = locale_of(lang)
    return (loc.ordinal_form if ordinal else loc.plural_form)(abs(n))


def format_number(lang: str, n: int | float) -> str:
    return format_decimal(n, locale=locale_of(lang))


_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(n: int | float) -> str:
    """``n`` in Roman numerals (1 to 3999); other numbers as they are."""
    if n != int(n) or not 0 < n < 4000:
        return str(n)
    n, out = int(n), []
    for value, letters in _ROMAN:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def _number(value: Any) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise jinja2.UndefinedError(f"a count must be a number, found {type(value).__name__}")
    return value


def count_helpers(strings: Mapping[str, str], lang: str, rules_lang: str,
                  t: Callable[..., str]) -> dict[str, Callable[..., str]]:
    """``plural``, ``ordinal`` and ``number`` for templates; ``rules_lang`` is the
    language whose rules apply (the source language for the pseudo-language)."""

    def form(key: str, n: Any, ordinal: bool, values: dict[str, Any]) -> str:
        n = _number(n)
        cat = category(rules_lang, n, ordinal)
        chosen = f"{key}.{cat}" if f"{key}.{cat}" in strings else f"{key}.other"
        if chosen not in strings and key in strings:  # a plain string: the same for every count
            chosen = key
        extra = {"roman": roman(n)} if ordinal else {}
        return t(chosen, n=format_number(rules_lang, n), **extra, **values)

    def plural(key: str, n: Any, **values: Any) -> str:
        return form(key, n, False, values)

    def ordinal(key: str, n: Any, **values: Any) -> str:
        return form(key, n, True, values)

    def number(n: Any) -> str:
        return format_number(rules_lang, _number(n))

    return {"plural": plural, "ordinal": ordinal, "number": number}


__all__ = ["CATEGORIES", "category", "count_helpers", "format_number", "locale_of", "roman"]
