"""Size checks for the filters, functions and methods a template can call.

Most of what a template calls returns something about as big as what it was given;
a few multiply: ``center(10**9)``, ``replace('a', long)``, ``join`` over a million
copies of a long string, ``l.extend(l)`` in a loop, ``lipsum(100000)``. Each of those
is checked *before* it runs, from its arguments, against the face's ``Budget``; every
result is checked after. The check functions take the filter's own arguments.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

from jinja2.utils import generate_lorem_ipsum

from .budget import CONTAINERS, MAX_VALUE, Budget, TemplateLimit, sized, text_size

Filter = Callable[..., Any]
BudgetOf = Callable[[], Budget]
_SIZED = (str, bytes, *CONTAINERS)
_LISTED_FILTERS = frozenset({"join", "sum"})  # they take any iterable: an iterator is listed to be measured

# Filters that never turn their input into text: a list given to them is not printed.
STRUCTURAL_FILTERS = frozenset({
    "abs", "attr", "batch", "count", "covered", "d", "default", "dictsort", "first", "float", "groupby", "int",
    "items", "last", "length", "list", "map", "max", "min", "random", "reject", "rejectattr", "reverse", "round",
    "select", "selectattr", "slice", "sort", "sum", "unique",
})

MAX_LIPSUM_WORDS = 10_000
MAX_COVERED_PIECES = 200  # the covered filter's work grows with the cube of the pieces (400 took 4 s)
FORMAT_WIDTH = re.compile(r"%[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")  # the width and precision of a %-format


def _width(value: Any) -> int:
    """A width argument as a count of characters (a string counts its length)."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return len(value)
    return 0


def listed(value: Any) -> Any:
    """An iterator (``select``, ``map``…) as a list, so that what joining or adding up
    its items would build can be measured before it is built."""
    if isinstance(value, _SIZED) or not hasattr(value, "__iter__"):
        return value
    return list(value)


def _joined_size(items: Any, separator: Any) -> int:
    """How long joining ``items`` (``listed`` first) with ``separator`` would be,
    counted only up to the limit."""
    if not isinstance(items, (str, *CONTAINERS)):
        return 0  # not something join takes: it raises its own error
    sep = len(separator) if isinstance(separator, str) else 0
    total = max(len(items) - 1, 0) * sep
    for item in items:
        total += text_size(item, MAX_VALUE - total) if not isinstance(item, str) else len(item)
        if total > MAX_VALUE:
            return MAX_VALUE + 1  # "more than the limit": the rest is not counted
    return total


def check_center(budget: Budget, value: Any = "", width: Any = 80, *_: Any, **__: Any) -> None:
    budget.grow(max(_width(width), sized(value)), "'center'")


def check_indent(budget: Budget, s: Any = "", width: Any = 4, *_: Any, **__: Any) -> None:
    if isinstance(s, str):
        budget.grow(len(s) + (s.count("\n") + 1) * max(_width(width), 0), "'indent'")


def check_wordwrap(budget: Budget, s: Any = "", width: Any = 79, break_long_words: Any = True,
                   wrapstring: Any = None, *_: Any, **kwargs: Any) -> None:
    wrapstring = kwargs.get("wrapstring", wrapstring)
    if isinstance(s, str) and isinstance(wrapstring, str) and isinstance(width, int) and width > 0:
        budget.grow(len(s) + (len(s) // width + s.count("\n") + 1) * len(wrapstring), "'wordwrap'")


def replaced_size(s: str, old: Any, new: Any, count: Any = None) -> int:
    """The length of ``s.replace(old, new, count)``, without building it."""
    if not (isinstance(old, str) and isinstance(new, str)):
        return len(s)
    n = s.count(old) if old else len(s) + 1
    if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
        n = min(n, count)
    return len(s) + n * (len(new) - len(old))


def check_replace(budget: Budget, s: Any = "", old: Any = "", new: Any = "", count: Any = None, *_: Any,
                  **__: Any) -> None:
    if isinstance(s, str):
        budget.grow(replaced_size(s, old, new, count), "'replace'")


def check_join(budget: Budget, value: Any = (), d: Any = "", *_: Any, **__: Any) -> None:
    budget.grow(_joined_size(value, d), "'join'")


def check_format(budget: Budget, value: Any = "", *args: Any, **kwargs: Any) -> None:
    if isinstance(value, str):
        check_percent(budget, value, kwargs or args)


_DIGITS = re.compile(r"\d+")
_NUMBER_TYPES = frozenset({int, float, bool})


def percent_size(template: str, values: Any) -> int:
    """About how long ``template % values`` would be: widths and precisions as
    written (or given by ``*``), and each value as printed (a number as one
    character). Every number written in the template is first counted as a width
    (quick, and never too little); only a total near the limit is worked out field
    by field. Runs for every ``%`` and ``format`` of a template: numbers, the usual
    values, take the quick path."""
    mapping = isinstance(values, dict)
    items = tuple(values.values()) if mapping else values if isinstance(values, tuple) else (values,)
    if _NUMBER_TYPES.issuperset(map(type, items)):
        printed = template.count("%(") if mapping else len(items)
    else:
        sizes = [len(v) if type(v) is str else text_size(v) if isinstance(v, CONTAINERS) else 1 for v in items]
        if max(sizes, default=0) > MAX_VALUE:
            return MAX_VALUE + 1  # a value alone is over the limit (its size only counted that far)
        printed = template.count("%(") * max(sizes, default=0) if mapping else sum(sizes)
    star = 0
    if "*" in template:
        star = max((abs(v) for v in items if type(v) is int), default=0)
    rough = len(template) + printed + star * template.count("*") + sum(map(int, _DIGITS.findall(template)))
    if rough <= MAX_VALUE:
        return rough
    widths = 0
    for match in FORMAT_WIDTH.finditer(template):
        for group in match.groups():
            if group == "*":
                widths += star
            elif group:
                widths += int(group)
    return len(template) + printed + widths


def check_percent(budget: Budget, template: str, values: Any) -> None:
    budget.grow(percent_size(template, values), "'%'")


def check_sum(budget: Budget, iterable: Any = (), attribute: Any = None, start: Any = 0, *_: Any,
              **kwargs: Any) -> None:
    start = kwargs.get("start", start)
    if isinstance(start, (list, tuple, str)) and isinstance(iterable, (list, tuple)):
        total = len(start)
        for item in iterable:
            total += sized(item)
            if total > MAX_VALUE:
                total = MAX_VALUE + 1  # "more than the limit": the rest is not counted
                break
        budget.grow(total, "'sum'")


def check_count_argument(name: str) -> Callable[..., None]:
    """``batch`` and ``slice``: their count argument is how many lists (or fill items)
    they make."""

    def check(budget: Budget, value: Any = (), count: Any = 1, *_: Any, **__: Any) -> None:
        budget.grow(_width(count), f"'{name}'")

    return check


def check_tojson(budget: Budget, value: Any = None, indent: Any = None, *_: Any, **kwargs: Any) -> None:
    indent = kwargs.get("indent", indent)
    budget.grow(text_size(value) * (1 + max(_width(indent), 0)), "'tojson'")


def check_covered(budget: Budget, pieces: Any = (), *_: Any, **__: Any) -> None:
    if sized(pieces) > MAX_COVERED_PIECES:
        raise TemplateLimit(f"'covered' takes at most {MAX_COVERED_PIECES} pieces, found {sized(pieces):,}")


FILTER_CHECKS: dict[str, Callable[..., None]] = {
    "covered": check_covered,
    "center": check_center,
    "indent": check_indent,
    "wordwrap": check_wordwrap,
    "replace": check_replace,
    "join": check_join,
    "format": check_format,
    "sum": check_sum,
    "batch": check_count_argument("batch"),
    "slice": check_count_argument("slice"),
    "tojson": check_tojson,
}


def check_result(budget: Budget, result: Any, what: Any) -> None:
    """Whatever a filter, function or method (``what``: its name, or itself) returned:
    one value within the limit."""
    if isinstance(result, _SIZED):
        size = len(result)
        if size > MAX_VALUE and not isinstance(what, str):
            what = repr(getattr(what, "__name__", None) or getattr(what, "name", None) or "the call")
        budget.grow(size, what)


def guard_filter(name: str, func: Filter, budget_of: BudgetOf) -> Filter:
    """``func`` charged to the current face: a step, the checks of its arguments, its result."""
    skip = 1 if hasattr(func, "jinja_pass_arg") else 0  # pass_context/environment: that comes first
    check = FILTER_CHECKS.get(name)
    prints = name not in STRUCTURAL_FILTERS
    lists = name in _LISTED_FILTERS
    what = f"'{name}'"

    @functools.wraps(func)
    def guarded(*args: Any, **kwargs: Any) -> Any:  # on every filter use: kept lean
        budget = budget_of()
        budget.call_step()
        if lists and len(args) > skip:
            args = (*args[:skip], listed(args[skip]), *args[skip + 1:])
        if prints and len(args) > skip and isinstance(args[skip], CONTAINERS):
            budget.grow(text_size(args[skip]), f"{what} of a {type(args[skip]).__name__}", added=0)
        if check is not None:
            check(budget, *args[skip:], **kwargs)
        result = func(*args, **kwargs)
        if isinstance(result, _SIZED):
            check_result(budget, result, what)
        return result

    return guarded


def guarded_lipsum(budget_of: BudgetOf) -> Callable[..., str]:
    """``lipsum``: at most MAX_LIPSUM_WORDS words (paragraphs × most words a paragraph)."""

    @functools.wraps(generate_lorem_ipsum)
    def lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002 - Jinja's names
        words = _width(n) * _width(max)
        if words > MAX_LIPSUM_WORDS:
            raise TemplateLimit(f"'lipsum' would write up to {words:,} words; a template may ask for at most "
                                f"{MAX_LIPSUM_WORDS:,}")
        result = generate_lorem_ipsum(n, html, min, max)
        budget_of().grow(len(result), "'lipsum'")
        return result

    return lipsum


# -- methods of strings, lists, mappings and sets --------------------------------------------------

_PADDING = frozenset({"center", "ljust", "rjust", "zfill"})
_GROWING = frozenset({"extend", "update", "append", "insert", "add", "setdefault"})


def check_method(budget: Budget, method: Any, args: tuple, kwargs: dict) -> tuple:
    """Before a template calls ``method``: what it would build, from its arguments;
    the arguments to call it with (an iterator to join, listed)."""
    owner = getattr(method, "__self__", None)
    name = getattr(method, "__name__", "")
    what = f"'{name}'"
    if isinstance(owner, (str, bytes)):
        if name in _PADDING:
            budget.grow(max(_width(args[0]) if args else _width(kwargs.get("width")), len(owner)), what)
        elif name == "expandtabs":
            tab = args[0] if args else kwargs.get("tabsize", 8)
            tabs = owner.count("\t") if isinstance(owner, str) else owner.count(b"\t")
            budget.grow(len(owner) + tabs * max(_width(tab), 0), what)
        elif name == "join" and args:
            args = (listed(args[0]), *args[1:])
            budget.grow(_joined_size(args[0], owner), what)
        elif name == "replace" and isinstance(owner, str) and len(args) >= 2:
            budget.grow(replaced_size(owner, args[0], args[1], args[2] if len(args) > 2 else kwargs.get("count")),
                        what)
        elif name == "translate" and args and isinstance(args[0], Mapping):
            longest = max((len(v) for v in args[0].values() if isinstance(v, str)), default=1)
            budget.grow(len(owner) * max(longest, 1), what)
    elif isinstance(owner, (list, dict, set)) and name in _GROWING:
        if args and name in ("extend", "update"):
            args = (listed(args[0]), *args[1:])
        added = sized(args[0]) if args and name in ("extend", "update") else 1
        budget.grow(len(owner) + added, what, added=added)
    return args
