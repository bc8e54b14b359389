"""Print-shop files as PDF/X-4, read back with pikepdf and rendered with Ghostscript.

The shipped Hâpy kit and the demo game (Lantern Reef: SVG art, PNG images, die-cut
shapes) are built and each print-shop file is read: the output intent with its CMYK
profile embedded, the PDF/X keys of the Info dictionary and the XMP packet, page boxes,
no RGB colour or image left anywhere, and the pages, rendered through the profile,
looking like the screen kit (ΔE2000 under 3 where the press can print the colour). The
home files stay as they were: RGB, no output intent."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from colour_difference import delta_e_2000
from conftest import edit_file
from kitchecks import HAPY_EN_A4, build
from PIL import Image, ImageCms

from cardgen.base.paths import shipped_profiles_dir
from cardgen.output.cmyk import OutputProfile, limit_inks

DEMO = Path(__file__).parents[1].parent / "docs" / "examples" / "demo"
PROFILE = shipped_profiles_dir() / "ISOcoated_v2_300_bas.icc"
GS = shutil.which("gs")
needs_gs = pytest.mark.skipif(GS is None, reason="Ghostscript (gs) is not installed")


@pytest.fixture(scope="module")
def kits(tmp_path_factory, shared_kit):
    """The English A4 kits of Hâpy and the demo game, built once for this module."""
    out = tmp_path_factory.mktemp("pdfx")
    return {"hapy": shared_kit(*HAPY_EN_A4).folder, "demo": demo_kit(out)}


def demo_kit(out: Path) -> Path:
    build(out, str(DEMO), "--lang", "en", "--paper", "a4")
    return out / "lantern-reef"


def shop_files(kits) -> list[Path]:
    files = [p for folder in kits.values() for p in sorted(folder.glob("*-printshop-*.pdf"))]
    assert len(files) >= 5  # Hâpy's one, the demo's four
    return files


def streams(pdf: pikepdf.Pdf):
    """Every content stream of the file (pages, forms, soft-mask groups, tiling patterns)
    with its resources, each once."""
    seen: set = set()
    todo = [(page.obj, page.obj.get("/Resources")) for page in pdf.pages]
    while todo:
        holder, res = todo.pop()
        if holder.objgen != (0, 0) and holder.objgen in seen:
            continue
        seen.add(holder.objgen)
        yield holder, res
        if res is None:
            continue
        for x in (res.get("/XObject") or {}).values():
            if x.get("/Subtype") == "/Form":
                todo.append((x, x.get("/Resources")))
        for p in (res.get("/Pattern") or {}).values():
            if int(p.get("/PatternType", 0)) == 1:
                todo.append((p, p.get("/Resources")))


def images(pdf: pikepdf.Pdf):
    for _, res in streams(pdf):
        for x in ((res or {}).get("/XObject") or {}).values():
            if x.get("/Subtype") == "/Image":
                yield x


# ------------------------------------------------------------------ the PDF/X parts
def test_every_print_shop_file_is_pdfx4_with_the_cmyk_profile_embedded_as_its_output_intent(kits):
    for path in shop_files(kits):
        with pikepdf.open(path) as pdf:
            assert pdf.pdf_version >= "1.6", path.name
            intents = pdf.Root.OutputIntents
            assert len(intents) == 1, path.name
            intent = intents[0]
            assert intent.S == "/GTS_PDFX"
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            icc = intent.DestOutputProfile
            assert int(icc.N) == 4
            data = icc.read_bytes()
            assert data == PROFILE.read_bytes()
            assert data[12:16] == b"prtr" and data[16:20] == b"CMYK"  # an output profile of CMYK printing
            info = pdf.docinfo
            assert str(info.GTS_PDFXVersion) == "PDF/X-4"
            assert info.Trapped == "/False"
            assert str(info.Title).startswith(("Hâpy Families — ", "Lantern Reef — "))
            assert str(info.CreationDate).startswith("D:") and str(info.ModDate).startswith("D:")
            ids = pdf.trailer.ID
            assert len(ids) == 2 and len(bytes(ids[0])) == 16
            xmp = pdf.Root.Metadata.read_bytes().decode("utf-8")
            for needed in ("<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>", "<pdf:Trapped>False</pdf:Trapped>",
                           "<xmpMM:DocumentID>uuid:", "<xmpMM:VersionID>", "<xmpMM:RenditionClass>default",
                           "<xmp:CreateDate>", "<xmp:ModifyDate>", "<dc:title>"):
                assert needed in xmp, (path.name, needed)
            assert "/Encrypt" not in pdf.trailer


def test_every_page_has_a_trim_box_inside_its_bleed_box_inside_its_media_box(kits):
    for path in shop_files(kits):
        with pikepdf.open(path) as pdf:
            for n, page in enumerate(pdf.pages, start=1):
                trim, bleed, media = ([float(v) for v in page.obj[k]] for k in ("/TrimBox", "/BleedBox", "/MediaBox"))
                assert "/ArtBox" not in page.obj, n  # PDF/X: a TrimBox or an ArtBox, never both
                assert bleed[0] <= trim[0] < trim[2] <= bleed[2] and bleed[1] <= trim[1] < trim[3] <= bleed[3], n
                assert media[0] <= bleed[0] and bleed[2] <= media[2] and media[1] <= bleed[1] and bleed[3] <= media[3]
                assert trim[0] - bleed[0] > 5  # the 3 mm (8.5 pt) bleed of every shipped deck is kept


def test_no_rgb_colour_operator_image_or_shading_is_left_in_a_print_shop_file(kits):
    converted_images = 0
    for path in shop_files(kits):
        with pikepdf.open(path) as pdf:
            operators: set[str] = set()
            for holder, res in streams(pdf):
                for ins in pikepdf.parse_content_stream(holder):
                    assert not isinstance(ins, pikepdf.ContentStreamInlineImage), path.name
                    op = str(ins.operator)
                    operators.add(op)
                    if op in ("cs", "CS"):
                        space = str(ins.operands[0])
                        named = (res.get("/ColorSpace") or {}).get(space) if res is not None else None
                        assert space != "/DeviceRGB" and (named is None or "RGB" not in repr(named)), path.name
                for sh in ((res or {}).get("/Shading") or {}).values():
                    assert "RGB" not in repr(sh.get("/ColorSpace")), path.name
                group = holder.get("/Group")
                assert group is None or group.get("/CS") != "/DeviceRGB", path.name
            assert not operators & {"rg", "RG"}, path.name
            assert "k" in operators  # the colours are there, as inks
            for image in images(pdf):
                assert image.get("/ColorSpace") in ("/DeviceCMYK", "/DeviceGray"), (path.name, image.get("/ColorSpace"))
                converted_images += image.get("/ColorSpace") == "/DeviceCMYK"
    assert converted_images >= 2  # the demo's PNG art, now CMYK


def test_the_home_files_stay_rgb_without_an_output_intent(kits):
    for folder in kits.values():
        for path in sorted(folder.glob("*-a4-*.pdf")):
            with pikepdf.open(path) as pdf:
                assert "/OutputIntents" not in pdf.Root, path.name
                ops = {str(i.operator) for h, _ in streams(pdf) for i in pikepdf.parse_content_stream(h)
                       if not isinstance(i, pikepdf.ContentStreamInlineImage)}
                assert "rg" in ops and "k" not in ops, path.name


def test_a_rebuild_writes_the_same_print_shop_bytes(kits, tmp_path):
    again = build(tmp_path, "hapy", "--lang", "en", "--paper", "a4", "--no-cache").folder
    name = "hapy-en-printshop-63x88mm.pdf"
    assert (again / name).read_bytes() == (kits["hapy"] / name).read_bytes()


# ------------------------------------------------------------------ the colours
def test_colours_go_through_the_profile_once_each_within_the_ink_limit():
    profile = OutputProfile.load()
    navy = profile.rgb(0x17 / 255, 0x1F / 255, 0x3B / 255)  # O, Farao!'s back flood
    assert sum(navy) <= 3.0 + 1e-6 and navy[3] > 0.3
    assert profile.rgb(0, 0, 0) == (0.0, 0.0, 0.0, 1.0)  # pure black: black ink alone
    assert profile.rgb(1, 1, 1) == (0.0, 0.0, 0.0, 0.0)
    red = profile.rgb(1, 0, 0)
    assert red[0] < 0.05 and red[1] > 0.85 and red[2] > 0.85
    assert profile.rgb(1, 0, 0) is red  # converted once, then kept
    tight = OutputProfile.load(ink_limit=240)
    navy240 = tight.rgb(0x17 / 255, 0x1F / 255, 0x3B / 255)
    assert abs(sum(navy240) - 2.4) < 1e-6 and navy240[3] == pytest.approx(navy[3], abs=0.01)
    assert limit_inks((0.8, 0.7, 0.6, 0.9), 2.4) == pytest.approx((0.8 * 5 / 7, 0.7 * 5 / 7, 0.6 * 5 / 7, 0.9))  # 1.5 of 2.1


def test_an_image_is_held_to_the_ink_limit_pixel_by_pixel():
    profile = OutputProfile.load(ink_limit=200)
    picture = Image.new("RGB", (4, 1))
    picture.putdata([(0, 0, 0), (0x17, 0x1F, 0x3B), (255, 255, 255), (200, 150, 60)])
    cmyk = profile.image(picture)
    assert cmyk.mode == "CMYK"
    for x in range(cmyk.width):
        pixel = cmyk.getpixel((x, 0))
        assert sum(pixel) <= 200 * 255 / 100 + 3, pixel
    assert cmyk.getpixel((2, 0)) == (0, 0, 0, 0)


def test_cmyk_colours_of_a_game_pass_into_the_print_shop_file_as_they_are(game_copy, tmp_path):
    game = game_copy("mini_game")
    edit_file(game / "game.yaml", "palette:\n", "palette:\n  orange_ink: cmyk(0,60,100,0)\n")
    with (game / "templates" / "front.yaml.j2").open("a", encoding="utf-8") as template:
        template.write('- {rect: {x: 0, y: 0, w: 10, h: 10, fill: orange_ink}}\n'
                       '- {rect: {x: 10, y: 0, w: 10, h: 10, fill: "cmyk(100,0,0,0)"}}\n')
    build(tmp_path / "out", str(game), "--paper", "a4")
    shop = next((tmp_path / "out" / "mini").glob("*-printshop*.pdf"))
    with pikepdf.open(shop) as pdf:
        fills = [[float(v) for v in i.operands] for h, _ in streams(pdf) for i in pikepdf.parse_content_stream(h)
                 if not isinstance(i, pikepdf.ContentStreamInlineImage) and str(i.operator) == "k"]
    assert [0.0, 0.6, 1.0, 0.0] in fills and [1.0, 0.0, 0.0, 0.0] in fills


def test_a_palette_colour_that_is_neither_hex_nor_cmyk_is_refused_at_its_line(game_copy, cli):
    game = game_copy("mini_game")
    edit_file(game / "game.yaml", "palette:\n", "palette:\n  bad: cmyk(0,60,120,0)\n")
    r = cli("build", game, "--out", game.parent / "out")
    assert r.exit_code == 1
    assert "palette colour 'bad' must look like #1f4e8c or cmyk(0,60,100,0), found 'cmyk(0,60,120,0)'" in r.output


def test_another_icc_profile_is_embedded_and_a_wrong_one_refused(tmp_path, cli):
    mine = tmp_path / "my-press.icc"
    shutil.copyfile(PROFILE, mine)
    kit = build(tmp_path / "out", "hapy", "--lang", "en", "--paper", "a4", "--profile", str(mine),
                "--ink-limit", "260").folder
    with pikepdf.open(kit / "hapy-en-printshop-63x88mm.pdf") as pdf:
        intent = pdf.Root.OutputIntents[0]
        assert intent.DestOutputProfile.read_bytes() == mine.read_bytes()
        assert str(intent.OutputConditionIdentifier) == "ISO Coated v2 300% (basICColor)"
        worst = max(sum(float(v) for v in i.operands) for h, _ in streams(pdf) for i in pikepdf.parse_content_stream(h)
                    if not isinstance(i, pikepdf.ContentStreamInlineImage) and str(i.operator) in ("k", "K"))
    assert 2.4 < worst <= 2.6 + 1e-3  # to the 4 decimals written
    rgb = tmp_path / "screen.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    r = cli("build", "hapy", "--lang", "en", "--paper", "a4", "--out", tmp_path / "out2", "--profile", rgb)
    assert r.exit_code == 1
    assert r.output.strip().splitlines()[-1].endswith(
        "screen.icc: a print-shop file needs a CMYK output (prtr) profile, this one is RGB mntr")
    assert not (tmp_path / "out2").exists()


# ------------------------------------------------------------------ rendered through the profile
def test_ciede2000_agrees_with_sharmas_reference_pairs():
    pairs = [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425), ((50, 0, 0), (50, -1, 2), 2.3669),
             ((50, 2.5, 0), (73, 25, -18), 27.1492), ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
             ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082)]
    for a, b, want in pairs:
        assert delta_e_2000(np.array(a), np.array(b)) == pytest.approx(want, abs=1e-4)


def _lab(picture: Image.Image, profile) -> np.ndarray:
    lab = ImageCms.createProfile("LAB")
    t = ImageCms.buildTransform(profile, lab, picture.mode, "LAB", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    out = np.asarray(ImageCms.applyTransform(picture, t)).astype(float)
    out[..., 0] *= 100 / 255
    out[..., 1:] = np.where(out[..., 1:] >= 128, out[..., 1:] - 256, out[..., 1:])  # Pillow's a*, b*: signed bytes
    return out


def _render(path: Path, page: int, device: str, tmp: Path) -> Image.Image:
    """One page through Ghostscript at 40 ppi, no anti-aliasing: tiff32nc gives the inks
    as written (no colour management of DeviceCMYK), png16m the screen colours."""
    target = tmp / f"{path.stem}-{page}.{device}"
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", f"-sDEVICE={device}", "-r40",
                    f"-dFirstPage={page}", f"-dLastPage={page}", f"-sOutputFile={target}", str(path)],
                   capture_output=True, check=True)
    with Image.open(target) as picture:
        picture.load()
        return picture.copy()


def _translucent(pdf: pikepdf.Pdf, page) -> bool:
    """Whether a page draws anything partly transparent (an opacity below 1 or a soft mask)."""
    todo, seen = [page.obj.get("/Resources")], set()
    while todo:
        res = todo.pop()
        if res is None or res.objgen in seen and res.objgen != (0, 0):
            continue
        seen.add(res.objgen)
        for gs in (res.get("/ExtGState") or {}).values():
            if float(gs.get("/ca", 1)) < 1 or float(gs.get("/CA", 1)) < 1 or gs.get("/SMask", "/None") != "/None":
                return True
        for x in (res.get("/XObject") or {}).values():
            if x.get("/SMask") is not None:
                return True
            if x.get("/Subtype") == "/Form":
                todo.append(x.get("/Resources"))
    return False


def _flat(pixels: np.ndarray) -> np.ndarray:
    """Pixels whose 8 neighbours have their colour (not on an edge, nor the page's)."""
    flat = np.ones(pixels.shape[:2], bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            flat &= (np.roll(np.roll(pixels, dy, 0), dx, 1) == pixels).all(axis=2)
    flat[[0, -1], :] = False
    flat[:, [0, -1]] = False
    return flat


@needs_gs
def test_rendered_print_shop_pages_look_like_the_screen_kit(kits, tmp_path, monkeypatch):
    """The same pages drawn without the conversion (the screen colours) and with it, each
    rendered by Ghostscript, compared in L*a*b*: ΔE2000 under 3 on flat patches whose
    colour the press can print (the profile takes it to CMYK and back within ΔE 2)."""
    import cardgen.output.kitwriter as kit_module

    monkeypatch.setattr(kit_module, "make_pdfx", lambda *a, **k: None)
    draw = kit_module.KitWriter.write_face_pages  # the faces drawn in screen colours, not in the profile's inks
    monkeypatch.setattr(kit_module.KitWriter, "write_face_pages",
                        lambda self, *a, profile=None, **k: draw(self, *a, **k))
    screen = {"hapy": build(tmp_path / "rgb", "hapy", "--lang", "en", "--paper", "a4").folder,
              "demo": demo_kit(tmp_path / "rgb")}
    cmyk_profile = ImageCms.getOpenProfile(str(PROFILE))
    srgb = ImageCms.createProfile("sRGB")
    to_cmyk = ImageCms.buildTransform(srgb, cmyk_profile, "RGB", "CMYK",
                                      renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                      flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    compared = 0
    for game, folder in kits.items():
        for path in sorted(folder.glob("*-printshop-*.pdf")):
            with pikepdf.open(path) as pdf:
                translucent = {n: _translucent(pdf, pdf.pages[n - 1]) for n in (1, 2, len(pdf.pages))}
            for page in translucent:
                rgb = _render(screen[game] / path.name, page, "png16m", tmp_path).convert("RGB")
                ink = _render(path, page, "tiff32nc", tmp_path)
                assert ink.mode == "CMYK" and ink.size == rgb.size
                want, got = _lab(rgb, srgb), _lab(ink, cmyk_profile)
                pixels, inks = np.asarray(rgb).astype(int), np.asarray(ink).astype(int)
                flat = _flat(pixels) & _flat(inks)  # a patch: one colour over 3 × 3 pixels in both renders
                round_trip = _lab(ImageCms.applyTransform(rgb, to_cmyk), cmyk_profile)
                printable = delta_e_2000(want, round_trip) < 2
                chosen = flat & printable & (pixels.sum(axis=2) > 0)
                assert chosen.sum() > 0.2 * flat.sum(), (path.name, page)  # most flat colour is compared
                de = delta_e_2000(want[chosen], got[chosen])
                # translucent art blends in the press's CMYK (PDF/X-4), the screen in sRGB: near, not equal
                limit = 6 if translucent[page] else 3
                assert de.max() < limit, (path.name, page, float(de.max()))
                compared += int(chosen.sum())
    assert compared > 10000


# ------------------------------------------------------------------ font subsets
def _subsets(path: Path) -> dict[str, str]:
    """Each embedded font subset of a file: its ``TAG+Name`` → the SHA-256 of its program."""
    found: dict[str, str] = {}
    with pikepdf.open(path) as pdf:
        for _, res in streams(pdf):
            for font in ((res or {}).get("/Font") or {}).values():
                descriptor = font.get("/FontDescriptor")
                program = descriptor and (descriptor.get("/FontFile2") or descriptor.get("/FontFile3")
                                          or descriptor.get("/FontFile"))
                assert program is not None, (path.name, str(font.get("/BaseFont")))  # every font embedded
                found[str(font.BaseFont).lstrip("/")] = hashlib.sha256(program.read_bytes()).hexdigest()
    return found


def test_a_subset_tag_names_one_font_program_across_every_file_of_two_games(kits):
    """Equal tags mean equal programs: a shop's software that merges fonts by their tag
    (across the files of an order) can never take one subset for another."""
    by_name: dict[str, set[str]] = {}
    files = [p for folder in kits.values() for p in sorted(folder.glob("*.pdf"))]
    assert len(files) >= 8
    for path in files:
        for name, digest in _subsets(path).items():
            assert re.fullmatch(r"[A-Z]{6}\+\S+", name), name
            by_name.setdefault(name, set()).add(digest)
    assert all(len(d) == 1 for d in by_name.values()), {n: len(d) for n, d in by_name.items() if len(d) > 1}
    programs: dict[str, set[str]] = {}
    for name, digests in by_name.items():
        programs.setdefault(name.split("+", 1)[1], set()).update(digests)
    assert max(len(p) for p in programs.values()) >= 3  # one font, several subsets: each its own tag
    assert len({d for ds in by_name.values() for d in ds}) == len(by_name)  # and one program, one tag


def test_template_filters_read_ink_colours():
    from cardgen.render.sandbox import contrast, luminance, mix

    assert mix("cmyk(0,60,100,0)", "cmyk(0,0,0,0)", 0.5) == "cmyk(0,30,50,0)"  # inks mix as inks
    assert mix("cmyk(0,0,0,100)", "#ffffff", 0.5) == "#808080"  # with a screen colour: on screen
    assert luminance("cmyk(0,0,0,100)") == 0 and contrast("cmyk(100,80,0,40)") == "#ffffff"
