"""Whether ``--ink-saver`` changes anything for a game: it does when game.yaml declares
an ``ink_saver`` palette, or when a template (or a macro file it imports) reads the
``ink_saver`` variable. Otherwise the build says so rather than silently printing the
same floods of colour.
"""

from __future__ import annotations

from collections.abc import Iterable

import jinja2
from jinja2 import meta

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


def ink_saver_warning(game: Game, env: jinja2.Environment) -> str | None:
    """The warning for a build with --ink-saver that would print the same as without."""
    if game.ink_palette:
        return None
    templates = [t for c in game.components for t in c.templates]
    if reads_variable(env, templates, "ink_saver"):
        return None
    return (f"warning: --ink-saver changes nothing in '{game.id}': game.yaml declares no ink_saver colours and "
            f"no template reads ink_saver")
