"""Option values that are wrong are usage errors (exit 2), like a bad ``--paper``.

Some values can only be judged once the game is loaded (its languages, its variants);
these helpers raise click.BadParameter for them, so every command words them alike.
"""

from __future__ import annotations

from collections.abc import Iterable

import click

from ..base.errors import CardgenError, UnknownVariantError


def back_offset_option(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[float, float] | None:
    """click callback: ``--back-offset X,Y`` parsed, or a usage error saying why not."""
    if value is None:
        return None
    from ..settings import parse_offset

    try:
        return parse_offset(value)
    except CardgenError as exc:
        raise click.BadParameter(exc.message) from None


def load_with_variants(game: str, variants: Iterable[str], fallback: bool = False):
    """The game loaded with ``variants``; a variant it does not have is a bad ``--variant``."""
    from .. import load_game

    try:
        return load_game(game, variants, fallback=fallback)
    except UnknownVariantError as exc:
        raise click.BadParameter(exc.message, param_hint="'--variant'") from None


def check_langs(model, langs: Iterable[str]) -> None:
    """A language the game does not have is a bad ``--lang``."""
    unknown = [lang for lang in langs if not model.has_language(lang)]
    if unknown:
        raise click.BadParameter(f"{model.id} has no language {', '.join(unknown)}"
                                 f" (it has: {', '.join(model.languages)}, and pseudo)", param_hint="'--lang'")
