"""Print-shop profiles (``cardgen build GAME --shop NAME``, ``cardgen shops``) and cut
lines by choice (``--cut-lines``), read back from the files a build writes: the page
order, page size and boxes, the CutContour die lines (a circle for a round piece), crop
marks, an image shop's images and quantities; a user's own profile, and broken ones."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pikepdf
import pytest
from conftest import assert_user_error, edit_file

FIRST_GAME = Path(__file__).parents[2] / "docs" / "examples" / "first-game"
SHAPES = Path(__file__).parents[2] / "docs" / "examples" / "shapes"
SHIPPED = ("pdfx4", "pdfx1a", "drivethrucards", "mbprint", "gameprototyper")
MM = 72 / 25.4
FIRST_GAME_PIECES = 20  # 18 suit cards and 2 comets, each with a back
FIRST_GAME_CARDS = 19


@pytest.fixture
def settings(tmp_path, monkeypatch) -> Path:
    """An empty settings folder of the user's own (its ``shops/`` folder made), and a
    current folder without a project file."""
    folder = tmp_path / "settings"
    (folder / "shops").mkdir(parents=True)
    monkeypatch.setenv("CARDGEN_CONFIG", str(folder / "config"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return folder


def build(cli, tmp_path: Path, *args, game: Path = FIRST_GAME) -> Path:
    out = tmp_path / "out"
    r = cli("build", game, "--lang", "en", "--paper", "a4", "--out", out, "--no-cache", *args)
    assert r.exit_code == 0, r.output
    return out / "night-sky" if game != SHAPES else out / "shape-kit"


def shop_files(kit: Path) -> list[dict]:
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    return [f for f in manifest["files"] if f["kind"] == "printshop"]


def mm(box) -> list[float]:
    return [round(float(v) / MM, 3) for v in box]


def operators(page) -> list[tuple[str, list]]:
    return [(str(i.operator), list(i.operands)) for i in pikepdf.parse_content_stream(page)]


def spot_colours(page) -> set[str]:
    """The names of the Separation colour spaces a page's resources hold."""
    spaces = page.Resources.get("/ColorSpace", {})
    return {str(v[1]) for v in spaces.values() if isinstance(v, pikepdf.Array) and str(v[0]) == "/Separation"}


def cut_contour_paths(page) -> list[list[str]]:
    """The path operators of every path stroked in the CutContour colour on a page."""
    paths, current, cut = [], [], False
    for op, args in operators(page):
        if op == "CS":
            cut = str(args[0]) == "/CutContour"
        elif op == "Q":
            cut = False
        elif op in ("m", "l", "c", "re", "h"):
            current.append(op)
        elif op in ("S", "s", "f", "B", "n", "W", "W*"):
            if op in ("S", "s") and cut and current:
                paths.append(current)
            current = []
    return paths


# -- the profiles ------------------------------------------------------------------------


def test_cardgen_shops_lists_every_shipped_profile_with_what_it_sets(cli, settings):
    r = cli("shops")
    assert r.exit_code == 0, r.output
    for name in SHIPPED:
        assert any(line.startswith(f"{name}") and ": " in line for line in r.stdout.splitlines()), name
    assert "pdfx4 (the default):" in r.stdout
    assert "page order: back-first" in r.stdout and "ink limit: 240 %" in r.stdout and "bleed: 3.175 mm" in r.stdout
    assert "images: PNG, 300 ppi with bleed" in r.stdout


def test_every_shipped_profile_cites_the_requirements_it_follows():
    from cardgen.output.shops import SHIPPED_DIR

    names = sorted(p.stem for p in SHIPPED_DIR.glob("*.yaml"))
    assert names == sorted(SHIPPED)
    for name in names:
        comment = [line for line in (SHIPPED_DIR / f"{name}.yaml").read_text(encoding="utf-8").splitlines()
                   if line.startswith("#")]
        assert comment and any(w in " ".join(comment) for w in ("requirement", "ISO 15930", "asks")), name
        if name not in ("pdfx4", "pdfx1a"):  # a shop's profile names the public page it follows
            assert re.search(r"https://\S+", " ".join(comment)), name


@pytest.mark.parametrize(("name", "pdfx", "bleed", "order", "ink"), [
    ("pdfx4", "4", None, "alternating", None),
    ("pdfx1a", "1a", None, "alternating", None),
    ("drivethrucards", "1a", 3.175, "back-first", 240.0),
    ("mbprint", "1a", 3.0, "alternating", 300.0),
])
def test_a_shipped_profile_sets_the_build_options(name, pdfx, bleed, order, ink, cli, settings, tmp_path,
                                                  monkeypatch):
    """The profile's colour standard reaches BuildOptions.pdfx (the PDF/X writer's
    switch), its ink limit the print-shop files' limit."""
    import cardgen

    seen = []
    real = cardgen.build
    monkeypatch.setattr(cardgen, "build", lambda game, options, progress=None: (seen.append(options),
                                                                                 real(game, options, progress))[1])
    build(cli, tmp_path, "--shop", name)
    (options,) = seen
    assert (options.pdfx, options.shop.bleed, options.shop.page_order, options.ink_limit) == (pdfx, bleed, order, ink)


@pytest.mark.parametrize(("name", "bleed", "first_sides", "standard"), [
    ("pdfx4", 3.0, ["front", "back", "front", "back"], "PDF/X-4"),
    ("pdfx1a", 3.0, ["front", "back", "front", "back"], "PDF/X-1a:2003"),
    ("drivethrucards", 3.175, ["back", "front", "back", "front"], "PDF/X-1a:2003"),
    ("mbprint", 3.0, ["front", "back", "front", "back"], "PDF/X-1a:2003"),
])
def test_a_pdf_profile_s_print_shop_file_read_back(name, bleed, first_sides, standard, cli, settings, tmp_path):
    """Page order, page size = trim + 2 × bleed, TrimBox and BleedBox, no CutContour on
    a rectangular card, no crop marks, the PDF/X standard the shop asks for; and the kit
    check passes the file."""
    kit = build(cli, tmp_path, "--shop", name)
    (entry,) = shop_files(kit)
    sides = [p["side"] for p in entry["pages"]]
    assert sides[:4] == first_sides and len(sides) == 2 * FIRST_GAME_PIECES
    pdf = pikepdf.open(kit / entry["file"])
    info = pdf.docinfo
    claimed = str(info.get("/GTS_PDFXConformance") or info.get("/GTS_PDFXVersion"))
    assert claimed == standard, claimed
    assert len(pdf.pages) == 2 * FIRST_GAME_PIECES
    cards = [p["items"][0]["card"] for p in entry["pages"]]
    assert cards[0] == cards[1] == "sun-1"
    for page in pdf.pages:
        assert mm(page.MediaBox) == [0, 0, round(63 + 2 * bleed, 3), round(88 + 2 * bleed, 3)]
        assert mm(page.BleedBox) == mm(page.MediaBox)
        assert mm(page.TrimBox) == [bleed, bleed, round(63 + bleed, 3), round(88 + bleed, 3)]
        assert not cut_contour_paths(page)
        assert "/All" not in spot_colours(page), "crop marks in the registration colour"
    r = cli("validate", FIRST_GAME, "--kit", kit, "--lang", "en")
    assert r.exit_code == 0, r.output
    said = ", ".join(first_sides[:2]) + ", " + ", ".join(first_sides[2:])
    assert f"two-sided ones {said} …" in r.output, "the kit check's summary names the order it checked"


def test_the_pdfx4_profile_writes_what_a_build_without_shop_writes(cli, settings, tmp_path):
    plain = build(cli, tmp_path / "plain")
    shop = build(cli, tmp_path / "shop", "--shop", "pdfx4")
    (a,), (b,) = shop_files(plain), shop_files(shop)
    assert a["file"] == b["file"] and a["printshop"] == b["printshop"]
    assert (plain / a["file"]).read_bytes() == (shop / b["file"]).read_bytes()


def test_a_larger_bleed_renders_the_art_into_it_with_no_white_edge(cli, settings, tmp_path):
    """Templates draw their art to ``bleed``: a shop's bleed of 6 mm on a game of 3 mm
    gets the faces rendered again with 6, so the page's edge is ink, not paper."""
    import pypdfium2 as pdfium

    (settings / "shops" / "wide.yaml").write_text("description: wide bleed\nbleed: 6\n", encoding="utf-8")
    kit = build(cli, tmp_path, "--shop", "wide")
    (entry,) = shop_files(kit)
    pdf = pdfium.PdfDocument(str(kit / entry["file"]))
    back = pdf[1].render(scale=100 / 72).to_pil().convert("RGB")  # the night-blue back
    want = ((63 + 12) / 25.4 * 100, (88 + 12) / 25.4 * 100)
    assert all(abs(got - w) <= 1 for got, w in zip(back.size, want)), back.size
    px = back.load()
    edge = [px[x, y] for x in range(back.width) for y in (0, 1, back.height - 2, back.height - 1)]
    edge += [px[x, y] for y in range(back.height) for x in (0, 1, back.width - 2, back.width - 1)]
    assert max(max(p) for p in edge) < 120, "paper shows at the bleed's edge"
    pdf.close()


# -- cut lines -------------------------------------------------------------------------


def tokens_game(tmp_path: Path) -> Path:
    """The first game with a deck of round tokens (40 mm) beside its cards."""
    folder = tmp_path / "tokens-game"
    shutil.copytree(FIRST_GAME, folder)
    edit_file(folder / "game.yaml", "  - id: rules\n    kind: sheet", """  - id: tokens
    kind: deck
    name: component.cards
    shape: circle
    size: [40, 40]
    bleed: 3
    front: back.yaml.j2
    cards:
      - id: token
        quantity: 2
  - id: rules
    kind: sheet""")
    return folder


def test_cut_lines_on_give_cards_a_rectangle_and_round_pieces_a_circle(cli, settings, tmp_path):
    kit = build(cli, tmp_path, "--cut-lines", "on", game=tokens_game(tmp_path))
    files = {f["printshop"]["components"][0]: f for f in shop_files(kit)}
    cards = pikepdf.open(kit / files["cards"]["file"])
    for page in cards.pages:
        assert cut_contour_paths(page) == [["re"]]
    tokens = pikepdf.open(kit / files["tokens"]["file"])
    for page in tokens.pages:
        (path,) = cut_contour_paths(page)
        assert path == ["m", "c", "c", "c", "c"], "a circle: four Bézier quarters, no straight side"
        ops = operators(page)
        start = next(args for op, args in ops if op == "m")
        curves = [args for op, args in ops if op == "c"]
        centre, r = (23, 23), 20  # 3 mm bleed + the 20 mm radius, in the page's mm space
        for x, y in [tuple(map(float, start))] + [tuple(map(float, c[4:6])) for c in curves]:
            assert abs(((x - centre[0]) ** 2 + (y - centre[1]) ** 2) ** 0.5 - r) < 1e-3


def test_by_default_round_pieces_have_no_die_line_and_off_leaves_none(cli, settings, tmp_path):
    folder = tokens_game(tmp_path)
    kit = build(cli, tmp_path / "default", game=folder)
    for f in shop_files(kit):
        assert not any(cut_contour_paths(p) for p in pikepdf.open(kit / f["file"]).pages), f["file"]
    kit = build(cli, tmp_path / "off", "--cut-lines", "off", game=SHAPES)
    for f in shop_files(kit):
        assert not any(cut_contour_paths(p) for p in pikepdf.open(kit / f["file"]).pages), f["file"]


def test_shaped_cuts_every_piece_but_plain_rectangles(cli, settings, tmp_path):
    kit = build(cli, tmp_path, "--cut-lines", "shaped", game=tokens_game(tmp_path))
    files = {f["printshop"]["components"][0]: f for f in shop_files(kit)}
    assert not any(cut_contour_paths(p) for p in pikepdf.open(kit / files["cards"]["file"]).pages)
    assert all(cut_contour_paths(p) for p in pikepdf.open(kit / files["tokens"]["file"]).pages)


def test_drivethrucards_draws_no_die_line_on_rounded_corners(cli, settings, tmp_path):
    """The shapes example: its rounded quest cards get none, its hexes keep theirs."""
    kit = build(cli, tmp_path, "--shop", "drivethrucards", game=SHAPES)
    files = {f["printshop"]["components"][0]: f for f in shop_files(kit)}
    assert not any(cut_contour_paths(p) for p in pikepdf.open(kit / files["quests"]["file"]).pages)
    assert all(cut_contour_paths(p) for p in pikepdf.open(kit / files["terrain"]["file"]).pages)
    plain = build(cli, tmp_path / "plain", game=SHAPES)
    quests = next(f for f in shop_files(plain) if f["printshop"]["components"] == ["quests"])
    assert all(cut_contour_paths(p) for p in pikepdf.open(plain / quests["file"]).pages)


# -- a user's profile -------------------------------------------------------------------


def test_a_user_profile_is_found_and_used(cli, settings, tmp_path):
    (settings / "shops" / "myshop.yaml").write_text("""\
description: My local shop
bleed: 2
page_order: fronts-then-backs
crop_marks: true
file_name: "{game}-{size}-{lang}-myshop"
""", encoding="utf-8")
    assert "myshop: My local shop" in cli("shops").stdout
    kit = build(cli, tmp_path, "--shop", "myshop")
    (entry,) = shop_files(kit)
    assert entry["file"] == "night-sky-63x88mm-en-myshop.pdf"
    sides = [p["side"] for p in entry["pages"]]
    assert sides == ["front"] * FIRST_GAME_PIECES + ["back"] * FIRST_GAME_PIECES
    assert [p["items"][0]["card"] for p in entry["pages"][:FIRST_GAME_PIECES]] == \
        [p["items"][0]["card"] for p in entry["pages"][FIRST_GAME_PIECES:]]
    pdf = pikepdf.open(kit / entry["file"])
    margin = 6.0  # a mark 1 mm off the bleed, 5 mm long
    for page in pdf.pages[:2]:
        assert mm(page.BleedBox) == [margin, margin, 63 + 4 + margin, 88 + 4 + margin]
        assert mm(page.TrimBox) == [margin + 2, margin + 2, 63 + 2 + margin, 88 + 2 + margin]
        assert mm(page.MediaBox) == [0, 0, 63 + 4 + 2 * margin, 88 + 4 + 2 * margin]
        assert "/All" in spot_colours(page), "crop marks in the registration colour"
        marks = [args for op, args in operators(page) if op == "l"]
        assert len(marks) == 8, "two hairlines at each corner"
    r = cli("validate", FIRST_GAME, "--kit", kit, "--lang", "en")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(("text", "line", "says"), [
    ("description: x\nbleeding: 3\n", 2, "unknown key 'bleeding'"),
    ("description: x\npage_order: backwards\n", 2, "page_order: must be alternating or back-first or"),
    ("description: x\nbleed: -1\n", 2, "bleed: must be a number from 0 to 20"),
    ("description: x\ncolour: pdfx3\n", 2, "colour: must be pdfx4 or pdfx1a"),
    ("description: x\ncut_lines: {rect: on, oval: on}\n", 2, "unknown key 'oval' in cut_lines"),
    ("description: x\ncrop_marks: maybe\n", 2, "crop_marks: must be true or false"),
    ("description: x\nfile_name: \"{game}-{lang}\"\n", 2, "file_name: needs {size}"),
    ("description: x\nicc: nowhere.icc\n", 2, "icc: no file 'nowhere.icc'"),
    ("description: x\noutput: images\n", 2, "output: images needs an 'image' mapping"),
    ("description: x\noutput: images\nimage: {format: gif}\n", 3, "format: must be png or jpeg"),
    ("description: x\noutput: images\nimage: {format: png}\nfile_name: \"{game}-{size}\"\n", 4,
     "file_name: only for a profile with 'output: pdf'"),
    ("description: x\noutput: images\nink_limit: 240\nimage: {format: png}\n", 3,
     "ink_limit: only for a profile with 'output: pdf'"),
    ("bleed: 3\n", 1, "lacks the key 'description'"),
    ("description: [x\n", 2, "not valid YAML"),
])
def test_a_broken_profile_is_one_line_naming_file_line_and_key(text, line, says, cli, settings, tmp_path):
    path = settings / "shops" / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    r = cli("build", FIRST_GAME, "--lang", "en", "--paper", "a4", "--out", out, "--shop", "broken")
    (error,) = assert_user_error(r)
    assert error.startswith(f"{path}:{line}: ") or error.startswith(f"{Path('..') / path.name}:"), error
    assert f":{line}: " in error and says in error, error
    assert not out.exists(), "nothing written"
    assert assert_user_error(cli("shops"))[0] == error


def test_an_unknown_shop_is_a_usage_error_listing_the_profiles(cli, settings, tmp_path):
    r = cli("build", FIRST_GAME, "--out", tmp_path / "out", "--shop", "kinkos")
    assert r.exit_code == 2, r.output
    assert "unknown shop 'kinkos' (known: drivethrucards, gameprototyper, mbprint, pdfx1a, pdfx4)" in r.stderr
    assert not (tmp_path / "out").exists()


# -- an image shop -----------------------------------------------------------------------


def pixels(trim: float, bleed: float, dpi: int = 300) -> int:
    return round((trim + 2 * bleed) / 25.4 * dpi)


def read_quantities(path: Path) -> list[dict]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def test_the_image_shop_writes_a_png_per_face_and_copy_at_its_pixel_size(cli, settings, tmp_path):
    from PIL import Image

    kit = build(cli, tmp_path, "--shop", "gameprototyper")
    folder = kit / "gameprototyper" / "en"
    images = sorted(folder.glob("*.png"))
    assert len(images) == 2 * FIRST_GAME_PIECES  # every face of every copy
    assert {Image.open(p).size for p in images} == {(pixels(63, 3), pixels(88, 3))}
    rows = read_quantities(folder / "quantities.csv")
    assert sum(int(r["quantity"]) for r in rows) == FIRST_GAME_PIECES
    assert {r["front"] for r in rows} | {r["back"] for r in rows} == {p.name for p in images}
    comets = [r for r in rows if r["card"] == "comet"]
    assert len(comets) == 2 and comets[0]["front"] != comets[1]["front"]
    assert shop_files(kit), "the kit itself is built too"


def test_an_image_profile_with_counted_copies_jpeg_and_exact_sizes(cli, settings, tmp_path):
    from PIL import Image

    (settings / "shops" / "photo.yaml").write_text("""\
description: a shop that wants JPEGs of its own size
output: images
bleed: 2
image:
  format: jpeg
  dpi: 300
  copies: counted
  sizes: {"63x88": [800, 1100]}
""", encoding="utf-8")
    kit = build(cli, tmp_path, "--shop", "photo")
    folder = kit / "photo" / "en"
    images = sorted(folder.glob("*.jpg"))
    assert len(images) == 2 * FIRST_GAME_CARDS
    assert {Image.open(p).size for p in images} == {(800, 1100)}
    assert {Image.open(p).format for p in images} == {"JPEG"}
    rows = {r["card"]: r for r in read_quantities(folder / "quantities.csv")}
    assert rows["comet"]["quantity"] == "2" and rows["sun-1"]["quantity"] == "1"
    assert sum(int(r["quantity"]) for r in rows.values()) == FIRST_GAME_PIECES


def test_the_docs_example_profile_is_a_valid_profile(tmp_path):
    """The profile shown in docs/printing/shops-and-images.md reads as it says."""
    import re

    from cardgen.output.shops import read_profile

    page = (Path(__file__).parents[2] / "docs" / "printing" / "shops-and-images.md").read_text(encoding="utf-8")
    body = re.search(r'```text title="~/.config/cardgen/shops/myshop.yaml"\n(.*?)```', page, re.S).group(1)
    (tmp_path / "myshop.yaml").write_text(body, encoding="utf-8")
    shop = read_profile(tmp_path / "myshop.yaml")
    assert (shop.bleed, shop.page_order, shop.crop_marks, shop.pdfx) == (2.0, "fronts-then-backs", True, "4")
    assert shop.file_stem("g", "en", "63x88mm") == "g-en-myshop-63x88mm"
