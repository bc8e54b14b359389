"""Soft proof: a face as the print-shop CMYK profile will print it, back on screen.

LittleCMS (Pillow's ``ImageCms``) sends each pixel from sRGB through the CMYK output
profile and back (``buildProofTransform``, relative colorimetric, black-point
compensation as the print-shop files are converted), so a colour the press cannot
reach shows as the colour it will print instead. The same transform with its gamut
check on replaces every colour outside the press's gamut with LittleCMS's alarm
colour; the pixels where the two differ are the out-of-gamut ones, and they get a
magenta hatch over the proofed colour. Colours darker than the press's black (pure
black, the deepest navies) are out of gamut too: they print lighter than the screen
shows them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageCms, ImageDraw

HATCH = (255, 0, 255)
"""The warning colour of the hatch over out-of-gamut pixels: no face is meant to be it."""
HATCH_STEP = 6  # pixels between the hatch's diagonal lines
HATCH_WIDTH = 2


@dataclass(frozen=True)
class Proofed:
    """A soft-proofed picture and how many of its pixels lie outside the press's gamut."""

    image: Image.Image
    out_of_gamut: int
    pixels: int


@lru_cache(maxsize=4)
def _transforms(profile: bytes) -> tuple[ImageCms.ImageCmsTransform, ImageCms.ImageCmsTransform]:
    """The proof transform without and with its gamut check, for one CMYK profile."""
    srgb = ImageCms.createProfile("sRGB")
    press = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    flags = ImageCms.Flags.SOFTPROOFING | ImageCms.Flags.BLACKPOINTCOMPENSATION
    intent = ImageCms.Intent.RELATIVE_COLORIMETRIC

    def build(extra: ImageCms.Flags) -> ImageCms.ImageCmsTransform:
        return ImageCms.buildProofTransform(srgb, srgb, press, "RGB", "RGB", renderingIntent=intent,
                                            proofRenderingIntent=intent, flags=flags | extra)

    return build(ImageCms.Flags.NONE), build(ImageCms.Flags.GAMUTCHECK)


def out_of_gamut_mask(picture: Image.Image, profile: bytes) -> tuple[Image.Image, Image.Image]:
    """The proofed picture, and a mask (mode ``1``) of its pixels outside the gamut."""
    plain, checked = _transforms(profile)
    rgb = picture.convert("RGB")
    proofed = plain.apply(rgb)
    alarmed = checked.apply(rgb)
    diff = ImageChops.difference(proofed, alarmed).convert("L")
    return proofed, diff.point(lambda v: 255 if v else 0).convert("1")


def soft_proof(picture: Image.Image, profile: bytes) -> Proofed:
    """``picture`` as the press prints it through ``profile`` (an ICC CMYK output
    profile's bytes), out-of-gamut pixels hatched."""
    proofed, mask = out_of_gamut_mask(picture, profile)
    count = mask.histogram()[-1]  # a mode-1 image counts its set pixels in its last bin
    if count:
        hatch = Image.new("1", proofed.size, 0)
        draw = ImageDraw.Draw(hatch)
        w, h = proofed.size
        for k in range(-h, w, HATCH_STEP):
            draw.line([(k, 0), (k + h, h)], fill=1, width=HATCH_WIDTH)
        proofed.paste(HATCH, mask=ImageChops.logical_and(mask, hatch))
    return Proofed(proofed, count, proofed.size[0] * proofed.size[1])


def soft_proof_png(png: bytes, profile: bytes) -> tuple[bytes, int, int]:
    """A PNG soft-proofed: the new PNG, its pixels out of gamut, and all its pixels."""
    with Image.open(io.BytesIO(png)) as picture:
        proofed = soft_proof(picture, profile)
    out = io.BytesIO()
    proofed.image.save(out, "PNG")
    return out.getvalue(), proofed.out_of_gamut, proofed.pixels
