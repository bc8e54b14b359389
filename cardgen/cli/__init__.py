"""The ``cardgen`` command line: one module per command, click only; the work itself
is done by the public API in :mod:`cardgen`."""

from __future__ import annotations

from collections.abc import MutableMapping
from importlib import import_module

import click

from ..version import __version__
from .exits import stoppable

# Each command's module, imported only when that command runs (or help lists them all):
# `cardgen build` never loads the validator, the preview server or the calibration sheet.
COMMANDS = {
    "list": ("listing", "list_cmd"), "build": ("build", "build"), "export": ("export", "export"),
    "preview": ("export", "preview"), "serve": ("serve", "serve"), "validate": ("validate", "validate"),
    "calibrate": ("calibrate", "calibrate"), "config": ("config", "config_cmd"), "i18n": ("i18n", "i18n"),
    "shops": ("shops", "shops_cmd"),
}


class _Commands(click.Group):
    """The command group; every command stops through :func:`stoppable` on Ctrl-C
    or SIGTERM (one line, exit 130 or 143, its clean-up done)."""

    @property
    def commands(self) -> MutableMapping[str, click.Command]:
        """Every command, imported (what help and the documentation walk)."""
        return {name: cmd for name in COMMANDS if (cmd := self.get_command(None, name)) is not None}  # type: ignore[arg-type]

    @commands.setter
    def commands(self, value: MutableMapping[str, click.Command]) -> None:  # click's constructor sets it: the table above is the list
        pass

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        where = COMMANDS.get(name)
        if where is None:
            return None
        module, attr = where
        return getattr(import_module(f"{__name__}.{module}"), attr)

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


__all__ = ["main"]
