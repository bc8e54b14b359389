"""The text layer of a built PDF page, read with pypdfium2 (fast enough to read every
page of a kit): every run of text with its size in points, its font and where its
baseline starts, in mm from the page's top-left corner; the page's text as those runs;
and the tight box of every printed character, to check what touches what.

A run is one text object of the page, in drawing order. pdfium gives a text object's
matrix in the space of the Form XObject it is drawn in (every card face is one), so the
matrices the forms were painted with are composed back in here; without them a card's
7 pt text would read as 2.5 "pt"."""

from __future__ import annotations

import functools
import math
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

PT_PER_MM = 72 / 25.4
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Run:
    text: str
    size: float  # pt, as printed
    x: float     # mm from the page's left edge, start of the baseline
    y: float     # mm from the page's top edge, the baseline
    font: str    # the font's name without its subset tag, e.g. NotoSans-Bold


def _mul(a, b):
    """The PDF matrix product a × b (a applied first)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


@functools.lru_cache(maxsize=16)
def _document(path: str, mtime_ns: int, size: int) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(path)


def _open(path: Path) -> tuple[pdfium.PdfDocument, tuple]:
    """The PDF at ``path``, kept open while it is read page after page (opening it anew
    for each page costs more than reading the page); reopened if the file changes."""
    st = os.stat(path)
    key = (str(Path(path).resolve()), st.st_mtime_ns, st.st_size)
    return _document(*key), key


@functools.lru_cache(maxsize=4096)
def _runs(key: tuple, index: int) -> tuple[Run, ...]:
    page = _document(*key)[index]
    textpage = page.get_textpage()
    height = page.get_height()
    forms: list[tuple] = []  # the matrix each open form was painted with, by depth
    runs = []
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDF_PAGEOBJ_FORM), textpage=textpage):
        del forms[obj.level:]
        m = _mul(obj.get_matrix().get(), forms[-1] if forms else _IDENTITY)
        if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
            forms.append(m)
            continue
        text = obj.extract()
        if not text.strip():
            continue
        size = round(obj.get_font_size() * math.hypot(m[2], m[3]), 2)  # Tf size × the matrix's scale
        name = obj.get_font().get_base_name().split("+")[-1]
        runs.append(Run(unicodedata.normalize("NFC", text.strip()), size,
                        m[4] / PT_PER_MM, (height - m[5]) / PT_PER_MM, name))
    textpage.close()
    page.close()
    return tuple(runs)


def text_runs(path: Path, index: int) -> list[Run]:
    """Every non-blank run of text on page ``index`` (0-based) of the PDF at ``path``,
    in drawing order."""
    _, key = _open(path)
    return list(_runs(key, index))


def page_text(path: Path, index: int) -> str:
    """The text of page ``index``: its runs in drawing order, one a line. (pdfium's own
    ``get_text_range`` sorts the text by position, and so can splice a title into the
    two-line caption beside it; the drawing order keeps each text whole.)"""
    return "\n".join(run.text for run in text_runs(path, index))


def page_texts(path: Path) -> list[str]:
    """The text of every page of the PDF at ``path``, as ``page_text`` reads it."""
    doc, key = _open(path)
    return ["\n".join(run.text for run in _runs(key, i)) for i in range(len(doc))]


@dataclass(frozen=True)
class Box:
    """A printed text's tight ink box, mm from the page's top-left corner."""
    left: float
    top: float
    right: float
    bottom: float


def char_boxes(path: Path, page: int) -> list[tuple[str, Box | None]]:
    """Every character on page ``page`` (0-based) of the PDF at ``path``, in the order
    pdfium reads them, with its tight box (None for a space, which prints nothing)."""
    pg = _open(path)[0][page]
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
    tp.close()
    pg.close()
    return out


def find_text(chars: list[tuple[str, Box | None]], needle: str, start: int = 0) -> tuple[int, int, Box]:
    """The first place from ``start`` where ``needle`` is printed (any whitespace, no-break
    spaces included, matches any whitespace; line breaks count as whitespace):
    (index of its first character, index after its last, the union of their boxes)."""
    text = "".join(c if not c.isspace() and c not in "\r\n\x02" else " " for c, _ in chars)
    pattern = r"\s+".join(re.escape(w) for w in unicodedata.normalize("NFC", needle).split())
    m = re.compile(pattern).search(unicodedata.normalize("NFC", text), start)
    assert m, f"{needle!r} is not printed on the page"
    boxes = [b for _, b in chars[m.start():m.end()] if b is not None]
    return m.start(), m.end(), Box(min(b.left for b in boxes), min(b.top for b in boxes),
                                   max(b.right for b in boxes), max(b.bottom for b in boxes))
