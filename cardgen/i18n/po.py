"""Catalogues as gettext PO files (Poedit, Weblate, Crowdin…): written by Babel, read
strictly by poparse.py.

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
from babel.messages.pofile import write_po

from ..errors import CardgenError, Where, display_path
from .catalog import Entry
from .formats import Imported, Translation, language_code, read_bounded, utf8_text
from .poparse import parse_po


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
    po = parse_po(utf8_text(read_bounded(path, label), label, "PO"), label)
    for header in ("X-Cardgen-Language", "Language"):  # cardgen's own header, else gettext's
        value, line = po.headers.get(header.lower(), ("", 1))
        if value:
            break
    else:
        raise CardgenError("the catalogue names no language (a 'Language:' header)", Where(label, 1))
    where = Where(label, line)
    lang = language_code(value, f"its {header} header", where)
    out = []
    for e in po.entries:
        if not e.msgid or e.context is None:
            continue
        if e.plural:
            raise CardgenError(f"the entry for '{e.context}' has plural forms (msgid_plural): cardgen writes each "
                               f"plural form as an entry of its own", Where(label, e.line))
        out.append(Translation(e.context, e.msgid, e.msgstr, Where(label, e.line), fuzzy=e.fuzzy))
    return Imported(lang, out, where)
