"""The pseudo-language: every string of the source language accented, about 35 %
longer and bracketed, so a designer sees which boxes overflow, which text is not a
locale string (it stays plain) and where a string is cut, before any translator starts.

``{name}`` placeholders, ``{{``/``}}`` and the inline markup of every text (``*``,
``**``, ``{color=…}``, ``{/color}``, ``:icon:``, backslash escapes; see
``layout/inline.py``) are kept as they are, so a pseudo string fills and flows like the
real one. Every character
used is in the shipped Noto fonts (Latin-1 and Latin Extended-A).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

PSEUDO = "pseudo"
GROWTH = 0.35  # how much longer a pseudo string is than its source

_ACCENTS = str.maketrans(
    "aceinorsuyzACEINORSUYZ",
    "áçéîñöŕšûýžÁÇÉÎÑÖŔŠÛÝŽ",
)
_PADDING = "ļōŕēm ĩpšũm ďōļōŕ šĩţ āmēţ "
_KEEP = re.compile(r"(\{\{|\}\}|\{[A-Za-z_][A-Za-z0-9_]*\}|\\[*:{\\]|\*\*|\*"
                   r"|\{colou?r=[^{}\s]{1,40}\}|\{/colou?r\}|:[A-Za-z][A-Za-z0-9_-]*:)")


def pseudo_text(text: str) -> str:
    """``text`` accented, padded by about GROWTH of its length, between brackets."""
    if not text.strip():
        return text
    parts = _KEEP.split(text)
    accented = "".join(p if _KEEP.fullmatch(p) else p.translate(_ACCENTS) for p in parts)
    extra = max(1, round(len(text) * GROWTH) - 3)  # the brackets and the space before the padding count too
    pad = (_PADDING * (extra // len(_PADDING) + 1))[:extra].rstrip()
    trailing = accented[len(accented.rstrip("\n")):]
    return f"[{accented.rstrip(chr(10))}\u00a0{pad}]{trailing}" if pad else f"[{accented}]"


def pseudo_table(source: Mapping[str, str]) -> dict[str, str]:
    """Every string of ``source`` in the pseudo-language."""
    return {key: pseudo_text(text) for key, text in source.items()}
