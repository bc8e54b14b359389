"""game.yaml's ``print:`` section: a game's own output profile, ink limit and default
shop for its print-shop files, under the command line's --profile, --ink-limit and
--shop, and refused at its line when the file is not one the game may name."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pikepdf
import pytest
from conftest import assert_user_error, edit_file
from kitchecks import build
from PIL import ImageCms

from cardgen.base.paths import shipped_profiles_dir

FIRST_GAME = Path(__file__).parents[1].parent / "docs" / "examples" / "first-game"
SHIPPED_ICC = shipped_profiles_dir() / "ISOcoated_v2_300_bas.icc"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """An editable copy of the first-game example, with a CMYK output profile of its own
    (the shipped one with another manufacturer in its header: other bytes, same inks)."""
    folder = tmp_path / "night-sky"
    shutil.copytree(FIRST_GAME, folder)
    data = bytearray(SHIPPED_ICC.read_bytes())
    data[48:52] = b"TEST"  # the device manufacturer field of the ICC header
    (folder / "press.icc").write_bytes(bytes(data))
    return folder


def with_print(game: Path, section: str) -> None:
    edit_file(game / "game.yaml", "data:  ", f"print:\n{section}data:  ")


def shop_file(out: Path) -> Path:
    files = sorted((out / "night-sky").glob("night-sky-en-*.pdf"))
    shop = [f for f in files if "-a4-" not in f.name and "-letter-" not in f.name and f.name.endswith("63x88mm.pdf")]
    assert len(shop) == 1, [f.name for f in files]
    return shop[0]


def read_back(path: Path) -> tuple[bytes, float, float, list[str]]:
    """The embedded output profile, /CardgenInkLimit, the most ink of any colour op, and
    the PDF/X version of a print-shop file."""
    with pikepdf.open(path) as pdf:
        icc = pdf.Root.OutputIntents[0].DestOutputProfile.read_bytes()
        limit = float(pdf.trailer.Info.CardgenInkLimit)
        version = str(pdf.trailer.Info.GTS_PDFXVersion)
        worst = 0.0
        for page in pdf.pages:
            for op in pikepdf.parse_content_stream(page):
                if not isinstance(op, pikepdf.ContentStreamInlineImage) and str(op.operator) in ("k", "K"):
                    worst = max(worst, sum(float(v) for v in op.operands))
            for xobject in (page.Resources.get("/XObject") or {}).values():
                if xobject.get("/Subtype") == "/Form":
                    for op in pikepdf.parse_content_stream(xobject):
                        if not isinstance(op, pikepdf.ContentStreamInlineImage) and str(op.operator) in ("k", "K"):
                            worst = max(worst, sum(float(v) for v in op.operands))
    return icc, limit, worst, version


def build_en(game: Path, out: Path, *options: str):
    return build(out, str(game), "--lang", "en", "--paper", "a4", *options)


def test_the_games_profile_and_ink_limit_make_its_print_shop_file(game, tmp_path):
    with_print(game, "  profile: press.icc\n  ink_limit: 250\n")
    build_en(game, tmp_path / "out")
    icc, limit, worst, _ = read_back(shop_file(tmp_path / "out"))
    assert icc == (game / "press.icc").read_bytes() != SHIPPED_ICC.read_bytes()
    assert limit == 250
    assert 2.3 < worst <= 2.5 + 1e-3  # the night-blue flood, held to 250 %


def test_the_command_line_wins_over_the_games_print_settings(game, tmp_path):
    with_print(game, "  profile: press.icc\n  ink_limit: 250\n")
    build_en(game, tmp_path / "out", "--profile", str(SHIPPED_ICC), "--ink-limit", "280")
    icc, limit, worst, _ = read_back(shop_file(tmp_path / "out"))
    assert icc == SHIPPED_ICC.read_bytes()
    assert limit == 280 and worst <= 2.8 + 1e-3


def test_the_games_shop_applies_and_the_command_lines_shop_wins(game, tmp_path):
    with_print(game, "  shop: drivethrucards\n")
    build_en(game, tmp_path / "dtc")
    dtc = sorted((tmp_path / "dtc" / "night-sky").glob("*-drivethrucards-*.pdf"))
    assert len(dtc) == 1
    _, limit, worst, version = read_back(dtc[0])
    assert (limit, version) == (240, "PDF/X-1:2001") and worst <= 2.4 + 1e-3
    build_en(game, tmp_path / "x4", "--shop", "pdfx4")
    assert not list((tmp_path / "x4" / "night-sky").glob("*-drivethrucards-*.pdf"))
    _, limit, _, version = read_back(shop_file(tmp_path / "x4"))
    assert (limit, version) == (300, "PDF/X-4")


def test_a_command_line_shop_that_names_its_icc_keeps_it_over_the_games_profile(game, tmp_path):
    """MB Print asks for FOGRA39: ``--shop mbprint`` embeds the shipped FOGRA39 profile
    its profile names, not the game's own; a shop that leaves ``icc`` unset does not."""
    with_print(game, "  profile: press.icc\n")
    build_en(game, tmp_path / "mb", "--shop", "mbprint")
    mb = sorted((tmp_path / "mb" / "night-sky").glob("*-mbprint-*.pdf"))
    assert len(mb) == 1
    icc, *_ = read_back(mb[0])
    assert icc == SHIPPED_ICC.read_bytes()
    build_en(game, tmp_path / "x4", "--shop", "pdfx4")
    icc, *_ = read_back(shop_file(tmp_path / "x4"))
    assert icc == (game / "press.icc").read_bytes()


def test_the_games_ink_limit_wins_over_its_own_shops(game, tmp_path):
    with_print(game, "  shop: drivethrucards\n  ink_limit: 200\n")
    build_en(game, tmp_path / "out")
    dtc = next((tmp_path / "out" / "night-sky").glob("*-drivethrucards-*.pdf"))
    _, limit, worst, _ = read_back(dtc)
    assert limit == 200 and worst <= 2.0 + 1e-3


def refused(cli, game: Path, tmp_path: Path, key: str) -> str:
    r = cli("build", game, "--lang", "en", "--paper", "a4", "--out", tmp_path / "out")
    lines = assert_user_error(r)
    assert len(lines) == 1, lines
    line_no = next(i for i, text in enumerate((game / "game.yaml").read_text().splitlines(), 1)
                   if text.strip().startswith(f"{key}:"))
    assert f"game.yaml:{line_no}:" in lines[0] and key in lines[0], lines[0]
    assert not (tmp_path / "out").exists()
    return lines[0]


@pytest.mark.parametrize("name", ["../outside.icc", "ABSOLUTE", "link.icc"])
def test_a_profile_outside_the_game_folder_is_refused_at_its_line(game, tmp_path, cli, name):
    outside = tmp_path / "outside.icc"
    shutil.copyfile(SHIPPED_ICC, outside)
    if name == "ABSOLUTE":
        name = str(outside)
    if name == "link.icc":
        os.symlink(outside, game / "link.icc")
    with_print(game, f"  profile: '{name}'\n")
    line = refused(cli, game, tmp_path, "profile")
    assert "outside" in line or "inside the game folder" in line


def test_a_profile_that_is_no_cmyk_output_profile_is_refused_at_its_line(game, tmp_path, cli):
    (game / "screen.icc").write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with_print(game, "  profile: screen.icc\n")
    assert "needs a CMYK output (prtr) profile" in refused(cli, game, tmp_path, "profile")
    edit_file(game / "game.yaml", "screen.icc", "junk.icc")
    (game / "junk.icc").write_bytes(b"not a colour profile at all" * 10)
    assert "not an ICC profile" in refused(cli, game, tmp_path, "profile")
    edit_file(game / "game.yaml", "junk.icc", "missing.icc")
    refused(cli, game, tmp_path, "profile")


def test_a_huge_profile_is_refused_unread(game, tmp_path, cli):
    with (game / "huge.icc").open("wb") as f:
        f.truncate(17 << 20)
    with_print(game, "  profile: huge.icc\n")
    assert "MiB" in refused(cli, game, tmp_path, "profile")


def test_an_unknown_shop_or_ink_limit_is_refused_at_its_line(game, tmp_path, cli):
    with_print(game, "  shop: nowhere\n")
    line = refused(cli, game, tmp_path, "shop")
    assert "nowhere" in line and "drivethrucards" in line and "pdfx4" in line
    edit_file(game / "game.yaml", "  shop: nowhere\n", "  ink_limit: 90\n")
    refused(cli, game, tmp_path, "ink_limit")


def test_a_game_without_print_settings_builds_as_before(game, tmp_path):
    """The pages of a game with print: settings look like those without (only the
    print-shop file's colours change), and without them the shipped defaults hold."""
    build_en(game, tmp_path / "plain")
    icc, limit, _, version = read_back(shop_file(tmp_path / "plain"))
    assert icc == SHIPPED_ICC.read_bytes() and limit == 300 and version == "PDF/X-4"
    with_print(game, "  profile: press.icc\n  ink_limit: 250\n")
    build_en(game, tmp_path / "own")
    for home in sorted((tmp_path / "plain" / "night-sky").glob("*-a4-*.pdf")):
        assert home.read_bytes() == (tmp_path / "own" / "night-sky" / home.name).read_bytes(), home.name


def test_the_python_api_follows_the_games_profile_and_ink_limit(game, tmp_path):
    """``cardgen.build`` with options that name neither takes the game's, as the command
    line does; options that name them win."""
    import cardgen

    with_print(game, "  profile: press.icc\n  ink_limit: 250\n")
    model = cardgen.load_game(str(game))
    cardgen.build(model, cardgen.BuildOptions(langs=("en",), papers=("a4",), out_dir=tmp_path / "api", jobs=1))
    icc, limit, _, _ = read_back(shop_file(tmp_path / "api"))
    assert icc == (game / "press.icc").read_bytes() and limit == 250
    cardgen.build(model, cardgen.BuildOptions(langs=("en",), papers=("a4",), out_dir=tmp_path / "own", jobs=1,
                                              profile=SHIPPED_ICC, ink_limit=280))
    icc, limit, _, _ = read_back(shop_file(tmp_path / "own"))
    assert icc == SHIPPED_ICC.read_bytes() and limit == 280
