"""``locales/<lang>.yaml``: every string of the game per language, nested keys
flattened (``card.title``), and every key present in every language.

An empty string is an untranslated one (``cardgen i18n init`` writes them), so it is
missing like an absent key. With ``fallback`` a missing string takes the text of the
game's first language instead of stopping the load, and is recorded so a proof can
mark it. Plural forms (``cards: {one: …, other: …}``) need only ``other`` in every
language: which other forms a language has is its own (CLDR) business.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Formatter

from ..errors import CardgenError, Collector, Where, display_path
from ..impose.labels import LOCALE_KEYS as OPTIONAL_KEYS
from ..impose.labels import WORDS
from ..model.plurals import CATEGORIES
from ..toolwords import words as tool_words
from .jail import game_roots, inside
from .schema import check_mapping, describe
from .yamlsrc import YDict, load_yaml

MISSING_SHOWN = 12  # missing translations named in the one-line message; the rest are counted
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")  # all but tab and line break
SHIFTED = "sheet.backs_shifted"  # the one locale string cardgen fills itself: the back offset's {x} and {y}


def text_problem(text: str) -> str | None:
    """What keeps a locale string from being printed text, or None: a control
    character (a tab and a line break are text) or half of a surrogate pair."""
    found = _UNPRINTABLE.search(text)
    if found is None:
        return None
    code = ord(found.group())
    kind = "half of a surrogate pair" if 0xD800 <= code <= 0xDFFF else "the control character"
    return f"holds {kind} U+{code:04X}, which is not text to print"


def _shifted_problem(text: str) -> str | None:
    """What keeps ``sheet.backs_shifted`` from being filled with the offset, or None."""
    try:
        fields = [(name, spec, conversion) for _, name, spec, conversion in Formatter().parse(text)
                  if name is not None]
    except ValueError as exc:  # a lone brace
        return f"is not a text with {{x}} and {{y}}: {exc} (write {{{{ and }}}} for a literal brace)"
    for name, spec, conversion in fields:
        if name not in ("x", "y") or spec or conversion:
            written = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            shown = written if len(written) <= 40 else written[:39] + "…"
            return f"may hold only the placeholders {{x}} and {{y}} (the back offset), not {shown!r}"
    return None


def _flatten(d: YDict, prefix: str, out: dict[str, str], wheres: dict[str, Where], errors: Collector) -> None:
    for key, value in d.items():
        full = f"{prefix}{key}"
        if isinstance(value, YDict):
            _flatten(value, full + ".", out, wheres, errors)
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            out[full] = str(value)
            wheres[full] = d.at(key)
            problem = text_problem(out[full]) or (_shifted_problem(out[full]) if full == SHIFTED else None)
            if problem:
                errors.add(f"string '{full}' {problem}", d.at(key))
        else:
            errors.add(f"string '{full}' must be text, found {describe(value)}", d.at(key))


def string_place(root: Path, lang: str, key: str) -> str | None:
    """Where ``locales/<lang>.yaml`` writes a string (``…/locales/fr.yaml:12``), for a
    message about its text: the file is read again then, never on the way to a
    build. None when the file does not write it (cardgen's own sheet words)."""
    path = root / "locales" / f"{lang}.yaml"
    try:
        node: object = load_yaml(inside(path, game_roots(root)), display_path(path))
    except (CardgenError, OSError):
        return None
    *parents, last = key.split(".")
    for part in parents:
        node = node.get(part) if isinstance(node, YDict) else None
    if not isinstance(node, YDict) or last not in node:
        return None
    where = node.at(last)
    return f"{where.path}:{where.line}" if where.line is not None else where.path


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
