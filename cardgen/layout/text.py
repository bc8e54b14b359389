"""Text before drawing: font roles, glyph coverage, fitting, and flowed blocks.

Every text of every language is fitted and checked here first; the results are
memoised so the drawing pass places exactly what was checked. A character the font
lacks, or a text that does not fit even at its minimum size, is an error naming the
card, face and language — never an invisible glyph or a clipped line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..base.errors import CardgenError, Collector, Where, is_file
from ..base.jail import inside, link_path, parents_of
from ..base.units import pt_to_mm
from .colours import is_colour_literal
from .flow import NUMBER_FROM, FlowFonts, FlowResult, fit_flow
from .fonts import FALLBACK_FONTS, FontBook, describe_chars
from .images import MissingImage, Picture, open_picture
from .inline import Span, parse_inline
from .ops import Op, leaf_ops
from .svgart import MAX_FACE_SVG_ELEMENTS
from .textfit import FittedText, Run, fit_runs

DEFAULT_ROLE = "text"
# How many fitted texts (and marked-up texts' runs) the memo keeps: a language's faces
# carry their own fits until they are drawn, so a larger deck needs no larger memo.
FIT_MEMO_MAX = 1024
COLOUR_KEYS = ("fill", "stroke", "color", "heading_color", "accent")


def is_colour(value: str, palette: Mapping[str, str]) -> bool:
    return value in ("none", "transparent") or is_colour_literal(palette.get(value, value))


class IconSpec(Protocol):
    """An icon of game.yaml (``model.icons.Icon``, frozen): a font's character or an image."""

    @property
    def name(self) -> str: ...
    @property
    def char(self) -> str | None: ...
    @property
    def font(self) -> str | None: ...
    @property
    def src(self) -> str | None: ...
    @property
    def colour(self) -> str | None: ...
    @property
    def scale(self) -> float: ...


@dataclass(frozen=True)
class FontSet:
    """The fonts of one text: its own, and those its ``**bold**``, ``*italic*`` and
    ``***bold italic***`` words take (None: the text has no such font)."""

    regular: str
    bold: str | None
    italic: str | None
    bold_italic: str | None

    def pick(self, span: Span) -> str | None:
        if span.bold and span.italic:
            return self.bold_italic
        return self.bold if span.bold else self.italic if span.italic else self.regular


_STYLES = ("Regular", "Bold", "Italic", "BoldItalic")


def box_size(args: Mapping[str, Any]) -> str:
    """A box's size for a message, to a tenth of a millimetre: ``47×4.6 mm``."""
    return f"{round(args['w'], 1):g}×{round(args['h'], 1):g} mm"


def short(text: str, limit: int = 48) -> str:
    """A text for an error message, quoted and cut with an ellipsis when long."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _bounded_put(memo: dict, key: Any, value: Any) -> None:
    """Keep ``value`` under ``key``, the entry used longest ago let go when the memo is full."""
    if memo.pop(key, None) is None and len(memo) >= FIT_MEMO_MAX:
        del memo[next(iter(memo))]
    memo[key] = value


def _recent(memo: dict, key: Any) -> Any:
    """``memo[key]`` (None if it is not there), now the most recently used entry."""
    value = memo.pop(key, None)
    if value is not None:
        memo[key] = value
    return value


class TextEngine:
    """Resolves font roles, fits text ops and lays out flow ops, with a memo."""

    def __init__(self, book: FontBook, roles: Mapping[str, str], assets: Path | None = None,
                 palette: Mapping[str, str] | None = None, icons: Mapping[str, IconSpec] | None = None):
        self.book = book
        self.palette = dict(palette or {})
        self.roles = dict(roles)
        self.assets_dir = assets
        self.icons = dict(icons or {})
        self._fits: dict[tuple, FittedText] = {}
        self._flows: dict[tuple, FlowResult] = {}
        self._runs: dict[tuple, tuple[Run, ...]] = {}
        self._pictures: dict[Path, Picture | str] = {}  # an image's path → it, or what is wrong with it
        self._variants: dict[tuple[str, str], str | None] = {}
        self._strings_in: Callable[[list[str]], list[str]] | None = None  # during check()

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
            raise MissingImage(f"image '{src}' not found in the game's assets folder", src)
        return inside(path, parents_of([self.assets_dir]))  # the game folder, however assets/ is linked

    def picture(self, src: str) -> Picture:
        """The image ``src``, opened and checked once per build (PNG, JPEG or SVG); else a
        CardgenError naming the image file."""
        path = self.asset(src)
        if path not in self._pictures:
            try:
                self._pictures[path] = open_picture(path)
            except CardgenError as exc:
                self._pictures[path] = exc.message
        found = self._pictures[path]
        if isinstance(found, str):
            raise CardgenError(found, Where(link_path(Path(self.assets_dir or ".") / src)))
        return found

    def check_image(self, src: str) -> None:
        self.picture(src)

    # -- fonts of a text ---------------------------------------------------
    def _variant(self, name: str, style: str) -> str | None:
        """``NotoSans-Regular`` → ``NotoSans-Bold`` (for style Bold) when that font exists."""
        key = (name, style)
        if key not in self._variants:
            family, _, current = name.rpartition("-")
            found = None
            if current == style:
                found = name
            elif family and current in _STYLES:
                try:
                    self.book.resolve(f"{family}-{style}")
                    found = f"{family}-{style}"
                except CardgenError:
                    found = None
            self._variants[key] = found
        return self._variants[key]

    def _style_font(self, given: str | None, regular: str, style: str, role: str) -> str | None:
        if given:
            return self.font(given)
        return self._variant(regular, style) or (self.roles.get(role) if role in self.roles else None)

    def text_fonts(self, a: Mapping[str, Any]) -> FontSet:
        regular = self.font(a.get("font"))
        bold = self._style_font(a.get("bold_font"), regular, "Bold", "bold")
        italic = self._style_font(a.get("italic_font"), regular, "Italic", "italic")
        bold_italic = self._variant(regular, "BoldItalic") or bold
        return FontSet(regular, bold, italic, bold_italic)

    # -- markup → runs -----------------------------------------------------
    def runs_of(self, text: str, fonts: FontSet) -> tuple[Run, ...]:
        """The runs of a text with inline markup: each span in its style's font, each
        character the font lacks in a fallback font, each icon resolved. CardgenError for
        an unknown icon or colour, a style with no font, a character no fallback has."""
        key = (text, fonts)
        found = _recent(self._runs, key)
        if found is None:
            out: list[Run] = []
            for span in parse_inline(text):
                if span.colour is not None and not is_colour(span.colour, self.palette):
                    raise CardgenError(f"colour {span.colour!r} of a {{color=…}} span in {short(text)} is not a "
                                       f"colour (#rrggbb or a palette name)")
                font = fonts.pick(span)
                if font is None:
                    style = "bold italic" if span.bold and span.italic else "bold" if span.bold else "italic"
                    raise CardgenError(f"{style} words in {short(text)} need {'an' if style == 'italic' else 'a'} {style} font: {fonts.regular} has "
                                       f"none beside it; give the op "
                                       f"{'bold_font' if span.bold else 'italic_font'}: … or game.yaml fonts: "
                                       f"{{{'bold' if span.bold else 'italic'}: …}}")
                if span.icon:
                    out.append(self._icon_run(span, font, text))
                else:
                    out.extend(self._font_runs(span, font, text))
            found = tuple(out)
            _bounded_put(self._runs, key, found)
        return found

    def _font_runs(self, span: Span, font: str, text: str) -> list[Run]:
        """A span split where a character is missing from ``font`` and drawn from a fallback."""
        self.book.register(font)
        missing = self.book.missing_chars(font, span.text)
        if not missing:
            return [Run(span.text, font, span.colour)]
        lost = [c for c in missing if self._fallback_for(c) is None]
        if lost:
            raise CardgenError(f"font {font} has no glyph for {describe_chars(lost)} in {short(text)}"
                               f"{self._where_else(lost)}")
        out: list[Run] = []
        for c in span.text:
            chosen = font if c not in missing else self._fallback_for(c) or font
            if out and out[-1].font == chosen:
                out[-1] = Run(out[-1].text + c, chosen, span.colour)
            else:
                out.append(Run(c, chosen, span.colour))
        for run in out:
            self.book.register(run.font)
        return out

    def _fallback_for(self, char: str) -> str | None:
        for name in FALLBACK_FONTS:
            try:
                if self.book.covers(name, char):
                    return name
            except CardgenError:
                continue
        return None

    def _where_else(self, chars: list[str]) -> str:
        """The hint of a missing-glyph error: which fonts do have the characters."""
        parts = [(c, ", ".join(self.book.fonts_with(c))) for c in chars]
        if len({p[1] for p in parts}) == 1:
            having = parts[0][1]
            it = "it" if len(chars) == 1 else "them"
            return f"; {'it is' if it == 'it' else 'they are'} in: {having} (use font: … or an icon)" if having \
                else f"; no shipped or game font has {it} (add a font that has {it} to the game's fonts/, or use an icon)"
        return "; " + "; ".join(f"'{c}' is in: {h or 'no shipped or game font'}" for c, h in parts) + \
            " (use font: … or an icon)"

    def _icon_run(self, span: Span, font: str, text: str) -> Run:
        assert span.icon is not None
        spec = self.icons.get(span.icon)
        if spec is None:
            known = ", ".join(sorted(self.icons)) or "none"
            raise CardgenError(f"unknown icon ':{span.icon}:' in {short(text)} (game.yaml icons: {known}; "
                               f"write \\: for a literal ':')")
        if spec.colour is not None and not is_colour(spec.colour, self.palette):
            raise CardgenError(f"icon '{spec.name}': color {spec.colour!r} is not a colour (#rrggbb or a palette "
                               f"name)")
        if spec.src is not None:
            self.picture(spec.src)
            return Run("", font, span.colour, icon=spec.name)
        assert spec.char is not None
        glyph_font = self.font(spec.font) if spec.font else font
        self.book.register(glyph_font)
        if not self.book.covers(glyph_font, spec.char):
            fallback = None if spec.font else self._fallback_for(spec.char)
            if fallback is None:
                raise CardgenError(f"icon '{spec.name}': font {glyph_font} has no glyph for "
                                   f"{describe_chars(spec.char)}{self._where_else([spec.char])}")
            glyph_font = fallback
            self.book.register(glyph_font)
        return Run("", glyph_font, span.colour, icon=spec.name)

    def measure(self, font: str) -> Callable[[str, float], float]:
        """The width in mm of plain text in ``font`` at a size in pt (no markup read)."""
        return lambda text, size: self.book.string_width_mm(font, text, size)

    def run_width(self, run: Run, size: float) -> float:
        """A run's advance in mm at ``size`` pt: its text, or its icon as the painter draws it."""
        if run.icon is None:
            return self.book.string_width_mm(run.font, run.text, size)
        spec = self.icons[run.icon]
        if spec.char is not None:
            return self.book.string_width_mm(run.font, spec.char, size * spec.scale)
        return self.icon_height_mm(spec, size) * self.picture(spec.src or "").aspect

    @staticmethod
    def icon_height_mm(spec: IconSpec, size: float) -> float:
        """An image icon is one em (the text's size) tall, times its scale."""
        return pt_to_mm(size) * spec.scale

    # -- text ops ----------------------------------------------------------
    def _fit_key(self, a: Mapping[str, Any]) -> tuple:
        size = a.get("size") or 9.0
        max_lines = int(a["max_lines"]) if a.get("max_lines") else None
        return (self.text_fonts(a), a["text"], a["w"], a["h"], size, min(a.get("min_size") or size, size),
                a.get("line_height", 1.2), max_lines)

    def fit_op(self, op: Op) -> FittedText:
        key = self._fit_key(op.args)
        fitted = _recent(self._fits, key)
        if fitted is None:
            fonts, text, w, h, size, min_size, line_height, max_lines = key
            fitted = fit_runs(self.run_width, list(self.runs_of(text, fonts)), w, h, size, min_size,
                              line_height, max_lines, text_width=self.book.string_width_mm)
            _bounded_put(self._fits, key, fitted)
        return fitted

    def fits_of(self, ops: tuple[Op, ...]) -> dict[tuple, FittedText]:
        """The fits this engine worked out for ``ops``' text ops, to travel with a face
        that waits to be drawn (the memo keeps only the latest ones): what
        :meth:`remember_fits` takes back, so that drawing the face fits nothing again."""
        out: dict[tuple, FittedText] = {}
        for op in leaf_ops(ops):
            if op.kind == "text":
                try:
                    key = self._fit_key(op.args)
                except CardgenError:
                    continue  # the check reported it
                fitted = self._fits.get(key)
                if fitted is not None:
                    out[key] = fitted
        return out

    def remember_fits(self, fits: Mapping[tuple, FittedText]) -> None:
        """Fits worked out before (:meth:`fits_of`), back in the memo."""
        for key, fitted in fits.items():
            _bounded_put(self._fits, key, fitted)

    # -- flow ops ----------------------------------------------------------
    def _flow_fonts(self, a: dict) -> FlowFonts:
        body = self.font(a.get("font"))
        bold = self.font(a.get("bold_font") or ("bold" if "bold" in self.roles else a.get("font")))
        heading = self.font(a.get("heading_font") or ("title" if "title" in self.roles else a.get("font")))
        italic = self._style_font(a.get("italic_font"), body, "Italic", "italic")
        return FlowFonts(heading=heading, bold=bold, body=body, italic=italic)

    def _flow_runs(self, fonts: FlowFonts):
        def runs(text: str, base: str) -> list[Run]:
            italic = fonts.italic if base == fonts.body else self._variant(base, "Italic") or fonts.italic
            bold_italic = self._variant(fonts.bold, "BoldItalic") or fonts.bold
            return list(self.runs_of(text, FontSet(base, fonts.bold, italic, bold_italic)))
        return runs

    def _ascent(self, font: str) -> float:
        asc, desc = self.book.ascent_descent(font)
        return asc / (asc - desc)

    def flow_op(self, op: Op) -> FlowResult:
        a = op.args
        key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(a.items()))
        cached = self._flows.get(key)
        if cached is None:
            size = a.get("size") or 9.0
            fonts = self._flow_fonts(a)
            cached = fit_flow(
                a["blocks"], a["x"], a["y"], a["w"], a["h"], size, min(a.get("min_size") or size, size),
                columns=max(1, int(a.get("columns") or 1)), gap=a.get("gap", 6.0),
                line_height=a.get("line_height", 1.25), fonts=fonts,
                width=self.run_width, ascent=self._ascent, runs=self._flow_runs(fonts),
                heading_colour=a.get("heading_color"), accent=a.get("accent"),
                first_number=a.get(NUMBER_FROM, 0), spread=bool(a.get("spread")),
                text_width=self.book.string_width_mm,
            )
            self._flows[key] = cached
        return cached

    def all_fit(self, ops: tuple[Op, ...]) -> bool:
        """Whether every text and flow of ``ops`` fits its box (at its ``min_size`` at
        worst): how a template's ``choices`` are told apart. Other problems are the
        check pass's to report."""
        for op in ops:
            try:
                if op.kind == "group" and not self.all_fit(op.children):
                    return False
                if op.kind == "text" and not self.fit_op(op).fits:
                    return False
                if op.kind == "flow" and not self.flow_op(op).fits:
                    return False
            except CardgenError:
                continue  # a missing glyph, a bad icon: reported by the check, whichever choice is drawn
        return True

    # -- the check pass ----------------------------------------------------
    def check(self, ops: tuple[Op, ...], label: str, errors: Collector,
              strings_in: Callable[[list[str]], list[str]] | None = None) -> None:
        """Check every text, glyph, flow and image op for coverage, fit and files, recursively,
        and what the face's SVGs cost to draw together. ``strings_in`` names the locale
        strings a box's texts print (their keys), for the message of a box too small."""
        self._strings_in = strings_in
        try:
            self._check_ops(ops, label, errors)
        finally:
            self._strings_in = None
        cost = self._svg_cost(ops)
        if cost > MAX_FACE_SVG_ELEMENTS:
            errors.add(f"{label}: the SVG art and icons of this face draw {cost:,} elements; a face may draw "
                       f"at most {MAX_FACE_SVG_ELEMENTS:,}")

    def _check_ops(self, ops: tuple[Op, ...], label: str, errors: Collector) -> None:
        for op in ops:
            try:
                self._check_op(op, label, errors)
            except MissingImage as exc:  # kept as what it is: the renderer may name the cell it came from
                errors.extend(MissingImage(f"{label}: {exc.message}", exc.src))
            except CardgenError as exc:
                errors.add(f"{label}: {exc.message}", exc.where if exc.where.path else None)

    def _svg_cost(self, ops: tuple[Op, ...]) -> int:
        """The SVG elements the (checked) ops draw: each SVG image and each SVG icon, every time."""
        total = 0
        for op in ops:
            try:
                if op.kind == "group":
                    total += self._svg_cost(op.children)
                elif op.kind == "image":
                    total += self.picture(op.args["src"]).elements
                elif op.kind in ("text", "flow"):
                    texts = [op.args["text"]] if op.kind == "text" else [t for _, t in op.args["blocks"]]
                    for text in texts:
                        for span in parse_inline(text):
                            spec = self.icons.get(span.icon or "")
                            if spec is not None and spec.src is not None:
                                total += self.picture(spec.src).elements
            except CardgenError:
                continue  # reported by the checks themselves
        return total

    def _named(self, texts: list[str]) -> str:
        """`` (string 'card.region.other')``: the locale strings the texts print, if known."""
        keys = self._strings_in(texts) if self._strings_in is not None else []
        if not keys:
            return ""
        return f" (string{'s' if len(keys) > 1 else ''} {', '.join(repr(k) for k in keys)})"

    def _check_op(self, op: Op, label: str, errors: Collector) -> None:
        a = op.args
        for key in COLOUR_KEYS:
            value = a.get(key)
            if value is not None and not is_colour(value, self.palette):
                errors.add(f"{label}: {op.kind} {key} {value!r} is not a colour (#rrggbb, a palette name or none)")
        if op.kind == "group":
            self._check_ops(op.children, label, errors)
        elif op.kind == "text":
            self.runs_of(a["text"], self.text_fonts(a))  # markup, icons and glyphs, else a CardgenError
            fitted = self.fit_op(op)
            if not fitted.fits:
                errors.add(
                    f"{label}: text {short(a['text'])}{self._named([a['text']])} does not fit its {box_size(a)} box "
                    f"even at {fitted.size:g} pt ({fitted.overflow:.0%} too long)"
                )
        elif op.kind == "glyph":
            font = self.font(a.get("font"))
            self.book.register(font)
            if len(a["char"]) != 1:
                errors.add(f"{label}: glyph takes exactly one character, found {a['char']!r}")
            elif self.book.missing_chars(font, a["char"]):
                errors.add(f"{label}: font {font} has no glyph for {describe_chars(a['char'])}"
                           f"{self._where_else([a['char']])}")
        elif op.kind == "flow":
            fonts = self._flow_fonts(a)
            runs = self._flow_runs(fonts)
            for kind, text in a["blocks"]:
                runs(text, fonts.heading if kind == "h1" else fonts.bold if kind == "h2" else fonts.body)
            result = self.flow_op(op)
            if not result.fits:
                errors.add(
                    f"{label}: flowed text{self._named([t for _, t in a['blocks']])} does not fit its {box_size(a)} "
                    f"box even at {result.size:g} pt ({result.overflow:.0%} too long)"
                )
        elif op.kind == "image":
            self.check_image(a["src"])
        elif op.kind == "path":
            from .svgpath import PathError, parse_path

            try:
                parse_path(a["d"])
            except PathError as exc:
                errors.add(f"{label}: {exc}")
