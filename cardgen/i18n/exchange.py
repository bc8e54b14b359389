"""``cardgen i18n export`` and ``import``: a language's catalogue out to a translator
and their translations back into ``locales/<lang>.yaml``.

An import changes only the strings whose translation differs from the file's, in
place (yamledit.py), so an export imported unchanged leaves the file byte for byte as
it was. Every translation is checked first (a key the game has, the source's
placeholders exactly); one problem stops the import and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import CardgenError, Collector, Where, display_path
from ..files import write_atomic
from ..load.locales import text_problem
from ..model.game import Game
from ..model.pseudo import PSEUDO
from . import po, xliff
from .catalog import catalogue, check_source, locale_path, placeholders, read_locale, same_placeholders
from .formats import Imported
from .yamledit import set_strings

FORMATS = {"po": po, "xliff": xliff}


def export_catalogue(game: Game, lang: str, fmt: str = "po", source: str | None = None) -> bytes:
    """The catalogue of ``lang`` (a language of the game, or pseudo) as a PO or XLIFF file."""
    source = check_source(game, source)
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


def import_catalogue(game: Game, file: Path, source: str | None = None) -> ImportResult:
    """Write the translations of ``file`` into its language's locale file."""
    imported = read_catalogue(file)
    lang, named_at = imported.lang, imported.lang_where or Where(display_path(file))
    source = check_source(game, source)
    if lang == PSEUDO:
        raise CardgenError("the pseudo-language is made by cardgen, not imported", named_at)
    if lang not in game.languages:
        raise CardgenError(f"the catalogue is for '{lang}', which game '{game.id}' does not have (add it with: "
                           f"cardgen i18n init {game.id} {lang})", named_at)
    if lang == source:
        raise CardgenError(f"the catalogue is for '{lang}', the source language: edit its locale file instead",
                           named_at)
    src = read_locale(game, source)
    current = read_locale(game, lang)
    errors = Collector()
    updates: dict[str, str] = {}
    untranslated = fuzzy = 0
    for tr in imported.translations:
        if tr.key not in src:
            errors.add(f"'{tr.key}' is not a string of {game.id} (not in locales/{source}.yaml)", tr.where)
            continue
        if tr.fuzzy:
            fuzzy += 1
            continue
        if not tr.text.strip():
            untranslated += 1
            continue
        if tr.text == current.get(tr.key):
            continue  # what the file holds already (status reports it if it is wrong)
        problem = text_problem(tr.text)
        if problem:
            errors.add(f"the translation of '{tr.key}' {problem}", tr.where)
            continue
        want, got = placeholders(src[tr.key]), placeholders(tr.text)
        if got is None:
            errors.add(f"the translation of '{tr.key}' has a brace that is not a {{name}} placeholder "
                       f"(write {{{{ and }}}} for a literal brace)", tr.where)
        elif not same_placeholders(tr.key, src[tr.key], tr.text):
            def shown(names):
                return ", ".join("{" + n + "}" for n in sorted(names)) or "none"
            errors.add(f"the translation of '{tr.key}' has placeholders {shown(got)}, its source "
                       f"{shown(want or ())}: they must be the same", tr.where)
        else:
            updates[tr.key] = tr.text
    errors.raise_if_any()
    path = locale_path(game, lang)
    label = display_path(path)
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    changes = {k: v for k, v in updates.items() if current.get(k) != v}
    if changes:
        write_atomic(path, set_strings(text, changes, label).encode("utf-8"))
    return ImportResult(path, len(changes), untranslated, fuzzy)
