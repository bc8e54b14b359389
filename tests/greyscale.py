"""CIE L* (D65) of an sRGB colour: the lightness a greyscale printer keeps, on the
0–100 scale where a difference of about 10 reads as a clear step."""

from __future__ import annotations


def lightness(colour: str) -> float:
    """CIE L* of a ``#rrggbb`` colour."""
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    f = y ** (1 / 3) if y > 216 / 24389 else (24389 / 27 * y + 16) / 116
    return 116 * f - 16
