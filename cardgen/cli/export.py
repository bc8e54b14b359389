"""``cardgen export`` and ``cardgen preview``: card faces as images."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import CardgenError
from .exits import fail
from .option_values import check_langs, load_with_variants


@click.command()
@click.argument("game")
@click.option("--png", "png", is_flag=True, help="One PNG per distinct card face and per board, with bleed, fronts and backs paired by name, "
                   "and quantities.csv: the copies of each.")
@click.option("--tts", "tts", is_flag=True,
              help="Tabletop Simulator deck sheets (10 × 7 at most), back images and board images.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True,
              help="Resolution of --png images, from 72 to 1200.")
@click.option("--lang", "langs", multiple=True, metavar="LANG", help="Language (repeatable). Default: all.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("output"),
              show_default=True, help="Images go into OUT/<game>/png/<lang>/ and OUT/<game>/tts/<lang>/.")
@click.option("--ink-saver", is_flag=True, help="Light backgrounds instead of full colour floods.")
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="Include this optional variant's cards.")
def export(game: str, png: bool, tts: bool, dpi: int, langs: tuple[str, ...], out_dir: Path, ink_saver: bool,
           variants: tuple[str, ...]) -> None:
    """Export GAME's card faces as images, drawn by the same renderer as the PDFs.

    \b
    Examples:
      cardgen export hapy --png --dpi 300      # for online print services
      cardgen export hapy --tts --lang en      # for Tabletop Simulator
    """
    from .. import BuildOptions
    from ..export import export_png, export_tts

    if not (png or tts):
        raise click.UsageError("say what to export: --png and/or --tts")
    if tts and not png and dpi != 300:
        click.echo("note: --dpi applies to --png; TTS sheets use 409-pixel-wide cards", err=True)
    try:
        model = load_with_variants(game, variants)
    except CardgenError as exc:
        fail(exc)
        return
    check_langs(model, langs)
    try:
        options = BuildOptions(langs=langs, ink_saver=ink_saver, out_dir=out_dir, variants=model.variants)
        if ink_saver:
            from ..pipeline import KitBuilder

            KitBuilder(model, options, lambda line: click.echo(line, err=True)).warn_ink_saver()
        written = []
        if png:
            written += export_png(model, langs, out_dir, dpi, options)
        if tts:
            written += export_tts(model, langs, out_dir, options)
    except (CardgenError, OSError) as exc:
        fail(exc)
        return
    folders = sorted({str(p.parent) for p in written})
    click.echo(f"Exported {len(written)} files into {', '.join(folders)}")


@click.command()
@click.argument("game")
@click.option("--lang", default=None, metavar="LANG", help="Language to show. Default: en, else the first.")
@click.option("--out", "out_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="PNG file to write. Default: output/<game>/preview-<lang>.png")
@click.option("--variant", "variants", multiple=True, metavar="NAME", help="Include this optional variant's cards.")
def preview(game: str, lang: str | None, out_file: Path | None, variants: tuple[str, ...]) -> None:
    """Write one contact-sheet PNG showing every distinct face of GAME, labelled.

    \b
    Example:
      cardgen preview hapy --lang fr
    """
    from ..export import preview as make_preview

    try:
        model = load_with_variants(game, variants)
    except CardgenError as exc:
        fail(exc)
        return
    lang = lang or ("en" if "en" in model.languages else model.languages[0])
    check_langs(model, [lang])
    try:
        out = make_preview(model, lang, out_file or Path("output") / model.id / f"preview-{lang}.png")
    except (CardgenError, OSError) as exc:
        fail(exc)
        return
    click.echo(f"Wrote {out}")
