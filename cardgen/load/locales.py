"""``locales/<lang>.yaml``: every string of the game per language, nested keys
flattened (``card.title``), and every key present in every language.

An empty string is an untranslated one (``cardgen i18n init`` writes them), so it is
missing like an absent key. With ``fallback`` a missing string takes the text of the
game's first language instead of stopping the load, and is recorded so a proof can
mark it. Plural forms (``cards: {one: …, other: …}``) need only ``other`` in every
language: which other forms a language has is its own (CLDR) business.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import CardgenError, Collector, Where, display_path
from ..impose.labels import LOCALE_KEYS as OPTIONAL_KEYS
from ..impose.labels import WORDS
from ..model.plurals import CATEGORIES
from ..toolwords import words as tool_words
from .jail import game_roots, inside
from .schema import check_mapping, describe
from .yamlsrc import YDict, load_yaml

MISSING_SHOWN = 12  # missing translations named in the one-line message; the rest are counted


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


def optional_key(key: str, keys: set[str] | dict[str, str]) -> bool:
    """A key a language may lack: cardgen's own sheet words, and a plural form other
    than ``other`` (beside its ``other``)."""
    if key in OPTIONAL_KEYS:
        return True
    stem, _, last = key.rpartition(".")
    return bool(stem) and last in CATEGORIES and last != "other" and f"{stem}.other" in keys


def read_locales(root: Path, languages: list[str], errors: Collector,
                 fallback: dict[str, frozenset[str]] | None = None) -> dict[str, dict[str, str]]:
    """Every language's strings. ``fallback``, when given, is filled with the keys each
    language took from the first language instead of reporting them missing."""
    strings: dict[str, dict[str, str]] = {}
    for lang in languages:
        path = root / "locales" / f"{lang}.yaml"
        label = display_path(path)
        if not path.is_file():
            errors.add(f"no strings for language '{lang}': file missing", Where(label))
            continue
        try:
            doc = load_yaml(inside(path, game_roots(root)), label)
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
    source = strings.get(languages[0], {}) if languages else {}
    # with fallback the source language's keys are the game's (a key only a translation
    # has is its own business: ``cardgen i18n status`` calls it unused)
    every = {k for t in ([source] if fallback is not None else strings.values()) for k in t if t[k].strip()}
    every_key = {k for k in every if not optional_key(k, every)}
    for lang, table in strings.items():
        missing = sorted(k for k in every_key if not table.get(k, "").strip())
        if fallback is not None and lang != languages[0]:
            fallback[lang] = frozenset(k for k in missing if source.get(k, "").strip())
            table.update({k: source[k] for k in fallback[lang]})
            missing = [k for k in missing if k not in fallback[lang]]
        if missing:
            label = display_path(root / "locales" / f"{lang}.yaml")
            shown = ", ".join(missing[:MISSING_SHOWN])
            more = f" … and {len(missing) - MISSING_SHOWN} more" if len(missing) > MISSING_SHOWN else ""
            errors.add(f"missing {len(missing)} translation(s): {shown}{more}", Where(label))
    for lang, table in strings.items():  # cardgen's own sheet words where the game sets none
        own = tool_words("sheet", lang)
        for word in WORDS:
            if not table.get(f"sheet.{word}", "").strip():
                table[f"sheet.{word}"] = own[word]
    return strings
