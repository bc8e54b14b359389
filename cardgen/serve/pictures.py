"""Pictures for the page, drawn by the same code as the PDFs: faces through the
print-shop page writer, sheet pages through the kit writer, each PDF then rasterised
with pypdfium2 into PNG bytes in memory. Its PDFs go into a temporary folder that is
removed at once: nothing is written near the game or the output folder.

ReportLab and pdfium are not safe to use from several threads at once, so every
drawing holds ``DRAWING``.
"""

from __future__ import annotations

import io
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from PIL import Image

from ..export import as_cut
from ..impose.sheets import Sheets
from ..model.components import Deck
from ..pipeline import Face, KitBuilder, LangKit

DRAWING = threading.Lock()


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)  # fast: these live for one session
    return buf.getvalue()


def _rasterise(path: Path, dpi: float | list[float]) -> list[Image.Image]:
    """Each page of the PDF at ``path``, at one resolution or one per page."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        dpis = dpi if isinstance(dpi, list) else [dpi] * len(pdf)
        return [pdf[n].render(scale=dpis[n] / 72.0).to_pil().convert("RGB") for n in range(len(pdf))]
    finally:
        pdf.close()


def face_pngs(builder: KitBuilder, faces: list[tuple[Deck, str, str, Face, float]], with_bleed: bool) -> list[bytes]:
    """Each ``(deck, card id, side, face, dpi)`` as a PNG: as cut, or with its bleed (for
    the proof overlay, whose bleed line lies outside the trim)."""
    if not faces:
        return []
    with DRAWING, tempfile.TemporaryDirectory(prefix="cardgen-serve-") as tmp:
        path = Path(tmp) / "faces.pdf"
        builder.write_face_pages(path, [(deck, card, 0, side, face) for deck, card, side, face, _ in faces],
                                 "cardgen serve")
        images = _rasterise(path, [dpi for *_, dpi in faces])
    return [_png(img if with_bleed else as_cut(img, deck, dpi))
            for img, (deck, _, _, _, dpi) in zip(images, faces)]


def sheet_pngs(builder: KitBuilder, kit: LangKit, sheets: Sheets, dpi: float) -> list[list[bytes]]:
    """Every page of every file of ``sheets`` as a PNG, file by file."""
    out: list[list[bytes]] = []
    with DRAWING, tempfile.TemporaryDirectory(prefix="cardgen-serve-") as tmp:
        for n, file in enumerate(sheets.files):
            folder = Path(tmp) / str(n)  # files of one paper could share a name: one folder each
            folder.mkdir()
            written = builder.writer.write_sheets(folder, kit, replace(sheets, files=(file,)), [])
            out.append([_png(img) for w in written for img in _rasterise(folder / w.name, dpi)])
    return out
