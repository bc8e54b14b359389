"""The soft proof: faces as the CMYK profile prints them, out-of-gamut colours hatched."""

from __future__ import annotations

from PIL import Image

from cardgen.base.paths import shipped_profiles_dir
from cardgen.serve.softproof import HATCH, soft_proof

PROFILE = (shipped_profiles_dir() / "ISOcoated_v2_300_bas.icc").read_bytes()


def test_pure_green_is_out_of_the_press_gamut_and_hatched():
    proofed = soft_proof(Image.new("RGB", (24, 24), (0, 255, 0)), PROFILE)
    assert proofed.out_of_gamut == proofed.pixels == 24 * 24
    colours = {c for _, c in proofed.image.getcolors(1 << 16)}
    assert HATCH in colours  # the hatch shows
    others = colours - {HATCH}
    assert others and all(g < 230 and r > 60 for r, g, _ in others)  # the rest: the duller green the press prints


def test_an_in_gamut_colour_is_left_as_it_prints_and_not_marked():
    proofed = soft_proof(Image.new("RGB", (24, 24), (192, 128, 96)), PROFILE)
    assert proofed.out_of_gamut == 0
    ((count, colour),) = proofed.image.getcolors()
    assert count == 24 * 24 and colour != HATCH
    assert all(abs(a - b) <= 8 for a, b in zip(colour, (192, 128, 96)))


def test_only_the_out_of_gamut_half_of_a_picture_is_marked():
    picture = Image.new("RGB", (40, 20), (192, 128, 96))
    picture.paste((0, 255, 0), (20, 0, 40, 20))
    proofed = soft_proof(picture, PROFILE)
    assert proofed.out_of_gamut == 20 * 20
    left = {c for _, c in proofed.image.crop((0, 0, 20, 20)).getcolors()}
    right = {c for _, c in proofed.image.crop((20, 0, 40, 20)).getcolors()}
    assert HATCH not in left and HATCH in right
