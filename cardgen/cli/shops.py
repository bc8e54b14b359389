"""``cardgen shops``: the print-shop profiles ``cardgen build --shop`` takes, with what
each sets."""

from __future__ import annotations

import click

from ..base.errors import CardgenError
from .exits import fail


@click.command("shops")
def shops_cmd() -> None:
    """List the print-shop profiles for 'cardgen build GAME --shop NAME': the shipped
    ones and your own (YAML files in the shops/ folder beside your settings file, see
    'cardgen config path'), each with what it sets.

    \b
    Example:
      cardgen shops
      cardgen build hapy --shop mbprint
    """
    from ..base.errors import display_path
    from ..output.shops import DEFAULT_SHOP, profile_files, read_profile, user_dir
    from ..settings import user_config_path

    folder = user_config_path().parent
    try:
        profiles = [read_profile(path, name) for name, path in sorted(profile_files(folder).items())]
    except CardgenError as exc:
        fail(exc)
        return
    for p in profiles:
        default = " (the default)" if p.name == DEFAULT_SHOP else ""
        click.echo(f"{p.name}{default}: {p.description}")
        click.echo(f"    from {p.source}")
        for line in p.summary():
            click.echo(f"    {line}")
    click.echo(f"\nYour own profiles: {display_path(user_dir(folder))}/<name>.yaml")
