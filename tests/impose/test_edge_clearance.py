"""No guide or label of any kit within 5 mm of the paper's edge, where most home
printers print nothing: read back from every home-printed sheet (A4, Letter) of every
shipped kit, as the page's own text and path objects (crop marks, bleed ticks and
their underlays, circle guides, fold lines: every one a stroke; sheet labels). The
pieces themselves are forms, and their bleed may run into that band: it is cut away
anyway; filled shapes on a page (a deck header's band) are art too."""

from __future__ import annotations

import ctypes
import json
import math

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

MM = 72 / 25.4
CLEAR_MM = 5.0
GAMES = ("hapy", "egypt", "farao", "horus")


def ink_gap(obj, w: float, h: float) -> float:
    """How near (pt) a page object's ink comes to the page edge. Text: its glyph box.
    A path: each of its straight segments as the band its stroke covers (butt caps:
    half the stroke width to either side, nothing beyond the ends); pdfium's own
    bounds pad a stroke by its whole width all round."""
    if obj.type != raw.FPDF_PAGEOBJ_PATH:
        left, bottom, right, top = obj.get_bounds()
        return min(left, bottom, w - right, h - top)
    m = obj.get_matrix()
    width = ctypes.c_float(0)
    raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
    stroked = ctypes.c_int(0)
    fill = ctypes.c_int(0)
    raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroked))
    if not stroked.value:
        return math.inf  # a filled shape is art (a deck header's band), never a guide
    half = width.value * math.hypot(m.a, m.b) / 2
    points = []
    for i in range(raw.FPDFPath_CountSegments(obj.raw)):
        seg = raw.FPDFPath_GetPathSegment(obj.raw, i)
        x, y = ctypes.c_float(), ctypes.c_float()
        raw.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
        points.append((m.a * x.value + m.c * y.value + m.e, m.b * x.value + m.d * y.value + m.f))
    gap = math.inf
    for (x1, y1), (x2, y2) in zip(points, points[1:] or points):
        length = math.hypot(x2 - x1, y2 - y1)
        nx, ny = ((y1 - y2) / length * half, (x2 - x1) / length * half) if length else (half, half)
        for px, py in ((x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny)):
            gap = min(gap, px, py, w - px, h - py)
    return gap


def too_close(path, pages: list[dict]) -> list[str]:
    """Each text or path object (top level of a page) nearer than CLEAR_MM to an edge;
    on the pages of sheet components (rules, setup), whose full-bleed art is theirs,
    text only."""
    found = []
    doc = pdfium.PdfDocument(path)
    try:
        for entry in pages:
            page = doc[entry["page"] - 1]
            w, h = page.get_size()
            guided = bool(entry.get("items")) or "tile" in entry
            kinds = (raw.FPDF_PAGEOBJ_TEXT, raw.FPDF_PAGEOBJ_PATH) if guided else (raw.FPDF_PAGEOBJ_TEXT,)
            for obj in page.get_objects(max_depth=0):
                if obj.type not in kinds:
                    continue
                gap = ink_gap(obj, w, h) / MM
                if gap < CLEAR_MM - 0.01:
                    what = "text" if obj.type == raw.FPDF_PAGEOBJ_TEXT else "path"
                    found.append(f"{path.name} p{entry['page']} ({entry['component']}): {what} {gap:.1f} mm from the edge")
    finally:
        doc.close()
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_guide_or_label_comes_within_5_mm_of_the_paper_edge(shared_kit, game):
    folder = shared_kit(game).folder
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    home = [f for f in manifest["files"] if f.get("paper") in ("a4", "letter")]
    assert home, "no home-printed files"
    found = [line for f in home for line in too_close(folder / f["file"], f["pages"])]
    assert not found, f"{len(found)} objects too close, e.g.\n" + "\n".join(found[:12])
