"""Writes goods.xlsx, the workbook of this example (run it after editing the rows)."""

from pathlib import Path

import openpyxl

ROWS = [
    ("id", "name", "worth", "quantity", "colour"),
    ("salt", "Salt", 1, 4, "#e8e8e8"),
    ("amber", "Amber", 3, 2, "#d9903b"),
    ("pearl", "Pearl", 5, 1, "#c9d6df"),
]


def write(path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Goods"
    for row in ROWS:
        sheet.append(row)
    notes = book.create_sheet("Notes")  # a sheet the game does not read
    notes.append(("Prices checked at the last playtest",))
    book.properties.creator = "cardgen"
    book.save(path)


if __name__ == "__main__":
    write(Path(__file__).with_name("goods.xlsx"))
