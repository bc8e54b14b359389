"""What a build is asked (:class:`BuildOptions`) and what it gives back (:class:`Built`,
:class:`WrittenFile`): plain values, importable without the renderer, ReportLab or
pikepdf, so that a build with nothing to do (:mod:`cardgen.output.unchanged`) is
decided before any of them is loaded."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..base.errors import CardgenWarning
    from ..output.shops import ShopProfile

PDFX_STANDARDS = ("4", "1a")  # --pdfx: PDF/X-4 (the default), PDF/X-1a:2003

__all__ = ["PDFX_STANDARDS", "BuildOptions", "Built", "WrittenFile"]


@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...] = ()  # empty: every language of the game
    papers: tuple[str, ...] = ("a4", "letter")
    duplex: str = "long"
    out_dir: Path = Path("output")
    ink_saver: bool = False
    jobs: int = 0  # worker processes for languages; 0 = one per core
    layout: str = "duplex"  # or "gutterfold": fronts and backs on one side, folded
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, added to every back page (x right, y down)
    proof: bool = False  # trim, bleed and safe-zone lines over every card
    variants: tuple[str, ...] = ()  # optional card variants to include (the game must be loaded with them)
    allow_fallback: bool = False  # missing strings take the first language's text (the game loaded so)
    cache: bool = False  # faces rendered by earlier builds come from the user's cache folder (render/facestore.py)
    strict: bool = False  # a warning fails the build, and the kit is left as it was
    profile: Path | None = None  # the CMYK output profile of the print-shop files (None: the shipped FOGRA39 one)
    ink_limit: float | None = None  # total ink of the print-shop files, percent (None: 300)
    pdfx: str = "4"  # the print-shop files' standard: "4" (PDF/X-4) or "1a" (PDF/X-1a:2003, flattened)
    shop: ShopProfile | None = None  # a print-shop profile (--shop, --cut-lines); None: the default, pdfx4


@dataclass(frozen=True)
class WrittenFile:
    name: str
    pages: int


class Built(NamedTuple):
    """What a build made: the kit's folder, the files written, and the warnings it gave."""

    folder: Path
    files: list[WrittenFile]
    warnings: list[CardgenWarning]
