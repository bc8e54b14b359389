"""A card made from a spreadsheet row is where its row is (issue 27, item 5): the
validator's deck check, ``serve``'s "Card defined at" and a missing image name the
file, sheet, row and column, as the loader's errors do; a template line that reads a
column the sheet lacks lists the columns there are, and one that reads an empty cell
names it."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from conftest import assert_user_error, edit_file, game_label, load_errors
from serving import night_sky, running, view

from cardgen import load_game

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "docs" / "examples" / "demo"
NIGHT_SKY_RULES = ROOT / "docs" / "examples" / "rules" / "night_sky.py"
pytestmark = pytest.mark.usefixtures("isolated_settings")


@pytest.fixture
def reef(tmp_path: Path) -> Path:
    """An editable copy of the demo (Lantern Reef: crew.csv and a sheet of treasures.xlsx)."""
    return Path(shutil.copytree(DEMO, tmp_path / "reef"))


def _build_errors(cli, folder: Path, out: Path) -> list[str]:
    errors = assert_user_error(cli("build", folder, "--out", out, "--jobs", 1, "--lang", "en", "--paper", "a4"))
    assert not (out / load_game(folder).id).exists(), "nothing is written"
    return errors


# -- the card's place in the model ---------------------------------------------------------------


def test_a_card_of_a_row_stands_at_the_cell_of_its_id_and_knows_its_row(reef):
    game = load_game(reef)
    crew = {c.id: c for c in game.component("crew").cards}
    assert crew["lantern"].where.prefix() == f"{game_label(reef, 'crew.csv')}: row 3, column A"
    (row,) = crew["lantern"].rows
    assert row.name == "row" and row.where.prefix() == f"{game_label(reef, 'crew.csv')}: row 3"
    assert row.columns == ("id", "copies", "gain", "cost", "art", "front", "back")
    assert row.cell("art").prefix() == f"{game_label(reef, 'crew.csv')}: row 3, column E"
    assert row.cell("front") is None  # the row leaves it empty
    treasure = next(c for c in game.component("treasures").cards if c.id == "coral")
    assert treasure.where.prefix() == f"{game_label(reef, 'treasures.xlsx')}: sheet 'Treasures', row 4, column A"
    shallows = next(c for c in game.component("reef").cards if c.id == "shallows")
    assert shallows.where.path == game_label(reef) and shallows.rows == ()  # a YAML list: its game.yaml entry


def test_an_id_that_reads_no_cell_stands_at_its_row(reef):
    edit_file(reef / "game.yaml", '      - id: "{t.id}"', '      - id: "treasure-{n}"\n        fields: {n: 1}')
    edit_file(reef / "game.yaml", "        for_each: {t: treasures}\n        quantity",
              "        for_each: {t: treasures, n: {range: [1, 1]}}\n        quantity")
    book = openpyxl.load_workbook(reef / "treasures.xlsx")
    book["Treasures"].delete_rows(3, 2)  # one treasure: one id
    book.save(reef / "treasures.xlsx")
    (card,) = load_game(reef).component("treasures").cards
    assert card.where.prefix() == f"{game_label(reef, 'treasures.xlsx')}: sheet 'Treasures', row 2"


def test_a_duplicate_id_from_a_sheet_names_both_cells(reef):
    edit_file(reef / "crew.csv", "net,2,3,2,", "diver,2,3,2,")
    csv = game_label(reef, "crew.csv")
    assert load_errors(reef) == [f"{csv}: row 4, column A: duplicate card id 'diver' (first at {csv}: row 2, "
                                 f"column A)"]


# -- the consumers --------------------------------------------------------------------------------


def test_the_validators_deck_check_names_the_row_of_a_spreadsheet_card(cli, tmp_path):
    game = night_sky(tmp_path)
    edit_file(game / "game.yaml", "      - id: comet\n        quantity: 2\n",
              '      - id: "{c.id}"\n        for_each: {c: comets}\n        quantity: "{c.copies}"\n')
    edit_file(game / "game.yaml", "data:  ", "data_files: [comets.csv]\ndata:  ")
    (game / "comets.csv").write_text("id,copies\ncomet,3\n", encoding="utf-8")
    result = cli("validate", game, "--rules", NIGHT_SKY_RULES, "--games", 1, "--jobs", 1)
    assert result.exit_code == 1, result.output
    assert (f"  ✗ {game_label(game, 'comets.csv')}: row 2, column A: card comet is printed 3 times as 'comet' "
            f"(quantity 3); the rules need 2") in result.stdout.splitlines()


def test_serve_says_a_spreadsheet_card_is_defined_at_its_row(reef, monkeypatch):
    monkeypatch.chdir(reef.parent)
    with running(reef) as live:
        faces = {f["slot"]: f for f in view(live)["faces"]}
    assert faces["crew/front/lantern"]["defined"] == f"{game_label(reef, 'crew.csv')}: row 3, column A"
    assert faces["treasures/front/starfish"]["defined"] == \
        f"{game_label(reef, 'treasures.xlsx')}: sheet 'Treasures', row 3, column A"
    assert faces["reef/front/shallows"]["defined"].startswith(game_label(reef) + ":")  # not from a sheet


def test_a_missing_image_is_named_at_the_cell_that_names_it(cli, reef, tmp_path):
    edit_file(reef / "crew.csv", "lantern,2,1,2,scallop.svg", "lantern,2,1,2,scalop.svg")
    book = openpyxl.load_workbook(reef / "treasures.xlsx")
    book["Treasures"]["E3"] = "starfsh.svg"  # the starfish's art
    book.save(reef / "treasures.xlsx")
    crew, treasure = game_label(reef, "templates", "crew.yaml.j2"), game_label(reef, "templates", "treasure.yaml.j2")
    errors = _build_errors(cli, reef, tmp_path / "out")
    assert (f"{game_label(reef, 'crew.csv')}: row 3, column E: image 'scalop.svg' not found in the game's assets "
            f"folder ({crew} [crew/lantern front [en]])") in errors
    assert (f"{game_label(reef, 'treasures.xlsx')}: sheet 'Treasures', row 3, column E: image 'starfsh.svg' not found "
            f"in the game's assets folder ({treasure} [treasures/starfish front [en]])") in errors
    # the sheets that draw every treasure from game.data are no card of a row: at their template
    assert len(errors) > 2 and all(e.startswith(game_label(reef, "templates")) and " [en]]: image 'starfsh.svg' not "
                                   "found" in e for e in errors[2:]), errors


def test_a_missing_image_named_by_no_cell_is_named_at_the_row(cli, reef, tmp_path):
    edit_file(reef / "templates" / "crew.yaml.j2", "src: {{ row.art|q }}", "src: {{ ('art-' ~ row.id ~ '.png')|q }}")
    errors = _build_errors(cli, reef, tmp_path / "out")
    assert errors[0] == (f"{game_label(reef, 'crew.csv')}: row 2: image 'art-diver.png' not found in the game's "
                         f"assets folder ({game_label(reef, 'templates', 'crew.yaml.j2')} [crew/diver front [en]])")


# -- a column the sheet lacks, a cell the row leaves empty -----------------------------------------


def test_a_misspelt_column_lists_the_columns_of_the_sheet(cli, reef, tmp_path):
    edit_file(reef / "templates" / "crew.yaml.j2", "n=row.gain)", "n=row.gian)")
    template = game_label(reef, "templates", "crew.yaml.j2")
    assert _build_errors(cli, reef, tmp_path / "out") == [
        f"{template}:11: crew/diver front [en]: UndefinedError: the mapping has no attribute 'gian' "
        f"({game_label(reef, 'crew.csv')} has no column 'gian'; its columns: id, copies, gain, cost, art, front, "
        f"back; did you mean 'gain'?)",
        "(the same template errors recur on 2 more face(s) in [en], not listed)"]


def test_a_column_read_on_the_card_itself_is_told_where_it_is(cli, reef, tmp_path):
    edit_file(reef / "templates" / "crew.yaml.j2", "n=row.gain)", "n=card.gian)")
    csv = game_label(reef, "crew.csv")
    (first, _) = _build_errors(cli, reef, tmp_path / "out")
    assert first.endswith(f"UndefinedError: 'dict object' has no attribute 'gian' ({csv} has no column 'gian'; "
                          f"its columns: id, copies, gain, cost, art, front, back; did you mean 'gain'?)")
    edit_file(reef / "templates" / "crew.yaml.j2", "n=card.gian)", "n=card.gain)")
    (first, _) = _build_errors(cli, reef, tmp_path / "out")
    assert first.endswith(f"UndefinedError: 'dict object' has no attribute 'gain' (column 'gain' of {csv} is read "
                          f"as card.row.gain)")


def test_a_column_of_a_workbook_sheet_lists_its_columns_with_the_sheet(cli, reef, tmp_path):
    edit_file(reef / "templates" / "treasure.yaml.j2", "n=t_.worth)", "n=t_.value)")
    (first, _) = _build_errors(cli, reef, tmp_path / "out")
    assert first.endswith(f"UndefinedError: the mapping has no attribute 'value' ({game_label(reef, 'treasures.xlsx')}"
                          f", sheet 'Treasures' has no column 'value'; its columns: id, name, worth, quantity, art, "
                          f"colour)")


def test_an_empty_cell_read_without_asking_names_the_cell(cli, reef, tmp_path):
    edit_file(reef / "crew.csv", "net,2,3,2,", "net,2,,2,")
    template = game_label(reef, "templates", "crew.yaml.j2")
    assert _build_errors(cli, reef, tmp_path / "out") == [
        f"{template}:11: crew/net front [en]: UndefinedError: the mapping has no attribute 'gain' (the cell is empty: "
        f"{game_label(reef, 'crew.csv')}: row 4, column C; ask 'row.gain is defined' first)"]
