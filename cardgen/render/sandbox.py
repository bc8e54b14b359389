"""Templates → layout documents, in a sandboxed Jinja environment.

Undefined variables are errors, never blanks on a card. Templates write YAML; the
``q`` filter quotes any value as a safe YAML scalar (JSON with real Unicode, so
astral hieroglyphs are not split into surrogates — see PRINT_NOTES.md).
"""

from __future__ import annotations

import functools
import inspect
import json
import math
import operator
import os
import re
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from types import BuiltinMethodType, MethodType
from typing import Any

import jinja2
from jinja2 import nodes, pass_context
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.sandbox import SandboxedEnvironment, SandboxedEscapeFormatter, SandboxedFormatter
from markupsafe import Markup

from ..base.errors import CardgenError, Where, display_path, is_file, read_utf8
from ..layout.colours import cmyk_text, naive_rgb, parse_cmyk
from ..load.readroots import inside, roots_around
from ..load.yamlsrc import fast_load
from .blockshape import block_shaped
from .budget import CHECK_EVERY, CONTAINERS, MAX_OUTPUT, MAX_POWER_BITS, MAX_VALUE, Budget, TemplateLimit, text_size
from .cover import covered
from .guards import FORMAT_WIDTH, check_method, check_percent, check_result, guard_filter, guarded_lipsum
from .jsonshape import NOT_JSON_SHAPED, json_shaped
from .memo import TemplateFacts, template_facts
from .nesting import deepest_nesting, nesting_message
from .placeholders import PlaceholderError, fill_placeholders, parse_placeholders


def quote(value: Any) -> str:
    """A YAML-safe scalar for any value (strings keep their real characters)."""
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()  # names the missing variable
    try:
        return json.dumps(value, ensure_ascii=False)
    except TypeError:
        raise TypeError(f"cannot quote a {type(value).__name__} value for the layout") from None


def _hex(colour: str) -> tuple[int, int, int]:
    return naive_rgb(colour)


def luminance(colour: str) -> float:
    """Perceived lightness 0..1 (Rec. 601 weights), as a greyscale printer sees it."""
    r, g, b = _hex(colour)
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def mix(colour: str, other: str = "#ffffff", amount: float = 0.5) -> str:
    """Blend ``colour`` toward ``other`` by ``amount`` (0 = colour, 1 = other)."""
    inks, other_inks = parse_cmyk(colour), parse_cmyk(other)
    if inks is not None and other_inks is not None:  # two ink colours mix as inks, and stay CMYK
        return cmyk_text(tuple(x + (y - x) * amount for x, y in zip(inks, other_inks)))  # type: ignore[arg-type]
    a, b = _hex(colour), _hex(other)
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


def contrast(colour: str, dark: str = "#1b1b1b", light: str = "#ffffff") -> str:
    """The ink (dark or light) that reads best on ``colour``."""
    return dark if luminance(colour) > 0.55 else light


MAX_REPEAT = MAX_VALUE  # items or characters one ``*`` may build in a template


class TemplateLimitError(CardgenError):
    """A face's template ran out of its budget: rendering it again for the other
    faces would only spend the same time, so the renderer stops using it."""


class _Measured:
    """A str.format formatter that charges each field to the environment's budget."""

    def __init__(self, env: LimitedSandbox, text: str, **kwargs: Any):
        super().__init__(env, **kwargs)  # type: ignore[call-arg]
        self.size = len(text)

    def format_field(self, value: Any, format_spec: str) -> Any:
        budget = self._env.budget  # type: ignore[attr-defined]
        for number in re.findall(r"\d+", format_spec):
            budget.grow(int(number), "a format width", added=0)
        if isinstance(value, CONTAINERS):
            budget.grow(self.size + text_size(value, MAX_VALUE - self.size), "'format'", added=0)
        field = super().format_field(value, format_spec)  # type: ignore[misc]
        self.size += len(field)
        budget.grow(self.size, "'format'", added=len(field))
        return field


class _MeasuredFormatter(_Measured, SandboxedFormatter):
    pass


class _MeasuredEscapeFormatter(_Measured, SandboxedEscapeFormatter):
    def __init__(self, env: LimitedSandbox, text: str):
        super().__init__(env, text, escape=text.escape)  # type: ignore[attr-defined]


_NUMERIC_FILTERS = frozenset({"int", "float", "round", "abs", "length", "count", "wordcount", "luminance"})


def _surely_a_number(node: nodes.Expr) -> bool:
    """An expression that cannot be a string or a list, from its form alone: a number
    written out, a difference, quotient or power, a sum with such a part, a number
    filter. ``+`` with one such side cannot join sequences, so it needs no check."""
    if isinstance(node, nodes.Const):
        return isinstance(node.value, (int, float))
    if isinstance(node, (nodes.Sub, nodes.Div, nodes.FloorDiv, nodes.Pow, nodes.Neg, nodes.Pos)):
        return True
    if isinstance(node, nodes.Add):
        return _surely_a_number(node.left) or _surely_a_number(node.right)
    if isinstance(node, nodes.Mul):
        return _surely_a_number(node.left) and _surely_a_number(node.right)
    if isinstance(node, nodes.Filter):
        return node.name in _NUMERIC_FILTERS
    return False


# The fast path of ``*``, ``%`` and ``**`` (see _BudgetCodeGenerator._plain_numbers): both
# operands ints or floats of at most 63 bits (bools and subclasses are not), so
# that a product has at most 126 bits and a power (exponent at most 64 either way) at most
# 63 × 64 = 4,032, under MAX_POWER_BITS; a float out of range, inf or nan fails the test and
# takes the checked path, as does everything else.
_BOUND = "9223372036854775808"  # 2**63, written out: Python folds no power that large
_BOUNDED = f"-{_BOUND} < {{a}} < {_BOUND} and -{_BOUND} < {{b}} < {_BOUND}"
_BOUNDED_POWER = f"-{_BOUND} < {{a}} < {_BOUND} and -64 <= {{b}} <= 64"
assert MAX_POWER_BITS >= 63 * 64


class _BudgetCodeGenerator(CodeGenerator):
    """Jinja's code generator, with ``~`` joined by ``LimitedSandbox.join_checked``,
    and ``+`` left to Python where one side is surely a number (templates add
    coordinates all the time; only joining strings and lists needs measuring)."""

    @optimizeconst
    def visit_Add(self, node: nodes.BinExpr, frame: Frame) -> None:
        if not (_surely_a_number(node.left) or _surely_a_number(node.right)):
            return inspect.unwrap(CodeGenerator.visit_Add)(self, node, frame)  # environment.call_binop
        self.write("(")
        self.visit(node.left, frame)
        self.write(" + ")
        self.visit(node.right, frame)
        self.write(")")
        return None

    def _plain_numbers(self, node: nodes.BinExpr, frame: Frame, op: str, bounds: str) -> None:
        """``left op right`` as Python runs it when both are plain numbers (int or float,
        not bool) within ``bounds`` (a condition on ``{a}`` and ``{b}``), else through
        ``environment.call_binop`` and its budget. Each operand is evaluated once, into
        a temporary: ``(a op b if (a := …, b := …) and <plain and bounded> else call)``.
        Within the bounds the result cannot pass MAX_POWER_BITS, so it needs no check."""
        a, b = self.temporary_identifier(), self.temporary_identifier()
        self.write(f"({a} {op} {b} if (({a} := ")
        self.visit(node.left, frame)
        self.write(f"), ({b} := ")
        self.visit(node.right, frame)
        self.write(f")) and type({a}) in (int, float) and type({b}) in (int, float) and "
                   f"{bounds.format(a=a, b=b)} "
                   f"else environment.call_binop(context, {op!r}, {a}, {b}))")

    @optimizeconst
    def visit_Mul(self, node: nodes.BinExpr, frame: Frame) -> None:
        self._plain_numbers(node, frame, "*", _BOUNDED)

    @optimizeconst
    def visit_Mod(self, node: nodes.BinExpr, frame: Frame) -> None:
        self._plain_numbers(node, frame, "%", _BOUNDED)

    @optimizeconst
    def visit_Pow(self, node: nodes.BinExpr, frame: Frame) -> None:
        self._plain_numbers(node, frame, "**", _BOUNDED_POWER)

    @optimizeconst
    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        if frame.eval_ctx.volatile or frame.eval_ctx.autoescape:
            return inspect.unwrap(CodeGenerator.visit_Concat)(self, node, frame)  # HTML escaping: Jinja's own join
        self.write("environment.join_checked((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")
        return None


@pass_context
def _counted(context, iterable: Any):
    """A ``for`` loop's iterable, charging one step per item to the face's budget."""
    budget = context.environment.budget
    for item in iterable:  # written out here, not a Budget method: this runs on every iteration of every loop
        budget.steps_left -= 1
        if not budget.steps_left & CHECK_EVERY:
            budget.check()
        yield item


_FLOAT_OPS = {"+": operator.add, "*": operator.mul, "**": operator.pow, "%": operator.mod}
_NUMBER_TYPES = frozenset({int, float, bool})
_METHOD_TYPES = (BuiltinMethodType, MethodType)  # str.center, list.extend; Markup's own methods


class LimitedSandbox(SandboxedEnvironment):
    """Jinja's sandbox, charging what a template does to the ``budget`` of the face
    being rendered (see budget.py): loop iterations (each ``for`` iterates through a
    counting wrapper), calls, filters and methods, and the size of every value built
    by ``*``, ``**``, ``%``, ``+``, ``~``, filters, functions and methods.

    ``budget`` is set by the renderer around each face; one environment renders one
    face at a time (a build renders in one thread per process)."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = _BudgetCodeGenerator

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, finalize=self._finalize, **kwargs)
        self.budget = Budget.idle()
        self.facts: dict[str, TemplateFacts] = {}  # template name -> what its source can read (render/memo.py)
        self.filters["_counted"] = _counted
        self.globals["lipsum"] = guarded_lipsum(self._budget)

    def _budget(self) -> Budget:
        return self.budget

    def guard_filters(self) -> None:
        """Wrap every filter (Jinja's and the game's) in its budget checks; call once
        all filters are registered, before any template is compiled."""
        for name, func in list(self.filters.items()):
            if not name.startswith("_"):
                self.filters[name] = guard_filter(name, func, self._budget)

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Parse, then route every ``for`` loop's iterable through the step counter."""
        tree = super()._parse(source, name, filename)
        if name is not None:
            self.facts[name] = template_facts(tree, source)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Filter(loop.iter, "_counted", [], [], None, None, lineno=loop.iter.lineno)
        return tree

    def _finalize(self, value: Any) -> Any:
        """Each ``{{ value }}`` printed: a list or mapping is measured before it becomes text."""
        if isinstance(value, CONTAINERS):
            self.budget.grow(text_size(value), "printing a " + type(value).__name__, added=0)
        return value

    def concat(self, parts: Any) -> str:
        """What a macro, a ``{% set %}`` block or a ``{% filter %}`` block wrote, joined
        (Jinja's generated code joins them with ``environment.concat``): measured first."""
        if not isinstance(parts, list):
            parts = list(parts)
        self.budget.grow(sum(map(len, parts)), "the template's output")
        return "".join(parts)

    def join_checked(self, parts: tuple) -> str:
        """``a ~ b ~ c``: measured before the pieces are joined."""
        budget = self.budget
        texts = []
        size = 0
        for part in parts:
            if type(part) is not str:
                if isinstance(part, CONTAINERS):
                    budget.grow(size + text_size(part, MAX_VALUE - size), "'~'", added=0)
                part = str(part)
            size += len(part)
            texts.append(part)
        budget.grow(size, "'~'")
        return "".join(texts)

    def call_binop(self, context, op: str, left: Any, right: Any) -> Any:
        kinds = type(left), type(right)
        if float in kinds and kinds[0] in _NUMBER_TYPES and kinds[1] in _NUMBER_TYPES:  # arithmetic: nothing grows
            return _FLOAT_OPS[op](left, right)
        if op == "+":
            if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
                self.budget.grow(len(left) + len(right), "'+'")
            return left + right
        if op == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and not isinstance(times, bool):
                    if len(seq) * times > MAX_REPEAT:
                        raise TemplateLimit(f"'*' would build {len(seq) * times:,} items; a template may build at "
                                            f"most {MAX_REPEAT:,}")
                    self.budget.grow(max(len(seq) * times, 0), "'*'")
            if isinstance(left, int) and isinstance(right, int) and left.bit_length() + right.bit_length() > MAX_POWER_BITS:
                raise TemplateLimit(f"'*' result too large (a {left.bit_length() + right.bit_length():,}-bit number; "
                                    f"a template may build at most {MAX_POWER_BITS:,} bits)")
            return left * right
        if op == "**":
            if isinstance(left, (int, float)) and isinstance(right, (int, float)) \
                    and abs(left) > 1 and right > 0 and right * math.log2(abs(left)) > MAX_POWER_BITS:
                raise TemplateLimit(f"'**' result too large ({left!r} ** {right!r})")
            return left ** right
        if op == "%" and isinstance(left, str):
            for width in FORMAT_WIDTH.finditer(left):
                if any(g and g.isdigit() and int(g) > MAX_REPEAT for g in width.groups()):
                    raise TemplateLimit(f"'%' format width too large in {left[:40]!r}")
            check_percent(self.budget, left, right)
        return left % right

    def call(__self, __context, __obj, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's signature
        """Every call from a template: a step; methods that grow a value checked first;
        the result measured."""
        budget = __self.budget
        budget.call_step()
        if isinstance(__obj, _METHOD_TYPES):  # a method: of a string, list, mapping or set?
            args = check_method(budget, __obj, args, kwargs)
        result = super().call(__context, __obj, *args, **kwargs)
        check_result(budget, result, __obj)
        return result

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``'...'.format(...)`` in a template, with each field's width and the
        result's length charged to the budget (Jinja's sandboxed formatter otherwise)."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text: str = value.__self__
        formatter = (_MeasuredEscapeFormatter if isinstance(text, Markup) else _MeasuredFormatter)(self, text)
        is_format_map = value.__name__ == "format_map"

        def measured(*args: Any, **kwargs: Any) -> str:
            if is_format_map:
                if kwargs or len(args) != 1:
                    return wrapped(*args, **kwargs)  # Jinja's TypeError
                kwargs = args[0]
                args = ()
            formatter.size = len(text)
            return type(text)(formatter.vformat(text, args, kwargs))

        return functools.update_wrapper(measured, value)


_RENDERERS: dict[tuple, TemplateRenderer] = {}


def renderer_for(template_dirs: tuple[Path, ...], palette: Mapping[str, str]) -> TemplateRenderer:
    """A renderer shared within this process, so templates compile once per build
    (and, warmed before worker processes fork, once in all)."""
    key = (template_dirs, tuple(sorted(palette.items())))
    renderer = _RENDERERS.get(key)
    if renderer is None:
        renderer = _RENDERERS[key] = TemplateRenderer(template_dirs, palette)
    return renderer


class JailedLoader(jinja2.FileSystemLoader):
    """A FileSystemLoader that refuses, before reading it, a template (or an included
    or imported macro file) whose symlinks lead outside ``roots``: a game's
    ``templates/front.yaml.j2`` linked to ``/etc/passwd`` would print it on every card.
    A template that is not UTF-8 text is an error at the line of its first bad byte."""

    def __init__(self, searchpath: tuple[Path, ...], roots: tuple[Path, ...]):
        super().__init__([str(d) for d in searchpath])
        self.roots = roots

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = jinja2.loaders.split_template_path(template)
        for searchpath in self.searchpath:
            candidate = Path(searchpath, *pieces)
            if is_file(candidate):
                inside(candidate, self.roots)
                break
        else:
            raise jinja2.TemplateNotFound(template)
        try:
            source = read_utf8(candidate, display_path(candidate))
            mtime = candidate.stat().st_mtime
        except OSError:
            raise jinja2.TemplateNotFound(template) from None
        filename = os.path.normpath(candidate)

        def uptodate() -> bool:
            try:
                return os.path.getmtime(filename) == mtime
            except OSError:
                return False

        return source, filename, uptodate


class TemplateRenderer:
    """One Jinja environment per game: loads templates from its folders in order."""

    def __init__(self, template_dirs: tuple[Path, ...], palette: Mapping[str, str]):
        self.dirs = template_dirs
        self.palette = dict(palette)
        self.loader = JailedLoader(template_dirs, roots_around(template_dirs))
        self.env = LimitedSandbox(
            loader=self.loader,
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
        self.env.guard_filters()
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
            if is_file(d / name):
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
            self.env.budget = Budget.idle()
            try:
                tpl = self.env.get_template(name)
            except jinja2.TemplateSyntaxError as exc:
                path = self._syntax_error_path(exc, name)
                raise CardgenError(f"template syntax error: {exc.message}", Where(path, exc.lineno)) from None
            except jinja2.TemplateNotFound as exc:
                raise CardgenError(_not_found(exc), Where(self.template_path(name))) from None
            except (RecursionError, SyntaxError, MemoryError) as exc:  # Jinja's parser, Python's compiler
                raise self._too_deep(name, exc) from None
            except jinja2.TemplateRuntimeError as exc:  # folding a constant: `0 if 0.id else 1` tests an undefined
                where = Where(self.template_path(name), _compiled_line(exc))
                raise CardgenError(f"{type(exc).__name__}: {exc}", where) from None
            self._cache[name] = tpl
        return tpl

    def _syntax_error_path(self, exc: jinja2.TemplateSyntaxError, name: str) -> str:
        """The file of a syntax error: Jinja's lexer leaves some errors (an unclosed
        ``{#``) without a filename, so the template's own name is looked up then."""
        if exc.filename:
            return display_path(exc.filename)
        return self.template_path(exc.name or name)

    def _too_deep(self, name: str, exc: BaseException) -> CardgenError:
        """A template Jinja could not compile for its nesting: the error at its deepest line."""
        path = self.template_path(name)
        try:
            source, _, _ = self.loader.get_source(self.env, name)
        except jinja2.TemplateNotFound:
            return CardgenError(f"template could not be compiled ({type(exc).__name__})", Where(path))
        message, line = nesting_message(deepest_nesting(self.env, source), exc)
        return CardgenError(message, Where(path, line))

    def render_text(self, name: str, context: dict[str, Any], label: str) -> str:
        """Render template ``name`` to its YAML text; ``label`` names card/face/language in errors.

        The text doubles as the face's identity, so identical faces (one back for
        a whole deck) are parsed, checked and drawn once. The rendering runs on a
        fresh ``Budget``; the text may be at most MAX_OUTPUT characters."""
        tpl = self._template(name)
        self.env.budget = Budget()
        try:
            pieces = []
            size = 0
            for piece in tpl.generate(context):
                size += len(piece)
                if size > MAX_OUTPUT:
                    raise TemplateLimit(f"the layout text is longer than {MAX_OUTPUT:,} characters for one face "
                                        f"(the limit per face)")
                pieces.append(piece)
            return "".join(pieces)
        except CardgenError as exc:  # an included or imported file refused by the loader (its encoding, a link)
            raise self._included(exc, exc) from None
        except TemplateLimit as exc:
            raise TemplateLimitError(f"{label}: {exc}", self._where_in_template(exc, name)) from None
        except PlaceholderError as exc:
            raise CardgenError(f"{label}: {exc}", self._where_in_template(exc, name)) from None
        except jinja2.TemplateSyntaxError as exc:  # in a file the template includes, imports or extends
            path = self._syntax_error_path(exc, name)
            error = CardgenError(f"template syntax error: {exc.message}", Where(path, exc.lineno))
            raise self._included(error, exc) from None
        except jinja2.TemplateNotFound as exc:
            raise CardgenError(f"{label}: {_not_found(exc)}", self._where_in_template(exc, name)) from None
        except (jinja2.TemplateRuntimeError, jinja2.exceptions.SecurityError, TypeError, ValueError, LookupError,
                AttributeError, ArithmeticError, RuntimeError, AssertionError, MemoryError) as exc:
            # RuntimeError: RecursionError, and Jinja's `cycler()`; AssertionError: `'x'|truncate(-1)`
            message = str(exc).replace("'mappingproxy object'", "the mapping").replace("'tuple object'", "the list")
            raise CardgenError(f"{label}: {type(exc).__name__}: {message}", self._where_in_template(exc, name)) from None
        finally:
            self.env.budget = Budget.idle()

    def parse(self, text: str, name: str, label: str, path: str | None = None) -> Any:
        """Parse rendered YAML text of template ``name`` (whose file errors name as
        ``path``, looked up when not given): by json when the text means the same
        in JSON (jsonshape.py, or blockshape.py for block style), else by the YAML
        reader, which reports every error."""
        doc = json_shaped(text)
        if doc is NOT_JSON_SHAPED:
            doc = block_shaped(text)
        if doc is not NOT_JSON_SHAPED:
            return doc
        return fast_load(text, f"{path or self.template_path(name)} (rendered for {label})")

    def render(self, name: str, context: dict[str, Any], label: str) -> tuple[str, Any]:
        """Render and parse: (YAML text, document)."""
        text = self.render_text(name, context, label)
        return text, self.parse(text, name, label)

    @staticmethod
    def _included(error: CardgenError, raised: BaseException) -> CardgenError:
        """``error`` (in a file a template includes, imports or extends, found ``raised``),
        with the line of the template that included it: ``macros.j2:3 (included from
        front.yaml.j2:8)``."""
        where = error.where
        if not where.path:
            return error
        frames = [(display_path(f.filename), f.lineno) for f in traceback.extract_tb(raised.__traceback__)
                  if f.filename.endswith((".j2", ".jinja")) or "/templates/" in f.filename]
        frames = [f for f in frames if f[0] != where.path]
        if not frames:
            return error
        path, line = frames[-1]
        return type(error)(error.message, Where(f"{where.prefix()} (included from {path}:{line})"))

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


def _not_found(exc: jinja2.TemplateNotFound) -> str:
    """What is wrong with a template name no folder holds."""
    name = str(exc.name)
    if name.startswith(("/", "\\")) or ".." in re.split(r"[/\\]", name):
        return f"template '{name}' must be a file inside the game's templates folder (no '..', no absolute path)"
    return f"template '{name}' not found"


def _compiled_line(exc: BaseException) -> int | None:
    """The template line Jinja's compiler was at when ``exc`` was raised (the node it
    was compiling, in the deepest frame that has one)."""
    line = None
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        node = frame.f_locals.get("node")
        if isinstance(node, nodes.Node) and getattr(node, "lineno", None):
            line = node.lineno
    return line


def _pieces_or_none(text: str) -> Any:
    """A locale string's pieces (see parse_placeholders), or None for a string that is
    not a valid template of placeholders."""
    if "{" not in text and "}" not in text:
        return ((text, None),)
    try:
        return parse_placeholders(text)
    except PlaceholderError:
        return None


def translator(strings: Mapping[str, str], lang: str, missing: Callable[[str], None],
               read: Callable[[str], None] | None = None,
               place: Callable[[str], str | None] | None = None,
               printed: Callable[[str, str], None] | None = None) -> Callable[..., str]:
    """``t(key, **values)`` for templates: the string for ``key`` in ``lang``, its
    ``{name}`` placeholders filled by the plain formatter of placeholders.py;
    ``read`` hears every key looked up (which strings a face uses), ``printed``
    every text ``t`` gives back, filled, with its key (which text of a face is which
    string, for its room and fit), and ``place`` says where a string is written, for
    a message about it."""
    parsed: dict[str, Any] = {}

    def give(key: str, text: str) -> str:
        if printed is not None:
            printed(key, text)
        return text

    def named(key: str) -> str:
        at = place(key) if place is not None else None
        return f"string '{key}' in {lang}" + (f" ({at})" if at else "")

    def t(key: str, **values: Any) -> str:
        if read is not None:
            read(key)
        text = strings.get(key)
        if text is None:
            missing(key)
            raise jinja2.UndefinedError(f"no string '{key}' in locales/{lang}.yaml")
        if not values:
            pieces = parsed.get(key) or _pieces_or_none(text)
            if pieces is not None:
                parsed[key] = pieces
            if pieces is None:
                return give(key, text)  # not a template of placeholders (a lone brace): printed as written
            unfilled = list(dict.fromkeys(name for _, name in pieces if name is not None))
            if unfilled:
                names = ", ".join(f"{{{name}}}" for name in unfilled)
                raise PlaceholderError(f"{named(key)}: {names} not filled: the template gives t() no "
                                       f"value for {'it' if len(unfilled) == 1 else 'them'} "
                                       f"(t(\"{key}\", {unfilled[0]}=…))")
            return give(key, "".join(literal for literal, _ in pieces))  # {{ and }}: literal braces, as with values
        try:
            pieces = parsed.get(key)
            if pieces is None:
                pieces = parsed[key] = parse_placeholders(text)
            filled = fill_placeholders(pieces, values)
        except PlaceholderError as exc:
            raise PlaceholderError(f"{named(key)}: bad placeholder: {exc}") from None
        return give(key, filled)

    return t
