"""The translators' workflow: export, import, init and status (cardgen i18n)."""

from __future__ import annotations

import io
import json

import pytest
import yaml
from babel.messages.pofile import read_po, write_po
from conftest import assert_user_error, edit_file, game_label

from cardgen.i18n.catalog import catalogue, load_for_translators
from cardgen.i18n.exchange import export_catalogue, import_catalogue
from cardgen.i18n.status import language_status
from cardgen.i18n.yamledit import set_strings


def line_of(text: str, needle: str) -> int:
    """The line of ``text`` that holds ``needle`` first."""
    return text[:text.index(needle)].count("\n") + 1


def _edit_po(data: bytes, **translations: str) -> bytes:
    """A catalogue as a translation tool leaves it: read and written again by Babel,
    with some messages (by their key, dots as __) translated."""
    catalog = read_po(io.BytesIO(data))
    wanted = {k.replace("__", "."): v for k, v in translations.items()}
    for message in catalog:
        if message.context in wanted:
            message.string = wanted[message.context]
    out = io.BytesIO()
    write_po(out, catalog)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_an_unchanged_catalogue_imports_to_the_same_bytes(game_copy, tmp_path, fmt):
    root = game_copy("i18n_game")
    before = (root / "locales" / "fr.yaml").read_bytes()
    path = tmp_path / f"fr.{fmt}"
    path.write_bytes(export_catalogue(load_for_translators(root), "fr", fmt))
    result = import_catalogue(load_for_translators(root), path)
    assert result.changed == 0
    assert (root / "locales" / "fr.yaml").read_bytes() == before


def test_the_catalogue_says_where_a_string_is_used_its_placeholders_and_room(scenario):
    entries = {e.key: e for e in catalogue(load_for_translators(scenario("i18n_game")), "fr")}
    title = entries["card.title"]
    assert title.source == "Short" and title.translation.startswith("Une traduction")
    assert title.uses == ("front.yaml.j2: cards front (cards card-1, card-2; 2 in all)",)
    assert title.room is not None and (title.room.w, title.room.h, title.room.min_size) == (11, 6, 9)
    assert 3 <= title.room.chars <= 8  # one line of 11 mm at 9 pt
    assert entries["card.value"].placeholders == ("n",)
    assert "room: 11×6 mm" in title.note()
    assert entries["card.hint"].translation == ""


def test_a_string_in_bold_has_its_box_to_itself_but_one_joined_with_words_shares_it(game_copy):
    root = game_copy("i18n_game")
    front = root / "templates" / "front.yaml.j2"
    edit_file(front, 'text: {{ t("card.title")|q }}', 'text: {{ ("**" ~ t("card.title") ~ "**")|q }}')
    edit_file(front, 'text: {{ t("card.hint")|q }}', 'text: {{ ("Hint: " ~ t("card.hint"))|q }}')
    entries = {e.key: e for e in catalogue(load_for_translators(root), "en")}
    assert entries["card.title"].room is not None and not entries["card.title"].room.shared
    assert entries["card.hint"].room is not None and entries["card.hint"].room.shared
    assert "shared with other text" in entries["card.hint"].note()


def test_a_po_file_edited_with_babel_is_imported_keeping_comments_and_order(game_copy, tmp_path):
    root = game_copy("i18n_game")
    data = export_catalogue(load_for_translators(root), "de", "po")
    po = tmp_path / "de.po"
    po.write_bytes(_edit_po(data, card__title="Kurz", card__hint="Behalten", component__cards="Karten",
                            card__tiles=("", "{n} Plättchen")))
    result = import_catalogue(load_for_translators(root), po)
    assert result.changed == 4
    text = (root / "locales" / "de.yaml").read_text(encoding="utf-8")
    assert text == ("game:\n  name: Lingo\ncomponent:\n  cards: Karten\ncard:\n  title: Kurz\n"
                    '  value: "Wert {n}"\n  hint: Behalten\n  tiles: {one: "", other: "{n} Plättchen"}\n')
    assert language_status(load_for_translators(root), "de").missing == []


def test_a_translation_whose_placeholders_differ_is_refused_and_nothing_written(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    before = (root / "locales" / "de.yaml").read_bytes()
    po = tmp_path / "de.po"
    po.write_bytes(_edit_po(export_catalogue(load_for_translators(root), "de", "po"),
                            card__hint="Behalten", card__tiles=("", "{count} Plättchen")))
    lines = assert_user_error(cli("i18n", "import", root, po))
    assert len(lines) == 1
    assert lines[0].startswith(f"{po}:") and "'card.tiles.other'" in lines[0]
    assert "{count}" in lines[0] and "{n}" in lines[0]
    assert (root / "locales" / "de.yaml").read_bytes() == before


def test_an_xliff_file_with_an_entity_is_refused(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    data = export_catalogue(load_for_translators(root), "de", "xliff").decode()
    bomb = data.replace('<?xml version="1.0" encoding="UTF-8"?>\n', '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a '
                        '"aaaaaaaa">]>\n').replace("<target state=\"new\" />", "<target>&a;</target>", 1)
    path = tmp_path / "de.xlf"
    path.write_text(bomb, encoding="utf-8")
    lines = assert_user_error(cli("i18n", "import", root, path))
    assert lines == [f"{path}:2: the file declares a DTD or an entity, which an XLIFF file never needs "
                     f"(refused: entities can make a small file expand without end)"]


def test_an_xliff_file_in_utf16_is_refused_unread(game_copy, tmp_path, cli):
    """A DTD written in UTF-16 would hide from a byte search: only UTF-8 is read."""
    root = game_copy("i18n_game")
    data = export_catalogue(load_for_translators(root), "de", "xliff").decode()
    path = tmp_path / "de.xlf"
    path.write_bytes(data.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"))
    lines = assert_user_error(cli("i18n", "import", root, path))
    assert lines == [f"{path}:1: not UTF-8 text (byte 0xFF); cardgen reads XLIFF files in UTF-8"]


def test_an_xliff_file_translated_by_a_tool_is_imported(game_copy, tmp_path):
    root = game_copy("i18n_game")
    data = export_catalogue(load_for_translators(root), "de", "xliff").decode()
    unit = data.index('id="card.hint"')
    at = data.index('<target state="new" />', unit)
    data = data[:at] + '<target state="translated">Behalten &amp; gut</target>' + data[at + len('<target state="new" />'):]
    path = tmp_path / "de.xliff"
    path.write_text(data, encoding="utf-8")
    assert import_catalogue(load_for_translators(root), path).changed == 1
    assert yaml.safe_load((root / "locales" / "de.yaml").read_text(encoding="utf-8"))["card"]["hint"] == "Behalten & gut"


def test_status_figures_of_a_game_with_known_gaps(scenario, cli):
    r = cli("i18n", "status", scenario("i18n_game"), "--json")
    assert r.exit_code == 1, r.output
    report = {s["lang"]: s for s in json.loads(r.stdout)["languages"]}
    assert report["en"]["blocks_build"] is False and report["en"]["share"] == 1.0
    fr = report["fr"]
    assert (fr["translated"], fr["total"]) == (5, 6)
    assert fr["missing"] == ["card.hint"]
    assert fr["placeholder_mismatches"] == ["card.value"]
    assert fr["unused"] == ["card.stale"]
    assert [(o["key"], o["box"], o["faces"]) for o in fr["overflows"]] == [("card.title", "11×6 mm", 2)]
    assert fr["overflows"][0]["too_long"] > 1
    de = report["de"]
    assert (de["translated"], de["total"]) == (2, 6)
    assert de["missing"] == ["component.cards", "card.title", "card.hint", "card.tiles.other"]


def test_status_of_a_complete_language_exits_0(scenario, cli):
    r = cli("i18n", "status", scenario("i18n_game"), "--lang", "en")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == ["en: 6/6 strings translated (100%), ready to build"]


def test_the_pseudo_language_finds_a_box_too_small_for_a_longer_language(scenario, cli):
    r = cli("i18n", "status", scenario("i18n_game"), "--lang", "pseudo")
    assert r.exit_code == 1
    assert "too long: card.title is" in r.stdout and "11×6 mm box (cards/card-1 front [pseudo]" in r.stdout


def test_a_build_of_an_incomplete_language_lists_what_is_missing(scenario, cli, tmp_path):
    r = cli("build", scenario("i18n_game"), "--lang", "de", "--out", tmp_path)
    lines = assert_user_error(r)
    # every key of the first language (fr's stale one is fr's own), unless the build may fall back
    assert lines == [f"{game_label(scenario('i18n_game'), 'locales', 'de.yaml')}: missing 4 translation(s): "
                     "card.hint, card.tiles.other, card.title, component.cards (unfinished: or build it with "
                     "--allow-fallback)"], lines
    assert not (tmp_path / "lingo").exists()


def test_an_unfinished_language_leaves_the_others_build_and_validate_untouched(game_copy, cli, tmp_path):
    root = game_copy("i18n_game")  # fr and de lack strings; fr has a key en does not
    r = cli("build", root, "--lang", "en", "--paper", "a4", "--out", tmp_path, "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert "lingo-en-a4-sheets.pdf" in {p.name for p in (tmp_path / "lingo").glob("*.pdf")}
    r = cli("validate", root, "--games", "1")
    assert r.exit_code == 0, r.output
    assert "language de is unfinished: 4 string(s) not translated yet" in r.stdout
    assert "language fr is unfinished: 1 string(s) not translated yet" in r.stdout
    r = cli("validate", root, "--games", "1", "--kit", tmp_path / "lingo")
    assert r.exit_code == 0, r.output  # the kit lacks fr and de, which are unfinished


def test_a_build_that_falls_back_says_how_many_strings_came_from_which_language(game_copy, cli, tmp_path):
    root = game_copy("i18n_game")
    edit_file(root / "locales" / "fr.yaml", "Vaut {points}", "Vaut {n}")
    r = cli("build", root, "--lang", "de", "--lang", "fr", "--paper", "a4", "--out", tmp_path, "--jobs", "1",
            "--allow-fallback")
    assert "note: de: 4 string(s) printed in en, the language it falls back to" in r.stderr
    assert "note: fr: 1 string(s) printed in en, the language it falls back to" in r.stderr


def test_init_adds_a_language_keeping_the_files_text(game_copy, cli):
    root = game_copy("i18n_game")
    r = cli("i18n", "init", root, "nl")
    assert r.exit_code == 0, r.output
    game_text = (root / "game.yaml").read_text(encoding="utf-8")
    assert "languages: [en, fr, de, nl]\n" in game_text and game_text.startswith("# A game with known")
    nl = (root / "locales" / "nl.yaml").read_text(encoding="utf-8")
    assert nl == ('# Source strings (English).\ngame:\n  name: ""\ncomponent:\n  cards: ""\ncard:\n'
                  '  title: ""    # a narrow box: long translations will not fit\n  value: ""\n  hint: ""\n'
                  '  tiles: {one: "", other: ""}\n')
    again = assert_user_error(cli("i18n", "init", root, "nl"))
    assert again == [f"{root / 'game.yaml'}: game 'lingo' already has language 'nl'"]


def test_set_strings_adds_keys_in_block_and_flow_mappings():
    text = "# top\na:\n  b: x  # note\n  c: {d: y}\n"
    out = set_strings(text, {"a.e": "new: value", "a.c.f": "z", "g.h": "w"}, "t.yaml")
    assert out == '# top\na:\n  b: x  # note\n  c: {d: y, f: z}\n  e: "new: value"\ng: {h: w}\n'


def test_a_string_added_to_a_flow_mapping_is_quoted_where_flow_needs_it():
    out = set_strings("sheet: {front: x}\n", {"sheet.duplex": "both sides, long edge", "sheet.set": "{a}"}, "t.yaml")
    assert out == 'sheet: {front: x, duplex: "both sides, long edge", set: "{a}"}\n'


def test_the_german_hapy_strings_round_trip_through_po(hapy_copy, tmp_path):
    before = (hapy_copy / "locales" / "de.yaml").read_bytes()
    po = tmp_path / "de.po"
    po.write_bytes(_edit_po(export_catalogue(load_for_translators(hapy_copy), "de", "po")))  # Babel, untouched
    assert import_catalogue(load_for_translators(hapy_copy), po).changed == 0
    assert (hapy_copy / "locales" / "de.yaml").read_bytes() == before


def test_a_language_the_game_lacks_is_a_usage_error(scenario, cli, tmp_path):
    r = cli("i18n", "export", scenario("i18n_game"), "--lang", "es", "-o", tmp_path / "es.po")
    assert r.exit_code == 2 and "Invalid value for '--lang': lingo has no language es" in r.stderr
    assert "cardgen i18n init lingo es" in r.stderr and not (tmp_path / "es.po").exists()
    r = cli("i18n", "status", scenario("i18n_game"), "--lang", "es")
    assert r.exit_code == 2


def test_a_catalogue_for_a_language_the_game_lacks_is_refused(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    po = tmp_path / "fr.po"
    po.write_bytes(export_catalogue(load_for_translators(root), "fr", "po").replace(b"Language: fr", b"Language: es")
                   .replace(b"X-Cardgen-Language: fr", b"X-Cardgen-Language: es"))
    line = line_of(po.read_text(encoding="utf-8"), '"X-Cardgen-Language: es')
    lines = assert_user_error(cli("i18n", "import", root, po))
    assert lines == [f"{po}:{line}: the catalogue is for 'es', which game 'lingo' does not have (add it with: "
                     f"cardgen i18n init lingo es)"]


def test_pseudo_text_keeps_placeholders_and_bold_marks():
    from cardgen.model.pseudo import pseudo_text

    text = "**Take a card** worth {n} points, {{literally}}"
    out = pseudo_text(text)
    assert out.startswith("[**Táké á çáŕd** wöŕth {n} pöîñtš, {{lîtéŕállý}}") and out.endswith("]")
    assert len(out) >= 1.3 * len(text)


def test_an_xliff_target_with_markup_is_refused(game_copy, tmp_path, cli):
    root = game_copy("i18n_game")
    data = export_catalogue(load_for_translators(root), "de", "xliff").decode()
    at = data.index('<target state="new" />')
    data = data[:at] + "<target>Kurz <g id='1'>fett</g></target>" + data[at + len('<target state="new" />'):]
    path = tmp_path / "de.xlf"
    path.write_text(data, encoding="utf-8")
    lines = assert_user_error(cli("i18n", "import", root, path))
    assert len(lines) == 1 and "holds markup <g>: only plain text is allowed" in lines[0]


def test_export_writes_to_standard_output(scenario, cli):
    r = cli("i18n", "export", scenario("i18n_game"), "--lang", "fr")
    assert r.exit_code == 0
    assert 'msgctxt "card.title"\nmsgid "Short"\nmsgstr "Une traduction' in r.stdout


@pytest.mark.parametrize("mode", [0o644, 0o640])
def test_init_and_import_keep_the_mode_of_the_files_they_rewrite(game_copy, cli, tmp_path, mode):
    """game.yaml and a locale file rewritten by ``i18n init`` and ``i18n import`` keep
    their mode (they were once left readable by their owner alone)."""
    root = game_copy("i18n_game")
    for path in (root / "game.yaml", root / "locales" / "de.yaml"):
        path.chmod(mode)
    r = cli("i18n", "init", root, "nl")
    assert r.exit_code == 0, r.output
    po = tmp_path / "de.po"
    po.write_bytes(_edit_po(export_catalogue(load_for_translators(root), "de", "po"), card__title="Kurz"))
    assert import_catalogue(load_for_translators(root), po).changed == 1
    modes = {p.name: oct(p.stat().st_mode & 0o777) for p in (root / "game.yaml", root / "locales" / "de.yaml")}
    assert modes == {"game.yaml": oct(mode), "de.yaml": oct(mode)}


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_a_new_locale_file_gets_0666_less_the_umask(game_copy, cli, umask, mode):
    import os

    root = game_copy("i18n_game")
    old = os.umask(umask)
    try:
        r = cli("i18n", "init", root, "nl")
    finally:
        os.umask(old)
    assert r.exit_code == 0, r.output
    assert oct((root / "locales" / "nl.yaml").stat().st_mode & 0o777) == oct(mode)
