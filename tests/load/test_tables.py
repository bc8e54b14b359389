"""Card lists in spreadsheets (issue 17, item 1): CSV files and XLSX and ODS workbooks
under ``data_files``, their typing, the place of each cell in errors, and the bounds on
hostile workbooks (a zip bomb, repeated cells, a DTD, formulas never evaluated)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import edit_file, game_label, load_errors
from spreadsheets import ods_content, patch_member, write_ods, write_xlsx

from cardgen import load_game
from cardgen.base.errors import CardgenError
from cardgen.load.tables import MAX_TABLE_BYTES, CellWhere, read_tables

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "spreadsheet"
HEADER = "id,title,cost,copies,text,front\n"


@pytest.fixture
def game(market_copy: Path) -> Path:
    return market_copy


errors_of = load_errors


def market(folder: Path):
    return load_game(folder).component("market")


def write_csv(folder: Path, text: str, name: str = "actions.csv") -> str:
    (folder / name).write_text(text, encoding="utf-8")
    return game_label(folder, name)


# -- the example, as the docs page shows it ----------------------------------------------------


def test_the_example_reads_rows_typed_with_quantities_and_own_fronts(game):
    loaded = load_game(game)
    actions = loaded.data["actions"]
    assert [dict(r) for r in actions] == [
        {"id": "fish", "title": "Fish stall", "cost": 2, "copies": 3, "text": "Gain 2 coins."},
        {"id": "net", "title": "Mend the nets", "cost": 1, "copies": 2, "text": "Draw a card."},
        {"id": "storm", "title": "Storm", "copies": 1, "text": "Every player discards a card.",
         "front": "event.yaml.j2"},  # the empty cost cell is absent
    ]
    assert [dict(r)["worth"] for r in loaded.data["Goods"]] == [1, 3, 5]
    assert "Notes" not in loaded.data  # only the sheet asked for
    deck = loaded.component("market")
    assert {c.id: c.quantity for c in deck.cards} == {"fish": 3, "net": 2, "storm": 1, "goods-salt": 4,
                                                      "goods-amber": 2, "goods-pearl": 1}
    assert {c.id: deck.front_of(c) for c in deck.cards} == {
        "fish": "action.yaml.j2", "net": "action.yaml.j2", "storm": "event.yaml.j2",
        "goods-salt": "good.yaml.j2", "goods-amber": "good.yaml.j2", "goods-pearl": "good.yaml.j2"}
    where = loaded.data_marks("actions", 1, "copies")  # where a later check finds the cell
    assert isinstance(where, CellWhere) and where.prefix() == f"{game_label(game, 'actions.csv')}: row 3, column D"


def test_a_workbook_named_alone_gives_every_sheet(game):
    edit_file(game / "game.yaml", "{file: goods.xlsx, sheet: Goods}", "goods.xlsx")
    loaded = load_game(game)
    assert [dict(r) for r in loaded.data["Notes"]] == []  # a header row and no data
    assert len(loaded.data["Goods"]) == 3


def test_csv_typing_bom_semicolons_and_text_that_only_looks_like_numbers(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes("\ufeffname;n;d;b;zip;big;neg\nÉa;7;2.50;TRUE;007;1,5;-3\n".encode())
    rows = read_tables(path, "t.csv", None)["t"]
    assert dict(rows[0]) == {"name": "Éa", "n": 7, "d": 2.5, "b": True, "zip": "007", "big": "1,5", "neg": -3}


# -- bad cells, with their place -----------------------------------------------------------------


def test_a_bad_quantity_names_its_cell(game):
    label = write_csv(game, HEADER + "fish,Fish,2,two,x,\n")
    assert errors_of(game) == [f"{label}: row 2, column D: 'quantity' \"{{row.copies}}\" gives 'two'; it must be a "
                               f"whole number, 1 or more"]


def test_a_quantity_of_zero_in_a_workbook_names_sheet_row_and_column(game, tmp_path):
    write_xlsx(game / "goods.xlsx", {"Goods": [("id", "name", "worth", "quantity", "colour"),
                                               ("salt", "Salt", 1, 0, "#ffffff")]})
    label = game_label(game, "goods.xlsx")
    assert errors_of(game) == [f"{label}: sheet 'Goods', row 2, column D: 'quantity' \"{{good.quantity}}\" gives 0;"
                               f" it must be a whole number, 1 or more"]


def test_a_cell_of_the_wrong_type_for_a_schema_field_names_its_cell(game):
    edit_file(game / "game.yaml", '        front: "{row.front}"', '        front: "{row.front}"\n'
              '        variant: "{row.box}"')
    label = write_csv(game, "id,title,copies,text,box\nfish,Fish,1,x,Big Box\n")
    assert errors_of(game) == [f"{label}: row 2, column E: variant name 'Big Box' must be lower-case letters, "
                               f"digits, '-' or '_'"]


def test_a_card_id_from_a_cell_that_cannot_be_a_file_name(game):
    label = write_csv(game, HEADER + "a/b,Fish,2,1,x,\n")
    assert errors_of(game) == [f"{label}: row 2, column A: card id 'a/b' holds '/' (card ids become file names)"]


def test_a_front_column_naming_a_missing_template(game):
    label = write_csv(game, HEADER + "fish,Fish,2,1,x,nope.yaml.j2\n")
    (line,) = errors_of(game)
    assert line.startswith(f"{label}: row 2, column F: template 'nope.yaml.j2' (the card's own 'front') not found "
                           f"(looked in: ")


def test_a_value_under_a_column_with_no_name(game):
    label = write_csv(game, "id,,copies\nfish,Fish,1\n")
    assert errors_of(game) == [f"{label}: row 2, column B: a value in a column with no name (row 1, column B is "
                               f"empty)"]


def test_a_column_name_used_twice(game):
    label = write_csv(game, "id,cost,copies,cost\nfish,1,1,2\n")
    assert errors_of(game) == [f"{label}: row 1, column D: column name 'cost' is used twice (first in column B)"]


def test_an_empty_csv_and_an_empty_sheet(game):
    label = write_csv(game, "\n,,\n")
    write_xlsx(game / "goods.xlsx", {"Goods": []})
    assert errors_of(game) == [f"{label}: the sheet is empty: its first row must name the columns",
                               f"{game_label(game, 'goods.xlsx')}: sheet 'Goods': the sheet is empty: its first row "
                               f"must name the columns"]


def test_an_unknown_sheet(game):
    edit_file(game / "game.yaml", "sheet: Goods", "sheet: Prices")
    edit_file(game / "game.yaml", "{good: Goods}", "{good: Prices}")
    assert errors_of(game) == [f"{game_label(game, 'goods.xlsx')}: no sheet named 'Prices' (the workbook has: "
                               f"'Goods', 'Notes')"]


def test_data_file_entry_keys(game):
    edit_file(game / "game.yaml", "  - actions.csv ", "  - {file: actions.csv, sheet: A}")
    edit_file(game / "game.yaml", "{file: goods.xlsx, sheet: Goods}", "{file: goods.xlsx, name: goods}")
    lines = errors_of(game)
    assert lines[0] == f"{game_label(game, 'actions.csv')}: a CSV file has no sheets: leave out 'sheet'"
    assert lines[1].endswith(": 'name' of data file 'goods.xlsx' needs 'sheet': a workbook's sheets each have "
                             "their own name")


def test_a_spreadsheet_error_in_a_cell(game):
    label = write_csv(game, HEADER + "fish,Fish,#REF!,1,x,\n")
    assert errors_of(game) == [f"{label}: row 2, column C: the cell holds the spreadsheet error #REF!: fix the "
                               f"formula that makes it"]


def test_an_xlsx_error_cell_and_a_formula_read_from_its_cached_value(game):
    book = game / "goods.xlsx"
    write_xlsx(book, {"Goods": [("id", "name", "worth", "quantity", "colour"),
                                ("salt", "Salt", "=2+2", 1, "#ffffff")]})
    patch_member(book, "xl/worksheets/sheet1.xml", "<f>2+2</f><v></v>", "<f>2+2</f><v>7</v>")
    assert [dict(r)["worth"] for r in load_game(game).data["Goods"]] == [7]  # saved value, never evaluated
    patch_member(book, "xl/worksheets/sheet1.xml", '<c r="C2"><f>2+2</f><v>7</v>',
                 '<c r="C2" t="e"><f>1/0</f><v>#DIV/0!</v>')
    assert errors_of(game) == [f"{game_label(game, 'goods.xlsx')}: sheet 'Goods', row 2, column C: the cell holds "
                               f"the spreadsheet error #DIV/0!: fix the formula that makes it"]


def test_ods_sheets_typed_and_bad_cells_placed(game):
    edit_file(game / "game.yaml", "{file: goods.xlsx, sheet: Goods}", "{file: goods.ods, sheet: Goods}")
    rows = [["id", "name", "worth", "quantity", "colour"], ["salt", "Salt", 1, 4, "#ffffff"], [None] * 5,
            ["amber", "Amber", 2.5, True, "#d9903b"]]
    write_ods(game / "goods.ods", {"Notes": [["x"]], "Goods": rows})
    label = game_label(game, "goods.ods")
    assert errors_of(game) == [f"{label}: sheet 'Goods', row 4, column D: 'quantity' \"{{good.quantity}}\" gives "
                               f"True; it must be a whole number, 1 or more"]
    rows[3][3] = 2
    write_ods(game / "goods.ods", {"Goods": rows})
    assert [(dict(r)["id"], dict(r)["worth"]) for r in load_game(game).data["Goods"]] == [("salt", 1), ("amber", 2.5)]
    assert {c.id: c.quantity for c in market(game).cards if c.id.startswith("goods")} == {"goods-salt": 4,
                                                                                         "goods-amber": 2}


# -- hostile workbooks -------------------------------------------------------------------------


def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path):
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (MAX_TABLE_BYTES + 1))
    assert path.stat().st_size < 100_000
    with pytest.raises(CardgenError) as exc:
        read_tables(path, "bomb.xlsx", None)
    assert str(exc.value) == "bomb.xlsx: the workbook unpacks to more than 16 MB"


def test_a_cell_repeated_a_million_times_is_refused_before_a_reader_expands_it(tmp_path):
    row = ('<table:table-row table:number-rows-repeated="1000000"><table:table-cell '
           'table:number-columns-repeated="16384" office:value-type="float" office:value="1"/></table:table-row>')
    path = write_ods(tmp_path / "big.ods", {}, ods_content({"S": [["a"], row]}))
    with pytest.raises(CardgenError) as exc:
        read_tables(path, "big.ods", None)
    assert str(exc.value) == "big.ods: sheet 'S': the sheet has more than 10,000 rows of data"


def test_empty_rows_repeated_to_the_end_of_the_sheet_are_fine(tmp_path):
    tail = ('<table:table-row table:number-rows-repeated="1048570"><table:table-cell '
            'table:number-columns-repeated="16384"/></table:table-row>')
    path = write_ods(tmp_path / "fine.ods", {}, ods_content({"S": [["a"], [1], tail]}))
    assert [dict(r) for r in read_tables(path, "fine.ods", None)["S"]] == [{"a": 1}]


def test_an_xlsx_with_a_cell_far_down_and_far_right(tmp_path):
    path = tmp_path / "far.xlsx"
    write_xlsx(path, {"S": [("a",), (1,)]})
    patch_member(path, "xl/worksheets/sheet1.xml", "</sheetData>",
                 '<row r="10100"><c r="B10100" t="n"><v>1</v></c></row></sheetData>')
    patch_member(path, "xl/worksheets/sheet1.xml", '<dimension ref="A1:A2"/>', '<dimension ref="A1:B10100"/>')
    with pytest.raises(CardgenError) as exc:
        read_tables(path, "far.xlsx", None)
    assert str(exc.value) == "far.xlsx: sheet 'S': the sheet has more than 10,000 rows of data"
    write_xlsx(path, {"S": [("a",), (1,)]})
    patch_member(path, "xl/worksheets/sheet1.xml", '<c r="A2" t="n"><v>1</v></c>',
                 '<c r="A2" t="n"><v>1</v></c><c r="XFD2" t="n"><v>1</v></c>')
    assert [dict(r) for r in read_tables(path, "far.xlsx", None)["S"]] == [{"a": 1}]  # past the columns read


def test_a_dtd_in_a_workbook_is_refused(tmp_path):
    path = write_ods(tmp_path / "dtd.ods", {}, '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>')
    with pytest.raises(CardgenError) as exc:
        read_tables(path, "dtd.ods", None)
    assert str(exc.value) == "dtd.ods: the workbook's content.xml declares a DTD, which cardgen does not read"


def test_not_a_workbook_and_a_csv_that_is_not_utf8(tmp_path):
    (tmp_path / "a.xlsx").write_text("id,name\n", encoding="utf-8")
    with pytest.raises(CardgenError) as exc:
        read_tables(tmp_path / "a.xlsx", "a.xlsx", None)
    assert str(exc.value) == "a.xlsx: not a workbook: the file is not a zip archive (save it again as .xlsx or .ods)"
    (tmp_path / "b.csv").write_bytes("id\ncaf\xe9\n".encode("latin-1"))
    with pytest.raises(CardgenError) as exc:
        read_tables(tmp_path / "b.csv", "b.csv", None)
    assert str(exc.value).startswith("b.csv:2:")


def test_a_csv_with_too_many_rows(tmp_path):
    path = tmp_path / "many.csv"
    path.write_text("n\n" + "1\n" * 10_001, encoding="utf-8")
    with pytest.raises(CardgenError) as exc:
        read_tables(path, "many.csv", None)
    assert str(exc.value) == "many.csv: row 10002: the sheet has more than 10,000 rows of data"


def test_an_ods_formula_is_read_from_its_saved_value_and_an_error_cell_is_refused(tmp_path):
    formula = ('<table:table-cell table:formula="of:=[.A2]+1" office:value-type="float" office:value="7">'
               "<text:p>7</text:p></table:table-cell>")
    path = write_ods(tmp_path / "f.ods", {"S": [["a", "b"], [1, formula]]})
    assert [dict(r) for r in read_tables(path, "f.ods", None)["S"]] == [{"a": 1, "b": 7}]  # saved, not 2
    broken = ('<table:table-cell table:formula="of:=1/0" office:value-type="string" office:string-value="#DIV/0!">'
              "<text:p>#DIV/0!</text:p></table:table-cell>")
    path = write_ods(tmp_path / "e.ods", {"S": [["a", "b"], [1, broken]]})
    with pytest.raises(CardgenError) as exc:
        read_tables(path, "e.ods", None)
    assert str(exc.value) == ("e.ods: sheet 'S', row 2, column B: the cell holds the spreadsheet error #DIV/0!: fix "
                              "the formula that makes it")
