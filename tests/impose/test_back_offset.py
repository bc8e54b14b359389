"""Print-checking options: --back-offset (undo a duplex printer's misregistration) and
--proof (trim, bleed and safe-zone lines over every card).

The back offset is checked in the manifest and in the pixels: rendered at 101.6 dpi an A4
page is 840 × 1188 px (4 px per mm), so 1.5 mm is exactly 6 px and 0.75 mm exactly 3 px.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from cardgen.impose.papers import PAPERS_MM

DATA = Path(__file__).resolve().parents[1] / "data"
DPI = 101.6  # 4 px per mm
OFFSET = (1.5, -0.75)  # mm, x right, y down, as seen on the back page
OFF_PX = (6, -3)
A4_W, A4_H = PAPERS_MM["a4"]


# their module-scoped builds must not see the user's saved settings (see conftest)
pytestmark = pytest.mark.usefixtures("isolated_settings")


def px(mm: float) -> int:
    return int(round(mm / 25.4 * DPI))


def render(path: Path, index: int, mode: str = "L") -> np.ndarray:
    """The page at 4 px per mm. The scale is a hair under dpi / 72: the page sizes are
    whole pixels in theory but a float sliver over in practice, which would add a row or
    column and stretch the page to fill it."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[index]
        size = (round(page.get_width() / 72 * DPI), round(page.get_height() / 72 * DPI))
        image = page.render(scale=DPI / 72 * (1 - 1e-6)).to_pil().convert(mode)
    finally:
        pdf.close()
    assert image.size == size, (image.size, size)
    return np.asarray(image, dtype=np.int16)


def build(cli, out: Path, game, *args: object) -> Path:
    result = cli("build", game, *args, "--out", out)
    assert result.exit_code == 0, result.output
    return out


def entry_of(folder: Path, name: str) -> dict:
    doc = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = [e for e in doc["files"] if e["file"] == name]
    return entry


def pairs(entry: dict):
    pages = entry["pages"]
    assert [p["side"] for p in pages] == ["front", "back"] * (len(pages) // 2)
    for front, back in zip(pages[::2], pages[1::2]):
        assert [(i["card"], i["copy"]) for i in front["items"]] == [(i["card"], i["copy"]) for i in back["items"]]
        yield from zip(front["items"], back["items"])


CARDS = {"long": "duplex-en-a4-cards.pdf", "short": "duplex-en-a4-cards-short-edge.pdf"}


@pytest.fixture(scope="module")
def kits(cli, tmp_path_factory):
    """duplex_game on A4 for each flip, with and without --back-offset 1.5,-0.75."""
    out = {}
    for duplex in ("long", "short"):
        for shifted in (False, True):
            folder = tmp_path_factory.mktemp(f"{duplex}-{'offset' if shifted else 'plain'}")
            extra = ("--back-offset", "1.5,-0.75") if shifted else ()
            build(cli, folder, DATA / "duplex_game", "--paper", "a4", "--duplex", duplex, *extra)
            out[duplex, shifted] = folder / "duplex"
    return out


# -- manifest ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_manifest_back_positions_are_mirrored_plus_offset(kits, duplex):
    entry = entry_of(kits[duplex, True], CARDS[duplex])
    plain = entry_of(kits[duplex, False], CARDS[duplex])
    assert entry["back_offset"] == list(OFFSET)
    assert plain["back_offset"] == [0.0, 0.0]
    n = 0
    for (f, b), (pf, pb) in zip(pairs(entry), pairs(plain), strict=True):
        if duplex == "long":
            mirrored = (A4_W - f["x"] - f["w"], f["y"])
        else:
            mirrored = (f["x"], A4_H - f["y"] - f["h"])
        assert (b["x"], b["y"]) == pytest.approx((mirrored[0] + OFFSET[0], mirrored[1] + OFFSET[1]), abs=1e-3)
        # the fronts do not move; the backs move by exactly the offset
        assert (f["x"], f["y"]) == pytest.approx((pf["x"], pf["y"]), abs=1e-9)
        assert (b["x"], b["y"]) == pytest.approx((pb["x"] + OFFSET[0], pb["y"] + OFFSET[1]), abs=1e-3)
        assert (b["rotation"], pb["rotation"]) == ((0, 0) if duplex == "long" else (180, 180))
        n += 1
    assert n == 5


# -- pixels -------------------------------------------------------------------------------------------------


def slot_mask(items: list[dict], shape, inset: float) -> np.ndarray:
    mask = np.zeros(shape, dtype=bool)
    for i in items:
        mask[px(i["y"] + inset):px(i["y"] + i["h"] - inset), px(i["x"] + inset):px(i["x"] + i["w"] - inset)] = True
    return mask


def mismatch(a: np.ndarray, b: np.ndarray, mask: np.ndarray, slack: bool = False) -> float:
    """Share of masked pixels whose grey levels differ by more than a quarter; with
    ``slack``, a pixel also matches its left or right neighbour (mirrored edges that lie
    exactly on a pixel boundary may be rasterised one column apart)."""
    diff = np.abs(a - b)
    if slack:
        for dx in (-1, 1):
            diff = np.minimum(diff, np.abs(a - np.roll(b, dx, axis=1)))
    return float((diff[mask] > 64).mean())


def shifted(img: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """Content moved dx px right and dy px down."""
    return np.roll(img, (dy, dx), axis=(0, 1))


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_page_content_moves_by_exactly_the_offset(kits, duplex):
    path, plain = kits[duplex, True] / CARDS[duplex], kits[duplex, False] / CARDS[duplex]
    # fronts are untouched, pixel for pixel
    assert np.array_equal(render(path, 0), render(plain, 0))
    back, back0 = render(path, 1), render(plain, 1)
    assert back.shape == (px(A4_H), px(A4_W)) == (1188, 840)
    items = entry_of(kits[duplex, False], CARDS[duplex])["pages"][1]["items"]
    mask = slot_mask(items, back.shape, inset=2.0)
    assert (back0[mask] < 128).mean() > 0.05, "the backs show their marks"
    # (an edge landing exactly on a pixel boundary may be rasterised a row off: not 0)
    assert mismatch(back, shifted(back0, *OFF_PX), mask) < 0.005
    assert mismatch(back, back0, mask) > 0.02, "without the shift they differ"
    # and it is that shift and no other, to the pixel
    best_dx = min(range(OFF_PX[0] - 8, OFF_PX[0] + 9), key=lambda dx: mismatch(back, shifted(back0, dx, OFF_PX[1]), mask))
    best_dy = min(range(OFF_PX[1] - 8, OFF_PX[1] + 9), key=lambda dy: mismatch(back, shifted(back0, OFF_PX[0], dy), mask))
    assert (best_dx, best_dy) == OFF_PX


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_offset_back_meets_its_front_once_the_offset_is_undone(kits, duplex):
    """Turn the back page over as the printer does; it lines up with the front after
    moving it back by the offset (as seen from the front: x flips for a long-edge turn, y
    for a short-edge one), and by no other shift nearby."""
    path = kits[duplex, True] / CARDS[duplex]
    front, back = render(path, 0), render(path, 1)
    turned = back[:, ::-1] if duplex == "long" else back[::-1, :]
    # the offset as it appears on the turned page, undone
    undo = (OFF_PX[0], -OFF_PX[1]) if duplex == "long" else (-OFF_PX[0], OFF_PX[1])
    items = entry_of(kits[duplex, True], CARDS[duplex])["pages"][0]["items"]
    mask = slot_mask(items, front.shape, inset=2.0)
    assert (front[mask] < 128).mean() > 0.05
    assert mismatch(front, shifted(turned, *undo), mask, slack=True) < 0.005
    assert mismatch(front, turned, mask, slack=True) > 0.02, "without the shift they differ"
    # the best horizontal shift (vertical one fixed) and the best vertical one are the offset
    best_dx = min(range(undo[0] - 10, undo[0] + 11),
                  key=lambda dx: mismatch(front, shifted(turned, dx, undo[1]), mask))
    best_dy = min(range(undo[1] - 8, undo[1] + 9),
                  key=lambda dy: mismatch(front, shifted(turned, undo[0], dy), mask))
    assert (best_dx, best_dy) == undo


# -- command line ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [
    "20,0", "0,-10.5", "x", "1,2,3", "1", "", "inf,0", "nan,0", "0,nan",
])
def test_bad_back_offset_is_a_usage_error(cli, tmp_path, value):
    out = tmp_path / "out"
    result = cli("build", DATA / "duplex_game", "--paper", "a4", "--back-offset", value, "--out", out)
    assert result.exit_code == 2, (result.exit_code, result.output + result.stderr)
    assert "Error: Invalid value for '--back-offset': " in result.stderr
    assert not out.exists(), "nothing is built"


def test_ten_mm_is_still_accepted(cli, tmp_path):
    build(cli, tmp_path, DATA / "duplex_game", "--paper", "a4", "--back-offset", "-10,10")
    entry = entry_of(tmp_path / "duplex", CARDS["long"])
    assert entry["back_offset"] == [-10.0, 10.0]


# -- proof ---------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def proof_kits(cli, tmp_path_factory):
    """duplex_game (cards file) and mini_game (cards and print-shop files), plain and --proof."""
    out = {}
    for game, game_id in (("duplex_game", "duplex"), ("mini_game", "mini")):
        for proof in (False, True):
            folder = tmp_path_factory.mktemp(f"{game_id}-{'proof' if proof else 'plain'}")
            build(cli, folder, DATA / game, "--paper", "a4", "--lang", "en", *(("--proof",) if proof else ()))
            out[game_id, proof] = folder / game_id
    return out


def test_proof_files_are_named_proof(proof_kits, cli, tmp_path):
    assert sorted(p.name for p in proof_kits["mini", True].glob("*.pdf")) == [
        "mini-en-a4-cards-proof.pdf", "mini-en-printshop-63x88mm-proof.pdf"]
    assert sorted(p.name for p in proof_kits["mini", False].glob("*.pdf")) == [
        "mini-en-a4-cards.pdf", "mini-en-printshop-63x88mm.pdf"]
    doc = json.loads((proof_kits["mini", True] / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(e["file"] for e in doc["files"]) == ["mini-en-a4-cards-proof.pdf", "mini-en-printshop-63x88mm-proof.pdf"]
    # with the other options that name files
    build(cli, tmp_path, DATA / "mini_game", "--paper", "letter", "--lang", "en", "--proof", "--ink-saver",
          "--layout", "gutterfold")
    assert sorted(p.name for p in (tmp_path / "mini").glob("*.pdf")) == [
        "mini-en-letter-cards-gutterfold-ink-saver-proof.pdf", "mini-en-printshop-63x88mm-ink-saver-proof.pdf"]


def near_lines(items: list[dict], shape, bleed: float, safe: float, band: float = 0.5) -> np.ndarray:
    """Pixels within ``band`` mm of the trim, bleed or safe-zone outline of any item."""
    mask = np.zeros(shape, dtype=bool)
    b = px(band) + 1
    for i in items:
        for d in (0.0, -bleed, safe):  # trim, bleed box, safe zone
            x0, y0 = px(i["x"] - d), px(i["y"] - d)
            x1, y1 = px(i["x"] + i["w"] + d), px(i["y"] + i["h"] + d)
            for xs, ys in (((x0, x1), (y0, y0)), ((x0, x1), (y1, y1)), ((x0, x0), (y0, y1)), ((x1, x1), (y0, y1))):
                mask[max(ys[0] - b, 0):ys[1] + b + 1, max(xs[0] - b, 0):xs[1] + b + 1] = True
    return mask


def outline_seen(diff: np.ndarray, i: dict, d: float) -> float:
    """Share of the pixels along an item's rectangle grown by ``d`` mm (negative: shrunk)
    where the proof changed something (±1 px across the line)."""
    x0, y0 = px(i["x"] - d), px(i["y"] - d)
    x1, y1 = px(i["x"] + i["w"] + d), px(i["y"] + i["h"] + d)
    hits = []
    for y in (y0, y1):
        hits.append(diff[y - 1:y + 2, x0 + 4:x1 - 4].max(axis=0))
    for x in (x0, x1):
        hits.append(diff[y0 + 4:y1 - 4, x - 1:x + 2].max(axis=1))
    return float(np.concatenate(hits).mean())


@pytest.mark.parametrize("game_id, name, index, bleed, safe", [
    ("duplex", "duplex-en-a4-cards{}.pdf", 0, 3.0, 3.0),
    ("duplex", "duplex-en-a4-cards{}.pdf", 1, 3.0, 3.0),
    ("mini", "mini-en-a4-cards{}.pdf", 0, 3.0, 3.0),
    ("mini", "mini-en-printshop-63x88mm{}.pdf", 0, 3.0, 3.0),
], ids=["duplex-front", "duplex-back", "mini-front", "mini-printshop"])
def test_proof_draws_lines_only_at_trim_bleed_and_safe(proof_kits, game_id, name, index, bleed, safe):
    plain_path = proof_kits[game_id, False] / name.format("")
    proof_path = proof_kits[game_id, True] / name.format("-proof")
    plain, proof = render(plain_path, index, "RGB"), render(proof_path, index, "RGB")
    assert plain.shape == proof.shape
    diff = np.abs(plain - proof).max(axis=2) > 8
    entry = entry_of(proof_kits[game_id, True], proof_path.name)
    items = entry["pages"][index]["items"]
    if entry["kind"] == "printshop":
        assert (items[0]["x"], items[0]["y"]) == (bleed, bleed)
    assert diff.sum() > 200, "the proof draws something"
    allowed = near_lines(items, diff.shape, bleed, safe)
    stray = np.argwhere(diff & ~allowed)
    assert len(stray) == 0, f"{len(stray)} changed pixels away from the lines, e.g. (y, x) {stray[:5].tolist()}"
    for i in items:
        assert outline_seen(diff, i, 0.0) > 0.5, ("trim line", i)
        assert outline_seen(diff, i, -safe) > 0.3, ("safe-zone line", i)
