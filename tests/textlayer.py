"""The text layer of a built PDF page. With pypdf: every run of text with its size in
points, its font and where its baseline starts, in mm from the page's top-left corner.
With pypdfium2: the tight box of every printed character, to check what touches what.

pypdf reports text drawn inside a Form XObject (every card face is one) in the form's
own space, so the matrix in force where the page paints the form is composed back in
here; without it a card's 7 pt text would read as 2.5 "pt"."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

PT_PER_MM = 72 / 25.4


@dataclass(frozen=True)
class Run:
    text: str
    size: float  # pt, as printed
    x: float     # mm from the page's left edge, start of the baseline
    y: float     # mm from the page's top edge, the baseline
    font: str    # the font's name without its subset tag, e.g. NotoSans-Bold


def _mul(a, b):
    """The PDF matrix product a × b (a applied first)."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def text_runs(page) -> list[Run]:
    """Every non-blank run of text on ``page`` (a pypdf page), in drawing order."""
    height = float(page.mediabox.height)
    forms: list[list[float]] = [[1, 0, 0, 1, 0, 0]]  # the matrix each open form was painted with
    runs: list[Run] = []

    def before(op, args, cm, tm):
        if op == b"Do":
            forms.append(_mul(cm, forms[-1]))

    def after(op, args, cm, tm):
        if op == b"Do" and len(forms) > 1:
            forms.pop()

    def text(s, cm, tm, font, size):
        if not s.strip():
            return
        m = _mul(_mul(tm, cm), forms[-1])
        scale = (m[2] ** 2 + m[3] ** 2) ** 0.5
        name = str((font or {}).get("/BaseFont", "")).lstrip("/").split("+")[-1]
        runs.append(Run(unicodedata.normalize("NFC", s.strip()), round(size * scale, 2),
                        m[4] / PT_PER_MM, (height - m[5]) / PT_PER_MM, name))

    page.extract_text(visitor_operand_before=before, visitor_operand_after=after, visitor_text=text)
    return runs


@dataclass(frozen=True)
class Box:
    """A printed text's tight ink box, mm from the page's top-left corner."""
    left: float
    top: float
    right: float
    bottom: float


def char_boxes(path: Path, page: int) -> list[tuple[str, Box | None]]:
    """Every character on page ``page`` (0-based) of the PDF at ``path``, in drawing
    order, with its tight box (None for a space, which prints nothing)."""
    doc = pdfium.PdfDocument(path)
    pg = doc[page]
    height = pg.get_height()
    tp = pg.get_textpage()
    out = []
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if not ch.strip():
            out.append((ch, None))
            continue
        l, b, r, t = tp.get_charbox(i)
        out.append((ch, Box(l / PT_PER_MM, (height - t) / PT_PER_MM, r / PT_PER_MM, (height - b) / PT_PER_MM)))
    return out


def find_text(chars: list[tuple[str, Box | None]], needle: str, start: int = 0) -> tuple[int, int, Box]:
    """The first place from ``start`` where ``needle`` is printed (any whitespace, no-break
    spaces included, matches any whitespace; line breaks count as whitespace):
    (index of its first character, index after its last, the union of their boxes)."""
    import re
    text = "".join(c if not c.isspace() and c not in "\r\n\x02" else " " for c, _ in chars)
    pattern = r"\s+".join(re.escape(w) for w in unicodedata.normalize("NFC", needle).split())
    m = re.compile(pattern).search(unicodedata.normalize("NFC", text), start)
    assert m, f"{needle!r} is not printed on the page"
    boxes = [b for _, b in chars[m.start():m.end()] if b is not None]
    return m.start(), m.end(), Box(min(b.left for b in boxes), min(b.top for b in boxes),
                                   max(b.right for b in boxes), max(b.bottom for b in boxes))
