"""Image exports: `cardgen export --png` (one PNG per card face, with bleed), `--tts`
(Tabletop Simulator deck sheets) and `cardgen preview` (a contact sheet of every
distinct face).

Counts are derived from the game model, not hard-coded alone: Hâpy has 36 two-sided God
cards and 6 one-sided sticker designs (6 copies each, 36 stickers in all).
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from kitchecks import HAPY_EN_A4
from PIL import Image

from cardgen.export import TTS_CARD_PX, face_images
from cardgen.load.game import load_game
from cardgen.output.cmyk import OutputProfile

DATA = Path(__file__).resolve().parents[1] / "data"
PNG_DPI = 150
GS = shutil.which("gs")


# their module-scoped builds must not see the user's saved settings (see conftest)
pytestmark = pytest.mark.usefixtures("isolated_settings")


@pytest.fixture(scope="module")
def hapy():
    return load_game("hapy")


def export(cli, out: Path, game, *args: object):
    result = cli("export", game, *args, "--out", out)
    assert result.exit_code == 0, result.output
    return result


# -- PNG per face -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def png_export(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("png")
    result = export(cli, out, "hapy", "--png", "--dpi", PNG_DPI, "--lang", "en")
    return out / "hapy" / "png" / "en", result


def expected_png_names(game) -> list[str]:
    names = []
    for comp in game.decks:
        for i, card in enumerate(comp.cards, start=1):
            names.append(f"hapy-en-{comp.id}-{i:03d}-{card.id}-a-front.png")
            if comp.back:
                names.append(f"hapy-en-{comp.id}-{i:03d}-{card.id}-b-back.png")
    return names


def test_png_one_file_per_face(png_export, hapy):
    folder, result = png_export
    names = sorted(p.name for p in folder.glob("*.png"))
    assert {p.name for p in folder.iterdir()} - set(names) == {"quantities.csv"}  # the copies of each
    expected = expected_png_names(hapy)
    # 36 God fronts + 36 Mummy backs + one front per sticker design (6; the 36 stickers are
    # 6 copies of each, and a copy is the same face)
    assert len(expected) == sum(len(c.cards) * (2 if c.back else 1) for c in hapy.decks) == 36 + 36 + 6
    assert names == sorted(expected)
    assert f"Exported {len(expected) + 1} files into" in result.stdout
    assert not list(folder.parent.parent.glob("**/.*")), "no temporary files left behind"


def test_png_names_pair_front_and_back(png_export, hapy):
    folder, _ = png_export
    names = sorted(p.name for p in folder.glob("*.png"))
    two_sided = {c.id for c in hapy.decks if c.back}
    pattern = re.compile(r"hapy-en-(?P<comp>[a-z]+)-(?P<n>\d{3})-(?P<card>[a-z0-9-]+?)-(?P<tag>a-front|b-back)\.png")
    for k, name in enumerate(names):
        m = pattern.fullmatch(name)
        assert m, name
        if m["tag"] == "a-front" and m["comp"] in two_sided:
            assert names[k + 1] == name.replace("-a-front.png", "-b-back.png"), (name, names[k + 1])
        if m["tag"] == "b-back":
            assert names[k - 1] == name.replace("-b-back.png", "-a-front.png")
    # numbered in the deck's order, so sorting keeps the deck order
    gods = [pattern.fullmatch(n)["card"] for n in names if "-gods-" in n and n.endswith("-a-front.png")]
    assert gods == [c.id for c in hapy.decks[0].cards]


def test_png_pixel_size_and_stored_dpi(png_export, hapy):
    folder, _ = png_export
    sizes = {c.id: (c.size[0] + 2 * c.bleed, c.size[1] + 2 * c.bleed) for c in hapy.decks}
    for path in sorted(folder.glob("*.png")):
        comp = path.name.split("-")[2]
        w_mm, h_mm = sizes[comp]
        with Image.open(path) as im:
            assert im.format == "PNG"
            assert abs(im.width - w_mm / 25.4 * PNG_DPI) <= 1, (path.name, im.size)
            assert abs(im.height - h_mm / 25.4 * PNG_DPI) <= 1, (path.name, im.size)
            dpi = im.info.get("dpi")
            assert dpi is not None, path.name
            assert dpi == pytest.approx((PNG_DPI, PNG_DPI), abs=0.05), (path.name, dpi)


@pytest.fixture(scope="module")
def printshop(shared_kit) -> Path:
    return shared_kit(*HAPY_EN_A4).folder / "hapy-en-printshop-63x88mm.pdf"


def _shop_page_inks(printshop: Path, page: int, tmp: Path) -> np.ndarray:
    """A print-shop page (CMYK, PDF/X-4) as Ghostscript prints it: the inks per pixel."""
    target = tmp / f"page-{page}.tif"
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{PNG_DPI}",
                    "-dGraphicsAlphaBits=4", "-dTextAlphaBits=4", f"-dFirstPage={page + 1}", f"-dLastPage={page + 1}",
                    f"-sOutputFile={target}", str(printshop)], check=True, capture_output=True)
    with Image.open(target) as picture:
        return np.asarray(picture, dtype=np.int16)


def _blocks(pixels: np.ndarray) -> np.ndarray:
    """The mean of each 4 × 4 block (the renderers' edges and pixel grids differ a little)."""
    h, w, n = pixels.shape
    return pixels.reshape(h // 4, 4, w // 4, 4, n).mean(axis=(1, 3))


@pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed")
@pytest.mark.parametrize("card, side", [(1, "front"), (1, "back"), (20, "front"), (36, "back")])
def test_png_matches_the_printshop_page(png_export, printshop, hapy, card, side, tmp_path):
    """The PNG and the print-shop PDF page of the same face are the same picture: the PNG
    taken through the output profile to inks, as the print-shop file's colours are, and
    the page as Ghostscript prints it (the file is CMYK, PDF/X-4)."""
    folder, _ = png_export
    gods = hapy.decks[0]
    card_id = gods.cards[card - 1].id
    tag = "a-front" if side == "front" else "b-back"
    profile = OutputProfile.load()
    with Image.open(folder / f"hapy-en-gods-{card:03d}-{card_id}-{tag}.png") as picture:
        png = np.asarray(profile.image(picture.convert("RGB")), dtype=np.int16)
    page = 2 * (card - 1) + (0 if side == "front" else 1)  # front, back, front, back … one copy each
    pdf_img = _shop_page_inks(printshop, page, tmp_path)
    assert abs(png.shape[0] - pdf_img.shape[0]) <= 1 and abs(png.shape[1] - pdf_img.shape[1]) <= 1  # renderers round
    h, w = min(png.shape[0], pdf_img.shape[0]) // 4 * 4, min(png.shape[1], pdf_img.shape[1]) // 4 * 4
    png, pdf_img = _blocks(png[:h, :w]), _blocks(pdf_img[:h, :w])  # two renderers: compare 4 × 4 pixel blocks
    diff = np.abs(png - pdf_img).max(axis=2)
    # pdfium (the PNG) and Ghostscript (the page) smooth thin lines and glyph edges apart
    assert diff.mean() < 5.0 and (diff <= 24).mean() > 0.9, (diff.mean(), (diff <= 24).mean())
    # and the comparison has teeth: the same face of a card of another family does differ
    other = 2 * ((card - 1 + 6) % 36) + (0 if side == "front" else 1)
    other_img = _blocks(_shop_page_inks(printshop, other, tmp_path)[:h, :w])
    if side == "front":
        assert np.abs(png - other_img).max(axis=2).mean() > diff.mean() + 2


@pytest.mark.parametrize("dpi", [10, 71, 1201])
def test_png_dpi_out_of_range_is_a_usage_error(cli, tmp_path, dpi):
    """A bad option value, like a bad --paper: exit status 2, the option and its range named."""
    result = cli("export", "hapy", "--png", "--dpi", dpi, "--lang", "en", "--out", tmp_path)
    assert result.exit_code == 2, result.output
    assert f"Error: Invalid value for '--dpi': {dpi} is not in the range 72<=x<=1200." in result.stderr
    assert not list(tmp_path.glob("**/*.png")), "nothing is written"


def test_export_needs_png_or_tts(cli, tmp_path):
    result = cli("export", "hapy", "--out", tmp_path)
    assert result.exit_code == 2, result.output
    assert "Usage:" in result.stderr and "--png" in result.stderr and "--tts" in result.stderr
    assert "Traceback" not in result.output
    assert not any(tmp_path.iterdir())


def test_export_unknown_language_is_a_usage_error(cli, tmp_path):
    r = cli("export", "hapy", "--png", "--lang", "xx", "--out", tmp_path)
    assert r.exit_code == 2 and "Error: Invalid value for '--lang': hapy has no language xx" in r.stderr
    assert not any(tmp_path.iterdir())


# -- Tabletop Simulator ------------------------------------------------------------------------------------------

LINE = re.compile(r"^(?P<file>\S+-faces-\d+\.png): (?P<n>\d+) cards, width (?P<cols>\d+), height (?P<rows>\d+); "
                  r"back: (?P<back>.+)$", re.M)


def tts_export(cli, tmp_path_factory, game, game_id: str) -> Path:
    out = tmp_path_factory.mktemp(f"tts-{game_id}")
    export(cli, out, game, "--tts", "--lang", "en")
    return out / game_id / "tts" / "en"


@pytest.fixture(scope="module")
def tts_hapy(cli, tmp_path_factory):
    return tts_export(cli, tmp_path_factory, "hapy", "hapy")


@pytest.fixture(scope="module")
def tts_many(cli, tmp_path_factory):
    """150 two-sided 25 × 25 mm chits sharing one back."""
    return tts_export(cli, tmp_path_factory, DATA / "home_tts_game", "hometts")


@pytest.fixture(scope="module")
def tts_unique(cli, tmp_path_factory):
    """3 cards whose backs all differ."""
    return tts_export(cli, tmp_path_factory, DATA / "home_tts_unique", "homettsu")


def sheets(folder: Path) -> list[dict]:
    note = (folder / "TTS-IMPORT.txt").read_text(encoding="utf-8")
    found = [m.groupdict() for m in LINE.finditer(note)]
    for f in found:
        f["n"], f["cols"], f["rows"] = int(f["n"]), int(f["cols"]), int(f["rows"])
    return found


def card_px(sheet: Image.Image, s: dict) -> tuple[int, int]:
    assert sheet.width % s["cols"] == 0 and sheet.height % s["rows"] == 0, (sheet.size, s)
    return sheet.width // s["cols"], sheet.height // s["rows"]


def slot(sheet: np.ndarray, i: int, cols: int, cw: int, ch: int) -> np.ndarray:
    r, c = divmod(i, cols)
    return sheet[r * ch:(r + 1) * ch, c * cw:(c + 1) * cw]


def check_grid(folder: Path, game) -> list[dict]:
    """What every TTS export must satisfy; returns the sheets listed in the note."""
    listed = sheets(folder)
    assert listed, "TTS-IMPORT.txt lists the sheets"
    assert {s["file"] for s in listed} == {p.name for p in folder.glob("*-faces-*.png")
                                           if not p.name.endswith("-backs.png")}
    for comp in game.decks:
        mine = [s for s in listed if s["file"].startswith(f"{game.id}-en-{comp.id}-faces-")]
        assert [s["file"] for s in mine] == [f"{game.id}-en-{comp.id}-faces-{k}.png" for k in range(1, len(mine) + 1)]
        assert sum(s["n"] for s in mine) == comp.count, comp.id  # every copy is a card in TTS
        assert len(mine) == math.ceil(comp.count / 69)
    for s in listed:
        assert 2 <= s["cols"] <= 10 and 2 <= s["rows"] <= 7, s
        assert 1 <= s["n"] <= 69 and s["n"] <= s["cols"] * s["rows"] - 1, "at least one free (hidden) slot"
        with Image.open(folder / s["file"]) as im:
            cw, ch = card_px(im, s)
            assert abs(cw - TTS_CARD_PX) <= 1, (s["file"], cw)
    return listed


def test_tts_hapy_files_and_note(tts_hapy, hapy):
    assert sorted(p.name for p in tts_hapy.iterdir()) == [
        "TTS-IMPORT.txt", "hapy-en-gods-back.png", "hapy-en-gods-faces-1.png", "hapy-en-stickers-faces-1.png"]
    listed = {s["file"]: s for s in check_grid(tts_hapy, hapy)}
    assert listed["hapy-en-gods-faces-1.png"]["n"] == 36
    assert listed["hapy-en-gods-faces-1.png"]["back"] == "hapy-en-gods-back.png"
    assert listed["hapy-en-stickers-faces-1.png"]["n"] == 36
    assert "one-sided" in listed["hapy-en-stickers-faces-1.png"]["back"]
    note = (tts_hapy / "TTS-IMPORT.txt").read_text(encoding="utf-8")
    assert "Hâpy Families" in note


def test_tts_hapy_sheet_size_back_and_hidden_slot(tts_hapy, hapy):
    (s,) = [s for s in sheets(tts_hapy) if "gods" in s["file"]]
    sheet = Image.open(tts_hapy / s["file"]).convert("RGB")
    back = Image.open(tts_hapy / "hapy-en-gods-back.png").convert("RGB")
    cw, ch = back.size
    gods = hapy.decks[0]
    assert abs(ch - cw * gods.size[1] / gods.size[0]) <= 2, back.size  # the card's proportions, trimmed
    assert sheet.size == (s["cols"] * cw, s["rows"] * ch)
    a, b = np.asarray(sheet, dtype=np.int16), np.asarray(back, dtype=np.int16)
    last = s["cols"] * s["rows"] - 1
    assert np.array_equal(slot(a, last, s["cols"], cw, ch), b), "the hidden-card slot holds the back"
    for i in range(s["n"]):
        assert slot(a, i, s["cols"], cw, ch).mean() < 240, f"slot {i} holds a card"
    for i in range(s["n"], last):
        assert slot(a, i, s["cols"], cw, ch).min() == 255, f"slot {i} is free"
    # the first card is jackal-1's front: dark frame (obsidian family colour), not the back
    first = slot(a, 0, s["cols"], cw, ch)
    assert np.abs(first - b).mean() > 20


@pytest.mark.parametrize("deck", [
    "gods",
    "stickers",
])
def test_tts_sheets_stay_within_4096_px(tts_hapy, deck):
    (s,) = [s for s in sheets(tts_hapy) if f"-{deck}-" in s["file"]]
    with Image.open(tts_hapy / s["file"]) as im:
        cw, _ = card_px(im, s)
        assert cw == TTS_CARD_PX, (s["file"], cw)
        assert im.width <= 4096 and im.height <= 4096, im.size


def bits_value(card: np.ndarray, w_mm: float) -> int:
    """Read back the number a home_tts card shows (8 squares; black = 1)."""
    scale = card.shape[1] / w_mm
    value = 0
    for i in range(8):
        x = 2.25 + (i % 4) * 5.5 + 2
        y = 6 + (i // 4) * 8 + 2
        if card[int(y * scale), int(x * scale)].max() < 100:
            value |= 1 << i
    return value


def test_tts_150_cards_split_into_sheets_of_69(tts_many):
    game = load_game(DATA / "home_tts_game")
    listed = check_grid(tts_many, game)
    assert [s["n"] for s in listed] == [69, 69, 12]
    assert sorted(p.name for p in tts_many.iterdir()) == [
        "TTS-IMPORT.txt", "hometts-en-chits-back.png",
        "hometts-en-chits-faces-1.png", "hometts-en-chits-faces-2.png", "hometts-en-chits-faces-3.png"]
    back = np.asarray(Image.open(tts_many / "hometts-en-chits-back.png").convert("RGB"), dtype=np.int16)
    ch, cw = back.shape[:2]
    seen = []
    for _k, s in enumerate(listed):
        assert s["back"] == "hometts-en-chits-back.png"
        sheet = np.asarray(Image.open(tts_many / s["file"]).convert("RGB"), dtype=np.int16)
        assert sheet.shape[:2] == (s["rows"] * ch, s["cols"] * cw), (s, sheet.shape)
        for i in range(s["n"]):
            seen.append(bits_value(slot(sheet, i, s["cols"], cw, ch), 25.0))
        last = s["cols"] * s["rows"] - 1
        assert np.array_equal(slot(sheet, last, s["cols"], cw, ch), back), "hidden slot: the back"
        for i in range(s["n"], last):
            assert slot(sheet, i, s["cols"], cw, ch).min() == 255, (s["file"], i)
    assert seen == list(range(1, 151)), "every card once, in deck order"


def test_tts_unique_backs_make_a_back_sheet(tts_unique):
    (s,) = sheets(tts_unique)
    assert s["file"] == "homettsu-en-unique-faces-1.png" and s["n"] == 3
    assert s["back"] == "homettsu-en-unique-faces-1-backs.png (unique backs)"
    faces = np.asarray(Image.open(tts_unique / s["file"]).convert("RGB"), dtype=np.int16)
    backs = np.asarray(Image.open(tts_unique / "homettsu-en-unique-faces-1-backs.png").convert("RGB"), dtype=np.int16)
    assert faces.shape == backs.shape
    cw, ch = faces.shape[1] // s["cols"], faces.shape[0] // s["rows"]
    assert [bits_value(slot(faces, i, s["cols"], cw, ch), 25.0) for i in range(3)] == [1, 2, 3]
    assert [bits_value(slot(backs, i, s["cols"], cw, ch), 25.0) for i in range(3)] == [101, 102, 103]


# -- preview ----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def preview_png(cli, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("preview") / "tmp" / "p.png"
    result = cli("preview", "hapy", "--out", out)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"Wrote {out}"
    return out


def find_exact(haystack: np.ndarray, needle: np.ndarray) -> list[tuple[int, int]]:
    """Every (x, y) where ``needle`` appears pixel for pixel in ``haystack`` (uint8 RGB)."""
    h, w = needle.shape[:2]
    top = needle[0].tobytes()
    hits = []
    for y in range(haystack.shape[0] - h + 1):
        row = haystack[y].tobytes()
        k = row.find(top)
        while k != -1:
            if k % 3 == 0 and k // 3 + w <= haystack.shape[1]:
                x = k // 3
                if np.array_equal(haystack[y:y + h, x:x + w], needle):
                    hits.append((x, y))
            k = row.find(top, k + 1)
    return hits


def test_preview_shows_every_distinct_face_once(preview_png, hapy):
    # the distinct faces, counted by rendering every face (trimmed, at the preview's 60 dpi)
    every = face_images(hapy, "en", 60, trim_only=True)
    assert len(every) == 78
    distinct: dict[bytes, Image.Image] = {}
    for f in every:
        distinct.setdefault(f.image.tobytes() + repr(f.image.size).encode(), f.image)
    assert len(distinct) == 43 == 36 + 1 + 6  # God fronts, the one Mummy back, sticker designs
    sheet = np.asarray(Image.open(preview_png).convert("RGB"))
    assert preview_png.suffix == ".png" and Image.open(preview_png).format == "PNG"
    # its size is plausible for 43 faces: it holds them all, and it is not mostly empty
    face_area = sum(im.width * im.height for im in distinct.values())
    assert sheet.shape[0] * sheet.shape[1] >= face_area
    assert face_area / (sheet.shape[0] * sheet.shape[1]) > 0.3, sheet.shape
    placed = []
    for im in distinct.values():
        hits = find_exact(sheet, np.asarray(im.convert("RGB")))
        assert len(hits) == 1, (im.size, hits)
        placed.append((*hits[0], im.width, im.height))
    for i, a in enumerate(placed):  # no two faces overlap
        for b in placed[i + 1:]:
            assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


def test_preview_unknown_language_is_a_usage_error(cli, tmp_path):
    out = tmp_path / "p.png"
    r = cli("preview", "hapy", "--lang", "xx", "--out", out)
    assert r.exit_code == 2 and "Error: Invalid value for '--lang': hapy has no language xx" in r.stderr
    assert not out.exists()
