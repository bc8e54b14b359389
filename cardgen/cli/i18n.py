"""``cardgen i18n``: the translators' workflow (export, import, init, status)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..base.errors import CardgenError
from .exits import USER_ERROR, fail


def _load(game: str):
    from ..i18n.catalog import load_for_translators

    return load_for_translators(game)


def _check(model, lang: str | None, source: str | None) -> None:
    """A language or source language the game lacks is a usage error, as for build."""
    if lang is not None and not model.has_language(lang):
        raise click.BadParameter(f"{model.id} has no language {lang} (it has: {', '.join(model.languages)}, and "
                                 f"pseudo; add one with: cardgen i18n init {model.id} {lang})", param_hint="'--lang'")
    if source is not None and source not in model.languages:
        raise click.BadParameter(f"{model.id} has no language {source} (it has: {', '.join(model.languages)})",
                                 param_hint="'--source'")


@click.group("i18n")
def i18n() -> None:
    """Translate a game: catalogues for translation tools, new languages, status.

    \b
    Examples:
      cardgen i18n init hapy de
      cardgen i18n export hapy --lang de -o hapy-de.po
      cardgen i18n import hapy hapy-de.po
      cardgen i18n status hapy
    """


@i18n.command("export")
@click.argument("game")
@click.option("--lang", metavar="LANG", default=None, help="The language to translate into (or pseudo).")
@click.option("--template", is_flag=True, help="Write a template (POT): the source strings without a language, for "
                                               "tools that add languages themselves.")
@click.option("--format", "fmt", type=click.Choice(["po", "xliff"]), default="po", show_default=True,
              help="PO (gettext: Poedit, Weblate, Crowdin) or XLIFF 1.2.")
@click.option("--source", metavar="LANG", default=None, help="The language to translate from. Default: the "
                                                              "game's first language.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="The file to write. Default: standard output.")
def export_cmd(game: str, lang: str | None, template: bool, fmt: str, source: str | None,
               output: Path | None) -> None:
    """Write a catalogue of every string of GAME for translating into LANG: each
    string's key, source text, current translation, where it is used, its
    placeholders and how much room its box has."""
    from ..i18n.exchange import export_catalogue

    if (lang is None) == (not template):
        raise click.UsageError("give the language to translate into (--lang LANG) or --template, one of them")
    try:
        model = _load(game)
        _check(model, lang, source)
        data = export_catalogue(model, lang or "", fmt, source, template=template)
        if output is None:
            sys.stdout.buffer.write(data)
            return
        output.write_bytes(data)
    except (CardgenError, OSError) as exc:
        fail(exc)
    click.echo(f"wrote {output}", err=True)


@i18n.command("import")
@click.argument("game")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--source", metavar="LANG", default=None, help="The language translated from. Default: the "
                                                              "game's first language.")
def import_cmd(game: str, file: Path, source: str | None) -> None:
    """Write the translations of FILE (PO or XLIFF) into GAME's locales/<lang>.yaml,
    keeping its order, comments and nesting. A translation whose placeholders differ
    from the source's is refused, and then nothing is written."""
    from ..i18n.exchange import import_catalogue

    try:
        model = _load(game)
        _check(model, None, source)
        result = import_catalogue(model, file, source)
    except (CardgenError, OSError) as exc:
        fail(exc)
        return
    skipped = []
    if result.untranslated:
        skipped.append(f"{result.untranslated} untranslated")
    if result.fuzzy:
        skipped.append(f"{result.fuzzy} fuzzy")
    if result.outdated:
        skipped.append(f"{result.outdated} outdated (their source text has changed)")
    click.echo(f"{result.path.name}: {result.changed} string(s) changed"
               + (f" ({', '.join(skipped)} left as they were)" if skipped else ""))


@i18n.command("init")
@click.argument("game")
@click.argument("lang")
@click.option("--source", metavar="LANG", default=None, help="The language whose file is the model. Default: "
                                                              "the game's first language.")
def init_cmd(game: str, lang: str, source: str | None) -> None:
    """Add language LANG to GAME: locales/LANG.yaml with every key of the source
    language, untranslated, and LANG in game.yaml's languages."""
    from ..i18n.newlang import init_language

    try:
        model = _load(game)
        _check(model, None, source)
        written = init_language(model, lang, source)
    except (CardgenError, OSError) as exc:
        fail(exc)
        return
    for path in written:
        click.echo(f"wrote {path}")


@i18n.command("status")
@click.argument("game")
@click.option("--lang", "langs", multiple=True, metavar="LANG", help="Language to report (repeatable; pseudo "
                                                                     "too). Default: every language.")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON, for tools.")
def status_cmd(game: str, langs: tuple[str, ...], as_json: bool) -> None:
    """How far each language of GAME is: translated share, missing strings, unused
    keys, placeholders that differ from the source and text too long for its box.
    Exits with 1 when anything would stop a build."""
    from ..i18n.status import language_status, text_report

    try:
        model = _load(game)
        unknown = [lang for lang in langs if not model.has_language(lang)]
        if unknown:
            raise click.BadParameter(f"{model.id} has no language {', '.join(unknown)} (it has: "
                                     f"{', '.join(model.languages)}, and pseudo)", param_hint="'--lang'")
        report = [language_status(model, lang) for lang in (langs or model.languages)]
    except (CardgenError, OSError) as exc:
        fail(exc)
        return
    if as_json:
        click.echo(json.dumps({"game": model.id, "languages": [s.as_json() for s in report]}, ensure_ascii=False,
                              indent=2))
    else:
        for st in report:
            for line in text_report(st):
                click.echo(line)
    if any(s.blocks_build for s in report):
        sys.exit(USER_ERROR)
