"""Where cardgen finds its shipped games, templates and fonts.

An installed wheel carries them inside the package (``cardgen/shipped/``, put there by
the build backend); a checkout or an editable install reads them from the repository
root, where they are edited. CARDGEN_HOME can point at another folder holding
``card_data/``, ``templates/``, ``fonts/``, ``locales/`` and ``profiles/``.
"""

from __future__ import annotations

import os
from functools import cache
from importlib.resources import files
from pathlib import Path


@cache
def _installed_root() -> Path | None:
    shipped = files("cardgen") / "shipped"
    return Path(str(shipped)) if shipped.is_dir() else None


def project_root() -> Path:
    env = os.environ.get("CARDGEN_HOME")
    if env:
        return Path(env)
    return _installed_root() or Path(__file__).resolve().parents[2]  # cardgen/base/ → the repository


def shipped_games_dir() -> Path:
    return project_root() / "card_data"


def shipped_templates_dir() -> Path:
    return project_root() / "templates"


def shipped_fonts_dir() -> Path:
    return project_root() / "fonts"


def shipped_locales_dir() -> Path:
    """The words cardgen itself prints, per language (cardgen/toolwords.py)."""
    return project_root() / "locales"


def shipped_profiles_dir() -> Path:
    """The shipped ICC colour profiles and their licences (print-shop files)."""
    return project_root() / "profiles"


def default_output_dir() -> Path:
    return Path("output")
