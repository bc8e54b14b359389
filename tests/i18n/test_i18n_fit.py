"""The room and fit of strings as they are printed: a string with placeholders is
checked with the values each face fills it with (``Région de 12 tuiles``), so
``cardgen i18n status`` reports it when it overflows, and the catalogue gives it a
room note and a length limit like any other string."""

from __future__ import annotations

import re

from conftest import edit_file

from cardgen.base.paths import shipped_games_dir
from cardgen.i18n.catalog import load_for_translators
from cardgen.i18n.exchange import export_catalogue
from cardgen.i18n.usage import render_usage

LONG_REGION = "Une région formée de {n} tuiles voisines du même terrain, reliées par un côté"


def po_blocks(text: str) -> dict[str, str]:
    """Each PO entry's lines by its msgctxt."""
    blocks = {}
    for block in text.split("\n\n"):
        ctx = re.search(r'^msgctxt "(.*)"$', block, re.M)
        if ctx:
            blocks[ctx.group(1)] = block
    return blocks


def test_status_reports_a_plural_form_with_a_placeholder_too_long_on_every_face_that_prints_it(horus_copy, cli):
    edit_file(horus_copy / "locales" / "fr.yaml", 'other: "Région de {n}\u00a0tuiles"', f'other: "{LONG_REGION}"')
    r = cli("i18n", "status", horus_copy, "--lang", "fr")
    assert r.exit_code == 1, r.output
    assert "ready to build" not in r.output
    lines = [line for line in r.output.splitlines() if "card.region.other" in line and "too long" in line]
    assert lines, r.output
    # Horus cards of 2 to 5 tiles, 5 terrains: 20 faces print the plural ``other`` in French.
    faces = sum(1 + int(re.search(r"and (\d+) more face", line).group(1)) if "more face" in line else 1
                for line in lines)
    assert faces == 20, lines


def test_every_horus_string_a_face_prints_has_a_room_note():
    game = load_for_translators(shipped_games_dir() / "horus")
    blocks = po_blocks(export_catalogue(game, "fr", "po").decode())
    printed = {k: b for k, b in blocks.items() if re.search(r"^#\. used in \S+\.j2:", b, re.M)}
    assert len(printed) >= 100
    without = sorted(k for k, b in printed.items() if "#. room:" not in b)
    assert without == [], without
    assert "#. room:" in blocks["card.region"] and "max-length:" in blocks["card.region"]


def test_a_placeholder_string_overflowing_its_box_is_reported_with_its_key(game_copy, cli):
    root = game_copy("i18n_game")
    edit_file(root / "locales" / "fr.yaml", "value:", 'value: "Vaut {n} points à la fin de la partie, si la carte '
              'est encore devant vous et que personne ne l\'a prise avant le dernier tour"\n  old_value:')
    r = cli("i18n", "status", root, "--lang", "fr")
    assert r.exit_code == 1
    assert re.search(r"too long: card\.value is \d+% too long for its 50×10 mm box", r.output), r.output


def test_a_string_has_room_for_what_it_prints_its_placeholders_filled(scenario):
    usage = render_usage(load_for_translators(scenario("i18n_game")), "en")
    value, hint = usage.rooms["card.value"], usage.rooms["card.hint"]  # the same box, the same font and size
    assert (value.w, value.h, value.size) == (hint.w, hint.h, hint.size)
    # "Worth {n}" prints "Worth 1" or "Worth 2": two characters fewer than it has
    assert value.chars == hint.chars + len("Worth {n}") - len("Worth 2")
    assert not value.shared


def test_a_box_too_small_for_text_that_is_no_string_stops_the_status(game_copy, cli):
    root = game_copy("i18n_game")
    with (root / "templates" / "front.yaml.j2").open("a", encoding="utf-8") as f:
        f.write('- {text: {x: 5, y: 70, w: 8, h: 4, text: "Printed by hand, far too long for this box", '
                'size: 10, min_size: 9, max_lines: 1, color: ink}}\n')
    r = cli("i18n", "status", root, "--lang", "de")
    assert r.exit_code == 1
    assert "ready to build" not in r.output
    assert "'Printed by hand, far too long for this box' (no locale string) is" in r.output, r.output


def test_a_proof_outlines_a_fallen_back_string_with_placeholders_too(game_copy):
    from cardgen.base.errors import Collector
    from cardgen.load.game import load_game
    from cardgen.pipeline import BuildOptions, KitBuilder
    from cardgen.render.fallback import FALLBACK_COLOUR

    root = game_copy("i18n_game")
    edit_file(root / "locales" / "de.yaml", '  tiles: {one: "", other: ""}\n', "")
    game = load_game(root, fallback=True)  # German lacks "{n} tile(s)": printed "2 tiles" in English
    builder = KitBuilder(game, BuildOptions(langs=("de",), papers=("a4",), jobs=1, proof=True, allow_fallback=True))
    errors = Collector()
    builder.register_fonts(errors)
    kit = builder.render_lang("de", errors)
    ops = kit.fronts[("cards", "card-2")].ops
    tiles = next(n for n, op in enumerate(ops) if op.kind == "text" and op.args["text"] == "2 tiles")
    assert ops[tiles + 1].kind == "rect" and ops[tiles + 1].args["stroke"] == FALLBACK_COLOUR
    value = next(n for n, op in enumerate(ops) if op.kind == "text" and op.args["text"] == "Wert 2")  # German's own
    assert not (value + 1 < len(ops) and ops[value + 1].args.get("stroke") == FALLBACK_COLOUR)


def test_a_box_too_small_names_its_string_and_its_size_to_a_tenth_of_a_millimetre(game_copy, cli, tmp_path):
    root = game_copy("i18n_game")
    edit_file(root / "templates" / "front.yaml.j2", "w: 11,", "w: {{ 33.2 / 3 }},")  # 11.0666… mm
    edit_file(root / "locales" / "fr.yaml", 'other: "{n} tuiles"',
              'other: "{n} tuiles posées côte à côte sur la table, toutes visibles de tous les joueurs autour"')
    edit_file(root / "locales" / "fr.yaml", '"Vaut {points}"', '"Vaut {n}"')
    r = cli("build", root, "--lang", "fr", "--paper", "a4", "--out", tmp_path / "out", "--jobs", "1",
            "--allow-fallback")
    assert r.exit_code == 1
    errors = [line for line in r.stderr.splitlines() if "does not fit" in line]
    assert any("(string 'card.title') does not fit its 11.1×6 mm box even at" in line for line in errors), errors
    assert any("'2 tuiles posées côte à côte sur la table, toute…' (string 'card.tiles.other') does not fit its "
               "50×10 mm box" in line for line in errors), errors
    assert not any("11.0667" in line for line in errors)
