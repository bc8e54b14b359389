"""``cardgen calibrate``: the sheet that measures a printer's duplex offset."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import CardgenError
from ..calibrate.text import LANGS as CALIBRATION_LANGS
from ..impose.papers import PAPERS_MM
from .exits import fail


@click.command(short_help="Write a sheet that measures your printer's duplex offset.")
@click.option("--paper", type=click.Choice(sorted(PAPERS_MM)), default=None,
              help="Paper size. Default: your 'paper' setting, else a4.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default=None,
              help="How your printer flips the sheet. Default: your 'duplex' setting, else long.")
@click.option("--lang", type=click.Choice(CALIBRATION_LANGS), default="en", show_default=True,
              help="Language of the sheet's instructions.")
@click.option("--out", "out_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="PDF to write. Default: output/calibration-PAPER-DUPLEX.pdf (-fr / -nl before .pdf).")
def calibrate(paper: str | None, duplex: str | None, lang: str, out_file: Path | None) -> None:
    """Write a two-page sheet that measures how far your printer shifts the backs.

    \b
    Print it two-sided at 100 % with the flip you use for cards, hold it to
    the light, read X and Y off the two ladders on the back, and save them:
      cardgen config set back-offset X,Y
    Cards files built afterwards move their back pages by that much.

    \b
    Examples:
      cardgen calibrate
      cardgen calibrate --paper letter --duplex short --out cal.pdf
      cardgen calibrate --lang fr
    """
    from ..base.errors import display_path
    from ..calibrate.sheet import calibration_pdf, default_calibration_path
    from ..settings import load_settings

    try:
        if paper is None or duplex is None:
            settings = load_settings()
            paper = paper or settings.paper or "a4"
            duplex = duplex or settings.duplex or "long"
        path = calibration_pdf(out_file or default_calibration_path(paper, duplex, lang=lang), paper, duplex, lang)
    except (CardgenError, OSError) as exc:
        fail(exc)
        return
    click.echo(f"Wrote {display_path(path)} (2 pages, {paper.upper()}, duplex {duplex} edge)")
    click.echo(f"Print it two-sided at 100 %, flip on the {duplex} edge, then follow the steps on page 1.")
