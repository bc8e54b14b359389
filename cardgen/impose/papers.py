"""The papers a kit can be imposed on, portrait, in millimetres (width, height)."""

PAPERS_MM = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}

PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
"""How a sheet label and a file's title name a paper."""
