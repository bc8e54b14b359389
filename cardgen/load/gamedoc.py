"""The reference tables of game.yaml's keys, rendered from the key table
(:mod:`.gameschema`) into the documentation pages that hold their markers.

A page marks where a table goes, and the rendered table is committed between the
markers, so the page reads as plain Markdown anywhere and a test can say when it is
stale::

    <!-- generated: game.yaml keys: deck -->
    | key | value | default | what it is |
    …
    <!-- end generated -->

Rewrite the tables of pages, or check them (exit status 1 when one is stale)::

    python -m cardgen.load.gamedoc --write docs/design/game-folder.md docs/design/rich-text.md docs/validator/deck-expectations.md
    python -m cardgen.load.gamedoc --check docs/design/game-folder.md docs/design/rich-text.md docs/validator/deck-expectations.md

``python docs/generate.py --write`` does this too, with every other generated part of the pages.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from .gameschema import SECTIONS
from .schema import Key, Section, type_name

START = "<!-- generated: game.yaml keys: {name} -->"
END = "<!-- end generated -->"
BLOCK_RE = re.compile(r"(<!-- generated: game\.yaml keys: ([a-z_]+) -->\n)(.*?)(<!-- end generated -->)", re.S)


def _yaml(value: Any) -> str:
    """A default as game.yaml would write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    return str(value)


def value_text(key: Key) -> str:
    """How a key's value is written: its type or form, its choices, its range."""
    if key.choices:
        said = [f"`{c}` ({m})" if m else f"`{c}`" for c, m in key.choices.items()]
        text = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]
    else:
        text = key.expect or type_name(key.types)
        if key.values:
            text += f" of names to {type_name(key.values)}"
    if key.range is not None:
        text += f", {key.range.describe()}"
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render(section: Section) -> str:
    """The Markdown table of one section's keys, required keys first, in table order."""
    lines = ["| key | value | default | what it is |", "| --- | --- | --- | --- |"]
    for key in sorted(section.keys, key=lambda k: not k.required):
        default = "required" if key.required else f"`{_yaml(key.default)}`" if key.default is not None else ""
        doc = f"With `{key.only[0]}: {key.only[1]}` only. {key.doc}" if key.only else key.doc
        lines.append(f"| `{key.name}` | {_cell(value_text(key))} | {default} | {_cell(doc)} |")
    return "\n".join(lines) + "\n"


def fill(page: str) -> str:
    """``page`` with every marked table rendered afresh; an unknown section name is an
    error (ValueError) rather than a table silently left as it was."""
    sections = {s.name: s for s in SECTIONS}

    def one(m: re.Match) -> str:
        if m.group(2) not in sections:
            raise ValueError(f"no section '{m.group(2)}' in game.yaml's key table (known: {', '.join(sections)})")
        return m.group(1) + render(sections[m.group(2)]) + m.group(4)

    return BLOCK_RE.sub(one, page)


def marked(page: str) -> list[str]:
    """The sections whose tables ``page`` marks, in page order."""
    return [m.group(2) for m in BLOCK_RE.finditer(page)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardgen.load.gamedoc",
                                     description="Render game.yaml's key tables into the pages that mark them.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite the pages' tables")
    mode.add_argument("--check", action="store_true", help="exit 1 when a page's tables are stale")
    parser.add_argument("pages", nargs="+", type=Path)
    args = parser.parse_args(argv)
    stale = []
    for page in args.pages:
        try:
            text = page.read_text(encoding="utf-8")
            fresh = fill(text)
        except (OSError, ValueError) as exc:
            print(f"error: {page}: {exc}", file=sys.stderr)
            return 1
        if not marked(text):
            print(f"error: {page}: no '{START.format(name='…')}' marker", file=sys.stderr)
            return 1
        if fresh != text:
            stale.append(page)
            if args.write:
                page.write_text(fresh, encoding="utf-8")
    for page in stale:
        print(f"{'rewrote' if args.write else 'stale'}: {page}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
