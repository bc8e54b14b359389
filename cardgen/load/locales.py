"""``locales/<lang>.yaml``: every string of the game per language, nested keys
flattened (``card.title``), and every key present in every language.

An empty string is an untranslated one (``cardgen i18n init`` writes them), so it is
missing like an absent key. A language with missing strings is unfinished: it takes
the first language's text for them and is recorded as such, so it never stops the
load of the game or the other languages; a build of it is refused unless it may fall
back (then a proof marks those strings). Plural forms (``cards: {one: …, other: …}``) need only ``other`` in every
language: which other forms a language has is its own (CLDR) business.
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Formatter

from ..base.errors import CardgenError, Collector, Where, display_path
from ..impose.labels import LOCALE_KEYS as OPTIONAL_KEYS
from ..impose.labels import WORDS
from ..model.plural_categories import CATEGORIES
from ..toolwords import words as tool_words
from .readroots import game_roots, inside
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


def missing_message(missing: list[str] | tuple[str, ...]) -> str:
    """``missing 3 translation(s): a, b, c``, the first ``MISSING_SHOWN`` named."""
    shown = ", ".join(missing[:MISSING_SHOWN])
    more = f" … and {len(missing) - MISSING_SHOWN} more" if len(missing) > MISSING_SHOWN else ""
    return f"missing {len(missing)} translation(s): {shown}{more}"


def optional_key(key: str, keys: set[str] | dict[str, str]) -> bool:
    """A key a language may lack: cardgen's own sheet words, and a plural form other
    than ``other`` (beside its ``other``)."""
    if key in OPTIONAL_KEYS:
        return True
    stem, _, last = key.rpartition(".")
    return bool(stem) and last in CATEGORIES and last != "other" and f"{stem}.other" in keys


def read_locales(root: Path, languages: list[str], errors: Collector,
                 unfinished: dict[str, tuple[str, ...]]) -> dict[str, dict[str, str]]:
    """Every language's strings. The first language's keys are the game's: a key it
    lacks or leaves empty is an error, a key only a translation has is that language's
    own business (``cardgen i18n status`` calls it unused). A translation that lacks
    some of the game's strings is unfinished, not wrong: ``unfinished`` is filled with
    the keys it lacks and its table with the first language's text for them, so it
    never stops the other languages (a build of it refuses it unless it may fall back)."""
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
    # cardgen's own sheet-label words (``sheet.*``) are never missing: they fall back to
    # built-in ones per language (cardgen.impose.labels)
    first = languages[0] if languages else None
    source = strings.get(first, {}) if first else {}
    written = {k: v for k, v in source.items() if v.strip()}
    every_key = {k for k in written if not optional_key(k, written)}
    for lang, table in strings.items():
        missing = sorted(k for k in every_key if not table.get(k, "").strip())
        if missing and lang != first:
            unfinished[lang] = tuple(missing)
            table.update({k: source[k] for k in missing})
    for lang, table in strings.items():  # cardgen's own sheet words where the game sets none
        own = tool_words("sheet", lang)
        for word in WORDS:
            if not table.get(f"sheet.{word}", "").strip():
                table[f"sheet.{word}"] = own[word]
    return strings
