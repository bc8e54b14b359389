"""Find, register and check fonts.

Templates name a font by its file stem ("NotoSans-Bold"). A FontBook turns that
name into a .ttf in an ordered list of folders (a game's own folder first, then
the shipped fonts/), registers it with ReportLab once, and answers the questions
the layout stage needs before anything is drawn: which characters a font lacks
(ReportLab draws them as nothing, silently), how wide a string is, where a
glyph's ink sits, and how tall the font is.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from fontTools.ttLib import TTFont as _FTFont
from reportlab.pdfbase import pdfmetrics, ttfonts

from ..base.errors import CardgenError, Where, display_path
from ..base.units import pt_to_mm
from .fontfiles import FontFiles

# Characters that are layout, not ink: never reported as missing.
_IGNORED = frozenset("\n\t\r")

# Shipped fonts that draw a character a text's own font lacks (stars, dice, arrows…).
FALLBACK_FONTS = ("NotoSansSymbols2-Regular", "NotoSansMath-Regular")


# --- Font book ----------------------------------------------------------------

def describe_chars(chars) -> str:
    """Characters for an error message: visible form plus code point, since
    many of the interesting ones (NNBSP, thin space) are invisible."""
    return ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)


# ReportLab's font registry is process-global: remember which file each of our
# names stands for so two different files with the same stem never collide.
_registered: dict[str, Path] = {}      # reportlab name -> file
_rl_name_of: dict[Path, str] = {}      # file -> reportlab name

# fontTools objects and derived tables, shared by every FontBook (keyed by file).
_ft_fonts: dict[Path, _FTFont] = {}
_cmaps: dict[Path, frozenset[int]] = {}
_boxes: dict[tuple[Path, str], tuple[float, float, float, float]] = {}
_vmetrics: dict[Path, tuple[float, float]] = {}

_WIDTH_CACHE_MAX = 200_000


class FontBook(FontFiles):
    """Resolves font names to files in an ordered list of folders, registers them
    with ReportLab once, answers coverage and glyph-geometry questions."""

    def __init__(self, search_dirs: list[Path], roots: Iterable[Path] | None = None):
        super().__init__(search_dirs, roots)
        self._rl_names: dict[str, str] = {}
        self._widths: dict[tuple[str, str, float], float] = {}

    # -- registering

    def register(self, name: str, where: Where | None = None) -> str:
        """Register the font with ReportLab (once) and return its ReportLab name."""
        rl = self._rl_names.get(name)
        if rl is not None:
            return rl
        path = self.resolve(name, where)
        rl = _rl_name_of.get(path)
        if rl is None:
            rl = "cg-" + name
            n = 2
            while rl in _registered:          # same stem, different file
                rl = f"cg-{name}-{n}"
                n += 1
            try:
                pdfmetrics.registerFont(ttfonts.TTFont(rl, str(path)))
            except Exception as e:  # TTFError, struct errors on a broken file
                raise CardgenError(
                    f"font '{name}' ({display_path(path)}) cannot be used: {e}", where
                ) from e
            _registered[rl] = path
            _rl_name_of[path] = rl
        self._rl_names[name] = rl
        return rl

    # -- coverage and metrics

    def _ft(self, name: str) -> tuple[Path, _FTFont]:
        path = self.resolve(name)
        font = _ft_fonts.get(path)
        if font is None:
            font = _ft_fonts[path] = _FTFont(str(path), lazy=True)
        return path, font

    def _cmap(self, name: str) -> frozenset[int]:
        path, font = self._ft(name)
        cmap = _cmaps.get(path)
        if cmap is None:
            cmap = _cmaps[path] = frozenset(font.getBestCmap() or ())
        return cmap

    def covers(self, name: str, char: str) -> bool:
        """True when the font has a glyph for this one character."""
        return ord(char) in self._cmap(name)

    def missing_chars(self, name: str, text: str) -> list[str]:
        """Characters of text the font lacks, each once, in order of appearance.

        ReportLab draws these as nothing and still reports a width, so they must
        be caught here. No-break and thin spaces count: a font without U+202F
        would silently drop the space French puts before ':'.
        """
        cmap = self._cmap(name)
        seen: dict[str, None] = {}
        for c in text:
            if c not in _IGNORED and ord(c) not in cmap:
                seen.setdefault(c, None)
        return list(seen)

    def fonts_with(self, char: str) -> list[str]:
        """The names of the game's and shipped fonts that have ``char`` (for the hint of
        a missing-glyph error); a font file that cannot be read is left out."""
        names: dict[str, None] = {}
        for d in self.search_dirs:
            try:
                files = sorted(p for p in d.iterdir() if p.suffix.lower() == ".ttf")
            except OSError:
                continue
            for f in files[:200]:
                try:
                    if f.stem not in names and self.covers(f.stem, char):
                        names[f.stem] = None
                except Exception:  # a broken font in the game's folder: reported where it is used
                    continue
        return list(names)

    def cap_height(self, name: str) -> float:
        """The height of capitals in ems (OS/2 sCapHeight; 0.7 when the font says nothing)."""
        path, font = self._ft(name)
        os2 = font["OS/2"] if "OS/2" in font else None
        cap = getattr(os2, "sCapHeight", 0) or 0
        return cap / float(font["head"].unitsPerEm) if cap > 0 else 0.7

    def string_width_mm(self, name: str, text: str, size_pt: float) -> float:
        """Advance width of text in mm, as ReportLab will draw it (no kerning)."""
        key = (name, text, size_pt)
        w = self._widths.get(key)
        if w is None:
            rl = self._rl_names.get(name) or self.register(name)
            w = pt_to_mm(pdfmetrics.stringWidth(text, rl, size_pt))
            if len(self._widths) >= _WIDTH_CACHE_MAX:
                self._widths.clear()
            self._widths[key] = w
        return w

    def glyph_box(self, name: str, char: str) -> tuple[float, float, float, float]:
        """Ink box (xMin, yMin, xMax, yMax) of one character, in ems.

        Hieroglyphs sit unevenly in their advance box; centring a big figure on
        its ink looks right where centring on the advance does not. A blank
        glyph (a space) gives (0, 0, 0, 0).
        """
        if len(char) != 1:
            raise ValueError(f"glyph_box wants one character, got {char!r}")
        path, font = self._ft(name)
        key = (path, char)
        box = _boxes.get(key)
        if box is None:
            gname = font.getBestCmap().get(ord(char))
            if gname is None:
                raise CardgenError(f"font '{name}' has no glyph for {describe_chars(char)}")
            glyf = font["glyf"]
            glyph = glyf[gname]
            if getattr(glyph, "numberOfContours", 0) == 0:
                box = (0.0, 0.0, 0.0, 0.0)
            else:
                if not hasattr(glyph, "xMin"):
                    glyph.recalcBounds(glyf)
                upm = float(font["head"].unitsPerEm)
                box = (glyph.xMin / upm, glyph.yMin / upm, glyph.xMax / upm, glyph.yMax / upm)
            _boxes[key] = box
        return box

    def ascent_descent(self, name: str) -> tuple[float, float]:
        """(ascent, descent) in ems; descent is negative (below the baseline).

        Uses OS/2 typo metrics when the font asks for them (USE_TYPO_METRICS),
        else hhea, which is what most renderers use for line placement.
        """
        path, font = self._ft(name)
        vm = _vmetrics.get(path)
        if vm is None:
            upm = float(font["head"].unitsPerEm)
            os2 = font["OS/2"] if "OS/2" in font else None
            if os2 is not None and os2.fsSelection & (1 << 7):
                asc, desc = os2.sTypoAscender, os2.sTypoDescender
            else:
                asc, desc = font["hhea"].ascent, font["hhea"].descent
            vm = _vmetrics[path] = (asc / upm, -abs(desc) / upm)
        return vm
