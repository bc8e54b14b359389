"""Round trips through tools cardgen did not write: gettext (msgfmt, msgcat), polib and
translate-toolkit (po2xliff, xliff2po), and back through ``cardgen i18n import``; the
files such tools and CAT tools write (regional codes, segments, groups, XLIFF 2.0,
entries without msgctxt, stale entries)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
import yaml
from conftest import assert_user_error, edit_file

from cardgen.i18n.catalog import load_for_translators
from cardgen.i18n.exchange import export_catalogue
from cardgen.impose.labels import WORDS

polib = pytest.importorskip("polib")

needs_msgfmt = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


def polish_game(game_copy, cli):
    """The i18n game with Polish added (i18n init), exported as a PO file."""
    root = game_copy("i18n_game")
    r = cli("i18n", "init", root, "pl")
    assert r.exit_code == 0, r.output
    return root


def export(root, lang, fmt="po") -> bytes:
    return export_catalogue(load_for_translators(root), lang, fmt)


def locale(root, lang) -> dict:
    return yaml.safe_load((root / "locales" / f"{lang}.yaml").read_text(encoding="utf-8"))


def test_a_polish_plural_has_four_forms_and_comes_back_through_polib(game_copy, cli, tmp_path):
    root = polish_game(game_copy, cli)
    po = tmp_path / "pl.po"
    po.write_bytes(export(root, "pl"))
    catalog = polib.pofile(str(po))
    assert catalog.metadata["Plural-Forms"].startswith("nplurals=4;")
    tiles = next(e for e in catalog if e.msgctxt == "card.tiles")
    assert (tiles.msgid, tiles.msgid_plural) == ("{n} tile", "{n} tiles")
    assert sorted(tiles.msgstr_plural) == [0, 1, 2, 3]
    tiles.msgstr_plural = {0: "{n} płytka", 1: "{n} płytki", 2: "{n} płytek", 3: "{n} płytki"}
    catalog.save()
    r = cli("i18n", "import", root, po)
    assert r.exit_code == 0, r.output
    assert locale(root, "pl")["card"]["tiles"] == {"one": "{n} płytka", "few": "{n} płytki", "many": "{n} płytek",
                                                   "other": "{n} płytki"}
    xliff = export(root, "pl", "xliff").decode()
    assert '<group id="card.tiles" restype="x-gettext-plurals">' in xliff
    assert 'id="card.tiles.few"' in xliff and "{n} płytki" in xliff


def test_a_plural_with_the_forms_of_another_language_is_refused_at_its_entry(game_copy, cli, tmp_path):
    root = polish_game(game_copy, cli)
    po = tmp_path / "pl.po"
    po.write_bytes(export(root, "de"))  # two forms, German's
    text = po.read_text(encoding="utf-8").replace("X-Cardgen-Language: de", "X-Cardgen-Language: pl")
    po.write_text(text, encoding="utf-8")
    lines = assert_user_error(cli("i18n", "import", root, po))
    entry, header = line_of(text, 'msgid "{n} tile"'), line_of(text, "Plural-Forms")
    assert lines == [f"{po}:{entry}: the entry for card.tiles has 2 plural form(s), pl has 4 (one, few, many, other, "
                     f"by CLDR's rules) (its Plural-Forms header says nplurals=2 (line {header}))"]


@needs_msgfmt
@pytest.mark.parametrize("lang", ["pl", "de", "fr"])
def test_gettext_checks_the_exported_catalogue(game_copy, cli, tmp_path, lang):
    root = polish_game(game_copy, cli)
    if lang == "fr":  # fr's placeholder mismatch is a real error msgfmt would report too
        edit_file(root / "locales" / "fr.yaml", "Vaut {points}", "Vaut {n}")
    po = tmp_path / f"{lang}.po"
    po.write_bytes(export(root, lang))
    r = subprocess.run(["msgfmt", "-c", "-o", str(tmp_path / "out.mo"), str(po)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    merged = tmp_path / "merged.po"
    r = subprocess.run(["msgcat", "-o", str(merged), str(po)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = cli("i18n", "import", root, merged)
    assert r.exit_code == 0, r.output


def test_a_stale_entry_is_skipped_counted_and_shown_outdated_by_status(game_copy, cli, tmp_path):
    root = game_copy("i18n_game")
    po = tmp_path / "de.po"
    text = export(root, "de").decode()
    text = text.replace('msgid "Keep it"\nmsgstr ""', 'msgid "Keep it"\nmsgstr "Behalten"')
    po.write_text(text.replace('msgid "Cards"\nmsgstr ""', 'msgid "Card deck"\nmsgstr "Kartenstapel"'),
                  encoding="utf-8")  # translated from an older English text
    r = cli("i18n", "import", root, po)
    assert r.exit_code == 0, r.output
    assert "1 outdated (their source text has changed)" in r.stdout
    assert locale(root, "de")["component"]["cards"] == ""
    assert locale(root, "de")["card"]["hint"] == "Behalten"
    edit_file(root / "locales" / "en.yaml", "hint: \"Keep it\"", "hint: \"Keep it safe\"")
    r = cli("i18n", "status", root, "--lang", "de")
    assert "outdated (the source text has changed since the translation) (1): card.hint" in r.stdout
    r = cli("i18n", "status", root, "--lang", "de", "--json")
    assert r.exit_code == 1
    assert '"outdated": [\n        "card.hint"\n      ]' in r.stdout


def test_entries_without_msgctxt_are_placed_by_their_source_text_after_a_translate_toolkit_trip(
        game_copy, cli, tmp_path):
    pytest.importorskip("translate")
    root = game_copy("i18n_game")
    text = export(root, "de").decode()
    po = tmp_path / "de.po"
    po.write_text(text.replace('msgid "Keep it"\nmsgstr ""', 'msgid "Keep it"\nmsgstr "Behalten"'), encoding="utf-8")
    for tool, src, dst in (("po2xliff", po, tmp_path / "de.xlf"), ("xliff2po", tmp_path / "de.xlf",
                                                                   tmp_path / "back.po")):
        r = subprocess.run([sys.executable, "-c", f"from translate.convert.{tool} import main; main()", str(src),
                            str(dst)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    back = (tmp_path / "back.po").read_text(encoding="utf-8")
    assert "msgctxt" not in back
    r = cli("i18n", "import", root, tmp_path / "back.po")
    assert r.exit_code == 0, r.output
    assert locale(root, "de")["card"]["hint"] == "Behalten"


def test_an_entry_that_cannot_be_placed_is_named_not_dropped(game_copy, cli, tmp_path):
    root = game_copy("i18n_game")
    edit_file(root / "locales" / "en.yaml", "hint: \"Keep it\"", "hint: \"Cards\"")  # two strings say "Cards"
    po = tmp_path / "de.po"
    po.write_text(export(root, "de").decode().replace('msgctxt "card.hint"\n', "")
                  + '\nmsgid "Nowhere"\nmsgstr "Nirgends"\n', encoding="utf-8")
    lines = assert_user_error(cli("i18n", "import", root, po))
    assert [line.split(": ", 1)[1] for line in lines] == [
        "an entry without msgctxt whose source text 'Cards' is the text of 2 strings (component.cards, card.hint): "
        "give it the msgctxt of the one it translates",
        "an entry without msgctxt whose source text 'Nowhere' is no string of the game"]


@pytest.mark.parametrize("header", ['"Language: de_DE\\n"', '"X-Cardgen-Language: de\\n"\n"Language: de_AT\\n"'])
def test_a_regional_code_is_the_games_language_when_it_has_one_form_of_it(game_copy, cli, tmp_path, header):
    root = game_copy("i18n_game")
    text = export(root, "de").decode().replace('"X-Cardgen-Language: de\\n"\n', "")
    text = text.replace('"Language: de\\n"', header).replace('msgid "Keep it"\nmsgstr ""',
                                                             'msgid "Keep it"\nmsgstr "Behalten"')
    po = tmp_path / "de.po"
    po.write_text(text, encoding="utf-8")
    r = cli("i18n", "import", root, po)
    assert r.exit_code == 0, r.output
    assert locale(root, "de")["card"]["hint"] == "Behalten"


def test_an_xliff_file_with_a_region_groups_and_segments_as_cat_tools_write_it(game_copy, cli, tmp_path):
    root = game_copy("i18n_game")
    text = export(root, "de", "xliff").decode().replace('target-language="de"', 'target-language="de-DE"')
    start = text.index('<trans-unit id="card.hint"')
    end = text.index("</trans-unit>", start) + len("</trans-unit>")
    unit = text[start:end].replace('<target state="new" />', '<seg-source><mrk mtype="seg" mid="1">Keep</mrk> '
                                   '<mrk mtype="seg" mid="2">it</mrk></seg-source><target state="translated">'
                                   '<mrk mtype="seg" mid="1">Gut</mrk> <mrk mtype="seg" mid="2">aufheben</mrk>'
                                   '</target>')
    assert unit != text[start:end]
    path = tmp_path / "de.xlf"
    path.write_text(text[:start] + '<group id="g1">' + unit + "</group>" + text[end:], encoding="utf-8")
    r = cli("i18n", "import", root, path)
    assert r.exit_code == 0, r.output
    assert locale(root, "de")["card"]["hint"] == "Gut aufheben"


def test_an_xliff_2_file_is_read(game_copy, cli, tmp_path):
    root = game_copy("i18n_game")
    path = tmp_path / "de.xlf"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                    '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">\n'
                    ' <file id="f1"><group id="g">\n'
                    '  <unit id="card.hint"><segment state="translated"><source>Keep</source><target>Gut</target>'
                    '</segment><ignorable><source> </source><target> </target></ignorable>'
                    '<segment state="final"><source>it</source><target>aufheben</target></segment></unit>\n'
                    '  <unit id="card.title"><segment state="initial"><source>Short</source><target>Kurz</target>'
                    '</segment></unit>\n'
                    ' </group></file>\n</xliff>\n', encoding="utf-8")
    r = cli("i18n", "import", root, path)
    assert r.exit_code == 0, r.output
    assert "1 fuzzy" in r.stdout
    assert locale(root, "de")["card"]["hint"] == "Gut aufheben"
    assert locale(root, "de")["card"]["title"] == ""


def test_the_xliff_export_gives_notes_from_the_developer_and_box_limits(scenario):
    text = export(scenario("i18n_game"), "de", "xliff").decode()
    start = text.index('<trans-unit id="card.title"')
    unit = text[start:text.index("</trans-unit>", start)]
    assert 'maxwidth="' in unit and 'size-unit="char"' in unit and '<note from="developer">' in unit
    po = export(scenario("i18n_game"), "de").decode()
    limit = unit.split('maxwidth="')[1].split('"')[0]
    assert f"#, max-length:{limit}\nmsgctxt \"card.title\"" in po


def test_a_template_has_every_source_string_and_no_language(scenario, cli, tmp_path):
    r = cli("i18n", "export", scenario("i18n_game"), "--template", "-o", tmp_path / "lingo.pot")
    assert r.exit_code == 0, r.output
    catalog = polib.pofile(str(tmp_path / "lingo.pot"))
    strings = {e.msgctxt for e in catalog if not e.msgctxt.startswith("sheet.")}
    assert strings == {"game.name", "component.cards", "card.title", "card.value", "card.hint", "card.tiles"}
    assert {e.msgctxt for e in catalog} - strings == {f"sheet.{word}" for word in WORDS}  # cardgen's label words
    assert all(not e.msgstr and not any(e.msgstr_plural.values()) for e in catalog)


def test_each_entry_names_the_template_lines_that_use_it(game_copy, tmp_path):
    root = game_copy("i18n_game")
    macros = root / "templates" / "macros.j2"
    macros.write_text('{% macro hint() %}\n{{ t("card.hint")|q }}\n{%- endmacro %}\n', encoding="utf-8")
    edit_file(root / "templates" / "front.yaml.j2", '{{ t("card.hint")|q }}', "{{ m.hint() }}")
    front = root / "templates" / "front.yaml.j2"
    imports = '{% import "macros.j2" as m with context %}\n'
    front.write_text(imports + front.read_text(encoding="utf-8"), encoding="utf-8")
    po = tmp_path / "de.po"
    po.write_bytes(export(root, "de"))
    entries = {e.msgctxt: e for e in polib.pofile(str(po))}
    assert entries["card.title"].occurrences == [("front.yaml.j2", "2")]
    assert entries["card.value"].occurrences == [("front.yaml.j2", "3")]
    assert entries["card.tiles"].occurrences == [("front.yaml.j2", "5")]  # plural(): the template's line
    assert entries["card.hint"].occurrences == [("macros.j2", "2")]  # the macro's line, not its caller's
    assert entries["component.cards"].occurrences == []  # cardgen's own words (sheet labels): no template
    xliff = export(root, "de", "xliff").decode()
    start = xliff.index('<trans-unit id="card.value"')
    unit = xliff[start:xliff.index("</trans-unit>", start)]
    assert ('<context-group name="po-reference" purpose="location">'
            '<context context-type="sourcefile">front.yaml.j2</context>'
            '<context context-type="linenumber">3</context>') in re.sub(r">\s+<", "><", unit)


def test_the_sheet_label_words_are_exported_translated_and_printed_in_a_new_language(game_copy, cli, tmp_path):
    from pypdf import PdfReader

    root = polish_game(game_copy, cli)  # cardgen has no Polish words of its own
    edit_file(root / "game.yaml", "    front: front.yaml.j2\n", "    front: front.yaml.j2\n    back: front.yaml.j2\n")
    r = cli("i18n", "status", root, "--lang", "pl")
    assert "sheet label words printed in English" in r.output and "sheet.front" in r.output
    po = tmp_path / "pl.po"
    po.write_bytes(export(root, "pl"))
    catalog = polib.pofile(str(po))
    entries = {e.msgctxt: e for e in catalog}
    assert entries["sheet.front"].msgid == "front" and entries["sheet.front"].msgstr == ""
    assert "label at a sheet's edge" in entries["sheet.front"].comment
    assert entries["sheet.backs_shifted"].msgid == "backs shifted {x}, {y}\u00a0mm"
    polish = {"game.name": "Lingo", "component.cards": "Karty", "card.title": "Krótki", "card.value": "Warta {n}",
              "card.hint": "Zachowaj", "sheet.front": "przód", "sheet.back": "tył",
              "sheet.duplex_long": "dwustronnie, długa krawędź", "sheet.file_cards": "karty"}
    for e in catalog:
        if e.msgctxt in polish:
            e.msgstr = polish[e.msgctxt]
        elif e.msgctxt == "card.tiles":
            e.msgstr_plural = {0: "{n} płytka", 1: "{n} płytki", 2: "{n} płytek", 3: "{n} płytki"}
    catalog.save()
    r = cli("i18n", "import", root, po)
    assert r.exit_code == 0, r.output
    assert locale(root, "pl")["sheet"] == {"front": "przód", "back": "tył", "duplex_long": "dwustronnie, długa krawędź",
                                           "file_cards": "karty"}
    r = cli("build", root, "--lang", "pl", "--paper", "a4", "--out", tmp_path / "out", "--jobs", "1")
    assert r.exit_code == 0, r.output
    cards = PdfReader(next((tmp_path / "out" / "lingo").glob("lingo-pl-a4-cards*.pdf")))
    assert cards.metadata.title == "Lingo — karty (A4)"
    text = " ".join(" ".join(page.extract_text().split()) for page in cards.pages)  # a label may wrap
    assert "przód 1/1" in text and "tył 1/1" in text and "dwustronnie, długa krawędź" in text, text
    assert "front 1/1" not in text and "duplex long-edge" not in text
    # a language cardgen has words for: exported as the kit prints them, not written back unchanged
    de = {e.msgctxt: e for e in polib.pofile(export(root, "de").decode())}
    assert de["sheet.front"].msgstr == "Vorderseite"


@pytest.mark.parametrize("record", ["link out", "folder link out", "deep", "not json", "too large"])
def test_a_hostile_source_record_is_never_read_outside_the_game_nor_a_traceback(game_copy, cli, tmp_path, record):
    """locales/.sources/<lang>.json lies in an untrusted game folder: a link out of it is
    neither read nor written through (the import refuses, one line, nothing written), and a
    record nested past what json reads, not JSON, or larger than a catalogue is no record."""
    root = game_copy("i18n_game")
    sources = root / "locales" / ".sources"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "de.json").write_text('{"card.hint": "an older text"}', encoding="utf-8")
    if record == "link out":
        sources.mkdir()
        (sources / "de.json").symlink_to(outside / "de.json")
    elif record == "folder link out":
        sources.symlink_to(outside, target_is_directory=True)
    else:
        sources.mkdir()
        body = {"deep": "[" * 100_000 + "]" * 100_000, "not json": "{card.hint: x",
                "too large": '{"card.hint": "' + "x" * (17 * 1024 * 1024) + '"}'}[record]
        (sources / "de.json").write_text(body, encoding="utf-8")
    before = (outside / "de.json").read_bytes()
    r = cli("i18n", "status", root, "--lang", "de")
    assert "Traceback" not in r.output and "outdated" not in r.stdout, r.output
    po = tmp_path / "de.po"
    po.write_text(export(root, "de").decode().replace('msgid "Keep it"\nmsgstr ""', 'msgid "Keep it"\nmsgstr "Behalten"'),
                  encoding="utf-8")
    locale_before = (root / "locales" / "de.yaml").read_bytes()
    r = cli("i18n", "import", root, po)
    assert "Traceback" not in r.output
    if record.endswith("link out"):
        assert r.exit_code == 1
        (line,) = [x for x in r.output.splitlines() if x.startswith("error: ")]
        assert "outside" in line or "leads" in line, line
        assert (root / "locales" / "de.yaml").read_bytes() == locale_before  # all or nothing
    else:
        assert r.exit_code == 0, r.output
    assert (outside / "de.json").read_bytes() == before
    assert sorted(p.name for p in outside.iterdir()) == ["de.json"]
