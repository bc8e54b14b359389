"""Imposition: where each piece goes on a sheet (grid), its back on the flip side or
beside a fold (duplex), cut marks (marks), piece outlines (shapes, outlines), board
tiles (tiling), the papers (papers) and sheet labels (labels) — geometry only, no
drawing. ``impose_kit`` (kit) lays out a rendered language as ``Sheets`` (sheets)
that the writers only draw."""

from .kitplan import impose_kit
from .sheets import Sheets

__all__ = ["Sheets", "impose_kit"]
