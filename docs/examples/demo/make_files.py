"""Writes treasures.xlsx and assets/pearl.png, the two binary files of this example
(run it after editing the rows or the pearl)."""

from pathlib import Path

import openpyxl
from PIL import Image, ImageDraw

HERE = Path(__file__).parent

TREASURES = [
    ("id", "name", "worth", "quantity", "art", "colour"),
    ("scallop", "treasure.scallop", 1, 4, "scallop.svg", "coral"),
    ("starfish", "treasure.starfish", 2, 3, "starfish.svg", "gold"),
    ("coral", "treasure.coral", 3, 2, "coral.svg", "reef"),
]


def write_workbook(path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Treasures"
    for row in TREASURES:
        sheet.append(row)
    notes = book.create_sheet("Notes")  # a sheet the game does not read
    notes.append(("Worth checked at the third playtest",))
    book.properties.creator = "cardgen"
    book.save(path)


def write_pearl(path: Path, size: int = 96) -> None:
    """A pearl: a pale disc shaded towards its lower right, with a highlight."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    steps = 24
    for i in range(steps):  # rings from the rim inwards, lighter towards the top left
        f = i / steps
        r = size / 2 - 2 - f * (size / 2 - 10)
        c = size / 2 - f * size * 0.12
        shade = (int(168 + 84 * f), int(160 + 86 * f), int(186 + 64 * f), 255)
        draw.ellipse((c - r, c - r, c + r, c + r), fill=shade)
    draw.ellipse((size * 0.26, size * 0.22, size * 0.42, size * 0.36), fill=(255, 255, 255, 235))
    image.save(path, optimize=True)


if __name__ == "__main__":
    write_workbook(HERE / "treasures.xlsx")
    write_pearl(HERE / "assets" / "pearl.png")
