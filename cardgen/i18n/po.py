"""Catalogues as gettext PO files (Poedit, Weblate, Crowdin…), through Babel.

Each string is one message: its key is the message context (``msgctxt``), so two keys
with the same English text stay apart; the source text is the ``msgid``; the note
(where it is used, its placeholders, its room) goes in the extracted comments a
translation tool shows beside it. A fuzzy translation (one a tool or a translator
marked unsure) is not imported.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, read_po, write_po

from ..errors import CardgenError, Where, display_path
from .catalog import Entry
from .formats import Imported, Translation


def _locale(lang: str) -> str | None:
    from ..render.plurals import locale_of

    return str(locale_of(lang)) if locale_of(lang).language == lang.split("-")[0] else None


def write(entries: list[Entry], game_id: str, lang: str, source: str) -> bytes:
    catalog = Catalog(locale=_locale(lang), project=f"cardgen {game_id}", domain=game_id,
                      header_comment=f"# Strings of {game_id}, {source} to {lang}, exported by cardgen i18n.\n"
                                     f"# Import with: cardgen i18n import {game_id} FILE",
                      charset="utf-8", fuzzy=False)
    catalog.language_team = lang
    for e in entries:
        catalog.add(e.source, e.translation, context=e.key, auto_comments=e.note().splitlines())
    out = io.BytesIO()
    write_po(out, catalog, width=0, omit_header=False, sort_output=False)
    text = out.getvalue().decode("utf-8")
    return text.replace('"Language-Team: ', f'"X-Cardgen-Language: {lang}\\n"\n"Language-Team: ', 1).encode()


def read(path: Path) -> Imported:
    label = display_path(path)
    data = path.read_bytes()
    try:
        catalog = read_po(io.BytesIO(data), abort_invalid=True, charset="utf-8")
    except (PoFileError, UnicodeDecodeError, ValueError) as exc:
        raise CardgenError(f"not a PO file Babel can read: {exc}", Where(label)) from None
    lang = None
    for name, value in catalog.mime_headers:
        if name.lower() == "x-cardgen-language":
            lang = value.strip()
    if not lang and catalog.locale is not None:
        lang = str(catalog.locale).replace("_", "-")
    if not lang:
        raise CardgenError("the catalogue names no language (a 'Language:' header)", Where(label, 1))
    out = []
    for message in catalog:
        if not message.id or message.context is None:
            continue
        text = message.string if isinstance(message.string, str) else ""
        out.append(Translation(message.context, message.id if isinstance(message.id, str) else "", text,
                               Where(label, message.lineno), fuzzy=message.fuzzy))
    return Imported(lang, out)
