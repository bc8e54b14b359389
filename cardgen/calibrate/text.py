"""The words of the duplex calibration sheet, in every language whose cardgen locale
file (``locales/<lang>.yaml``, section ``calibration``) has them all.

The numbers a user reads off the ladders and types into ``cardgen config set
back-offset X,Y`` keep a decimal point in every language, as the command takes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..toolwords import languages, words


class _Text(Mapping[str, Mapping[str, str]]):
    """language -> the sheet's words, from cardgen's own locale files (``calibration``)."""

    def __getitem__(self, lang: str) -> Mapping[str, str]:
        if lang not in LANGS:
            raise KeyError(lang)
        return words("calibration", lang)

    def __iter__(self) -> Iterator[str]:
        return iter(LANGS)

    def __len__(self) -> int:
        return len(LANGS)


LANGS = languages("calibration")
TEXT = _Text()
