"""Imposition: where each piece goes on a sheet (grid), its back on the flip side or
beside a fold (duplex), cut marks (marks), board tiles (tiling), the papers (papers)
and sheet labels (labels) — geometry only, no drawing."""
