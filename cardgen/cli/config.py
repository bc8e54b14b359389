"""``cardgen config``: show and change the user's and the project's settings."""

from __future__ import annotations

import click

from ..base.errors import CardgenError
from .exits import fail


@click.group("config", invoke_without_command=True,
            short_help="Show or change your settings (back offset, paper, duplex).")
@click.pass_context
def config_cmd(ctx: click.Context) -> None:
    """Show or change your settings (back offset, paper, duplex).

    \b
    With no subcommand, prints every setting in force and the file it comes
    from ("default" when no file sets it). Settings live in your user file
    (see 'cardgen config path') and in ./cardgen.cfg, which wins in its
    folder. Both are 'key = value' lines, easy to edit by hand.

    \b
    Examples:
      cardgen config
      cardgen config set back-offset 0.5,-1.0
      cardgen config set paper letter --project
      cardgen config path
    """
    if ctx.invoked_subcommand is not None:
        return
    from ..base.errors import display_path
    from ..settings import KEYS, describe_value, load_settings

    try:
        settings = load_settings()
    except CardgenError as exc:
        fail(exc)
        return
    rows = [(key, describe_value(settings, key), settings.source(key)) for key in sorted(KEYS)]
    wk, wv = max(len(r[0]) for r in rows), max(len(r[1]) for r in rows)
    for key, text, src in rows:
        click.echo(f"{key:<{wk}} = {text:<{wv}}  # {display_path(src) if src != 'default' else src}")


@config_cmd.command("set", context_settings={"ignore_unknown_options": True},
                    short_help="Set KEY to VALUE (user file, or ./cardgen.cfg with --project).")
@click.argument("key", type=click.Choice(["back-offset", "duplex", "paper"]), metavar="KEY")
@click.argument("value", nargs=-1, required=True)
@click.option("--project", is_flag=True, help="Write ./cardgen.cfg (this folder only) instead of your user file.")
def config_set(key: str, value: tuple[str, ...], project: bool) -> None:
    """Set KEY to VALUE in your user file (with --project: in ./cardgen.cfg).

    \b
    Keys:
      back-offset X,Y  mm to move every back page, X to the right and Y down
                       (each within ±10); read them off 'cardgen calibrate'
      paper            a4 or letter
      duplex           long or short

    \b
    Examples:
      cardgen config set back-offset 0.5,-1.0
      cardgen config set back-offset -1.5,0
      cardgen config set duplex short --project
    """
    from ..base.errors import display_path
    from ..settings import load_settings, normalise_value, set_value

    try:
        text = normalise_value(key, " ".join(value))
    except CardgenError as exc:  # a bad value on the command line is a usage error, as in build
        raise click.BadParameter(str(exc), param_hint="'VALUE'") from None
    try:
        path = set_value(key, text, project=project)
        click.echo(f"{key} = {text}  (written to {display_path(path)})")
        settings = load_settings()  # the whole picture: a mistake elsewhere, a file that overrides this one
    except CardgenError as exc:
        fail(exc)
        return
    src = settings.source(key)
    if src != str(path):
        click.echo(f"note: {display_path(src)} also sets {key}, and wins in this folder", err=True)


@config_cmd.command("path", short_help="Print the settings files cardgen reads.")
def config_path() -> None:
    """Print the settings files cardgen reads, in order (the later one wins).

    \b
    The user file is in your platform's usual place (the CARDGEN_CONFIG
    environment variable names another file instead); the project file is
    cardgen.cfg in the current folder.

    \b
    Example:
      cardgen config path
    """
    import os

    from ..settings import ENV_VAR, project_config_path, user_config_path

    user = "user file, from " + ENV_VAR if os.environ.get(ENV_VAR) else "user file"
    for label, path in ((user, user_config_path()), ("project file", project_config_path())):
        click.echo(f"{path}  ({label}; {'exists' if path.is_file() else 'not there yet'})")




