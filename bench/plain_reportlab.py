"""The floor for bench/build.py: bench/plain-deck drawn by a plain ReportLab script.

The same things as ``cardgen build bench/plain-deck --paper a4`` draws, in the same
places: each face once per file as a form, the fronts 3 × 3 on A4 pages with their
backs mirrored on the following page, crop marks and cut ticks, the same fonts
embedded as subsets, and the one-face-per-page print-shop file with TrimBox and
BleedBox. No templates, no checks, no manifest: what any PDF generator must pay at
least. Usage: python bench/plain_reportlab.py --cards 120 --out DIR
"""

from __future__ import annotations

import argparse
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import HexColor, PCMYKColorSep, white
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

rl_config.useA85 = 0
ROOT = Path(__file__).resolve().parent.parent
PT = 72 / 25.4
A4 = (210.0, 297.0)
W, H, BLEED = 63.0, 88.0, 3.0
COLS, ROWS = 3, 3
INK, PAPER, FRAME, BACK = (HexColor(c) for c in ("#1d1b24", "#fbf7ee", "#23508f", "#24222f"))
REG = PCMYKColorSep(100, 100, 100, 100, spotName="All", density=100)
BODY = ("A plain card for measuring the build: a title above a framed box whose text wraps over several "
        "lines, with a number that differs from card to card so that no two faces are the same.")


def fonts() -> None:
    for name in ("NotoSans-Regular", "NotoSans-Bold"):
        pdfmetrics.registerFont(TTFont(name, str(ROOT / "fonts" / f"{name}.ttf")))


def canvas(path: Path, size: tuple[float, float]) -> Canvas:
    c = Canvas(str(path), pagesize=(size[0] * PT, size[1] * PT), invariant=1, pageCompression=1,
               initialFontName="NotoSans-Regular", initialFontSize=8)
    c.setTitle("Plain deck")
    return c


def mm_space(c: Canvas, page_h: float) -> None:
    c.translate(0, page_h * PT)
    c.scale(PT, -PT)


def text(c: Canvas, s: str, x: float, y: float, w: float, font: str, size: float, colour, centre: bool) -> None:
    """Wrapped lines, y-down millimetre space (glyphs drawn upright)."""
    pt = size / PT
    c.setFillColor(colour)
    for n, line in enumerate(simpleSplit(s, font, size, w * PT)):
        c.saveState()
        c.translate(x + (w / 2 if centre else 0), y + pt * (0.9 + 1.2 * n))
        c.scale(1 / PT, -1 / PT)
        c.setFont(font, size)
        (c.drawCentredString if centre else c.drawString)(0, 0, line)
        c.restoreState()


def front(c: Canvas, n: int) -> None:
    c.setFillColor(PAPER)
    c.rect(-BLEED, -BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    text(c, f"Card {n}", 5, 6, W - 10, "NotoSans-Bold", 14, INK, True)
    c.setStrokeColor(FRAME)
    c.setLineWidth(0.6)
    c.roundRect(5, 20, W - 10, H - 26, 2, stroke=1, fill=0)
    text(c, f"card-{n}. {BODY}", 8, 23, W - 16, "NotoSans-Regular", 9, INK, False)


def back(c: Canvas) -> None:
    c.setFillColor(BACK)
    c.rect(-BLEED, -BLEED, W + 2 * BLEED, H + 2 * BLEED, stroke=0, fill=1)
    c.setStrokeColor(PAPER)
    c.setLineWidth(0.8)
    c.roundRect(4, 4, W - 8, H - 8, 3, stroke=1, fill=0)
    text(c, "Plain deck", 5, H / 2 - 6, W - 10, "NotoSans-Bold", 16, PAPER, True)


def form(c: Canvas, forms: dict, key: str, draw) -> str:
    name = forms.get(key)
    if name is None:
        name = forms[key] = f"F{len(forms)}"
        c.beginForm(name, -BLEED, -BLEED, W + BLEED, H + BLEED)
        draw()
        c.endForm()
    return name


def place(c: Canvas, name: str, x: float, y: float, clip: tuple[float, float, float, float]) -> None:
    c.saveState()
    p = c.beginPath()
    p.rect(*clip)
    c.clipPath(p, stroke=0, fill=0)
    c.translate(x, y)
    c.doForm(name)
    c.restoreState()


def sheets(cards: int, out: Path) -> int:
    c = canvas(out / "plain-en-a4-cards.pdf", A4)
    x0, y0 = (A4[0] - COLS * W) / 2, (A4[1] - ROWS * H) / 2
    forms: dict[str, str] = {}
    per = COLS * ROWS
    pages = 0
    for first in range(0, cards, per):
        for side in ("front", "back"):
            c.saveState()
            mm_space(c, A4[1])
            for i, n in enumerate(range(first + 1, min(first + per, cards) + 1)):
                col, row = i % COLS, i // COLS
                if side == "back":
                    col = COLS - 1 - col  # mirrored for a long-edge flip
                x, y = x0 + col * W, y0 + row * H
                l = BLEED if col == 0 else 0
                r = BLEED if col == COLS - 1 else 0
                t = BLEED if row == 0 else 0
                b = BLEED if row == ROWS - 1 else 0
                name = (form(c, forms, f"f{n}", lambda n=n: front(c, n)) if side == "front"
                        else form(c, forms, "back", lambda: back(c)))
                place(c, name, x, y, (x - l, y - t, W + l + r, H + t + b))
            marks(c, x0, y0)
            c.restoreState()
            c.showPage()
            pages += 1
    c.save()
    return pages


def marks(c: Canvas, x0: float, y0: float) -> None:
    """Crop marks in the margin, and cut ticks on a white underlay inside the outer bleed."""
    xs = [x0 + i * W for i in range(COLS + 1)]
    ys = [y0 + j * H for j in range(ROWS + 1)]
    x1, y1 = xs[-1], ys[-1]
    c.saveState()
    c.setStrokeColor(REG)
    c.setLineWidth(0.25 / PT)
    for x in xs:
        c.line(x, 4, x, y0 - BLEED - 1)
        c.line(x, y1 + BLEED + 1, x, A4[1] - 4)
    for y in ys:
        c.line(4, y, x0 - BLEED - 1, y)
        c.line(x1 + BLEED + 1, y, A4[0] - 4, y)
    for colour, width in ((white, 1 / PT), (REG, 0.25 / PT)):
        c.setStrokeColor(colour)
        c.setLineWidth(width)
        for x in xs:
            c.line(x, y0 - BLEED, x, y0 - 0.75)
            c.line(x, y1 + 0.75, x, y1 + BLEED)
        for y in ys:
            c.line(x0 - BLEED, y, x0 - 0.75, y)
            c.line(x1 + 0.75, y, x1 + BLEED, y)
    c.restoreState()


def printshop(cards: int, out: Path) -> int:
    pw, ph = W + 2 * BLEED, H + 2 * BLEED
    c = canvas(out / "plain-en-printshop.pdf", (pw, ph))
    forms: dict[str, str] = {}
    for n in range(1, cards + 1):
        for side in ("front", "back"):
            c.setPageSize((pw * PT, ph * PT))
            c.setTrimBox((BLEED * PT, BLEED * PT, (BLEED + W) * PT, (BLEED + H) * PT))
            c.setBleedBox((0, 0, pw * PT, ph * PT))
            c.saveState()
            mm_space(c, ph)
            name = (form(c, forms, f"f{n}", lambda n=n: front(c, n)) if side == "front"
                    else form(c, forms, "back", lambda: back(c)))
            place(c, name, BLEED, BLEED, (0, 0, pw, ph))
            c.restoreState()
            c.showPage()
    c.save()
    return 2 * cards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=120)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    fonts()
    pages = sheets(args.cards, args.out) + printshop(args.cards, args.out)
    print(pages)


if __name__ == "__main__":
    main()
