"""``cardgen serve``: a live preview of a game in the browser."""

from __future__ import annotations

import signal

import click

from ..base.errors import CardgenError
from ..impose.papers import PAPERS_MM
from .exits import fail
from .option_values import check_langs, load_with_variants


@click.command()
@click.argument("game")
@click.option("--lang", default=None, metavar="LANG", help="Language shown first. Default: en, else the first.")
@click.option("--paper", type=click.Choice(sorted(PAPERS_MM)), default=None,
              help="Paper the sheet pages are imposed on first. Default: your saved paper setting, else a4.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your web browser.")
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="Include this optional variant's cards.")
@click.option("--soft-proof", is_flag=True,
              help="Start with the soft proof on: faces as the print-shop CMYK profile prints them, colours the"
                   " press cannot print hatched in magenta (a switch of the page too).")
def serve(game: str, lang: str | None, paper: str | None, port: int, open_browser: bool, variants: tuple[str, ...],
          soft_proof: bool) -> None:
    """Show GAME's faces and sheet pages in the browser, redrawn as you save.

    \b
    The page has switches for language, paper, duplex edge, ink-saver, the
    proof overlay and the soft proof; a click on a face enlarges it, with its template and card
    data. Saving any file of the game folder updates the page by itself; a
    mistake shows in a banner, file and line, over the last good pictures.
    Only this machine can reach it (127.0.0.1). Ctrl-C stops it.

    \b
    Example:
      cardgen serve hapy --lang fr --open
    """
    from ..settings import load_settings

    try:  # the saved settings choose the first paper and duplex edge, as for cardgen build
        settings = load_settings()
    except CardgenError as exc:
        fail(exc)
        return
    try:
        model = load_with_variants(game, variants)
    except CardgenError as exc:
        fail(exc)
        return
    if lang is not None:
        check_langs(model, [lang])
    signal.signal(signal.SIGTERM, _interrupt)  # a terminated server stops as cleanly as on Ctrl-C
    try:
        _run(game, model, lang, paper or settings.paper or "a4", settings.duplex or "long", port, open_browser,
             soft_proof)
    except KeyboardInterrupt:  # Ctrl-C before the server was up: nothing to stop yet
        pass
    click.echo("stopped serving", err=True)


def _run(game: str, model, lang: str | None, paper: str, duplex: str, port: int, open_browser: bool,
         soft_proof: bool = False) -> None:
    """Start the preview, serve until Ctrl-C, stop it."""
    from ..serve import LivePreview

    def log(line: str) -> None:
        click.echo(line, err=True)

    try:
        live = LivePreview(game, lang=lang, paper=paper, duplex=duplex, variants=model.variants, soft_proof=soft_proof,
                           port=port, log=log)
    except CardgenError as exc:
        fail(exc)
        return
    except OSError as exc:  # the port is taken, most often
        fail(CardgenError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}"))
        return
    try:
        live.start()
        for problem in live.preview.describe(live.preview.default)["errors"]:
            click.echo(f"error: {problem['text']}", err=True)
        click.echo(f"Serving {model.id} at {live.url} (Ctrl-C to stop)")
        if open_browser:
            import webbrowser

            webbrowser.open(live.url)
        live.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        live.stop()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
