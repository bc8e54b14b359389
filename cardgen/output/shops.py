"""Print-shop profiles: what one shop wants of the print-shop files, as data.

A profile is a small YAML file (``cardgen/output/shop_profiles/<name>.yaml`` for the
shipped ones, ``shops/<name>.yaml`` in the user's settings folder for a user's own):
the bleed, the order of fronts and backs, the colour standard (PDF/X-4 or PDF/X-1a)
and output profile, the ink limit, crop marks, which shapes get a ``CutContour`` die
line, how the files are named, and for shops that print from images the image format
and size. Every key is checked strictly: an unknown key, a wrong value or a missing
one is one line naming the file, the line and the key.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..base.errors import CardgenError, Where, display_path

SHIPPED_DIR = Path(__file__).resolve().parent / "shop_profiles"
USER_SUBDIR = "shops"  # inside the settings folder (the folder of `cardgen config path`'s user file)
DEFAULT_SHOP = "pdfx4"
MAX_PROFILE_BYTES = 64 * 1024
DEFAULT_ICC = "ISOcoated_v2_300_bas.icc"  # output/cmyk.py's DEFAULT_PROFILE

SHAPES = ("rect", "rounded", "circle", "hex", "path")
CUT_CHOICES = ("on", "off", "shaped")
ORDERS = ("alternating", "back-first", "fronts-then-backs")
COLOURS = {"pdfx4": "4", "pdfx1a": "1a"}
IMAGE_FORMATS = ("png", "jpeg")
COPIES = ("each", "counted")
NAME_FIELDS = ("game", "lang", "size")
DEFAULT_FILE_NAME = "{game}-{lang}-printshop-{size}"
DEFAULT_CUTS: Mapping[str, bool] = {"rect": False, "rounded": True, "circle": False, "hex": True, "path": True}
"""The die lines a print-shop file has always had: the die-cut shapes, none for a
rectangle (guillotined) or a circle (a round die needs no line)."""


def cut_lines_for(choice: str) -> dict[str, bool]:
    """``on`` (every piece, rectangles too), ``off``, or ``shaped`` (every piece that is
    not a plain rectangle, round ones included) as a die line per shape."""
    if choice == "on":
        return dict.fromkeys(SHAPES, True)
    if choice == "off":
        return dict.fromkeys(SHAPES, False)
    return {s: s != "rect" for s in SHAPES}


@dataclass(frozen=True)
class ImageSpec:
    """What an image-based shop takes: the format, the resolution (pixels of a piece
    with its bleed), exact pixel sizes per trim size, and whether each copy is a file."""

    format: str = "png"
    dpi: int = 300
    sizes: Mapping[tuple[float, float], tuple[int, int]] = field(default_factory=dict)
    copies: str = "each"

    def pixels(self, trim: tuple[float, float], bleed: float) -> tuple[int, int]:
        """The pixel size of a piece of ``trim`` mm with ``bleed`` on every side."""
        for (w, h), px in self.sizes.items():
            if abs(w - trim[0]) < 0.05 and abs(h - trim[1]) < 0.05:
                return px
        return (round((trim[0] + 2 * bleed) / 25.4 * self.dpi), round((trim[1] + 2 * bleed) / 25.4 * self.dpi))


@dataclass(frozen=True)
class ShopProfile:
    """One shop's conventions for the print-shop files (see the module's docstring)."""

    name: str
    description: str
    source: str  # the profile file, as shown to the user
    output: str = "pdf"  # or "images"
    pdfx: str = "4"  # BuildOptions.pdfx: "4" or "1a"
    icc: Path | None = None  # None: the shipped FOGRA39 profile
    names_icc: bool = False  # the profile names its ICC file (the shipped one too): a game's own does not replace it
    ink_limit: float | None = None  # None: 300 %
    bleed: float | None = None  # mm; None: each deck's own
    page_order: str = "alternating"
    crop_marks: bool = False
    cut_lines: Mapping[str, bool] = field(default_factory=lambda: dict(DEFAULT_CUTS))
    file_name: str = DEFAULT_FILE_NAME
    image: ImageSpec | None = None

    def with_cut_lines(self, choice: str | None) -> ShopProfile:
        """The profile with ``--cut-lines`` (on, off, shaped) in place of its own, if given."""
        if choice is None:
            return self
        from dataclasses import replace

        return replace(self, cut_lines=cut_lines_for(choice))

    def file_stem(self, game: str, lang: str, size: str) -> str:
        return self.file_name.format(game=game, lang=lang, size=size)

    def summary(self) -> list[str]:
        """What the profile sets, one ``key: value`` a line (``cardgen shops``)."""
        colour = {"4": "PDF/X-4", "1a": "PDF/X-1a"}[self.pdfx]
        cuts = [s for s in SHAPES if self.cut_lines.get(s)]
        lines = [f"output: {'PDF, ' + colour if self.output == 'pdf' else 'images'}",
                 f"bleed: {f'{self.bleed:g} mm' if self.bleed is not None else 'the game’s'}"]
        if self.output == "pdf":
            lines += [f"page order: {self.page_order}",
                      f"colour profile: {self.icc.name if self.icc else 'shipped FOGRA39 (ISO Coated v2 300 %)'}",
                      f"ink limit: {f'{self.ink_limit:g} %' if self.ink_limit is not None else '300 %'}",
                      f"crop marks: {'on' if self.crop_marks else 'off'}",
                      f"cut lines (CutContour): {', '.join(cuts) if cuts else 'none'}",
                      f"file names: {self.file_name}.pdf"]
        elif self.image is not None:
            sizes = ", ".join(f"{w:g}x{h:g} mm = {px[0]}x{px[1]} px" for (w, h), px in self.image.sizes.items())
            lines += [f"images: {self.image.format.upper()}, {self.image.dpi} ppi with bleed"
                      + (f" ({sizes})" if sizes else ""),
                      f"copies: {'one file per copy' if self.image.copies == 'each' else 'one file per card'}"
                      ", and quantities.csv"]
        return lines


# -- reading a profile file -----------------------------------------------------------------


class _Reader:
    """A profile's YAML node tree, read key by key with the line of each for errors."""

    def __init__(self, path: Path, shown: str):
        self.path = path
        self.shown = shown

    def fail(self, node: yaml.Node | None, message: str) -> CardgenError:
        line = node.start_mark.line + 1 if node is not None else None
        return CardgenError(message, Where(self.shown, line))

    def mapping(self, node: yaml.Node, what: str, keys: Mapping[str, bool]) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """A mapping's entries by key; ``keys``: every known key and whether it is required."""
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping of keys")
        out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        for k, v in node.value:
            key = str(k.value) if isinstance(k, yaml.ScalarNode) else ""
            if key not in keys:
                raise self.fail(k, f"unknown key {key!r} in {what} (known: {', '.join(keys)})")
            if key in out:
                raise self.fail(k, f"key {key!r} given twice in {what}")
            out[key] = (k, v)
        missing = [k for k, required in keys.items() if required and k not in out]
        if missing:
            raise self.fail(node, f"{what} lacks the key {missing[0]!r}")
        return out

    def scalar(self, pair: tuple[yaml.Node, yaml.Node]) -> Any:
        key, node = pair
        if not isinstance(node, yaml.ScalarNode):
            raise self.fail(node, f"{key.value}: must be a single value")
        return _resolve(node)

    def choice(self, pair, choices) -> str:
        value = self.scalar(pair)
        if value not in choices:
            raise self.fail(pair[1], f"{pair[0].value}: must be {' or '.join(choices)}, not {value!r}")
        return value

    def number(self, pair, low: float, high: float, none_ok: bool = True) -> float | None:
        value = self.scalar(pair)
        if value is None and none_ok:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise self.fail(pair[1], f"{pair[0].value}: must be a number from {low:g} to {high:g}"
                                     f"{' (or null)' if none_ok else ''}, not {value!r}")
        return float(value)

    def flag(self, pair) -> bool:
        value = self.scalar(pair)
        if not isinstance(value, bool):
            raise self.fail(pair[1], f"{pair[0].value}: must be true or false (on or off), not {value!r}")
        return value

    def text(self, pair) -> str:
        value = self.scalar(pair)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(pair[1], f"{pair[0].value}: must be a text, not {value!r}")
        return value


def _resolve(node: yaml.Node) -> Any:
    """A scalar's value as PyYAML's safe loader reads it (``true``, ``3.175``, ``null``)."""
    return yaml.SafeLoader("").construct_object(node, deep=True)


TOP_KEYS = {"description": True, "output": False, "colour": False, "icc": False, "ink_limit": False,
            "bleed": False, "page_order": False, "crop_marks": False, "cut_lines": False, "file_name": False,
            "image": False}
PDF_ONLY_KEYS = ("colour", "icc", "ink_limit", "page_order", "crop_marks", "cut_lines", "file_name")
IMAGE_KEYS = {"format": True, "dpi": False, "sizes": False, "copies": False}


def read_profile(path: Path, name: str | None = None) -> ShopProfile:
    """The shop profile in ``path``; a one-line error naming the file, line and key."""
    shown = display_path(path)
    try:
        if path.stat().st_size > MAX_PROFILE_BYTES:
            raise CardgenError(f"larger than {MAX_PROFILE_BYTES // 1024} KiB: not a shop profile", Where(shown))
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CardgenError("not UTF-8 text", Where(shown)) from None
    except OSError as exc:
        raise CardgenError(f"cannot be read: {exc.strerror or exc}", Where(shown)) from None
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise CardgenError(f"not valid YAML: {getattr(exc, 'problem', None) or exc}",
                           Where(shown, mark.line + 1 if mark else None)) from None
    r = _Reader(path, shown)
    if root is None:
        raise CardgenError("empty: a shop profile needs at least a description", Where(shown))
    keys = r.mapping(root, "the profile", TOP_KEYS)
    try:
        return _profile(r, keys, name or path.stem, path)
    except yaml.YAMLError as exc:  # a scalar PyYAML cannot construct (a bad timestamp)
        raise CardgenError(f"unreadable value: {exc}", Where(shown)) from None


def _profile(r: _Reader, keys: dict, name: str, path: Path) -> ShopProfile:
    out: dict[str, Any] = {"name": name, "source": r.shown, "description": r.text(keys["description"])}
    if "output" in keys:
        out["output"] = {"pdf": "pdf", "images": "images"}[r.choice(keys["output"], ("pdf", "images"))]
    if out.get("output") == "images":
        _refuse_pdf_keys(r, keys)
    if "colour" in keys:
        out["pdfx"] = COLOURS[r.choice(keys["colour"], tuple(COLOURS))]
    if "icc" in keys and r.scalar(keys["icc"]) is not None:  # else the shipped one
        out["icc"] = _icc_path(r, keys["icc"], path)
        out["names_icc"] = True
    if "ink_limit" in keys:
        out["ink_limit"] = r.number(keys["ink_limit"], 100, 400)
    if "bleed" in keys:
        out["bleed"] = r.number(keys["bleed"], 0, 20)
    if "page_order" in keys:
        out["page_order"] = r.choice(keys["page_order"], ORDERS)
    if "crop_marks" in keys:
        out["crop_marks"] = r.flag(keys["crop_marks"])
    if "cut_lines" in keys:
        out["cut_lines"] = _cut_lines(r, keys["cut_lines"])
    if "file_name" in keys:
        out["file_name"] = _file_name(r, keys["file_name"])
    if "image" in keys:
        out["image"] = _image(r, keys["image"])
    if out.get("output") == "images" and "image" not in out:
        raise r.fail(keys["output"][1], "output: images needs an 'image' mapping (format, dpi, sizes, copies)")
    if out.get("output", "pdf") == "pdf" and "image" in out:
        raise r.fail(keys["image"][0], "image: only for a profile with 'output: images'")
    return ShopProfile(**out)


def _refuse_pdf_keys(r: _Reader, keys: dict) -> None:
    """An image shop's files are named per card and kept in screen RGB: a PDF key in its
    profile would be silently ignored, so it is refused at its line."""
    for key in PDF_ONLY_KEYS:
        if key in keys:
            raise r.fail(keys[key][0], f"{key}: only for a profile with 'output: pdf' (an image shop's files"
                                       " are named per card and kept in RGB)")


def _icc_path(r: _Reader, pair, path: Path) -> Path | None:
    """An ICC file named by a profile: beside the profile file, else a shipped one
    (None for the shipped default, which the build embeds under its FOGRA39 name)."""
    from ..base.paths import shipped_profiles_dir

    name = r.text(pair)
    for base in (path.parent, shipped_profiles_dir()):
        candidate = (base / name).resolve()
        if candidate.is_file():
            default = (shipped_profiles_dir() / DEFAULT_ICC).resolve()
            return None if candidate == default else candidate  # the shipped one: its FOGRA39 condition
    raise r.fail(pair[1], f"icc: no file {name!r} beside the profile or among the shipped colour profiles")


def _cut_lines(r: _Reader, pair) -> dict[str, bool]:
    key, node = pair
    if isinstance(node, yaml.ScalarNode):
        value = _resolve(node)
        value = {True: "on", False: "off"}.get(value, value) if isinstance(value, bool) else value
        if value not in CUT_CHOICES:
            raise r.fail(node, f"cut_lines: must be on, off, shaped or a mapping of shapes "
                               f"({', '.join(SHAPES)}) to on/off, not {value!r}")
        return cut_lines_for(value)
    entries = r.mapping(node, "cut_lines", dict.fromkeys(SHAPES, False))
    cuts = dict(DEFAULT_CUTS)
    for shape, entry in entries.items():
        cuts[shape] = r.flag(entry)
    return cuts


def _file_name(r: _Reader, pair) -> str:
    pattern = r.text(pair)
    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(pattern) if f is not None}
    except ValueError as exc:
        raise r.fail(pair[1], f"file_name: {exc}") from None
    unknown = sorted(fields - set(NAME_FIELDS))
    if unknown:
        raise r.fail(pair[1], f"file_name: unknown field {{{unknown[0]}}} (known: "
                              f"{', '.join('{' + f + '}' for f in NAME_FIELDS)})")
    for needed in ("lang", "size"):
        if needed not in fields:
            raise r.fail(pair[1], f"file_name: needs {{{needed}}}, or two files of a kit would share a name")
    if any(ch in pattern for ch in "/\\\0") or pattern.startswith("."):
        raise r.fail(pair[1], "file_name: a file name, without a folder or a leading dot")
    return pattern


def _image(r: _Reader, pair) -> ImageSpec:
    entries = r.mapping(pair[1], "image", IMAGE_KEYS)
    spec: dict[str, Any] = {"format": r.choice(entries["format"], IMAGE_FORMATS)}
    if "dpi" in entries:
        dpi = r.number(entries["dpi"], 72, 1200, none_ok=False)
        spec["dpi"] = round(dpi or 300)
    if "copies" in entries:
        spec["copies"] = r.choice(entries["copies"], COPIES)
    if "sizes" in entries:
        spec["sizes"] = _sizes(r, entries["sizes"][1])
    return ImageSpec(**spec)


def _sizes(r: _Reader, node: yaml.Node) -> dict[tuple[float, float], tuple[int, int]]:
    """``"63.5x88.9": [825, 1125]``: a trim size in mm and the pixels of its image with bleed."""
    if not isinstance(node, yaml.MappingNode):
        raise r.fail(node, "image.sizes must map a trim size (\"63.5x88.9\", mm) to [width, height] in pixels")
    out = {}
    for k, v in node.value:
        try:
            w, h = (float(p) for p in str(k.value).lower().split("x"))
        except ValueError:
            raise r.fail(k, f"image.sizes: {k.value!r} is not a trim size such as \"63.5x88.9\" (mm)") from None
        px = _resolve(v) if isinstance(v, yaml.SequenceNode) else None
        if not (isinstance(px, list) and len(px) == 2 and all(isinstance(p, int) and not isinstance(p, bool)
                                                               and 16 <= p <= 20000 for p in px)):
            raise r.fail(v, f"image.sizes: {k.value}: must be [width, height], whole pixels from 16 to 20000")
        out[(w, h)] = (px[0], px[1])
    return out


# -- finding profiles ------------------------------------------------------------------------


def user_dir(settings_folder: Path) -> Path:
    """Where a user's own profiles go: ``shops/`` in the settings folder."""
    return settings_folder / USER_SUBDIR


def profile_files(settings_folder: Path | None) -> dict[str, Path]:
    """Every profile by name: the shipped ones, then the user's (a user's profile of the
    same name wins)."""
    found = {p.stem: p for p in sorted(SHIPPED_DIR.glob("*.yaml"))}
    if settings_folder is not None:
        folder = user_dir(settings_folder)
        if folder.is_dir():
            found.update({p.stem: p for p in sorted(folder.glob("*.yaml")) if p.is_file()})
    return found


class UnknownShop(CardgenError):
    """A shop name no profile has (a usage error: exit 2, listing the choices)."""

    def __init__(self, name: str, known: list[str]):
        super().__init__(f"unknown shop {name!r} (known: {', '.join(known)})")
        self.known = known


def find_profile(name: str, settings_folder: Path | None) -> ShopProfile:
    """The profile called ``name``; UnknownShop if none is."""
    files = profile_files(settings_folder)
    if name not in files:
        raise UnknownShop(name, sorted(files))
    return read_profile(files[name], name)
