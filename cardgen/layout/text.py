"""Text before drawing: font roles, glyph coverage, fitting, and flowed blocks.

Every text of every language is fitted and checked here first; the results are
memoised so the drawing pass places exactly what was checked. A character the font
lacks, or a text that does not fit even at its minimum size, is an error naming the
card, face and language — never an invisible glyph or a clipped line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from ..errors import CardgenError, Collector, Where, is_file
from .flow import FlowFonts, FlowResult, fit_flow, runs
from .fonts import FontBook, describe_chars
from .images import check_image as check_image_file
from .jail import inside, link_path, parents_of
from .ops import Op
from .textfit import FittedText, fit_text

DEFAULT_ROLE = "text"
COLOUR_KEYS = ("fill", "stroke", "color", "heading_color", "accent")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def is_colour(value: str, palette: Mapping[str, str]) -> bool:
    return value in ("none", "transparent") or bool(_HEX.match(palette.get(value, value)))


def short(text: str, limit: int = 48) -> str:
    """A text for an error message, quoted and cut with an ellipsis when long."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


class TextEngine:
    """Resolves font roles, fits text ops and lays out flow ops, with a memo."""

    def __init__(self, book: FontBook, roles: Mapping[str, str], assets: Path | None = None,
                 palette: Mapping[str, str] | None = None):
        self.book = book
        self.palette = dict(palette or {})
        self.roles = dict(roles)
        self.assets_dir = assets
        self._fits: dict[tuple, FittedText] = {}
        self._flows: dict[tuple, FlowResult] = {}
        self._images: dict[Path, str | None] = {}  # an image's path → what is wrong with it, None when nothing

    def font(self, name: str | None) -> str:
        """A role name (title, text, …) or a font name → a font name."""
        name = name or DEFAULT_ROLE
        if name in self.roles:
            return self.roles[name]
        if name == DEFAULT_ROLE:
            raise CardgenError("no font for the 'text' role: add fonts: {text: …} to game.yaml")
        return name

    def asset(self, src: str) -> Path:
        if self.assets_dir is None or ".." in Path(src).parts or Path(src).is_absolute():
            raise CardgenError(f"image '{src}' must be a file inside the game's assets folder")
        path = self.assets_dir / src
        if not is_file(path):
            raise CardgenError(f"image '{src}' not found in the game's assets folder")
        return inside(path, parents_of([self.assets_dir]))  # the game folder, however assets/ is linked

    def check_image(self, src: str) -> None:
        """The image ``src`` is one the painter can draw (read once per build); else a
        CardgenError naming the image file."""
        path = self.asset(src)
        if path not in self._images:
            try:
                check_image_file(path)
                self._images[path] = None
            except CardgenError as exc:
                self._images[path] = exc.message
        problem = self._images[path]
        if problem is not None:
            raise CardgenError(problem, Where(link_path(Path(self.assets_dir or ".") / src)))

    def measure(self, font: str):
        return lambda text, size: self.book.string_width_mm(font, text, size)

    # -- text ops ----------------------------------------------------------
    def fit_op(self, op: Op) -> FittedText:
        a = op.args
        font = self.font(a.get("font"))
        size = a.get("size") or 9.0
        min_size = min(a.get("min_size") or size, size)
        max_lines = int(a["max_lines"]) if a.get("max_lines") else None
        key = (font, a["text"], a["w"], a["h"], size, min_size, a.get("line_height", 1.2), max_lines)
        fitted = self._fits.get(key)
        if fitted is None:
            fitted = fit_text(self.measure(font), a["text"], a["w"], a["h"], size, min_size,
                              a.get("line_height", 1.2), max_lines)
            self._fits[key] = fitted
        return fitted

    # -- flow ops ----------------------------------------------------------
    def _flow_fonts(self, a: dict) -> FlowFonts:
        body = self.font(a.get("font"))
        bold = self.font(a.get("bold_font") or ("bold" if "bold" in self.roles else a.get("font")))
        heading = self.font(a.get("heading_font") or ("title" if "title" in self.roles else a.get("font")))
        return FlowFonts(heading=heading, bold=bold, body=body)

    def _ascent(self, font: str) -> float:
        asc, desc = self.book.ascent_descent(font)
        return asc / (asc - desc)

    def flow_op(self, op: Op) -> FlowResult:
        a = op.args
        key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(a.items()))
        cached = self._flows.get(key)
        if cached is None:
            size = a.get("size") or 9.0
            cached = fit_flow(
                a["blocks"], a["x"], a["y"], a["w"], a["h"], size, min(a.get("min_size") or size, size),
                columns=max(1, int(a.get("columns") or 1)), gap=a.get("gap", 6.0),
                line_height=a.get("line_height", 1.25), fonts=self._flow_fonts(a),
                width=self.book.string_width_mm, ascent=self._ascent,
                heading_colour=a.get("heading_color"), accent=a.get("accent"),
            )
            self._flows[key] = cached
        return cached

    # -- the check pass ----------------------------------------------------
    def check(self, ops: tuple[Op, ...], label: str, errors: Collector) -> None:
        """Check every text, glyph and flow op for coverage and fit, recursively."""
        for op in ops:
            try:
                self._check_op(op, label, errors)
            except CardgenError as exc:
                errors.add(f"{label}: {exc.message}", exc.where if exc.where.path else None)

    def _check_op(self, op: Op, label: str, errors: Collector) -> None:
        a = op.args
        for key in COLOUR_KEYS:
            value = a.get(key)
            if value is not None and not is_colour(value, self.palette):
                errors.add(f"{label}: {op.kind} {key} {value!r} is not a colour (#rrggbb, a palette name or none)")
        if op.kind == "group":
            self.check(op.children, label, errors)
        elif op.kind == "text":
            font = self.font(a.get("font"))
            self.book.register(font)
            missing = self.book.missing_chars(font, a["text"])
            if missing:
                errors.add(f"{label}: font {font} has no glyph for {describe_chars(missing)} in {short(a['text'])}")
                return
            fitted = self.fit_op(op)
            if not fitted.fits:
                errors.add(
                    f"{label}: text {short(a['text'])} does not fit its {a['w']:g}×{a['h']:g} mm box even at "
                    f"{fitted.size:g} pt ({fitted.overflow:.0%} too long)"
                )
        elif op.kind == "glyph":
            font = self.font(a.get("font"))
            self.book.register(font)
            if len(a["char"]) != 1:
                errors.add(f"{label}: glyph takes exactly one character, found {a['char']!r}")
            elif self.book.missing_chars(font, a["char"]):
                errors.add(f"{label}: font {font} has no glyph for {describe_chars(a['char'])}")
        elif op.kind == "flow":
            fonts = self._flow_fonts(a)
            for kind, text in a["blocks"]:
                for run_text, is_bold in runs(text):
                    font = fonts.heading if kind == "h1" else fonts.bold if (is_bold or kind == "h2") else fonts.body
                    self.book.register(font)
                    missing = self.book.missing_chars(font, run_text)
                    if missing:
                        errors.add(f"{label}: font {font} has no glyph for {describe_chars(missing)} in {short(run_text)}")
                        return
            result = self.flow_op(op)
            if not result.fits:
                errors.add(
                    f"{label}: flowed text does not fit its {a['w']:g}×{a['h']:g} mm box even at "
                    f"{result.size:g} pt ({result.overflow:.0%} too long)"
                )
        elif op.kind == "image":
            self.check_image(a["src"])
        elif op.kind == "path":
            from .svgpath import PathError, parse_path

            try:
                parse_path(a["d"])
            except PathError as exc:
                errors.add(f"{label}: {exc}")
