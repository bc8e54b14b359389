"""The ``cardgen`` command line: one module per command, click only; the work itself
is done by the public API in :mod:`cardgen`."""

from __future__ import annotations

import click

from ..version import __version__
from .build import build
from .calibrate import calibrate
from .config import config_cmd
from .exits import stoppable
from .export import export, preview
from .i18n import i18n
from .listing import list_cmd
from .serve import serve
from .validate import validate


class _Commands(click.Group):
    """The command group; every command stops through :func:`stoppable` on Ctrl-C
    or SIGTERM (one line, exit 130 or 143, its clean-up done)."""

    def invoke(self, ctx: click.Context):
        with stoppable():
            return super().invoke(ctx)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
def main() -> None:
    """cardgen turns a game folder (YAML cards + Jinja layouts) into print-ready PDFs.

    \b
    Example:
      cardgen list
      cardgen build hapy --lang en --paper a4
    """


for command in (list_cmd, build, export, preview, serve, validate, calibrate, config_cmd, i18n):
    main.add_command(command)

__all__ = ["main"]
