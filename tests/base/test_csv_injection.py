"""CSV injection (issue 27, item 10): a card id from a spreadsheet cell such as ``=1+2``
would become a formula when a print shop opens ``quantities.csv`` in a spreadsheet
program. Every CSV cardgen writes goes through one helper that gives such a cell a
leading ``'`` (OWASP's rule); numbers cardgen counts itself are never touched."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cardgen.base.files import csv_text, inert_cell

pytestmark = pytest.mark.usefixtures("isolated_settings")

HOSTILE = ["=1+2", "+cmd", "-2", "@SUM(A1)", "=SUM(1,2)"]


@pytest.mark.parametrize("cell, written", [
    ("=1+2", "'=1+2"), ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"), ("-2", "'-2"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"),
    ("fish", "fish"), ("a=b", "a=b"), ("", ""), (3, "3"),  # only the first character counts
])
def test_a_cell_a_spreadsheet_would_run_gets_a_leading_quote(cell, written):
    assert inert_cell(cell) == written


def test_csv_text_neutralises_every_cell_of_every_row_and_the_header():
    text = csv_text(["=h", "ok"], [["-1", 2], ["x", "@y"]])
    assert list(csv.reader(text.splitlines())) == [["'=h", "ok"], ["'-1", "2"], ["x", "'@y"]]


def test_card_ids_from_cells_are_written_inert_into_quantities_csv(cli, market_copy: Path, tmp_path):
    rows = [(card_id, f"Title {n}", 1, n + 1, "Text.", "") for n, card_id in enumerate(HOSTILE)]
    with (market_copy / "actions.csv").open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([("id", "title", "cost", "copies", "text", "front"), *rows])
    result = cli("export", market_copy, "--png", "--dpi", "72", "--lang", "en", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    raw = (tmp_path / "out" / "harbour-market" / "png" / "en" / "quantities.csv").read_text(encoding="utf-8-sig")
    written = {r["card"]: r for r in csv.DictReader(raw.splitlines())}
    assert {f"'{card_id}" for card_id in HOSTILE} <= set(written)  # each id, as text a spreadsheet shows
    for n, card_id in enumerate(HOSTILE):
        row = written[f"'{card_id}"]
        assert row["quantity"] == str(n + 1)  # the copies cardgen counted: a plain number
        assert row["front"].startswith("harbour-market-en-market-") and card_id in row["front"]
    assert not [cell for r in csv.reader(raw.splitlines()) for cell in r if cell[:1] in ("=", "+", "-", "@")]
