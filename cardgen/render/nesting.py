"""Where a template nests deepest: for the error when Jinja cannot compile it.

Jinja parses brackets recursively and turns blocks into indented Python, so a
template with some 60 brackets inside one another, or 20 loops, fails to compile
with a RecursionError or a Python SyntaxError that names no line of the template.
Only then is the template scanned here (with Jinja's own lexer, which does not
recurse), so that the error can point at the deepest line.
"""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

_OPENING = {"(", "[", "{"}  # the lexer's raw "operator" tokens
_CLOSING = {")", "]", "}"}
_BLOCK_TAGS = {"if", "for", "macro", "call", "filter", "with", "block", "autoescape", "trans"}


@dataclass(frozen=True)
class Deepest:
    """The deepest nesting of brackets and of blocks in a template, and their lines."""

    brackets: int = 0
    bracket_line: int = 1
    blocks: int = 0
    block_line: int = 1


def deepest_nesting(env: jinja2.Environment, source: str) -> Deepest:
    """Scan ``source`` with ``env``'s lexer; an unlexable source counts as flat."""
    brackets = blocks = 0
    found = Deepest()
    tag: list[str] = []  # the tokens of the block tag being read ("set x" with no "=" is a block)
    try:
        for line, kind, value in env.lex(source):
            if kind == "operator" and value in _OPENING:
                brackets += 1
                if brackets > found.brackets:
                    found = Deepest(brackets, line, found.blocks, found.block_line)
            elif kind == "operator" and value in _CLOSING:
                brackets -= 1
            elif kind == "block_begin":
                tag = []
            elif kind == "block_end":
                if tag:
                    name = tag[0]
                    if name in _BLOCK_TAGS or (name == "set" and "=" not in tag):
                        blocks += 1
                        if blocks > found.blocks:
                            found = Deepest(found.brackets, found.bracket_line, blocks, line)
                    elif name.startswith("end"):
                        blocks -= 1
                tag = []
            elif kind == "name" and not tag:
                tag.append(value)
            elif kind == "operator" and value == "=":
                tag.append("=")
    except jinja2.TemplateSyntaxError:
        pass
    return found


_HINT = "(Jinja compiles about 20 loops, 90 blocks or 60 brackets inside one another)"


def nesting_message(deepest: Deepest, python_error: BaseException) -> tuple[str, int]:
    """The message and line for a template that failed to compile with ``python_error``
    (a SyntaxError from Python's compiler is about blocks; a RecursionError, whichever
    nests deeper for its kind)."""
    if isinstance(python_error, SyntaxError) or deepest.blocks * 3 > deepest.brackets:
        return f"template nested too deeply to compile: {deepest.blocks} blocks inside one another here {_HINT}", \
            deepest.block_line
    return f"template nested too deeply to compile: {deepest.brackets} brackets inside one another here {_HINT}", \
        deepest.bracket_line
