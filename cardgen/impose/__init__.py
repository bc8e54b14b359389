"""Imposition: where each piece goes on a sheet (grid), its back on the flip side or
beside a fold (duplex), cut marks (marks), piece outlines (shapes, outlines), board
tiles (tiling), the papers (papers) and sheet labels (labels) — geometry only, no
drawing. ``impose_kit`` (kit) lays out a rendered language as ``Sheets`` (sheets)
that the writers only draw."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .kitplan import impose_kit
    from .sheets import Sheets

_LAZY = {"impose_kit": "kitplan", "Sheets": "sheets"}  # the planner is imported on first use, not by
# ``cardgen.impose.papers`` (which the command line reads for its --paper choices)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Sheets", "impose_kit"]
