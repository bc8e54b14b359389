"""The one place where millimetres become PDF points.

Game data and templates speak millimetres; ReportLab speaks points (1/72 in).
"""

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0
PT_PER_MM = PT_PER_INCH / MM_PER_INCH


def mm_to_pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    """PDF points to millimetres."""
    return pt / PT_PER_MM

