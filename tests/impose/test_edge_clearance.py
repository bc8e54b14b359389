"""No guide, label or flood of any kit within 5 mm of the paper's edge, where most home
printers print nothing: read back from every home-printed sheet (A4, Letter) of every
shipped kit, as the page's own text and path objects (crop marks, bleed ticks and
their underlays, circle guides, fold lines: every one a stroke; sheet labels), and as
the page's pixels (no ink at all in that band but the pieces' bleed, which is cut away
anyway: a header band or a sheet's flood stops inside the printable area)."""

from __future__ import annotations

import ctypes
import json
import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from click.testing import CliRunner

from cardgen import load_game
from cardgen.cli import main

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


# --- no ink at all in the band, but the pieces' bleed ------------------------------------------

DPI = 100
PX_MM = 25.4 / DPI
DEMO = Path(__file__).resolve().parents[2] / "docs" / "examples" / "demo"


def ink_in_band(pdf: Path, pages: list[dict], bleeds: dict[str, float]) -> list[str]:
    """Each page's ink (mm²) within CLEAR_MM of the paper edge that is not the bleed of a
    piece placed there, read from the page rendered by pdfium without anti-aliasing at
    DPI: a pixel is inked where its centre is, and only pixels wholly inside the band
    and one more pixel away from its inner edge count (pdfium rounds a clip outward to
    whole pixels), so a flood ending exactly at 5 mm is clean and one reaching 0.4 mm
    further is not. A piece's bleed is its trim box
    from the manifest grown by its deck's bleed (and a pixel, for the rounding)."""
    found = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for entry in pages:
            page = doc[entry["page"] - 1]
            w_mm, h_mm = (v / MM for v in page.get_size())
            pixels = page.render(scale=DPI / 72, no_smoothtext=True, no_smoothimage=True,
                                 no_smoothpath=True).to_numpy()
            ink = (pixels[..., :3] < 250).any(axis=2)
            xs = (np.arange(ink.shape[1]) + 0.5) * PX_MM
            ys = (np.arange(ink.shape[0]) + 0.5) * PX_MM
            inside = CLEAR_MM - 1.5 * PX_MM  # a pixel's centre this near the edge: the whole pixel in the band, and one more
            band = ((xs < inside) | (xs > w_mm - inside))[None, :] | ((ys < inside) | (ys > h_mm - inside))[:, None]
            for item in entry.get("items", ()):
                b = bleeds[item.get("component") or entry["component"]] + PX_MM
                across = (xs > item["x"] - b) & (xs < item["x"] + item["w"] + b)
                down = (ys > item["y"] - b) & (ys < item["y"] + item["h"] + b)
                band &= ~(across[None, :] & down[:, None])
            stray = int((ink & band).sum())
            if stray:
                rows, cols = np.nonzero(ink & band)
                found.append(f"{pdf.name} p{entry['page']} ({entry['component']}): {stray * PX_MM ** 2:.0f} mm² "
                             f"of ink within {CLEAR_MM:g} mm of the edge, from ({cols.min() * PX_MM:.1f}, "
                             f"{rows.min() * PX_MM:.1f}) to ({(cols.max() + 1) * PX_MM:.1f}, "
                             f"{(rows.max() + 1) * PX_MM:.1f}) mm")
    finally:
        doc.close()
    return found


def stray_ink(folder: Path, game_ref: str) -> list[str]:
    """Every home-printed page of a built kit (A4 and Letter, cards and sheets) checked."""
    bleeds = {c.id: getattr(c, "bleed", 0.0) for c in load_game(game_ref).components}
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    home = [f for f in manifest["files"] if f.get("paper") in ("a4", "letter")]
    assert {f["paper"] for f in home} == {"a4", "letter"}
    assert {f["kind"] for f in home} == {"cards", "sheets"}
    return [line for f in home for line in ink_in_band(folder / f["file"], f["pages"], bleeds)]


@pytest.mark.parametrize("game", GAMES)
def test_no_ink_but_the_pieces_bleed_lies_within_5_mm_of_the_paper_edge(shared_kit, game):
    found = stray_ink(shared_kit(game).folder, game)
    assert not found, f"{len(found)} pages with ink in the printer's blank band, e.g.\n" + "\n".join(found[:12])


def test_no_ink_but_the_pieces_bleed_lies_within_5_mm_of_the_edge_in_the_demo(tmp_path):
    result = CliRunner().invoke(main, ["build", str(DEMO), "--out", str(tmp_path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    found = stray_ink(tmp_path / "lantern-reef", str(DEMO))
    assert not found, f"{len(found)} pages with ink in the printer's blank band, e.g.\n" + "\n".join(found[:12])


def test_a_sheet_or_header_that_floods_the_whole_page_is_printed_to_the_printable_area_only(game_copy, tmp_path):
    """Whatever a game's sheet template or deck header draws, the page shows it only
    inside the printable area (``page.edge`` from each side, the band home printers
    leave blank): a full-page flood ends in one straight edge there on every printer,
    not wherever each printer stops."""
    game = game_copy("mini_game")
    (game / "game.yaml").write_text((game / "game.yaml").read_text(encoding="utf-8") + """
  - id: rules
    kind: sheet
    name: component.cards
    template: flood.yaml.j2
  - id: tokens
    kind: deck
    name: component.cards
    size: [30, 30]
    bleed: 2
    front: front.yaml.j2
    header: flood_header.yaml.j2
    cards:
      - {id: token, quantity: 4}
""", encoding="utf-8")
    flood = '- {rect: {x: 0, y: 0, w: {{ page.w }}, h: {{ page.h }}, fill: ink}}\n'
    (game / "templates" / "flood.yaml.j2").write_text(flood, encoding="utf-8")
    (game / "templates" / "flood_header.yaml.j2").write_text(
        '{% if page.edge != 5 %}{{ fail }}{% endif %}\n' + flood, encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(game), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "mini"
    assert stray_ink(folder, str(game)) == []
    # the flood reaches the printable area's edge: ink on the first pixels past 5 mm
    for paper in ("a4", "letter"):
        doc = pdfium.PdfDocument(folder / f"mini-en-{paper}-sheets.pdf")
        try:
            for page in doc:
                ink = (page.render(scale=DPI / 72, no_smoothpath=True).to_numpy()[..., :3] < 250).any(axis=2)
                first = math.ceil(CLEAR_MM / PX_MM)  # the first pixel wholly past 5 mm
                h, w = ink.shape
                assert ink[h // 2, first] and ink[h // 2, w - 1 - first] and ink[first, w // 2]
                assert not ink[h // 2, first - 2] and not ink[first - 2, w // 2]
        finally:
            doc.close()
