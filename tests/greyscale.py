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


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a ``#rrggbb`` colour."""
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: str, b: str) -> float:
    """CIE 1976 colour difference: about 2 is just seen side by side, 10 plainly."""
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5
