"""Where cardgen finds its shipped games, templates and fonts.

The shipped folders sit beside the package in a checkout (``pip install -e .``).
CARDGEN_HOME can point elsewhere, e.g. for a packaged install.
"""

from __future__ import annotations

import os
from pathlib import Path


def project_root() -> Path:
    env = os.environ.get("CARDGEN_HOME")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent


def shipped_games_dir() -> Path:
    return project_root() / "card_data"


def shipped_templates_dir() -> Path:
    return project_root() / "templates"


def shipped_fonts_dir() -> Path:
    return project_root() / "fonts"


def default_output_dir() -> Path:
    return Path("output")
