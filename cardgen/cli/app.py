"""The ``cardgen`` command line: list, build (and validate, where a game has rules)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import __version__
from ..errors import CardgenError, os_error
from ..units import PAPERS_MM


LIST_PROBLEMS = 3  # problems shown per broken game by 'cardgen list'


def report(exc: CardgenError | OSError) -> None:
    """Print a user error, one problem per line; a file the system refused (a file in
    the way of a folder, no permission, a full disk) is a user error too."""
    for line in (os_error(exc) if isinstance(exc, OSError) else exc).lines():
        click.echo(f"error: {line}", err=True)


def fail(exc: CardgenError | OSError) -> None:
    """Print a user error, one problem per line, and exit 1."""
    report(exc)
    sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
def main() -> None:
    """cardgen turns a game folder (YAML cards + Jinja layouts) into print-ready PDFs.

    \b
    Example:
      cardgen list
      cardgen build hapy --lang en --paper a4
    """


@main.command("list")
@click.option("--data", "data_dirs", multiple=True, type=click.Path(path_type=Path),
              help="A game folder (or a folder of game folders) to list besides the shipped games.")
def list_cmd(data_dirs: tuple[Path, ...]) -> None:
    """List the games found, with their components, card counts and languages.

    \b
    Example:
      cardgen list --data ~/my-games
    """
    from ..load.game import GAME_FILE, load_game, shipped_game_ids

    targets: list[str] = list(shipped_game_ids())
    for d in data_dirs:
        if (d / GAME_FILE).is_file():
            targets.append(str(d))
        elif d.is_dir():
            targets += [str(p) for p in sorted(d.iterdir()) if (p / GAME_FILE).is_file()]
        else:
            click.echo(f"error: {d}: no game folder here", err=True)
            sys.exit(1)
    if not targets:
        click.echo("no games found")
        return
    problems = 0
    for target in targets:
        try:
            game = load_game(target, every_variant=True)
        except CardgenError as exc:
            problems += 1
            lines = exc.lines()
            click.echo(f"{target}: cannot be loaded ({len(lines)} problem(s))")
            for line in lines[:LIST_PROBLEMS]:
                click.echo(f"    {line}")
            if len(lines) > LIST_PROBLEMS:
                click.echo(f"    … and {len(lines) - LIST_PROBLEMS} more: run 'cardgen build {target}' to see them all")
            continue
        lang = "en" if "en" in game.languages else game.languages[0]
        lo, hi = game.players
        players = f"{lo}" if lo == hi else f"{lo}–{hi}"
        click.echo(f"{game.id}  {game.name(lang)}  ({players} players; languages: {', '.join(game.languages)})")
        for comp in game.components:
            label = game.strings[lang].get(comp.name_key, comp.id) if comp.name_key else comp.id
            if comp.kind == "deck":
                sides = "two-sided" if comp.back else "one-sided"
                w, h = comp.size
                base = sum(k.quantity for k in comp.cards if not k.variant)
                size = f"{w:g} mm round" if comp.shape == "circle" else f"{w:g}×{h:g} mm"
                click.echo(f"    {comp.id:<12} {base:>4} × {size} {sides:<10} {label}")
                for name in game.known_variants:
                    extra = [k for k in comp.cards if k.variant == name]
                    if extra:
                        what = ", ".join(f"{k.id} ×{k.quantity}" for k in extra)
                        click.echo(f"    {'':<12} {'+' + str(sum(k.quantity for k in extra)):>4}"
                                   f" with --variant {name}: {what}")
            elif comp.kind == "board":
                w, h = comp.size
                from ..impose.tiling import plan_tiles

                text = f"board {w:g}×{h:g} mm"
                pages = [plan_tiles(PAPERS_MM[p], comp.size, comp.bleed, comp.overlap).pages for p in ("a4", "letter")]
                click.echo(f"    {comp.id:<12}      {text:<26} {label} ({pages[0]} pages on A4, {pages[1]} on Letter)")
            else:
                click.echo(f"    {comp.id:<12}      sheet{'':<21} {label}")
    if problems:
        sys.exit(1)


@main.command()
@click.argument("game")
@click.option("--lang", "langs", multiple=True, metavar="LANG", help="Language to build (repeatable). Default: all.")
@click.option("--paper", "papers", multiple=True, type=click.Choice(sorted(PAPERS_MM)),
              help="Paper to impose on (repeatable). Default: your saved paper setting, else a4 and letter.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default=None,
              help="How your printer flips the sheet for the backs. Default: your saved setting, else long.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("output"),
              show_default=True, help="Output folder; the kit goes into OUT/<game>/.")
@click.option("--ink-saver", is_flag=True, help="Light backgrounds instead of full colour floods.")
@click.option("--layout", type=click.Choice(["duplex", "gutterfold"]), default="duplex", show_default=True,
              help="duplex: backs on the following page; gutterfold: fronts and mirrored backs side by side on "
                   "one landscape sheet, to fold and glue (no duplex printer needed).")
@click.option("--back-offset", metavar="X,Y", default=None,
              help="Shift every back page by X,Y mm (x right, y down, seen on the back page) to undo your "
                   "printer's misregistration; measure it with 'cardgen calibrate'. Default: your saved "
                   "back-offset setting ('cardgen config'), else 0,0.")
@click.option("--proof", is_flag=True, help="Draw trim (red), bleed (dashed red) and safe-zone (dashed blue) lines "
                                            "over every card, for checking layouts.")
@click.option("--jobs", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Languages built in parallel processes; 0 = one per CPU core, 1 = no extra processes.")
@click.option("--variant", "variants", multiple=True, metavar="NAME",
              help="Include the cards of this optional variant (repeatable); 'cardgen list' shows a game's "
                   "variants. Default: none.")
@click.option("--watch", is_flag=True, help="After building, rebuild whenever the game's data or templates "
                                            "change (Ctrl-C to stop). A failed rebuild prints its errors and "
                                            "keeps watching.")
def build(game: str, langs: tuple[str, ...], papers: tuple[str, ...], duplex: str, out_dir: Path,
          ink_saver: bool, layout: str, back_offset: str | None, proof: bool, jobs: int, variants: tuple[str, ...],
          watch: bool) -> None:
    """Build the print-and-play kit of GAME (a shipped game id or a game folder).

    \b
    Writes, per language: cards imposed on each paper with their duplex backs,
    one-sided sheets (rules, setup, stickers), and a one-card-per-page
    print-shop file with bleed.

    \b
    Examples:
      cardgen build hapy
      cardgen build hapy --lang fr --paper a4 --duplex short
      cardgen build path/to/my-game --out build/
      cardgen build hapy --layout gutterfold --paper letter
      cardgen build hapy --back-offset 0.5,-1
      cardgen build farao --variant jokers
    """
    from ..build import BuildOptions
    from ..settings import load_settings, parse_offset

    try:  # the user's saved settings fill in what the command line leaves out
        settings = load_settings()
        offset = parse_offset(back_offset) if back_offset is not None else settings.back_offset
    except CardgenError as exc:
        fail(exc)
        return
    options = BuildOptions(langs=langs, papers=papers or ((settings.paper,) if settings.paper else ("a4", "letter")),
                           duplex=duplex or settings.duplex or "long", out_dir=out_dir, ink_saver=ink_saver,
                           jobs=jobs, layout=layout, back_offset=offset, proof=proof,
                           variants=tuple(dict.fromkeys(variants)))
    if layout == "gutterfold" and back_offset is not None:
        click.echo("note: --back-offset has no effect with --layout gutterfold (no duplex printing)", err=True)
    ok = _build_once(game, options)
    if not watch:
        sys.exit(0 if ok else 1)
    _watch(game, options)


def _build_once(game: str, options) -> bool:
    """Build and report; False (errors printed) on a user error."""
    from ..build import build_game
    from ..load.game import load_game

    try:
        model = load_game(game, options.variants)
        folder, written = build_game(model, options, progress=lambda msg: click.echo(f"  {msg}…", err=True))
    except (CardgenError, OSError) as exc:  # OSError: the output folder cannot be written
        report(exc)
        return False
    with_variants = f" with variant {', '.join(model.variants)}" if model.variants else ""
    click.echo(f"Built {model.id}{with_variants} into {folder}/")
    width = max(len(f.name) for f in written)
    for f in written:
        click.echo(f"  {f.name:<{width}}  {f.pages:>3} page{'s' if f.pages != 1 else ''}")
    return True


def _watch(game: str, options) -> None:
    from ..load.game import find_game, load_game
    from .watch import watch as watch_loop

    def folders() -> list[Path]:
        try:
            model = load_game(game, options.variants)
            return [model.root, *model.template_dirs]
        except CardgenError:
            root = find_game(game)
            return [root]

    def rebuild(changed: list[Path]) -> None:
        click.echo(f"changed: {', '.join(p.name for p in changed[:5])}{' …' if len(changed) > 5 else ''}", err=True)
        _build_once(game, options)

    click.echo("watching for changes (Ctrl-C to stop)…", err=True)
    try:
        watch_loop(folders, rebuild)
    except KeyboardInterrupt:
        click.echo("stopped watching", err=True)


@main.command()
@click.argument("game")
@click.option("--png", "png", is_flag=True, help="One PNG per card face, with bleed, fronts and backs paired by name.")
@click.option("--tts", "tts", is_flag=True, help="Tabletop Simulator deck sheets (10 × 7 at most) and back images.")
@click.option("--dpi", type=int, default=300, show_default=True, help="Resolution of --png images.")
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
    from ..build import BuildOptions
    from ..output.images import export_png, export_tts
    from ..load.game import load_game

    if not (png or tts):
        raise click.UsageError("say what to export: --png and/or --tts")
    if tts and not png and dpi != 300:
        click.echo("note: --dpi applies to --png; TTS sheets use 409-pixel-wide cards", err=True)
    try:
        model = load_game(game, variants)
        unknown = [l for l in langs if l not in model.languages]
        if unknown:
            raise CardgenError(f"game '{model.id}' has no language {', '.join(unknown)}")
        options = BuildOptions(langs=langs, ink_saver=ink_saver, out_dir=out_dir, variants=model.variants)
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


@main.command()
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
    from ..output.images import preview as make_preview
    from ..load.game import load_game

    try:
        model = load_game(game, variants)
        lang = lang or ("en" if "en" in model.languages else model.languages[0])
        if lang not in model.languages:
            raise CardgenError(f"game '{model.id}' has no language {lang} (it has: {', '.join(model.languages)})")
        out = make_preview(model, lang, out_file or Path("output") / model.id / f"preview-{lang}.png")
    except (CardgenError, OSError) as exc:
        fail(exc)
        return
    click.echo(f"Wrote {out}")


from .validate import validate as _validate; main.add_command(_validate)  # noqa: E402,E702

@main.command(short_help="Write a sheet that measures your printer's duplex offset.")
@click.option("--paper", type=click.Choice(sorted(PAPERS_MM)), default=None,
              help="Paper size. Default: your 'paper' setting, else a4.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default=None,
              help="How your printer flips the sheet. Default: your 'duplex' setting, else long.")
@click.option("--lang", type=click.Choice(["en", "fr", "nl"]), default="en", show_default=True,
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
    from ..calibrate.sheet import calibration_pdf, default_calibration_path
    from ..errors import display_path
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


@main.group("config", invoke_without_command=True,
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
    from ..errors import display_path
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
    from ..errors import display_path
    from ..settings import load_settings, normalise_value, set_value

    try:
        text = normalise_value(key, " ".join(value))
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


if __name__ == "__main__":  # pragma: no cover
    main()
