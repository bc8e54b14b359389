"""What converting the print-shop files' colours costs: each distinct colour goes
through LittleCMS once, without Pillow serialising the megabyte output profile for
each conversion, and a content stream without colour operators is not rewritten."""

from __future__ import annotations

import pikepdf
import pytest
from PIL import Image, ImageCms

from cardgen.output.cmyk import OutputProfile, limit_inks
from cardgen.output.pdfx import Rewriter, has_colour_operators


@pytest.fixture()
def no_profile_bytes(monkeypatch):
    """Serialising an ICC profile (ImageCmsProfile.tobytes) fails the test."""

    def refuse(self):
        raise AssertionError("the output profile was serialised for one conversion")

    monkeypatch.setattr(ImageCms.ImageCmsProfile, "tobytes", refuse)


def _public_inks(profile: OutputProfile, rgb: tuple[int, int, int]) -> tuple[float, ...]:
    """The inks Pillow's public conversion gives for ``rgb`` (0..255), held to the limit."""
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(
        __import__("io").BytesIO(profile.data)), "RGB", "CMYK",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    c, m, y, k = transform.apply(Image.new("RGB", (1, 1), rgb)).tobytes()
    return limit_inks((c / 255, m / 255, y / 255, k / 255), profile.ink_limit / 100)


def test_a_colour_is_converted_without_serialising_the_profile(no_profile_bytes):
    profile = OutputProfile.load()
    navy = profile.rgb(0x17 / 255, 0x1F / 255, 0x3B / 255)
    assert navy[3] > 0.3 and sum(navy) <= 3.0 + 1e-6


def test_converted_colours_equal_pillows_public_conversion():
    profile = OutputProfile.load(ink_limit=260)
    for rgb in [(0x17, 0x1F, 0x3B), (200, 150, 60), (255, 0, 0), (12, 240, 17), (1, 1, 1)]:
        assert profile.rgb(*(v / 255 for v in rgb)) == _public_inks(profile, rgb)


def test_an_image_is_converted_without_serialising_the_profile(no_profile_bytes):
    profile = OutputProfile.load()
    picture = Image.new("RGB", (3, 1))
    picture.putdata([(10, 20, 30), (200, 100, 50), (255, 255, 255)])
    assert profile.image(picture).mode == "CMYK"


@pytest.mark.parametrize(("stream", "has"), [
    (b"q 1 0 0 1 8.5 8.5 cm /FormXob.abc Do Q", False),
    (b"BT /F1 12 Tf (rg and scn in a string) Tj ET", True),  # a string may look like one: parsed, to be sure
    (b"0.1 0.2 0.3 rg 0 0 10 10 re f", True),
    (b"/DeviceRGB CS 1 0 0 SC", True),
    (b"0 0 0 1 k 0.5 g 1 w", False),
    (b"/P0 scn", True),
])
def test_a_stream_holds_colour_operators_only_if_its_words_say_so(stream, has):
    assert has_colour_operators(stream) is has


def test_a_page_without_colour_operators_is_left_as_it_was_unparsed(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a stream without colour operators was parsed")

    monkeypatch.setattr(pikepdf, "parse_content_stream", refuse)
    pdf = pikepdf.new()
    pdf.add_blank_page()
    page = pdf.pages[0]
    original = b"q 1 0 0 1 8.5 8.5 cm 0 0 0 1 k Q"
    page.obj.Contents = pdf.make_stream(original)
    Rewriter(pdf, OutputProfile.load()).run()
    assert page.obj.Contents.read_bytes() == original
