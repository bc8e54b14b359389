"""A translator's file is untrusted: a PO or XLIFF file that is malformed, too big or
names a language badly is refused with one line naming the file and the line, exit 1,
and the locale file is left as it was (cardgen i18n import)."""

from __future__ import annotations

import io

import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from conftest import assert_user_error
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.i18n.catalog import load_for_translators
from cardgen.i18n.exchange import export_catalogue
from cardgen.i18n.formats import MAX_BYTES
from cardgen.i18n.poparse import parse_po

HINT = 'msgctxt "card.hint"\nmsgid "Keep it"\nmsgstr ""\n'  # an entry of the exported German catalogue
LAST = 'msgid_plural "{n} tiles"\nmsgstr[0] ""\nmsgstr[1] ""\n'  # the end of the last one


def line_of(text: str, needle: str) -> int:
    """The line of ``text`` that holds ``needle`` first."""
    assert needle in text, needle
    return text[:text.index(needle)].count("\n") + 1


def exported(root, fmt: str = "po") -> str:
    return export_catalogue(load_for_translators(root), "de", fmt).decode("utf-8")


def refused(cli, root, path) -> list[str]:
    """The error lines of importing ``path``, checking that nothing was written."""
    before = (root / "locales" / "de.yaml").read_bytes()
    lines = assert_user_error(cli("i18n", "import", root, path))
    assert (root / "locales" / "de.yaml").read_bytes() == before
    assert sorted(p.name for p in (root / "locales").iterdir()) == ["de.yaml", "en.yaml", "fr.yaml"]
    return lines


def first(needle: str):
    return lambda text: line_of(text, needle)


def last(needle: str):
    return lambda text: text.count("\n", 0, text.rindex(needle)) + 1


# Each case: how the exported catalogue is broken, the line the error names, the message ({msgid}: the line
# of card.hint's msgid).
MALFORMED = {
    "unterminated string at the end of the file": (
        lambda po: po.replace(LAST, LAST.replace('msgstr[1] ""\n', 'msgstr[1] "Jouer')), first('msgstr[1] "Jouer'),
        'a string is not closed: the line ends before its closing "'),
    "unterminated string inside the file": (
        lambda po: po.replace(HINT, HINT.replace('msgstr ""', 'msgstr "Behalten')), first('msgstr "Behalten'),
        'a string is not closed: the line ends before its closing "'),
    "unknown escape": (
        lambda po: po.replace(HINT, HINT.replace('msgstr ""', r'msgstr "Be\halten"')), first(r'msgstr "Be\h'),
        r"unknown escape '\\h' in a string (a PO string knows \n, \t, \r, \" and \\)"),
    "a quote that is not escaped": (
        lambda po: po.replace(HINT, HINT.replace('msgstr ""', 'msgstr "Sag "nein""')), first('msgstr "Sag'),
        'text after the closing " of a string (write \\" for a quote inside it)'),
    "stray line": (
        lambda po: po.replace(HINT, HINT + "Behalten\n"), first("Behalten\n"),
        "not a line of a PO file: 'Behalten' (a line is a # comment, msgctxt, msgid, msgstr or a string in "
        "quotes)"),
    "msgstr without msgid": (
        lambda po: po.replace(HINT, HINT.replace('msgid "Keep it"\n', "")), lambda text: line_of(text, 'msgctxt "card.hint"') + 1,
        "msgstr without a msgid before it"),
    "msgctxt without msgid": (
        lambda po: po.replace(HINT, 'msgctxt "card.hint"\n'), first('msgctxt "card.hint"'),
        "msgctxt without a msgid after it"),
    "second msgstr": (
        lambda po: po.replace(HINT, HINT + 'msgstr "Behalten"\n'), first('msgstr "Behalten"'),
        "a second msgstr for the msgid at line {msgid}"),
    "msgstr alone at the start": (
        lambda po: 'msgstr "Behalten"\n' + po, first('msgstr "Behalten"'), "msgstr without a msgid before it"),
    "msgid without msgstr": (
        lambda po: po.replace(HINT, HINT.replace('msgstr ""\n', "")), first('msgid "Keep it"'),
        "msgid without a msgstr after it"),
    "string line after a blank line": (
        lambda po: po.replace(HINT, HINT + '\n"Behalten"\n'), first('"Behalten"'),
        "a string in quotes that belongs to no msgctxt, msgid or msgstr above it"),
    "comment inside an entry": (
        lambda po: po.replace(HINT, HINT.replace('msgstr ""', '# note\nmsgstr ""')), first("# note"),
        "a comment inside an entry, before its msgstr (the entry at line {msgid})"),
    "duplicate entry": (
        lambda po: po + "\n" + HINT.replace('msgstr ""', 'msgstr "Behalten"'), last('msgid "Keep it"'),
        "a second entry for msgctxt 'card.hint' (the first is at line {msgid})"),
    "plural entry": (
        lambda po: po.replace(HINT, HINT.replace('msgstr ""\n', 'msgid_plural "Keep them"\nmsgstr[0] "Behalten"\n'
                                                                  'msgstr[1] "Behalten"\n')),
        first('msgid "Keep it"'),
        "the entry for 'card.hint' has plural forms (msgid_plural), its source string has none"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_po_file_is_refused_at_its_line(case, game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    text = exported(root)
    assert HINT in text and LAST in text
    broken, locate, message = MALFORMED[case]
    po = tmp_path / "de.po"
    po.write_text(broken(text), encoding="utf-8")
    written = po.read_text(encoding="utf-8")
    if "{msgid}" in message:
        message = message.format(msgid=line_of(written, 'msgid "Keep it"'))
    assert refused(cli, root, po) == [f"{po}:{locate(written)}: {message}"]


def test_a_po_file_is_read_with_its_escapes_and_continued_strings(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    text = exported(root).replace(HINT, HINT.replace('msgstr ""', 'msgstr ""\n"Sag \\"ja\\"\\\\n, "\n"\\tdann\\n"\n'
                                                                  '"weiter"'))
    text = text.replace("\n", "\r\n")  # as a Windows tool saves it
    po = tmp_path / "de.po"
    po.write_text(text, encoding="utf-8", newline="")
    r = cli("i18n", "import", root, po)
    assert r.exit_code == 0, r.output
    hint = yaml.safe_load((root / "locales" / "de.yaml").read_text(encoding="utf-8"))["card"]["hint"]
    assert hint == 'Sag "ja"\\n, \tdann\nweiter'


def test_a_fuzzy_entry_is_left_alone(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    po = tmp_path / "de.po"
    po.write_text(exported(root).replace(HINT, "#, fuzzy\n" + HINT.replace('msgstr ""', 'msgstr "Behalten"')),
                  encoding="utf-8")
    r = cli("i18n", "import", root, po)
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == "de.yaml: 0 string(s) changed (4 untranslated, 1 fuzzy left as they were)"


@pytest.mark.parametrize("fmt", ["po", "xlf"])
def test_a_catalogue_larger_than_the_limit_is_refused_unread(fmt, game_copy, tmp_path, cli):
    """One limit for both formats: a file of one byte more than MAX_BYTES, padded
    with a comment (which the format otherwise allows)."""
    root = game_copy("i18n_game")
    text = exported(root, "po" if fmt == "po" else "xliff")
    pad = MAX_BYTES + 1 - len(text.encode("utf-8"))
    path = tmp_path / f"de.{fmt}"
    path.write_text(text + ("#" + "x" * (pad - 2) + "\n" if fmt == "po" else "<!--" + "x" * (pad - 7) + "-->"),
                    encoding="utf-8")
    assert path.stat().st_size == MAX_BYTES + 1
    assert refused(cli, root, path) == [f"{path}: the file is larger than 16 MiB, the most a catalogue may be"]


def test_a_malformed_language_header_is_named_at_its_line(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    text = exported(root).replace('"X-Cardgen-Language: de\\n"\n', "").replace("Language: de", "Language: de DE!")
    po = tmp_path / "de.po"
    po.write_text(text, encoding="utf-8")
    line = line_of(text, '"Language: de DE!')
    assert refused(cli, root, po) == [f"{po}:{line}: the catalogue's language 'de DE!' (its Language header) is not a "
                                      f"language code such as en, fr or pt-BR"]


def test_a_language_unknown_to_cldr_is_named_as_one_the_game_lacks(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    text = exported(root).replace('"X-Cardgen-Language: de\\n"\n', "").replace("Language: de", "Language: qq")
    po = tmp_path / "de.po"
    po.write_text(text, encoding="utf-8")
    line = line_of(text, '"Language: qq')
    assert refused(cli, root, po) == [f"{po}:{line}: the catalogue is for 'qq', which game 'lingo' does not have (add "
                                      f"it with: cardgen i18n init lingo qq)"]


def test_a_gettext_language_with_a_region_is_read_as_a_game_writes_it(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    text = exported(root).replace('"X-Cardgen-Language: de\\n"\n', "").replace("Language: de", "Language: pt_BR")
    po = tmp_path / "de.po"
    po.write_text(text, encoding="utf-8")
    assert refused(cli, root, po) == [f"{po}:{line_of(text, 'Language: pt_BR')}: the catalogue is for 'pt-BR', which "
                                      f"game 'lingo' does not have (add it with: cardgen i18n init lingo pt-BR)"]


def test_a_malformed_xliff_target_language_is_named_at_its_line(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    text = exported(root, "xliff").replace('target-language="de"', 'target-language="../de"')
    path = tmp_path / "de.xlf"
    path.write_text(text, encoding="utf-8")
    line = line_of(text, 'target-language="../de"')
    assert refused(cli, root, path) == [f"{path}:{line}: the catalogue's language '../de' (the target-language of its "
                                        f"<file>) is not a language code such as en, fr or pt-BR"]


def test_a_control_character_in_a_translation_is_refused_at_its_entry(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    text = exported(root).replace(HINT, HINT.replace('msgstr ""', 'msgstr "Be\x01halten"'))
    po = tmp_path / "de.po"
    po.write_text(text, encoding="utf-8")
    line = line_of(text, 'msgid "Keep it"')
    assert refused(cli, root, po) == [f"{po}:{line}: the translation of 'card.hint' holds the control character "
                                      f"U+0001, which is not text to print"]


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=60), min_size=1, max_size=4))
def test_every_text_babel_writes_to_a_po_file_is_read_back_as_it_was(texts):
    """The strict reader reads what a gettext tool writes: any text (quotes, backslashes,
    line breaks, tabs, long lines that wrap), through Babel's writer."""
    catalog = Catalog(locale="de")
    for n, text in enumerate(texts):
        catalog.add(f"source {n}\n{text}", text, context=f"key.{n}")
    out = io.BytesIO()
    write_po(out, catalog, width=20)
    po = parse_po(out.getvalue().decode("utf-8"), "t.po")
    assert [(e.context, e.msgid, e.msgstr) for e in po.entries] == [
        (f"key.{n}", f"source {n}\n{text}", text) for n, text in enumerate(texts)]
    assert po.headers["language"][0] == "de"
