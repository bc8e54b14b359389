"""Which output profile, ink limit and shop a build's print-shop files follow.

Three layers, the later winning, each setting taken from the first that sets it:

1. the command line: ``--profile`` and ``--ink-limit``, then what its ``--shop`` sets;
2. the game's ``print:`` section: its ``profile`` and ``ink_limit``, then what its
   ``shop`` sets (only when the command line names no shop: a ``--shop`` replaces the
   game's shop wholly);
3. the defaults: the shipped FOGRA39 profile, 300 %, no shop (the plain PDF/X-4 file).

A shop that leaves its profile or ink limit unset (``null``) leaves it to the next
layer; a ``--shop`` whose profile names its ICC file (the shipped FOGRA39 one included:
MB Print asks for FOGRA39) keeps it over the game's own profile. The game's settings are data of an untrusted folder: its profile must be a CMYK
output profile and its shop one that exists, else one line naming game.yaml's line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..base.errors import CardgenError, Where
from ..base.paths import shipped_profiles_dir
from ..model.printing import PrintSettings
from .shops import DEFAULT_ICC, DEFAULT_SHOP, ShopProfile, UnknownShop, find_profile


@dataclass(frozen=True)
class PrintChoice:
    """What the print-shop files follow; None: the default."""

    profile: Path | None
    ink_limit: float | None
    shop: ShopProfile | None


def choose(game: PrintSettings, *, profile: Path | None, ink_limit: float | None, shop: ShopProfile | None,
           cut_lines: str | None, settings_folder: Path | None) -> PrintChoice:
    """The print choices of a build: the command line's ``profile``, ``ink_limit`` and
    ``shop`` (already looked up) over the game's, over the defaults; ``cut_lines``
    (``--cut-lines``) in place of the chosen shop's (the default shop's, if none)."""
    game_shop = _game_shop(game, settings_folder)  # checked even when the command line names another
    if shop is not None:
        game_shop = None  # the command line's shop replaces the game's, with everything it sets
    if game.profile is not None:
        _check_profile(game.profile, game.where.get("profile"))
    if profile is None and shop is not None and shop.names_icc:  # the shop's press condition, even the shipped one
        chosen_profile = shop.icc or shipped_profiles_dir() / DEFAULT_ICC
    else:
        chosen_profile = _first(profile, shop.icc if shop else None, game.profile,
                                game_shop.icc if game_shop else None)
    chosen_limit = _first(ink_limit, shop.ink_limit if shop else None, game.ink_limit,
                          game_shop.ink_limit if game_shop else None)
    chosen_shop = shop or game_shop
    if chosen_shop is None and cut_lines is not None:
        chosen_shop = find_profile(DEFAULT_SHOP, settings_folder)
    if chosen_shop is not None:
        chosen_shop = chosen_shop.with_cut_lines(cut_lines)
    return PrintChoice(chosen_profile, chosen_limit, chosen_shop)


def _first(*values):
    return next((v for v in values if v is not None), None)


def _game_shop(game: PrintSettings, settings_folder: Path | None) -> ShopProfile | None:
    if game.shop is None:
        return None
    try:
        return find_profile(game.shop, settings_folder)
    except UnknownShop as exc:
        raise CardgenError(f"'shop' in print: {exc.message}", game.where.get("shop")) from None


def _check_profile(path: Path, where: Where | None) -> None:
    """The game's ICC file is a CMYK output profile (read_profile says what else it is)."""
    from .cmyk import read_profile  # Pillow's colour engine: only for a game that names its own profile

    try:
        read_profile(path)
    except CardgenError as exc:
        said = exc.message.split(": ", 1)[-1]  # without the file's path: the line names it
        raise CardgenError(f"'profile' in print: {path.name}: {said}", where) from None
