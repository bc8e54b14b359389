"""``cardgen build``: a game's print-and-play kit, once or on every change."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..base.errors import CardgenError
from ..impose.papers import PAPERS_MM
from .exits import fail, report
from .option_values import back_offset_option, check_langs, load_with_variants


@click.command()
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
@click.option("--back-offset", metavar="X,Y", default=None, callback=back_offset_option,
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
@click.option("--allow-fallback", is_flag=True,
              help="Build a language with missing strings, using the first language's text for them (outlined "
                   "in orange with --proof). Without it, a missing string stops the build.")
@click.option("--no-cache", is_flag=True,
              help="Render every face afresh, without reading or writing the face cache (rendered faces kept "
                   "in your user cache folder, or CARDGEN_CACHE_DIR, so that a rebuild renders only what "
                   "changed).")
@click.option("--strict", is_flag=True,
              help="Fail on any warning (an --ink-saver that changes nothing, text across a board's seam, a face "
                   "cache not used), leaving the kit as it was: for CI and release builds.")
@click.option("--profile", "profile", type=click.Path(path_type=Path, dir_okay=False), default=None, metavar="ICC",
              help="The CMYK output profile (an ICC file) the print-shop files are converted through and "
                   "embedded with. Default: the shipped ISO Coated v2 300% (FOGRA39).")
@click.option("--ink-limit", type=click.FloatRange(100, 400), default=None, metavar="PERCENT",
              help="Most total ink (C+M+Y+K, percent) any colour of the print-shop files may have; darker colours "
                   "give up cyan, magenta and yellow. Default: 300.")
@click.option("--shop", "shop", default=None, metavar="NAME",
              help="Make the print-shop files as this shop profile says (bleed, page order, PDF/X-4 or X-1a, "
                   "ink limit, crop marks, cut lines, file names), or write an image shop's images; "
                   "'cardgen shops' lists them. Default: pdfx4.")
@click.option("--cut-lines", "cut_lines", type=click.Choice(["on", "off", "shaped"]), default=None,
              help="CutContour die lines in the print-shop files: on every piece (round ones a circle), off, or "
                   "only on pieces that are not plain rectangles. Default: the shop profile's choice.")
@click.option("--pdfx", type=click.Choice(["4", "1a"]), default=None,
              help="The standard of the print-shop files: 4 (PDF/X-4, transparency kept live) or 1a "
                   "(PDF/X-1a:2003, for shops that ask for it: translucent art flattened into opaque CMYK; an op "
                   "that cannot be flattened exactly stops the build, naming it). Default: the shop profile's, "
                   "else 4.")
@click.option("--preflight", is_flag=True,
              help="Then read the print-shop files as a shop's preflight would (ink over the limit, images "
                   "under 300 ppi, colours left in RGB, boxes, fonts) and print what it finds; "
                   "'cardgen validate GAME --kit' always does.")
@click.option("--watch", is_flag=True, help="After building, rebuild whenever the game's data or templates "
                                            "change (Ctrl-C to stop). A failed rebuild prints its errors and "
                                            "keeps watching.")
def build(game: str, langs: tuple[str, ...], papers: tuple[str, ...], duplex: str, out_dir: Path,
          ink_saver: bool, layout: str, back_offset: tuple[float, float] | None, proof: bool, jobs: int, variants: tuple[str, ...],
          allow_fallback: bool, no_cache: bool, strict: bool, profile: Path | None, ink_limit: float | None,
          shop: str | None, cut_lines: str | None, pdfx: str | None, preflight: bool, watch: bool) -> None:
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
      cardgen build hapy --lang pseudo --paper a4
      cardgen build hapy --lang de --allow-fallback --proof
      cardgen build path/to/my-game --strict
      cardgen build hapy --profile PSOcoated_v3.icc --ink-limit 280 --preflight
      cardgen build hapy --shop drivethrucards --lang en
      cardgen build hapy --pdfx 1a --ink-limit 240
    """
    from .. import BuildOptions
    from ..settings import load_settings

    cli_shop = _shop_profile(shop)
    try:  # the user's saved settings fill in what the command line leaves out
        settings = load_settings()
        if profile is not None:  # a file that is no CMYK output profile stops here, before any drawing
            _check_profile(profile, ink_limit)
        offset = back_offset if back_offset is not None else settings.back_offset
    except CardgenError as exc:
        fail(exc)
        return
    if layout == "gutterfold" and back_offset is not None:
        click.echo("note: --back-offset has no effect with --layout gutterfold (no duplex printing)", err=True)
    model = None
    try:  # loaded here so a --lang or --variant the game lacks is a usage error, as a bad --paper is
        model = load_with_variants(game, tuple(dict.fromkeys(variants)), allow_fallback)
    except CardgenError as exc:
        if not watch:
            fail(exc)
        report(exc)  # watching: the fix may be on its way

    def options_for(model):
        """The build's options for ``model``: the command line's print choices over the
        game's ``print:`` section, taken again on every rebuild of a watch."""
        choice = _print_choice(model, profile, ink_limit, cli_shop, cut_lines)
        if choice.profile is not None:  # the shipped one needs no check (nor Pillow's colour engine loaded)
            _check_profile(choice.profile, choice.ink_limit)
        shop_profile = choice.shop
        images = shop_profile if shop_profile is not None and shop_profile.output == "images" else None
        return BuildOptions(
            langs=langs, papers=papers or ((settings.paper,) if settings.paper else ("a4", "letter")),
            duplex=duplex or settings.duplex or "long", out_dir=out_dir, ink_saver=ink_saver, jobs=jobs,
            layout=layout, back_offset=offset, proof=proof, variants=tuple(dict.fromkeys(variants)),
            allow_fallback=allow_fallback, cache=not no_cache, strict=strict,
            profile=choice.profile.resolve() if choice.profile else None, ink_limit=choice.ink_limit,
            pdfx=pdfx or (shop_profile.pdfx if shop_profile and not images else "4"),
            shop=None if images else shop_profile), images

    try:
        options, images = options_for(model)
    except CardgenError as exc:
        fail(exc)
        return
    if model is not None:
        check_langs(model, langs)
    ok = model is not None and _build_once(game, options, model, preflight)
    if ok and images is not None:
        ok = _shop_images(model, langs, options, images)
    if not watch:
        sys.exit(0 if ok else 1)
    _watch(game, options, options_for, preflight)


def _check_profile(path: Path, ink_limit: float | None) -> None:
    """A CardgenError unless ``path`` is a CMYK output profile."""
    from ..output.cmyk import OutputProfile

    OutputProfile.load(path, ink_limit)


def _shop_profile(name: str | None):
    """The shop profile --shop names; None without one. An unknown name is a usage
    error (exit 2, listing the profiles); a broken profile file, exit 1."""
    if name is None:
        return None
    from ..output.shops import UnknownShop, find_profile
    from ..settings import user_config_path

    try:
        return find_profile(name, user_config_path().parent)
    except UnknownShop as exc:
        raise click.BadParameter(exc.message, param_hint="'--shop'") from None
    except CardgenError as exc:
        fail(exc)
        raise  # not reached: fail() exits


def _print_choice(model, profile: Path | None, ink_limit: float | None, shop, cut_lines: str | None):
    """The profile, ink limit and shop of the print-shop files: the command line's over
    the game's ``print:`` section (when the game loaded) over the defaults."""
    from ..model.printing import PrintSettings
    from ..output.printchoice import choose
    from ..settings import user_config_path

    return choose(model.printing if model is not None else PrintSettings(), profile=profile, ink_limit=ink_limit,
                  shop=shop, cut_lines=cut_lines, settings_folder=user_config_path().parent)


def _shop_images(model, langs: tuple[str, ...], options, shop) -> bool:
    """An image shop's images of the kit just built, and where they went."""
    from ..export import export_shop_images

    try:
        written = export_shop_images(model, langs, options.out_dir, shop, options)
    except (CardgenError, OSError) as exc:
        report(exc)
        return False
    folders = sorted({str(p.parent) for p in written})
    click.echo(f"Wrote {len(written)} files for {shop.name} into {', '.join(folders)}")
    return True


def _build_once(game: str, options, model=None, preflight: bool = False) -> bool:
    """Build (``model``, else the game loaded afresh) and report (with ``preflight``, the
    print-shop files' preflight too); False (errors printed) on a user error."""
    from .. import build, load_game

    try:
        model = model or load_game(game, options.variants, fallback=options.allow_fallback)
        folder, written, _ = build(model, options, progress=_progress)
    except (CardgenError, OSError) as exc:  # OSError: the output folder cannot be written
        report(exc)
        return False
    with_variants = f" with variant {', '.join(model.variants)}" if model.variants else ""
    click.echo(f"Built {model.id}{with_variants} into {folder}/")
    width = max(len(f.name) for f in written)
    for f in written:
        click.echo(f"  {f.name:<{width}}  {f.pages:>3} page{'s' if f.pages != 1 else ''}")
    if preflight:
        _preflight(Path(folder), "PDF/X-1a" if options.pdfx == "1a" else "PDF/X-4")
    return True


SHOWN_FINDINGS = 5  # preflight lines printed after a build; validate --kit lists them all


def _preflight(folder: Path, standard: str = "PDF/X-4") -> None:
    """A shop's preflight of the kit's print-shop files: one line on stdout, what it found
    on stderr (problems first, a few of each)."""
    from ..validation.kitcheck import read_manifest
    from ..validation.preflight import preflight_kit

    shop = preflight_kit(folder, read_manifest(folder))
    if not shop.files:
        return
    found = [f"{len(shop.problems)} problem(s)"] if shop.problems else []
    found += [f"{len(shop.warnings)} warning(s)"] if shop.warnings else []
    click.echo(f"Preflight of {shop.files} print-shop file(s) ({standard}): {', '.join(found) or 'no problems'}")
    for kind, lines in (("problem", shop.problems), ("warning", shop.warnings)):
        for line in lines[:SHOWN_FINDINGS]:
            click.echo(f"{kind}: {line}", err=True)
        if len(lines) > SHOWN_FINDINGS:
            click.echo(f"{kind}: … and {len(lines) - SHOWN_FINDINGS} more (cardgen validate --kit lists them all)",
                       err=True)


def _progress(message: str) -> None:
    click.echo(message if message.startswith(("note:", "warning:")) else f"  {message}…", err=True)


def _watch(game: str, options, options_for, preflight: bool) -> None:
    """Rebuild on every change; the game is loaded again and its print choices taken
    again (an edit of game.yaml's ``print:`` section counts), errors reported, not raised."""
    from ..load.game import find_game, load_game
    from .watch import watch as watch_loop

    def folders() -> list[Path]:
        try:
            model = load_game(game, options.variants, fallback=options.allow_fallback)
            return [model.root, *model.template_dirs]
        except CardgenError:
            root = find_game(game)
            return [root]

    def rebuild(changed: list[Path]) -> None:
        click.echo(f"changed: {', '.join(p.name for p in changed[:5])}{' …' if len(changed) > 5 else ''}", err=True)
        try:
            model = load_game(game, options.variants, fallback=options.allow_fallback)
            now, images = options_for(model)
        except CardgenError as exc:
            report(exc)
            return
        if _build_once(game, now, model, preflight) and images is not None:
            _shop_images(model, now.langs, now, images)

    click.echo("watching for changes (Ctrl-C to stop)…", err=True)
    try:
        watch_loop(folders, rebuild)
    except KeyboardInterrupt:
        click.echo("stopped watching", err=True)
