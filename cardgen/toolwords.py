"""The words cardgen itself prints (sheet labels, the calibration sheet), per language,
read from the shipped ``locales/<lang>.yaml`` files: a new language is a new file, no
Python. Each file has a ``sheet`` section (the label words) and may have a
``calibration`` section; English is complete and is what a missing word falls back to.
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType
from typing import Any

import yaml

from .base.errors import CardgenError, Where, display_path
from .base.paths import shipped_locales_dir

SOURCE = "en"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: these files are read at every start


@cache
def _file(lang: str) -> dict[str, Any]:
    path = shipped_locales_dir() / f"{lang}.yaml"
    if not path.is_file():
        return {}
    try:
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise CardgenError(f"YAML syntax error: {getattr(exc, 'problem', exc)}", Where(display_path(path))) from None
    if not isinstance(doc, dict):
        raise CardgenError("the file must map sections (sheet, calibration) to their words", Where(display_path(path)))
    return doc


def _section(lang: str, section: str) -> dict[str, str]:
    words = _file(lang).get(section) or {}
    return {str(k): str(v) for k, v in words.items() if isinstance(v, (str, int, float)) and str(v).strip()}


def own_words(section: str, lang: str) -> dict[str, str]:
    """The words of ``section`` that cardgen's file for ``lang`` itself has (none
    filled in from English)."""
    return _section(lang, section)


@cache
def words(section: str, lang: str) -> MappingProxyType:
    """The words of ``section`` in ``lang``, each missing one in English."""
    return MappingProxyType({**_section(SOURCE, section), **(_section(lang, section) if lang != SOURCE else {})})


def languages(section: str) -> tuple[str, ...]:
    """The languages whose file has every word of ``section`` (English first)."""
    every = set(_section(SOURCE, section))
    found = sorted(p.stem for p in shipped_locales_dir().glob("*.yaml") if every <= set(_section(p.stem, section)))
    return tuple(sorted(found, key=lambda lang: lang != SOURCE))
