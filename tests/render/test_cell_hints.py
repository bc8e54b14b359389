"""A template that fails on a value read from a spreadsheet names the cell: the file,
the sheet, the row and the column, with what the cell holds (render/cellhint.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from cardgen.cli import main
from tests.conftest import edit_file, game_label

DEMO = Path(__file__).resolve().parents[2] / "docs" / "examples" / "demo"


@pytest.fixture
def game(tmp_path) -> Path:
    folder = tmp_path / "reef"
    shutil.copytree(DEMO, folder)
    return folder


def _errors(folder: Path, out: Path) -> list[str]:
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(out), "--jobs", "1", "--lang", "en",
                                       "--paper", "a4"])
    assert result.exit_code == 1, result.output
    assert not (out / "lantern-reef").exists(), "nothing is written"
    return [line for line in result.output.splitlines() if line.startswith("error:")]


def test_a_text_cell_in_a_sum_names_its_csv_cell(game, tmp_path):
    edit_file(game / "crew.csv", "lantern,2,1,2,", "lantern,2,one,2,")
    edit_file(game / "templates" / "crew.yaml.j2", "n=row.gain)", "n=row.gain + 1)")
    template, csv = game_label(game, "templates", "crew.yaml.j2"), game_label(game, "crew.csv")
    assert _errors(game, tmp_path / "out") == [
        f"error: {template}:11: crew/lantern front [en]: TypeError: can only concatenate str (not \"int\") to str "
        f"(the line reads {csv}: row 3, column C ('gain': 'one'))"]


def test_a_text_cell_of_a_workbook_names_its_sheet(game, tmp_path):
    book = openpyxl.load_workbook(game / "treasures.xlsx")
    book["Treasures"]["C4"] = "two"  # the coral's worth
    book.save(game / "treasures.xlsx")
    edit_file(game / "templates" / "treasure.yaml.j2", "n=t_.worth)", "n=t_.worth * 10 // 10)")
    template, xlsx = game_label(game, "templates", "treasure.yaml.j2"), game_label(game, "treasures.xlsx")
    errors = _errors(game, tmp_path / "out")
    assert errors == [
        f"error: {template}:9: treasures/coral front [en]: TypeError: unsupported operand type(s) for //: "
        f"'str' and 'int' (the line reads {xlsx}: sheet 'Treasures', row 4, column C ('worth': 'two'))"
    ]


def test_a_template_bug_on_numbers_keeps_one_message_for_every_card(game, tmp_path):
    edit_file(game / "templates" / "crew.yaml.j2", "n=row.gain)", "n=row.gain ~ 1 + 1)")
    errors = _errors(game, tmp_path / "out")
    assert len(errors) == 2 and "(the line reads" not in errors[0], errors
    assert errors[1].startswith("error: (the same template errors recur on")
