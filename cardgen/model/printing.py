"""A game's own print settings (game.yaml's ``print:``), for its print-shop files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..base.errors import Where


@dataclass(frozen=True)
class PrintSettings:
    """What the game asks of its print-shop files; None where it leaves the choice to the
    shop and the defaults. The command line's options win over each (see
    ``cardgen.output.printchoice``). ``where`` holds the line of each key given, so a
    profile that is no CMYK output profile or a shop nobody knows is named at its line."""

    profile: Path | None = None  # inside the game folder, links followed and checked
    ink_limit: float | None = None  # percent
    shop: str | None = None
    where: dict[str, Where] = field(default_factory=dict, compare=False)
