"""Imposition: where each piece goes on a sheet, its back on the flip side, cut marks,
board tiles and sheet labels — geometry only, no drawing."""
