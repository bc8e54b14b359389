"""Gutterfold layout (--layout gutterfold): fronts left of a vertical fold, backs mirrored
to its right on one landscape sheet, so folding puts every back behind its front.

Geometry of ``plan_gutterfold`` for poker cards and square tiles on both papers, the
manifest of gutterfold files, and a raster check that folding the printed page (mirroring
it across the fold) lays each back exactly on its own front.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import numpy as np
import pypdf
import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.base.errors import CardgenError
from cardgen.base.units import PT_PER_MM
from cardgen.impose.duplex import FoldPlan, plan_gutterfold
from cardgen.impose.marks import EDGE_CLEARANCE, MIN_MARK, TICK_CLEAR, Mark
from cardgen.impose.papers import PAPERS_MM

DATA = Path(__file__).resolve().parents[1] / "data"
TOL = 1e-6
MARGIN = inspect.signature(plan_gutterfold).parameters["min_margin"].default
PAPERS = ("a4", "letter")
POKER = ((63.0, 88.0), 3.0)
TILE = ((40.0, 40.0), 3.0)
# Items per half sheet (cols, rows), worked out by hand: the half-width is W/2, and one
# half holds bleed + cols × w + bleed (its bleed meets the other half's at the fold)
# plus the margin; the height holds rows × h + 2 × bleed + 2 × margin (the bleed never runs
# deeper into the printer's band for one more row).
EXPECTED_GRID = {
    ("a4", POKER): (2, 2),  # (148.5 - 4 - 6) / 63 = 2.2;  (210 - 8 - 6) / 88 = 2.2
    ("letter", POKER): (2, 2),  # (139.7 - 10) / 63 = 2.06; (215.9 - 14) / 88 = 2.3
    ("a4", TILE): (3, 4),  # 138.5 / 40 = 3.5; 196 / 40 = 4.9
    ("letter", TILE): (3, 5),  # 129.7 / 40 = 3.2; 201.9 / 40 = 5.05
}
CASES = [(paper, spec) for paper in PAPERS for spec in (POKER, TILE)]
CASE_IDS = [f"{paper}-{int(spec[0][0])}x{int(spec[0][1])}" for paper, spec in CASES]


# their module-scoped builds must not see the user's saved settings (see conftest)
pytestmark = pytest.mark.usefixtures("isolated_settings")


def fold(paper: str, spec, portrait: bool = True) -> FoldPlan:
    pw, ph = PAPERS_MM[paper]
    item, bleed = spec
    return plan_gutterfold((pw, ph) if portrait else (ph, pw), item, bleed, paper_name=paper)


def bleed_box(x: float, y: float, w: float, h: float, b: float) -> tuple[float, float, float, float]:
    return (x - b, y - b, x + w + b, y + h + b)


def touches(m: Mark, r) -> bool:
    """An axis-aligned segment meets a closed rectangle (touching counts)."""
    lo_x, hi_x = sorted((m.x1, m.x2))
    lo_y, hi_y = sorted((m.y1, m.y2))
    return lo_x <= r[2] + TOL and r[0] - TOL <= hi_x and lo_y <= r[3] + TOL and r[1] - TOL <= hi_y


def overlaps_open(a, b) -> bool:
    return a[0] < b[2] - TOL and b[0] < a[2] - TOL and a[1] < b[3] - TOL and b[1] < a[3] - TOL


def check_fold_plan(fp: FoldPlan, item, bleed: float, paper_mm, margin: float = MARGIN) -> None:
    """Every invariant of a gutterfold sheet, for any item size that fits."""
    p = fp.plan
    w, h = item
    W, H = p.paper
    assert (W, H) == (max(paper_mm), min(paper_mm)), "gutterfold paper is landscape"
    assert fp.fold_x == pytest.approx(W / 2, abs=TOL)
    assert p.item == (w, h) and p.bleed == bleed
    assert len(p.slots) == p.cols * p.rows > 0
    assert len(fp.backs) == len(p.slots)
    assert sorted(s.index for s in p.slots) == list(range(len(p.slots)))
    boxes = []
    for s, b in zip(p.slots, fp.backs):
        # each back belongs to the front of the same index, mirrored exactly across the fold
        assert b.index == s.index
        assert b.x == pytest.approx(W - s.x - w, abs=TOL), (s, b)
        assert b.y == pytest.approx(s.y, abs=TOL), (s, b)
        assert s.rotation == 0 and b.rotation == 0
        assert b.row == s.row and b.col == p.cols - 1 - s.col
        # fronts left of the fold, backs right of it: only bleed may reach the fold
        assert s.x + w <= fp.fold_x + TOL and b.x >= fp.fold_x - TOL
        for x, y in ((s.x, s.y), (b.x, b.y)):
            box = bleed_box(x, y, w, h, bleed)
            # inside the 4 mm margins, bleed included; or, only where that costs a row or a
            # column, the trim 5 mm from the edge (the outer bleed in the printer's band)
            for lo, hi, length in ((box[0], box[2], W), (box[1], box[3], H)):
                if lo < margin - TOL or hi > length - margin + TOL:
                    assert lo + bleed >= EDGE_CLEARANCE - TOL and hi - bleed <= length - EDGE_CLEARANCE + TOL, box
                    assert (p.rows if length == H else p.cols) > strict_count(paper_mm, item, bleed, length == H, margin)
            boxes.append(box)
    fronts_right = max(s.x + w for s in p.slots)
    backs_left = min(b.x for b in fp.backs)
    # the front block's bleed ends at the fold at the latest: it never covers a back's trim
    assert fronts_right + bleed <= backs_left + TOL
    # trim boxes never overlap (butted neighbours share an edge at most)
    trims = [(x, y, x + w, y + h) for x, y in [(s.x, s.y) for s in p.slots] + [(b.x, b.y) for b in fp.backs]]
    for i, a in enumerate(trims):
        for c in trims[i + 1:]:
            assert not overlaps_open(a, c), (a, c)
    # every trim edge is a cut line, every cut line a trim edge
    edges_x = {round(v, 6) for t in trims for v in (t[0], t[2])}
    edges_y = {round(v, 6) for t in trims for v in (t[1], t[3])}
    assert {round(v, 6) for v in p.cut_xs} == edges_x
    assert {round(v, 6) for v in p.cut_ys} == edges_y
    # crop marks: on a cut line, inside the paper (edge clearance), never in any bleed box;
    # none only where the block's bleed leaves no room before the printer's 5 mm band
    block_top = min(s.y for s in p.slots)
    margin_room = block_top - bleed - 1.0 - EDGE_CLEARANCE  # beyond the bleed and the 1 mm gap
    assert p.marks or margin_room < MIN_MARK, "a gutterfold sheet has crop marks"
    for m in p.marks:
        assert m.x1 == m.x2 or m.y1 == m.y2, m
        if m.x1 == m.x2:
            assert any(abs(m.x1 - x) < TOL for x in p.cut_xs), m
        else:
            assert any(abs(m.y1 - y) < TOL for y in p.cut_ys), m
        for v, edge in ((m.x1, W), (m.x2, W), (m.y1, H), (m.y2, H)):
            assert EDGE_CLEARANCE - TOL <= v <= edge - EDGE_CLEARANCE + TOL, m
        assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= min(MIN_MARK, 6.0) - TOL, m
        for box in boxes:
            assert not touches(m, box), (m, box)
    # fold marks: on the fold line, above and below the block, clear of the printer's
    # band; outside every bleed box, or (no room in the margin) in the bleed only (the
    # outer bleed, or the fold's between the halves), clear of the trim like the cut ticks
    top = min(s.y for s in fp.plan.slots)
    assert fp.fold_marks or (top - TICK_CLEAR - EDGE_CLEARANCE < MIN_MARK and bleed < TICK_CLEAR), \
        "the fold line is marked"
    bottom = max(s.y for s in fp.plan.slots) + h
    for m in fp.fold_marks:
        assert m.x1 == pytest.approx(fp.fold_x, abs=TOL) and m.x2 == pytest.approx(fp.fold_x, abs=TOL)
        assert EDGE_CLEARANCE - TOL <= min(m.y1, m.y2) and max(m.y1, m.y2) <= H - EDGE_CLEARANCE + TOL
        in_bleed = [box for box in boxes if touches(m, box)]
        assert not in_bleed or (max(m.y1, m.y2) <= top - TICK_CLEAR + TOL
                                or min(m.y1, m.y2) >= bottom + TICK_CLEAR - TOL
                                or bleed >= TICK_CLEAR), (m, in_bleed)
        for x, y in [(s.x, s.y) for s in p.slots] + [(b.x, b.y) for b in fp.backs]:  # never on a piece
            assert not (x - TICK_CLEAR + TOL < m.x1 < x + w + TICK_CLEAR - TOL
                        and min(m.y1, m.y2) < y + h and max(m.y1, m.y2) > y), (m, x, y)


def strict_count(paper_mm, item, bleed: float, down: bool, margin: float) -> int:
    """Columns of a half, or rows, that fit with the bleed inside the margin."""
    W, H = max(paper_mm), min(paper_mm)
    w, h = item
    if down:
        return int((H - 2 * margin - 2 * bleed + 1e-9) // h)
    return int((W / 2 - bleed - margin - bleed + 1e-9) // w)


@pytest.mark.parametrize("paper, spec", CASES, ids=CASE_IDS)
def test_plan_gutterfold_geometry(paper, spec):
    item, bleed = spec
    fp = fold(paper, spec)
    check_fold_plan(fp, item, bleed, PAPERS_MM[paper])
    assert (fp.plan.cols, fp.plan.rows) == EXPECTED_GRID[(paper, spec)]
    # one fold mark from above and one from below the block (there is room on both papers)
    tops = [m for m in fp.fold_marks if min(m.y1, m.y2) <= min(s.y for s in fp.plan.slots) + TOL]
    bottoms = [m for m in fp.fold_marks if max(m.y1, m.y2) >= max(s.y for s in fp.plan.slots) + item[1] - TOL]
    assert len(tops) == 1 and len(bottoms) == 1, fp.fold_marks


@pytest.mark.parametrize("paper, spec", CASES, ids=CASE_IDS)
def test_plan_gutterfold_is_full_and_centred(paper, spec):
    """No further column fits a half, no further row fits the height, and the block is
    centred vertically (so a sheet folded in half keeps fronts and backs level)."""
    (w, h), bleed = spec
    fp = fold(paper, spec)
    p = fp.plan
    W, H = p.paper
    left = min(s.x for s in p.slots)
    assert (p.cols + 1) * w + 2 * bleed + MARGIN > W / 2 + TOL  # one more column would not fit
    assert (p.rows + 1) * h + 2 * bleed + 2 * MARGIN > H + TOL  # nor one more row
    assert left - bleed >= MARGIN - TOL  # the bleed inside the margin, never deeper in the printer's band
    top = min(s.y for s in p.slots)
    bottom = max(s.y for s in p.slots) + h
    assert top == pytest.approx(H - bottom, abs=TOL)


@pytest.mark.parametrize("paper, spec", CASES, ids=CASE_IDS)
def test_plan_gutterfold_paper_orientation_does_not_matter(paper, spec):
    assert fold(paper, spec, portrait=True) == fold(paper, spec, portrait=False)


def test_plan_gutterfold_too_big_is_a_user_error():
    with pytest.raises(CardgenError, match="does not fit"):
        plan_gutterfold(PAPERS_MM["a4"], (140.6, 100.0), 3.0, paper_name="a4")
    # 138.5 mm fits, its bleed 4 mm from the outer edge; 140 mm would need it 1.5 mm deeper in the
    # printer's band, which a caller may allow (trim_margin), the kits never
    assert plan_gutterfold(PAPERS_MM["a4"], (138.5, 100.0), 3.0, paper_name="a4").plan.slots[0].x == \
        pytest.approx(7.0)
    with pytest.raises(CardgenError, match="does not fit"):
        plan_gutterfold(PAPERS_MM["a4"], (140.0, 100.0), 3.0, paper_name="a4")
    assert plan_gutterfold(PAPERS_MM["a4"], (140.0, 100.0), 3.0, paper_name="a4",
                           trim_margin=EDGE_CLEARANCE).plan.slots[0].x == pytest.approx(5.5)


@settings(max_examples=150, deadline=None)
@given(
    paper=st.sampled_from(PAPERS),
    w=st.floats(10, 130),
    h=st.floats(10, 190),
    bleed=st.sampled_from([0.0, 1.0, 1.5, 3.0]),
)
def test_plan_gutterfold_invariants_hold_for_any_size(paper, w, h, bleed):
    try:
        fp = plan_gutterfold(PAPERS_MM[paper], (w, h), bleed, paper_name=paper)
    except CardgenError:
        W, H = max(PAPERS_MM[paper]), min(PAPERS_MM[paper])
        # refused only when one item really does not fit half the sheet
        assert w + 2 * bleed + MARGIN > W / 2 - TOL or h + 2 * bleed + 2 * MARGIN > H - TOL
        return
    check_fold_plan(fp, (w, h), bleed, PAPERS_MM[paper])


# -- built files ------------------------------------------------------------------------------------------


def _build(cli, out: Path, *args: object) -> None:
    result = cli("build", *args, "--out", out)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def fold_kits(cli, tmp_path_factory):
    """duplex_game (5 poker cards) and home_fold_game (14 tiles) as gutterfold on both papers."""
    kits = {}
    for name, game_id in (("duplex_game", "duplex"), ("home_fold_game", "homefold")):
        out = tmp_path_factory.mktemp(f"fold-{game_id}")
        _build(cli, out, DATA / name, "--paper", "a4", "--paper", "letter", "--layout", "gutterfold")
        kits[game_id] = out / game_id
    return kits


def entry_of(folder: Path, name: str) -> dict:
    doc = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = [e for e in doc["files"] if e["file"] == name]
    return entry


GAMES = {"duplex": (POKER, 5), "homefold": (TILE, 14)}


def test_gutterfold_file_names_and_landscape_pages(fold_kits):
    for game_id, folder in fold_kits.items():
        (item, bleed), n_cards = GAMES[game_id]
        assert sorted(p.name for p in folder.glob("*.pdf")) == [
            f"{game_id}-en-a4-cards-gutterfold.pdf", f"{game_id}-en-letter-cards-gutterfold.pdf"]
        for paper in PAPERS:
            fp = plan_gutterfold(PAPERS_MM[paper], item, bleed)
            path = folder / f"{game_id}-en-{paper}-cards-gutterfold.pdf"
            r = pypdf.PdfReader(path)
            per = fp.plan.per_sheet
            assert len(r.pages) == -(-n_cards // per), (path.name, per)
            W, H = max(PAPERS_MM[paper]), min(PAPERS_MM[paper])
            for page in r.pages:
                assert float(page.mediabox.width) == pytest.approx(W * PT_PER_MM, abs=0.01)
                assert float(page.mediabox.height) == pytest.approx(H * PT_PER_MM, abs=0.01)
            prefs = r.trailer["/Root"].get("/ViewerPreferences")
            prefs = {k: str(v) for k, v in (prefs.get_object() if prefs is not None else {}).items()}
            assert prefs.get("/PrintScaling") == "/None"
            assert "/Duplex" not in prefs or prefs["/Duplex"] == "/Simplex", "one-sided printing"


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("paper", PAPERS)
def test_gutterfold_manifest_mirrors_backs(fold_kits, game_id, paper):
    (item, bleed), n_cards = GAMES[game_id]
    W = max(PAPERS_MM[paper])
    fp = plan_gutterfold(PAPERS_MM[paper], item, bleed)
    entry = entry_of(fold_kits[game_id], f"{game_id}-en-{paper}-cards-gutterfold.pdf")
    assert entry["layout"] == "gutterfold" and entry["kind"] == "cards"
    assert [p["page"] for p in entry["pages"]] == list(range(1, len(entry["pages"]) + 1))
    seen = []
    for page in entry["pages"]:
        assert page["side"] == "gutterfold"
        assert page["fold_x"] == pytest.approx(W / 2, abs=1e-3)
        fronts = [i for i in page["items"] if i["side"] == "front"]
        backs = [i for i in page["items"] if i["side"] == "back"]
        assert fronts and len(fronts) + len(backs) == len(page["items"])
        assert len(fronts) <= fp.plan.per_sheet
        by_card = {(b["card"], b["copy"]): b for b in backs}
        assert sorted(by_card) == sorted((f["card"], f["copy"]) for f in fronts), "every front has its back"
        for f in fronts:
            b = by_card[(f["card"], f["copy"])]
            assert (f["w"], f["h"]) == item and (b["w"], b["h"]) == item
            assert b["x"] == pytest.approx(W - f["x"] - f["w"], abs=1e-3)
            assert b["y"] == pytest.approx(f["y"], abs=1e-3)
            assert f["rotation"] == 0 and b["rotation"] == 0
            assert f["x"] + f["w"] <= page["fold_x"] + 1e-3 <= b["x"] + 2e-3
            # positions are those of the plan
            slot = fp.plan.slots[f["slot"]]
            assert (f["x"], f["y"]) == pytest.approx((slot.x, slot.y), abs=1e-3)
            seen.append(f["card"])
    assert seen == [f"{'card' if game_id == 'duplex' else 'tile'}-{n}" for n in range(1, n_cards + 1)]


def test_hapy_gutterfold_manifest(cli, tmp_path):
    """The real kit: 36 gods at 2 × 2 per half letter sheet make 9 gutterfold pages; the
    one-sided sheets and the print-shop file are still written."""
    _build(cli, tmp_path, "hapy", "--lang", "en", "--paper", "letter", "--layout", "gutterfold", "--jobs", "1")
    folder = tmp_path / "hapy"
    assert sorted(p.name for p in folder.glob("*.pdf")) == [
        "hapy-en-letter-cards-gutterfold.pdf", "hapy-en-letter-sheets.pdf", "hapy-en-printshop-63x88mm.pdf"]
    entry = entry_of(folder, "hapy-en-letter-cards-gutterfold.pdf")
    assert len(entry["pages"]) == 9
    W = max(PAPERS_MM["letter"])
    pairs = 0
    for page in entry["pages"]:
        backs = {(i["card"], i["copy"]): i for i in page["items"] if i["side"] == "back"}
        for f in (i for i in page["items"] if i["side"] == "front"):
            b = backs.pop((f["card"], f["copy"]))
            assert (b["x"], b["y"]) == pytest.approx((W - f["x"] - 63, f["y"]), abs=1e-3)
            pairs += 1
        assert not backs
    assert pairs == 36
    assert len(pypdf.PdfReader(folder / "hapy-en-letter-cards-gutterfold.pdf").pages) == 9


# -- folding the printed page, by raster ----------------------------------------------------------------------

# Resolutions at which the landscape page is a whole number of pixels wide, so mirroring
# the bitmap is mirroring the page exactly: A4 297 mm at 50.8 dpi = 594 px (2 px/mm),
# Letter 11 in at 50 dpi = 550 px.
RASTER_DPI = {"a4": 50.8, "letter": 50.0}


def _raster(path: Path, index: int, dpi: float) -> np.ndarray:
    """The page at ``dpi``. The scale is a hair under dpi / 72: the page width is a whole
    number of pixels in theory but a float sliver over in practice, which would add a
    column and stretch the page to fill it (then the fold is no longer the bitmap's middle)."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[index]
        width_px = round(page.get_width() / 72 * dpi)
        image = page.render(scale=dpi / 72 * (1 - 1e-6)).to_pil().convert("L")
    finally:
        pdf.close()
    assert image.width == width_px, (image.size, width_px)
    return np.asarray(image, dtype=np.int16)


def _mask(shape, boxes, dpi: float, inset: float = 1.0) -> np.ndarray:
    px = lambda mm: int(round(mm / 25.4 * dpi))  # noqa: E731
    mask = np.zeros(shape, dtype=bool)
    for x0, y0, x1, y1 in boxes:
        mask[px(y0 + inset):px(y1 - inset), px(x0 + inset):px(x1 - inset)] = True
    return mask


def _mismatch(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> float:
    """Share of the masked pixels of ``a`` whose grey level differs by more than a quarter
    from ``b`` at the same place and at either horizontal neighbour: a one-pixel slack for
    edges that fall exactly on a pixel boundary, which the rasteriser may put on either
    side (mirrored edges then land one column apart). Marks are 6+ pixels wide."""
    diff = np.abs(a - b)
    for dx in (-1, 1):
        diff = np.minimum(diff, np.abs(a - np.roll(b, dx, axis=1)))
    return float((diff[mask] > 64).mean())


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("paper", PAPERS)
def test_folding_puts_each_back_on_its_front(fold_kits, game_id, paper):
    """Mirror the rendered page across the fold: every front lands on its own back.

    Each face is left-right symmetric (so mirroring a face gives the same face), not
    top-bottom symmetric, and differs from card to card."""
    (item, bleed), _ = GAMES[game_id]
    w, h = item
    dpi = RASTER_DPI[paper]
    path = fold_kits[game_id] / f"{game_id}-en-{paper}-cards-gutterfold.pdf"
    entry = entry_of(fold_kits[game_id], path.name)
    fp = plan_gutterfold(PAPERS_MM[paper], item, bleed)
    W = max(PAPERS_MM[paper])
    for n, page in enumerate(entry["pages"]):
        img = _raster(path, n, dpi)
        assert img.shape[1] == round(W / 25.4 * dpi), img.shape
        fronts = [i for i in page["items"] if i["side"] == "front"]
        mask = _mask(img.shape, [(f["x"], f["y"], f["x"] + w, f["y"] + h) for f in fronts], dpi)
        assert (img[mask] < 128).mean() > 0.05, "the fronts show their marks"
        folded = img[:, ::-1]
        assert _mismatch(img, folded, mask) < 0.005, (path.name, n)
        # teeth: folding the other way, or backs placed side by side unmirrored, do not line up
        assert _mismatch(img, folded[::-1, :], mask) > 0.02
        two_mm = int(round(2 / 25.4 * dpi))
        assert _mismatch(img, np.roll(folded, two_mm, axis=1), mask) > 0.015, "2 mm off is seen"
        left = min(s.x for s in fp.plan.slots)
        shift = int(round((min(b.x for b in fp.backs) - left) / 25.4 * dpi))
        unmirrored = np.roll(img, -shift, axis=1)
        assert _mismatch(img, unmirrored, mask) > 0.01  # (a middle column may pair with itself)
        # and unoccupied slots on a partly filled sheet stay blank on both halves
        used = {f["slot"] for f in fronts}
        empty = [(x, s.y, x + w, s.y + h) for s, b in zip(fp.plan.slots, fp.backs) if s.index not in used
                 for x in (s.x, b.x)]
        if empty:
            blank = _mask(img.shape, empty, dpi)
            assert (img[blank] > 250).mean() > 0.99, (path.name, n)


def test_fold_marks_are_drawn_on_the_fold(fold_kits):
    """The dashed fold mark is ink on the fold line above and below the block, and the
    fold line between the two halves' bleeds carries no mark."""
    dpi = 101.6  # 4 px per mm
    path = fold_kits["duplex"] / "duplex-en-a4-cards-gutterfold.pdf"
    img = _raster(path, 0, dpi)
    fp = plan_gutterfold(PAPERS_MM["a4"], (63, 88), 3)
    px = lambda mm: int(round(mm / 25.4 * dpi))  # noqa: E731
    fx = px(fp.fold_x)
    for m in fp.fold_marks:
        y0, y1 = sorted((m.y1, m.y2))
        column = img[px(y0) + 1:px(y1) - 1, fx - 1:fx + 1].min(axis=1)
        assert (column < 200).mean() > 0.3, "a dashed line on the fold"
    # beside the fold mark, away from crop marks, the margin is blank paper
    m = fp.fold_marks[0]
    y0, y1 = sorted((m.y1, m.y2))
    assert img[px(y0) + 1:px(y1) - 1, fx + px(1.5):fx + px(2.5)].min() > 240
