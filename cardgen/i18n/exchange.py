"""``cardgen i18n export`` and ``import``: a language's catalogue out to a translator
and their translations back into ``locales/<lang>.yaml``.

An import changes only the strings whose translation differs from the file's, in
place (yamledit.py), so an export imported unchanged leaves the file byte for byte as
it was. Every translation is checked first (a key the game has, the source's
placeholders exactly); one problem stops the import and nothing is written.

An entry is placed by its key, or, when the file names none (a PO entry without
msgctxt), by its source text where one string alone has it. An entry translated from
a source text that has changed since is outdated: skipped and counted, like a fuzzy
one. The source text each imported translation was made from is recorded in
``locales/.sources/<lang>.json``, so ``cardgen i18n status`` can tell which
translations the source has changed under. A regional code (``es_ES``) is the
game's language when the game has that language in one form only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..base.errors import CardgenError, Collector, Where, display_path
from ..base.files import write_atomic
from ..base.jail import inside
from ..load.locales import text_problem
from ..model.game import Game
from ..model.pseudo import PSEUDO
from . import po, xliff
from .catalog import (
    catalogue,
    categories_of,
    check_source,
    form_groups,
    kit_strings,
    locale_path,
    placeholders,
    same_placeholders,
    source_of,
    target_forms,
)
from .formats import MAX_BYTES, Imported, Translation
from .yamledit import set_strings

FORMATS = {"po": po, "xliff": xliff}


def export_catalogue(game: Game, lang: str, fmt: str = "po", source: str | None = None,
                     template: bool = False) -> bytes:
    """The catalogue of ``lang`` (a language of the game, or pseudo) as a PO or XLIFF
    file; with ``template`` a POT file (no translations) for tools that add languages."""
    source = check_source(game, source)
    if template:
        return FORMATS[fmt].write(catalogue(game, source, source), game.id, source, source, template=True)
    if lang != PSEUDO and lang not in game.languages:
        raise CardgenError(f"game '{game.id}' has no language '{lang}' (add it with: cardgen i18n init {game.id} "
                           f"{lang})", Where(display_path(game.root / "game.yaml")))
    return FORMATS[fmt].write(catalogue(game, lang, source), game.id, lang, source)


def read_catalogue(path: Path) -> Imported:
    """A PO or XLIFF file, told apart by its name (``.po``, ``.xlf``/``.xliff``), else by its start."""
    if not path.is_file():
        raise CardgenError("file not found", Where(display_path(path)))
    suffix = path.suffix.lower()
    if suffix == ".po" or suffix == ".pot":
        return po.read(path)
    if suffix in (".xlf", ".xliff"):
        return xliff.read(path)
    with path.open("rb") as f:
        start = f.read(4096).lstrip()
    return xliff.read(path) if start[:1] == b"<" else po.read(path)


@dataclass(frozen=True)
class ImportResult:
    path: Path
    changed: int
    untranslated: int
    fuzzy: int
    outdated: int = 0  # translations of a source text that has changed since: skipped


SOURCES_DIR = ".sources"  # locales/.sources/<lang>.json: the source text each imported translation was made from


def sources_path(game: Game, lang: str) -> Path:
    return game.root / "locales" / SOURCES_DIR / f"{lang}.json"


def check_sources_place(game: Game, lang: str) -> Path:
    """The record's path, refused (CardgenError) when it, or its folder, is a link that
    leads out of the game folder: the folder is untrusted, and the record is read and
    written by cardgen."""
    path = sources_path(game, lang)
    for part in (path.parent, path):
        if part.is_symlink() or part.exists():
            inside(part, [game.root])
    return path


def read_sources(game: Game, lang: str) -> dict[str, str]:
    """The source text each of ``lang``'s imported translations translates (empty when
    none was imported, or the record is not one cardgen wrote: not JSON, nested past
    what json reads, larger than a catalogue may be, or leading out of the game folder)."""
    try:
        path = check_sources_place(game, lang)
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return {}
        doc = json.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError, CardgenError):
        return {}
    return {k: v for k, v in doc.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(doc, dict) else {}


def game_language(game: Game, lang: str, where: Where) -> str:
    """The game's language a catalogue is for: its own code, or a regional one
    (``es-ES``, as Poedit writes it) when the game has that language in one form only."""
    if lang in game.languages or lang == PSEUDO:
        return lang
    base = lang.split("-")[0].lower()
    same = [own for own in game.languages if own.split("-")[0].lower() == base]
    if len(same) == 1 and (same[0] == base or "-" not in lang):
        return same[0]
    raise CardgenError(f"the catalogue is for '{lang}', which game '{game.id}' does not have (add it with: "
                       f"cardgen i18n init {game.id} {lang})", where)


class _Places:
    """Where each translation of a catalogue goes: its key, or for an entry that
    names none (a PO entry without msgctxt, as translate-toolkit's round trip leaves
    it), the one string of the catalogue with its source text."""

    def __init__(self, src: dict[str, str], groups: dict[str, str], lang: str, unknown: str):
        self.src, self.groups, self.lang, self.unknown = src, groups, lang, unknown
        self.by_source: dict[tuple[str, str | None], list[str]] = {}
        for key, text in src.items():
            stem, _, last = key.rpartition(".")
            if stem in groups:
                continue
            self.by_source.setdefault((text, None), []).append(key)
        for stem, kind in groups.items():
            for category in categories_of(lang, kind):
                key = f"{stem}.{category}"
                self.by_source.setdefault((source_of(src, groups, key) or "", category), []).append(key)

    def known(self, key: str) -> bool:
        return key in self.src or target_forms(self.groups, self.lang, key)

    def place(self, tr: Translation) -> tuple[str | None, str | None]:
        """The key of ``tr``, or None and why it cannot be placed."""
        if tr.key is not None:
            stem = tr.key.rpartition(".")[0]
            if tr.category is not None and self.groups.get(stem) != "plural":
                return None, f"the entry for '{stem}' has plural forms (msgid_plural), its source string has none"
            if self.known(tr.key):
                return tr.key, None
            return None, f"'{tr.key}' is not a string of {self.unknown}"
        keys = self.by_source.get((tr.source, tr.category), [])
        shown = tr.source if len(tr.source) <= 40 else tr.source[:39] + "…"
        if len(keys) == 1:
            return keys[0], None
        if not keys:
            return None, f"an entry without msgctxt whose source text {shown!r} is no string of the game"
        return None, (f"an entry without msgctxt whose source text {shown!r} is the text of {len(keys)} strings "
                      f"({', '.join(keys[:4])}): give it the msgctxt of the one it translates")


def _each_form(imported: Imported, lang: str, errors: Collector):
    """The translations of a catalogue, a gettext plural entry as one per plural form
    of ``lang`` (its CLDR categories, in the order of ``msgstr[n]``)."""
    categories = categories_of(lang, "plural")
    for tr in imported.translations:
        if tr.forms is None:
            yield tr
        elif len(tr.forms) != len(categories):
            header = f" (its Plural-Forms header says {imported.plural_header})" if imported.plural_header else ""
            errors.add(f"the entry for {tr.key or repr(tr.source)} has {len(tr.forms)} plural form(s), {lang} has "
                       f"{len(categories)} ({', '.join(categories)}, by CLDR's rules){header}", tr.where)
        else:
            yield from tr.plural_forms(categories)


def _catalogue_language(game: Game, imported: Imported, file: Path, source: str) -> str:
    """The game's language an imported catalogue translates into: not pseudo, not the source."""
    named_at = imported.lang_where or Where(display_path(file))
    if imported.lang == PSEUDO:
        raise CardgenError("the pseudo-language is made by cardgen, not imported", named_at)
    lang = game_language(game, imported.lang, named_at)
    if lang == source:
        raise CardgenError(f"the catalogue is for '{lang}', the source language: edit its locale file instead",
                           named_at)
    return lang


def _translation_problem(key: str, source_text: str, text: str) -> str | None:
    """What is wrong with a translation of ``key`` (its text, its placeholders), or None."""
    problem = text_problem(text)
    if problem:
        return f"the translation of '{key}' {problem}"
    want, got = placeholders(source_text), placeholders(text)
    if got is None:
        return (f"the translation of '{key}' has a brace that is not a {{name}} placeholder "
                f"(write {{{{ and }}}} for a literal brace)")
    if not same_placeholders(key, source_text, text):
        def shown(names):
            return ", ".join("{" + n + "}" for n in sorted(names)) or "none"
        return (f"the translation of '{key}' has placeholders {shown(got)}, its source "
                f"{shown(want or ())}: they must be the same")
    return None


class _Intake:
    """The translations of a catalogue sorted one by one: the ones to write, the ones
    skipped (counted), the problems (collected)."""

    def __init__(self, places: _Places, current: dict[str, str], errors: Collector):
        self.places, self.current, self.errors = places, current, errors
        self.updates: dict[str, str] = {}
        self.translated_from: dict[str, str] = {}  # key -> the source text its translation was made from
        self.untranslated = self.fuzzy = self.outdated = 0
        self.said: set[tuple[str, object]] = set()

    def take(self, tr: Translation) -> None:
        key, problem = self.places.place(tr)
        if key is None:
            if (problem or "", tr.where) not in self.said:  # once for an entry, not once per plural form
                self.said.add((problem or "", tr.where))
                self.errors.add(problem or "", tr.where)
            return
        want_source = source_of(self.places.src, self.places.groups, key) or ""
        if tr.fuzzy:
            self.fuzzy += 1
            return
        if not tr.text.strip():
            self.untranslated += 1
            return
        if tr.source != want_source:
            self.outdated += 1  # translated from a source text that has changed since
            return
        self.translated_from[key] = want_source
        if tr.text == self.current.get(key):
            return  # what the file holds already (status reports it if it is wrong)
        problem = _translation_problem(key, want_source, tr.text)
        if problem:
            self.errors.add(problem, tr.where)
        else:
            self.updates[key] = tr.text


def _record_sources(game: Game, lang: str, translated_from: dict[str, str]) -> None:
    """Add the source texts of the imported translations to ``locales/.sources/<lang>.json``."""
    record = {**read_sources(game, lang), **translated_from}
    if translated_from and record != read_sources(game, lang):
        sources_path(game, lang).parent.mkdir(exist_ok=True)
        write_atomic(sources_path(game, lang), (json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True)
                                                + "\n").encode("utf-8"))


def import_catalogue(game: Game, file: Path, source: str | None = None) -> ImportResult:
    """Write the translations of ``file`` into its language's locale file."""
    imported = read_catalogue(file)
    source = check_source(game, source)
    lang = _catalogue_language(game, imported, file, source)
    src = {k: v for k, v in kit_strings(game, source, source=True).items() if v.strip()}
    groups = form_groups(src, source)
    places = _Places(src, groups, lang, f"{game.id} (not in locales/{source}.yaml)")
    current = kit_strings(game, lang)  # cardgen's own sheet words in it: not written to the file again
    errors = Collector()
    intake = _Intake(places, current, errors)
    for tr in _each_form(imported, lang, errors):
        intake.take(tr)
    errors.raise_if_any()
    check_sources_place(game, lang)  # before anything is written: the import is all or nothing
    path = locale_path(game, lang)
    label = display_path(path)
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    changes = {k: v for k, v in intake.updates.items() if current.get(k) != v}
    if changes:
        write_atomic(path, set_strings(text, changes, label).encode("utf-8"))
    _record_sources(game, lang, intake.translated_from)
    return ImportResult(path, len(changes), intake.untranslated, intake.fuzzy, intake.outdated)
