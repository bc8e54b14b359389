"""The ``cardgen`` command line: list, build (and validate, where a game has rules)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__
from .errors import CardgenError
from .units import PAPERS_MM


def fail(exc: CardgenError) -> None:
    """Print a user error, one problem per line, and exit 1."""
    for line in exc.lines():
        click.echo(f"error: {line}", err=True)
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
    from .loader import GAME_FILE, load_game, shipped_game_ids

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
            game = load_game(target)
        except CardgenError as exc:
            problems += 1
            click.echo(f"{target}: cannot be loaded ({len(exc.lines())} problem(s); run 'cardgen build {target}' to see them)")
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
                click.echo(f"    {comp.id:<12} {comp.count:>4} × {w:g}×{h:g} mm {sides:<10} {label}")
            else:
                click.echo(f"    {comp.id:<12}      sheet{'':<21} {label}")
    if problems:
        sys.exit(1)


@main.command()
@click.argument("game")
@click.option("--lang", "langs", multiple=True, metavar="LANG", help="Language to build (repeatable). Default: all.")
@click.option("--paper", "papers", multiple=True, type=click.Choice(sorted(PAPERS_MM)),
              help="Paper to impose on (repeatable). Default: a4 and letter.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="How your printer flips the sheet for the backs.")
@click.option("--out", "out_dir", type=click.Path(path_type=Path, file_okay=False), default=Path("output"),
              show_default=True, help="Output folder; the kit goes into OUT/<game>/.")
@click.option("--ink-saver", is_flag=True, help="Light backgrounds instead of full colour floods.")
@click.option("--jobs", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Languages built in parallel processes; 0 = one per CPU core, 1 = no extra processes.")
def build(game: str, langs: tuple[str, ...], papers: tuple[str, ...], duplex: str, out_dir: Path,
          ink_saver: bool, jobs: int) -> None:
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
    """
    from .build import BuildOptions, build_game
    from .loader import load_game

    try:
        model = load_game(game)
        options = BuildOptions(langs=langs, papers=papers or ("a4", "letter"), duplex=duplex, out_dir=out_dir,
                               ink_saver=ink_saver, jobs=jobs)
        folder, written = build_game(model, options, progress=lambda msg: click.echo(f"  {msg}…", err=True))
    except CardgenError as exc:
        fail(exc)
        return
    click.echo(f"Built {model.id} into {folder}/")
    width = max(len(f.name) for f in written)
    for f in written:
        click.echo(f"  {f.name:<{width}}  {f.pages:>3} page{'s' if f.pages != 1 else ''}")


if __name__ == "__main__":  # pragma: no cover
    main()
