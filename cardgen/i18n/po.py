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
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from babel.plural import to_gettext

from ..base.errors import CardgenError, Where, display_path
from ..render.numberwords import locale_of
from .catalog import Entry
from .formats import Imported, Translation, language_code, read_bounded, utf8_text
from .poparse import parse_po


def _locale(lang: str) -> str | None:
    from ..render.numberwords import locale_of

    return str(locale_of(lang)) if locale_of(lang).language == lang.split("-")[0] else None


def plural_forms(lang: str) -> tuple[int, str]:
    """The ``Plural-Forms`` header of ``lang`` from CLDR's plural rules (Babel's own
    table has gettext's older ones: three Polish forms where CLDR has four), with the
    operands an integer count does not have written as 0, as gettext reads it."""
    header = to_gettext(locale_of(lang).plural_form)  # "nplurals=4; plural=(…);"
    count, _, expr = header.partition(";")
    expr = expr.strip().removeprefix("plural=").removesuffix(";")
    return int(count.partition("=")[2]), re.sub(r"\b[ecvwft]\b", "0", expr)


def write(entries: list[Entry], game_id: str, lang: str, source: str, template: bool = False) -> bytes:
    catalog = Catalog(locale=None if template else _locale(lang), project=f"cardgen {game_id}", domain=game_id,
                      header_comment=f"# Strings of {game_id}, {source} to {lang}, exported by cardgen i18n.\n"
                                     f"# Import with: cardgen i18n import {game_id} FILE",
                      charset="utf-8", fuzzy=False)
    catalog.language_team = lang
    nplurals, expr = plural_forms(lang)
    # CLDR's forms, not Babel's gettext table (which gives Polish three): Babel reads them from these
    # private attributes, which its type information declares None
    setattr(catalog, "_num_plurals", nplurals)  # noqa: B010
    setattr(catalog, "_plural_expr", expr)  # noqa: B010
    n = 0
    while n < len(entries):
        e = entries[n]
        if e.plural is None:
            catalog.add(e.source, "" if template else e.translation, context=e.key, auto_comments=e.note().splitlines(),
                        flags=_flags(e), locations=e.sources)
            n += 1
            continue
        end = n
        while end < len(entries) and entries[end].plural == e.plural:
            end += 1
        forms = entries[n:end]
        other = next(f for f in forms if f.key.endswith(".other"))
        one = next((f for f in forms if f.key.endswith(".one")), other)
        order = ", ".join(f"[{i}] {f.key.rpartition('.')[2]}" for i, f in enumerate(forms))
        catalog.add((one.source, other.source), tuple("" if template else f.translation for f in forms),
                    context=e.plural, auto_comments=[*other.note().splitlines(), f"plural forms of {lang}: {order}"],
                    flags=_flags(other), locations=tuple(dict.fromkeys(line for f in forms for line in f.sources)))
        n += len(forms)
    out = io.BytesIO()
    write_po(out, catalog, width=0, omit_header=False, sort_output=False)
    text = out.getvalue().decode("utf-8")
    return text.replace('"Language-Team: ', f'"X-Cardgen-Language: {lang}\\n"\n"Language-Team: ', 1).encode()


def _flags(e: Entry) -> tuple[str, ...]:
    """``max-length:N`` (Weblate's check) from the room the note gives."""
    return (f"max-length:{e.room.chars}",) if e.room is not None and not e.room.shared else ()


_NPLURALS = re.compile(r"nplurals\s*=\s*(\d+)")


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
        if not e.msgid:
            continue
        at = Where(label, e.line)
        if not e.plural:
            out.append(Translation(e.context, e.msgid, e.msgstr, at, fuzzy=e.fuzzy))
        else:
            out.append(Translation(e.context, e.msgid, "", at, fuzzy=e.fuzzy, forms=e.msgstrs,
                                   source_plural=e.msgid_plural or ""))
    value, line = po.headers.get("plural-forms", ("", 0))
    said = _NPLURALS.search(value)
    plural_header = f"nplurals={said.group(1)} (line {line})" if said else ""
    return Imported(lang, out, where, plural_header)
