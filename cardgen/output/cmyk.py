"""Screen colours turned into printing inks through a CMYK output profile.

LittleCMS (Pillow's ``ImageCms``) converts sRGB into the profile's CMYK, relative
colorimetric with black-point compensation (a colour the press can print stays that
colour; darker ones map onto the press's deepest black). Each distinct colour is
converted once and kept; each distinct image once per process.

Two rules on top of the profile:

* the total ink (C + M + Y + K) is held to the ink limit: a darker colour keeps its
  black and gives up cyan, magenta and yellow in proportion, so a near-black flood
  becomes a rich black no press refuses;
* pure black, ``#000000``, prints as black ink alone (``0/0/0/100``): small text and
  hairlines in four inks blur at the slightest misregistration. A deep black flood is
  written as an ink colour, e.g. ``cmyk(60,40,40,100)``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from PIL import Image, ImageCms, ImageMath

from ..base.errors import CardgenError, display_path
from ..base.paths import shipped_profiles_dir

DEFAULT_PROFILE = "ISOcoated_v2_300_bas.icc"
DEFAULT_CONDITION = "FOGRA39"
"""The characterisation data of the default profile, the name shops know it by."""
DEFAULT_CONDITION_TEXT = ("Offset commercial printing to ISO 12647-2:2004/Amd 1, paper types 1 and 2 "
                          "(gloss or matt coated), FOGRA39")
DEFAULT_INK_LIMIT = 300.0
MAX_PROFILE_BYTES = 16 << 20

Inks = tuple[float, float, float, float]


def read_profile(path: Path) -> bytes:
    """An ICC file's bytes, checked to be a CMYK output profile; a one-line error naming
    the file otherwise."""
    label = display_path(path)
    try:
        if path.stat().st_size > MAX_PROFILE_BYTES:
            raise CardgenError(f"{label}: larger than {MAX_PROFILE_BYTES >> 20} MiB: not an output profile")
        data = path.read_bytes()
    except OSError as exc:
        raise CardgenError(f"{label}: cannot be read: {exc.strerror or exc}") from None
    try:
        profile = ImageCms.ImageCmsProfile(_bytes_io(data))
    except (OSError, ImageCms.PyCMSError, ValueError) as exc:
        raise CardgenError(f"{label}: not an ICC profile ({exc})") from None
    space = profile.profile.xcolor_space.strip()
    if space != "CMYK" or profile.profile.device_class != "prtr":
        raise CardgenError(f"{label}: a print-shop file needs a CMYK output (prtr) profile, "
                           f"this one is {space} {profile.profile.device_class}")
    return data


def _bytes_io(data: bytes):
    import io

    return io.BytesIO(data)


@dataclass
class OutputProfile:
    """A CMYK output profile and the conversions into it (cached)."""

    data: bytes
    name: str
    condition: str = DEFAULT_CONDITION
    condition_text: str = DEFAULT_CONDITION_TEXT
    ink_limit: float = DEFAULT_INK_LIMIT  # percent
    _colours: dict[tuple[int, int, int], Inks] = field(default_factory=dict, repr=False)
    _images: dict[str, Image.Image] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, path: Path | None = None, ink_limit: float | None = None) -> OutputProfile:
        """The shipped profile (FOGRA39, 300 %), or the ICC file ``path`` (its own
        description as the condition, ink limit 300 % unless given)."""
        shipped = shipped_profiles_dir() / DEFAULT_PROFILE
        if path is None or path.resolve() == shipped.resolve():  # named or not: its FOGRA39 condition
            return cls(read_profile(shipped), DEFAULT_PROFILE,
                       ink_limit=DEFAULT_INK_LIMIT if ink_limit is None else ink_limit)
        data = read_profile(path)
        profile = ImageCms.ImageCmsProfile(_bytes_io(data))
        description = ImageCms.getProfileDescription(profile).strip() or path.stem
        return cls(data, path.name, condition=description, condition_text=description,
                   ink_limit=DEFAULT_INK_LIMIT if ink_limit is None else ink_limit)

    @cached_property
    def digest(self) -> str:
        """What a print-shop file's reuse key holds of its profile."""
        return hashlib.sha256(self.data + repr((self.condition, self.ink_limit)).encode()).hexdigest()

    @cached_property
    def compressed(self) -> bytes:
        """The profile Flate-compressed, as every print-shop file embeds it (once a process)."""
        import zlib

        return zlib.compress(self.data, 6)

    @cached_property
    def description(self) -> str:
        return ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(_bytes_io(self.data))).strip()

    @cached_property
    def _to_cmyk(self) -> ImageCms.ImageCmsTransform:
        return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(_bytes_io(self.data)),
                                       "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                       flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)

    def rgb(self, r: float, g: float, b: float) -> Inks:
        """An sRGB colour (0..1 each) as inks (0..1 each), within the ink limit."""
        key = (round(r * 255), round(g * 255), round(b * 255))
        inks = self._colours.get(key)
        if inks is None:
            if key == (0, 0, 0):
                inks = (0.0, 0.0, 0.0, 1.0)
            else:
                c, m, y, k = _converted(self._to_cmyk, Image.new("RGB", (1, 1), key)).tobytes()
                inks = limit_inks((c / 255, m / 255, y / 255, k / 255), self.ink_limit / 100)
            self._colours[key] = inks
        return inks

    def image(self, picture: Image.Image) -> Image.Image:
        """An RGB image as a CMYK one through the profile, within the ink limit (each
        distinct image converted once)."""
        key = hashlib.sha256(picture.mode.encode() + repr(picture.size).encode() + picture.tobytes()).hexdigest()
        done = self._images.get(key)
        if done is None:
            done = _converted(self._to_cmyk, picture.convert("RGB"))
            done = limit_image(done, self.ink_limit / 100)
            self._images[key] = done
        return done


def _converted(transform: ImageCms.ImageCmsTransform, picture: Image.Image) -> Image.Image:
    """``transform.apply(picture)`` without what Pillow adds to it: the output profile
    serialised into the result's ``info`` (a megabyte, 18 ms for every colour), which
    nothing here reads. Pillow's own ``apply`` where its insides differ."""
    out = Image.new(transform.output_mode, picture.size)
    try:
        transform.transform.apply(picture.getim(), out.getim())
    except (AttributeError, TypeError):  # another Pillow: its public call
        return transform.apply(picture)
    return out


def limit_inks(inks: Inks, limit: float) -> Inks:
    """Hold C + M + Y + K to ``limit`` (1.0 = 100 %): black stays, the other three give
    up ink in proportion."""
    c, m, y, k = inks
    total = c + m + y + k
    if total <= limit + 1e-9 or c + m + y == 0:
        return inks
    scale = max(0.0, limit - k) / (c + m + y)
    return (c * scale, m * scale, y * scale, min(k, limit))


def limit_image(picture: Image.Image, limit: float) -> Image.Image:
    """:func:`limit_inks` for every pixel of a CMYK image (nothing to do when the image
    is within the limit already, as everything through a profile of that limit is)."""
    c, m, y, k = picture.split()
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    if total.getextrema()[1] <= limit * 255 + 1:
        return picture
    cap = limit * 255

    def factor(e):  # how much of its cyan, magenta and yellow a pixel keeps
        cmy = e["float"](e["c"]) + e["float"](e["m"]) + e["float"](e["y"])
        keep = (cap - e["float"](e["k"])) / e["max"](cmy, 1.0)
        return e["min"](e["max"](keep, 0.0), 1.0)

    kept = ImageMath.lambda_eval(factor, c=c, m=m, y=y, k=k)
    bands = [ImageMath.lambda_eval(lambda e: e["convert"](e["band"] * e["kept"], "L"), band=band, kept=kept)
             for band in (c, m, y)]
    return Image.merge("CMYK", (*bands, k))
