"""The command-line reference, rendered from click's own command tree.

Each command's section is the text ``cardgen COMMAND --help`` prints, at a fixed width,
so the committed page (``docs/reference/cli.md``, refreshed by ``python docs/generate.py``)
is what a terminal shows and cannot drift from the commands.
"""

from __future__ import annotations

from collections.abc import Iterator

import click

WIDTH = 80  # the help text's width on the page, whatever the terminal


def walk(command: click.Command, path: tuple[str, ...] = ("cardgen",)) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command under ``command`` with its path of names, depth first, in the order help lists them."""
    yield path, command
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name=path[-1])
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from walk(sub, (*path, name))


def _context(command: click.Command, name: str, parent: click.Context | None) -> click.Context:
    """The context click makes to run ``command`` (its own settings, -h among its help
    options), its help set at the page's width."""
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    return click.Context(command, info_name=name, parent=parent, **settings)


def help_text(path: tuple[str, ...], root: click.Command) -> str:
    """What ``path --help`` prints, ``path`` being a command's names from the root's."""
    ctx = _context(root, path[0], None)
    command = root
    for name in path[1:]:
        sub = command.get_command(ctx, name) if isinstance(command, click.Group) else None
        if sub is None:
            raise LookupError(f"no command '{' '.join(path)}'")
        command = sub
        ctx = _context(command, name, ctx)
    return command.get_help(ctx)


def _cell(text: str) -> str:
    """Text that stays text in a Markdown table cell (no column break, no HTML tag)."""
    return text.replace("|", "\\|").replace("<", "&lt;")


def _anchor(path: tuple[str, ...]) -> str:
    return "-".join(path)


def reference_markdown(root: click.Command, heading: str = "###") -> str:
    """An index of the commands, then one section per command holding its help text."""
    commands = list(walk(root))
    lines = ["| command | what it does |", "| --- | --- |"]
    for path, command in commands:
        summary = _cell(command.get_short_help_str(limit=1000))
        lines.append(f"| [`{' '.join(path)}`](#{_anchor(path)}) | {summary} |")
    for path, _ in commands:
        lines += ["", f"{heading} {' '.join(path)}", "", "```text", help_text(path, root).rstrip(), "```"]
    return "\n".join(lines) + "\n"
