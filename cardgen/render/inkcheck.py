"""Whether ``--ink-saver`` changes anything for a game: it does when game.yaml declares
an ``ink_saver`` palette, or when a template (or a macro file it imports) reads the
``ink_saver`` variable and draws another face for it. Otherwise the build says so
rather than silently printing the same floods of colour under other file names.

The names a template mentions are known before rendering; whether it draws anything
else for ``ink_saver`` (a macro file imported but its macro never called, both
branches alike) is only known by rendering: :class:`InkProbe` renders each face that
mentions it both ways, until one differs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import jinja2
from jinja2 import meta

from ..base.errors import CardgenError, CardgenWarning
from ..model.game import Game

MAX_TEMPLATES = 500  # templates followed through imports and includes


def reads_variable(env: jinja2.Environment, templates: Iterable[str], name: str) -> bool:
    """Whether any of ``templates``, or a template they import or include (by a name
    written out), reads the variable ``name``."""
    todo = list(dict.fromkeys(templates))
    seen: set[str] = set()
    while todo and len(seen) < MAX_TEMPLATES:
        template = todo.pop()
        if template in seen:
            continue
        seen.add(template)
        try:
            source = env.loader.get_source(env, template)[0] if env.loader else ""
            tree = env.parse(source)
        except (jinja2.TemplateError, OSError):
            continue  # reported where the template is rendered
        if name in meta.find_undeclared_variables(tree):
            return True
        todo.extend(t for t in meta.find_referenced_templates(tree) if isinstance(t, str))
    return False


def ink_saver_warning(game: Game, env: jinja2.Environment) -> CardgenWarning | None:
    """The warning for a build with --ink-saver that would print the same as without."""
    if game.ink_palette:
        return None
    templates = [t for c in game.components for t in c.templates]
    if reads_variable(env, templates, "ink_saver"):
        return None
    return CardgenWarning(f"--ink-saver changes nothing in '{game.id}': game.yaml declares no ink_saver colours "
                          f"and no template reads ink_saver")


def ink_saver_same_warning(game: Game) -> CardgenWarning:
    """The warning for a build with --ink-saver whose every face came out as without it."""
    return CardgenWarning(f"--ink-saver changes nothing in '{game.id}': game.yaml declares no ink_saver colours "
                          f"and the templates that read ink_saver draw the same faces with it; the -ink-saver "
                          f"files are the usual ones renamed")


class InkProbe:
    """Whether any face of a build with --ink-saver (and no ink_saver colours) is drawn
    otherwise than without it: each face whose template reads ``ink_saver`` is rendered
    both ways, until one differs (the first does, in a game that uses it)."""

    def __init__(self, env: jinja2.Environment):
        self.env = env
        self.changed = False
        self._reads: dict[str, bool] = {}  # template -> whether it (or what it imports) reads ink_saver

    def face(self, render: Callable[[str, dict[str, Any], str], str], template: str, ctx: dict[str, Any],
             label: str) -> None:
        """Look at one face (``render``: the template renderer; ``ctx``: the face's context)."""
        if self.changed:
            return
        if template not in self._reads:
            self._reads[template] = reads_variable(self.env, [template], "ink_saver")
        if not self._reads[template]:
            return
        try:
            self.changed = render(template, ctx, label) != render(template, {**ctx, "ink_saver": False}, label)
        except CardgenError:
            self.changed = True  # it cannot be told: say nothing
