"""What reading a translator's file gives, whatever its format."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Where


@dataclass(frozen=True)
class Translation:
    key: str
    source: str  # the source text the translator saw
    text: str  # their translation ("" when there is none)
    where: Where
    fuzzy: bool = False


@dataclass(frozen=True)
class Imported:
    lang: str
    translations: list[Translation]
