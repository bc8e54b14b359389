"""Templates → layout documents, in a sandboxed Jinja environment.

Undefined variables are errors, never blanks on a card. Templates write YAML; the
``q`` filter quotes any value as a safe YAML scalar (JSON with real Unicode, so
astral hieroglyphs are not split into surrogates — see PRINT_NOTES.md).
"""

from __future__ import annotations

import json
import math
import operator
import re
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from ..errors import CardgenError, Where, display_path
from ..load.yamlsrc import fast_load
from .cover import covered


def quote(value: Any) -> str:
    """A YAML-safe scalar for any value (strings keep their real characters)."""
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()  # names the missing variable
    try:
        return json.dumps(value, ensure_ascii=False)
    except TypeError:
        raise TypeError(f"cannot quote a {type(value).__name__} value for the layout") from None


def _hex(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def luminance(colour: str) -> float:
    """Perceived lightness 0..1 (Rec. 601 weights), as a greyscale printer sees it."""
    r, g, b = _hex(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def mix(colour: str, other: str = "#ffffff", amount: float = 0.5) -> str:
    """Blend ``colour`` toward ``other`` by ``amount`` (0 = colour, 1 = other)."""
    a, b = _hex(colour), _hex(other)
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


def contrast(colour: str, dark: str = "#1b1b1b", light: str = "#ffffff") -> str:
    """The ink (dark or light) that reads best on ``colour``."""
    return dark if luminance(colour) > 0.55 else light


MAX_REPEAT = 1_000_000  # items or characters one ``*`` may build in a template
MAX_POWER_BITS = 4096  # size of the result of one ``**`` in a template
_FORMAT_WIDTH = re.compile(r"%[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


class LimitedSandbox(SandboxedEnvironment):
    """Jinja's sandbox, plus a size limit on ``*``, ``**`` and ``%``: a slip such as
    ``'-' * 10**10`` in a template is an error naming the template, not a build that
    eats all the memory (Jinja already limits ``range`` the same way)."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def call_binop(self, context, op: str, left: Any, right: Any) -> Any:
        if op == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and not isinstance(times, bool) \
                        and len(seq) * times > MAX_REPEAT:
                    raise jinja2.exceptions.SecurityError(
                        f"'*' would build {len(seq) * times:,} items; a template may build at most {MAX_REPEAT:,}")
        elif op == "**" and isinstance(left, (int, float)) and isinstance(right, (int, float)) \
                and abs(left) > 1 and right > 0 and right * math.log2(abs(left)) > MAX_POWER_BITS:
            raise jinja2.exceptions.SecurityError(f"'**' result too large ({left!r} ** {right!r})")
        elif op == "%" and isinstance(left, str):
            for width in _FORMAT_WIDTH.finditer(left):
                if any(g and g.isdigit() and int(g) > MAX_REPEAT for g in width.groups()):
                    raise jinja2.exceptions.SecurityError(f"'%' format width too large in {left[:40]!r}")
        return {"*": operator.mul, "**": operator.pow, "%": operator.mod}[op](left, right)


_RENDERERS: dict[tuple, TemplateRenderer] = {}


def renderer_for(template_dirs: tuple[Path, ...], palette: Mapping[str, str]) -> TemplateRenderer:
    """A renderer shared within this process, so templates compile once per build
    (and, warmed before worker processes fork, once in all)."""
    key = (template_dirs, tuple(sorted(palette.items())))
    renderer = _RENDERERS.get(key)
    if renderer is None:
        renderer = _RENDERERS[key] = TemplateRenderer(template_dirs, palette)
    return renderer


class TemplateRenderer:
    """One Jinja environment per game: loads templates from its folders in order."""

    def __init__(self, template_dirs: tuple[Path, ...], palette: Mapping[str, str]):
        self.dirs = template_dirs
        self.palette = dict(palette)
        self.env = LimitedSandbox(
            loader=jinja2.FileSystemLoader([str(d) for d in template_dirs]),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
            extensions=["jinja2.ext.do"],
            auto_reload=True,  # imported macros recompile when their file changes (build --watch)
        )
        self.env.filters.update(q=quote, mix=self._mix, contrast=self._contrast, luminance=self._lum,
                                covered=covered)
        self._cache: dict[str, jinja2.Template] = {}

    def colour(self, name: str) -> str:
        return self.palette.get(name, name)

    def _mix(self, colour: str, other: str = "#ffffff", amount: float = 0.5) -> str:
        return mix(self.colour(colour), self.colour(other), amount)

    def _contrast(self, colour: str, dark: str = "#1b1b1b", light: str = "#ffffff") -> str:
        return contrast(self.colour(colour), self.colour(dark), self.colour(light))

    def _lum(self, colour: str) -> float:
        return luminance(self.colour(colour))

    def template_path(self, name: str) -> str:
        for d in self.dirs:
            if (d / name).is_file():
                return display_path(d / name)
        return name

    def warm(self, names) -> None:
        """Compile templates ahead of time; errors surface later, in context."""
        for name in names:
            try:
                self._template(name)
            except CardgenError:
                pass

    def _template(self, name: str) -> jinja2.Template:
        tpl = self._cache.get(name)
        if tpl is None or not tpl.is_up_to_date:  # one stat: edits show up in the next build
            try:
                tpl = self.env.get_template(name)
            except jinja2.TemplateSyntaxError as exc:
                path = display_path(exc.filename) if exc.filename else name
                raise CardgenError(f"template syntax error: {exc.message}", Where(path, exc.lineno)) from None
            except jinja2.TemplateNotFound as exc:
                raise CardgenError(f"template '{exc.name}' not found", Where(self.template_path(name))) from None
            self._cache[name] = tpl
        return tpl

    def render_text(self, name: str, context: dict[str, Any], label: str) -> str:
        """Render template ``name`` to its YAML text; ``label`` names card/face/language in errors.

        The text doubles as the face's identity, so identical faces (one back for
        a whole deck) are parsed, checked and drawn once."""
        tpl = self._template(name)
        try:
            return tpl.render(context)
        except CardgenError:
            raise
        except jinja2.TemplateSyntaxError as exc:
            path = display_path(exc.filename) if exc.filename else name
            raise CardgenError(f"template syntax error: {exc.message}", Where(path, exc.lineno)) from None
        except jinja2.TemplateNotFound as exc:
            raise CardgenError(f"{label}: template '{exc.name}' not found", Where(self.template_path(name))) from None
        except (jinja2.UndefinedError, jinja2.exceptions.SecurityError, TypeError, ValueError, KeyError,
                AttributeError, ArithmeticError, IndexError, RecursionError, MemoryError) as exc:
            message = str(exc).replace("'mappingproxy object'", "the mapping").replace("'tuple object'", "the list")
            raise CardgenError(f"{label}: {type(exc).__name__}: {message}", self._where_in_template(exc, name)) from None

    def parse(self, text: str, name: str, label: str) -> Any:
        """Parse rendered YAML text of template ``name``."""
        return fast_load(text, f"{self.template_path(name)} (rendered for {label})")

    def render(self, name: str, context: dict[str, Any], label: str) -> tuple[str, Any]:
        """Render and parse: (YAML text, document)."""
        text = self.render_text(name, context, label)
        return text, self.parse(text, name, label)

    def _where_in_template(self, exc: BaseException, name: str) -> Where:
        """Where a render error happened: the deepest template frame (Jinja rewrites
        tracebacks to template lines), plus the template line that called into it."""
        frames = [
            (display_path(f.filename), f.lineno)
            for f in traceback.extract_tb(exc.__traceback__)
            if f.filename.endswith((".j2", ".jinja")) or "/templates/" in f.filename
        ]
        if not frames:
            return Where(self.template_path(name))
        path, line = frames[-1]
        callers = [f"{p}:{l}" for p, l in frames[:-1] if (p, l) != (path, line)]
        if callers:
            return Where(f"{path}:{line} (called from {callers[-1]})")
        return Where(path, line)


def translator(strings: Mapping[str, str], lang: str, missing: Callable[[str], None]) -> Callable[..., str]:
    """``t(key, **values)`` for templates: the string for ``key`` in ``lang``, formatted."""

    def t(key: str, **values: Any) -> str:
        text = strings.get(key)
        if text is None:
            missing(key)
            raise jinja2.UndefinedError(f"no string '{key}' in locales/{lang}.yaml")
        if values:
            try:
                return text.format(**values)
            except (KeyError, IndexError, ValueError) as exc:
                raise jinja2.UndefinedError(f"string '{key}' in {lang}: bad placeholder {exc}") from None
        return text

    return t
