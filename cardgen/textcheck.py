"""Text before drawing: font roles, glyph coverage, fitting, and flowed blocks.

Every text of every language is fitted and checked here first; the results are
memoised so the drawing pass places exactly what was checked. A character the font
lacks, or a text that does not fit even at its minimum size, is an error naming the
card, face and language — never an invisible glyph or a clipped line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from .errors import CardgenError, Collector
from .fonts import FontBook, describe_chars
from .layout import Op
from .textfit import FittedText, fit_text, wrap
from .units import PT_PER_MM

DEFAULT_ROLE = "text"


@dataclass(frozen=True)
class FlowLine:
    font: str
    size: float  # pt
    x: float
    baseline: float
    text: str
    colour: str | None


@dataclass(frozen=True)
class FlowResult:
    lines: tuple[FlowLine, ...]
    size: float
    fits: bool
    overflow: float


# Relative sizes and spacing of flow blocks (multiples of the body size).
_BLOCK_SCALE = {"h1": 1.45, "h2": 1.15, "p": 1.0, "li": 1.0, "num": 1.0, "space": 1.0}
_SPACE_BEFORE = {"h1": 0.9, "h2": 0.7, "p": 0.35, "li": 0.2, "num": 0.2, "space": 0.6}


class TextEngine:
    """Resolves font roles, fits text ops and lays out flow ops, with a memo."""

    def __init__(self, book: FontBook, roles: Mapping[str, str], assets: Path | None = None):
        self.book = book
        self.roles = dict(roles)
        self.assets_dir = assets
        self._fits: dict[tuple, FittedText] = {}
        self._flows: dict[tuple, FlowResult] = {}

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
        if not path.is_file():
            raise CardgenError(f"image '{src}' not found in the game's assets folder")
        return path

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
    def _flow_fonts(self, a: dict) -> dict[str, str]:
        body = self.font(a.get("font"))
        bold = self.font(a.get("bold_font") or ("bold" if "bold" in self.roles else a.get("font")))
        heading = self.font(a.get("heading_font") or ("title" if "title" in self.roles else a.get("font")))
        return {"h1": heading, "h2": bold, "p": body, "li": body, "num": body, "space": body}

    def _layout_flow(self, a: dict, size: float) -> FlowResult:
        fonts = self._flow_fonts(a)
        columns = max(1, int(a.get("columns") or 1))
        gap = a.get("gap", 6.0)
        col_w = (a["w"] - gap * (columns - 1)) / columns
        lh = a.get("line_height", 1.25)
        lines: list[FlowLine] = []
        col, y, number, overflow = 0, 0.0, 0, 0.0
        first_in_col = True
        for kind, text in a["blocks"]:
            s = size * _BLOCK_SCALE[kind]
            s_mm = s / PT_PER_MM
            lead = s_mm * lh
            space = 0.0 if first_in_col else _SPACE_BEFORE[kind] * size / PT_PER_MM * 1.6
            if kind == "space":
                y += space
                continue
            if kind == "h1" or kind == "h2":
                number = 0
            indent, marker = 0.0, None
            if kind == "li":
                marker = "•"
            elif kind == "num":
                number += 1
                marker = f"{number}."
            if marker:
                indent = self.book.string_width_mm(fonts[kind], "00.", s) if kind == "num" else s_mm * 1.1
            wrapped = wrap(self.measure(fonts[kind]), text, s, col_w - indent) or [""]
            widest = max(self.book.string_width_mm(fonts[kind], w, s) for w in wrapped)
            if widest > col_w - indent + 1e-6:
                overflow = max(overflow, widest / (col_w - indent) - 1)
            asc, desc = self.book.ascent_descent(fonts[kind])
            height = s_mm + (len(wrapped) - 1) * lead
            # keep a heading with at least one following line: move it whole
            if y + space + height > a["h"] and not first_in_col:
                if col + 1 < columns:
                    col, y, space = col + 1, 0.0, 0.0
                else:
                    overflow = max(overflow, (y + space + height) / a["h"] - 1)
            y += space
            x0 = a["x"] + col * (col_w + gap)
            colour = a.get("heading_color") if kind in ("h1", "h2") else None
            first_base = a["y"] + y + s_mm * asc / (asc - desc)
            if marker:
                lines.append(FlowLine(fonts[kind], s, x0, first_base, marker, a.get("accent") or colour))
            for i, w in enumerate(wrapped):
                lines.append(FlowLine(fonts[kind], s, x0 + indent, first_base + i * lead, w, colour))
            y += height
            first_in_col = False
            if kind in ("h1", "h2"):
                y += s_mm * 0.15
        if y > a["h"]:
            overflow = max(overflow, y / a["h"] - 1)
        return FlowResult(tuple(lines), size, overflow <= 1e-9, overflow)

    def flow_op(self, op: Op) -> FlowResult:
        a = op.args
        key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(a.items()))
        cached = self._flows.get(key)
        if cached is not None:
            return cached
        size = a.get("size") or 9.0
        min_size = min(a.get("min_size") or size, size)
        result = self._layout_flow(a, size)
        s = size
        while not result.fits and s - 0.25 >= min_size - 1e-9:
            s -= 0.25
            result = self._layout_flow(a, s)
        self._flows[key] = result
        return result

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
        if op.kind == "group":
            self.check(op.children, label, errors)
        elif op.kind == "text":
            font = self.font(a.get("font"))
            self.book.register(font)
            missing = self.book.missing_chars(font, a["text"])
            if missing:
                errors.add(f"{label}: font {font} has no glyph for {describe_chars(missing)} in {a['text']!r:.40}")
                return
            fitted = self.fit_op(op)
            if not fitted.fits:
                errors.add(
                    f"{label}: text {a['text']!r:.50} does not fit its {a['w']:g}×{a['h']:g} mm box even at "
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
                self.book.register(fonts[kind])
                missing = self.book.missing_chars(fonts[kind], text)
                if missing:
                    errors.add(f"{label}: font {fonts[kind]} has no glyph for {describe_chars(missing)} in {text!r:.40}")
                    return
            result = self.flow_op(op)
            if not result.fits:
                errors.add(
                    f"{label}: flowed text does not fit its {a['w']:g}×{a['h']:g} mm box even at "
                    f"{result.size:g} pt ({result.overflow:.0%} too long)"
                )
        elif op.kind == "image":
            self.asset(a["src"])
        elif op.kind == "path":
            from .svgpath import PathError, parse_path

            try:
                parse_path(a["d"])
            except PathError as exc:
                errors.add(f"{label}: {exc}")
