"""Font names to files: a name is a file stem ("NotoSans-Bold") looked up as a .ttf in
an ordered list of folders, a game's own first. Without ReportLab or fontTools, so
that loading a game (which checks the names it gives) imports neither; the
:class:`~cardgen.layout.fonts.FontBook` that registers and measures fonts is one."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..base.errors import CardgenError, Where, display_path, is_file
from ..base.jail import inside, parents_of


class FontFiles:
    """Resolves font names to files in an ordered list of folders."""

    def __init__(self, search_dirs: list[Path], roots: Iterable[Path] | None = None):
        """``roots``: where a font file may lie once its links are followed; by default
        the folder holding each search folder (the game folder for its ``fonts/``)."""
        self.search_dirs = [Path(d) for d in search_dirs]
        self.roots = tuple(roots) if roots is not None else parents_of(self.search_dirs)
        self._paths: dict[str, Path] = {}

    def resolve(self, name: str, where: Where | None = None) -> Path:
        """The .ttf for a font name; first folder wins so a game can override."""
        path = self._paths.get(name)
        if path is not None:
            return path
        if not name or "/" in name or "\\" in name or name.startswith("."):
            raise CardgenError(f"invalid font name '{name}' (use the file name without .ttf)", where)
        otf = None
        for d in self.search_dirs:
            for suffix in (".ttf", ".TTF"):
                candidate = d / (name + suffix)
                if is_file(candidate):
                    path = inside(candidate, self.roots)
                    self._paths[name] = path
                    return path
            for suffix in (".otf", ".OTF"):
                if otf is None and is_file(d / (name + suffix)):
                    otf = d / (name + suffix)
        looked = ", ".join(display_path(d) for d in self.search_dirs) or "no folders"
        if otf is not None:
            raise CardgenError(
                f"font '{name}' is only available as .otf ({display_path(otf)}): "
                f"ReportLab cannot embed CFF OpenType fonts; use a TrueType .ttf "
                f"(looked in: {looked})",
                where,
            )
        raise CardgenError(f"unknown font '{name}' (looked in: {looked})", where)
