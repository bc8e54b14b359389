"""``cardgen list``: the games found, with their components and languages."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..base.errors import CardgenError
from ..impose.papers import PAPERS_MM
from ..impose.shapes import shape_for
from ..model.components import Board, Deck

LIST_PROBLEMS = 3  # problems shown per broken game by 'cardgen list'


@click.command("list")
@click.option("--data", "data_dirs", multiple=True, type=click.Path(path_type=Path),
              help="A game folder (or a folder of game folders) to list besides the shipped games.")
def list_cmd(data_dirs: tuple[Path, ...]) -> None:
    """List the games found, with their components, card counts and languages.

    \b
    Example:
      cardgen list --data ~/my-games
    """
    from .. import load_game
    from ..load.game import GAME_FILE, shipped_game_ids

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
            if isinstance(comp, Deck):
                sides = "two-sided" if comp.back else "one-sided"
                w, h = comp.size
                base = sum(k.quantity for k in comp.cards if not k.variant)
                size = shape_for(comp).size_text(w, h)
                click.echo(f"    {comp.id:<12} {base:>4} × {size} {sides:<10} {label}")
                for name in game.known_variants:
                    extra = [k for k in comp.cards if k.variant == name]
                    if extra:
                        what = ", ".join(f"{k.id} ×{k.quantity}" for k in extra)
                        click.echo(f"    {'':<12} {'+' + str(sum(k.quantity for k in extra)):>4}"
                                   f" with --variant {name}: {what}")
            elif isinstance(comp, Board):
                w, h = comp.size
                from ..impose.tiling import plan_tiles

                text = f"board {w:g}×{h:g} mm"
                pages = [plan_tiles(PAPERS_MM[p], comp.size, comp.bleed, comp.overlap).pages for p in ("a4", "letter")]
                click.echo(f"    {comp.id:<12}      {text:<26} {label} ({pages[0]} pages on A4, {pages[1]} on Letter)")
            else:
                click.echo(f"    {comp.id:<12}      sheet{'':<21} {label}")
    if problems:
        sys.exit(1)
