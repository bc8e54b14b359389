"""YAML that remembers where each value came from.

User files are parsed to plain dicts and lists (subclasses that carry the line and
column of every key and item), so that a later check can say
``card_data/hapy/game.yaml:12:5: unknown key 'colour'`` rather than just "bad data".
Only PyYAML's safe constructors are used: no tag can run code.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

from ..base.errors import CardgenError, Where, read_utf8

_Loader: type[Any]
try:  # libyaml is much faster; fall back to the pure-Python loader
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader


_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:omap")


class YDict(dict):
    """A mapping that knows where it, its keys and its values stand."""

    where: Where
    key_where: dict
    value_where: dict

    def at(self, key: str) -> Where:
        """Where the value of ``key`` stands (or the mapping itself)."""
        return self.value_where.get(key, self.where)

    def key_at(self, key: str) -> Where:
        return self.key_where.get(key, self.where)


class YList(list):
    """A sequence that knows where it and each item stand."""

    where: Where
    item_where: list

    def at(self, index: int) -> Where:
        return self.item_where[index] if index < len(self.item_where) else self.where


def _where(path: str, node: yaml.Node) -> Where:
    mark = node.start_mark
    return Where(path, mark.line + 1, mark.column + 1)


MAX_VALUES = 1_000_000  # values one file may hold once its aliases are expanded
MAX_USER_NESTING = 100  # lists and mappings inside one another in a user's file (a game, data, a locale)
_MERGE_TAG = "tag:yaml.org,2002:merge"
_LIBYAML_TOO_DEEP = "maximum nesting depth"  # in libyaml's own error, when its ceiling is reached first
_INT_TAG = "tag:yaml.org,2002:int"


class _Builder:
    def __init__(self, path: str):
        self.path = path
        self.constructor = yaml.SafeLoader.__new__(yaml.SafeLoader)
        yaml.constructor.SafeConstructor.__init__(self.constructor)
        self.built = 0
        self.pairs: dict[int, tuple[list, int]] = {}  # id of a mapping node → its pairs, merges included
        self.inside: set[int] = set()  # the collections being built, and the mappings being merged (their ids)

    def build(self, node: yaml.Node, depth: int = 1) -> Any:
        self.built += 1
        if self.built > MAX_VALUES:  # an alias of an alias of an alias… ("billion laughs")
            raise CardgenError(f"the file holds more than {MAX_VALUES:,} values once its aliases (*name) are "
                               f"expanded", _where(self.path, node))
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if node.tag not in _PLAIN_TAGS:
                raise CardgenError(f"YAML tag {node.tag!r} is not supported", _where(self.path, node))
            if depth > MAX_USER_NESTING:  # as written, parse_yaml measured it: an alias inside an alias…
                raise CardgenError(f"the file nests lists and mappings more than {MAX_USER_NESTING} deep through "
                                   f"its aliases (*name)", _where(self.path, node))
            if id(node) in self.inside:  # `a: &x [*x]`: a value that holds itself never ends
                raise CardgenError("an alias (*name) stands inside the value it names, which would never end",
                                   _where(self.path, node))
            self.inside.add(id(node))
            try:
                return self._collection(node, depth)
            finally:
                self.inside.discard(id(node))
        return self._scalar(node)

    def _collection(self, node: yaml.Node, depth: int) -> Any:
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, depth)
        seq = YList(self.build(item, depth + 1) for item in node.value)
        seq.where = _where(self.path, node)
        seq.item_where = [_where(self.path, item) for item in node.value]
        return seq

    def _scalar(self, node: yaml.Node) -> Any:
        if node.tag == _INT_TAG and len(node.value) > sys.get_int_max_str_digits() \
                and (digits := sum(c.isdigit() for c in node.value)) > sys.get_int_max_str_digits():  # Python's limit
            raise CardgenError(f"a whole number of {digits:,} digits: cardgen reads at most "
                               f"{sys.get_int_max_str_digits():,}", _where(self.path, node))
        try:
            return self.constructor.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise CardgenError(f"bad value: {getattr(exc, 'problem', exc)}", _where(self.path, node)) from None
        except _SCALAR_ERRORS as exc:
            raise scalar_error(node, exc, _where(self.path, node)) from None

    def _pairs(self, node: yaml.MappingNode) -> tuple[list, int]:
        """The key/value nodes of a mapping with those its ``<<`` merges bring first (a
        later merged mapping before an earlier one, so the earlier wins, as PyYAML
        orders them), and how many of them came from merges. The nodes are left as
        they are: an alias of this mapping is the very same node."""
        known = self.pairs.get(id(node))
        if known is not None:
            return known
        merged: list = []
        own: list = []
        for key_node, value_node in node.value:
            if key_node.tag != _MERGE_TAG:
                own.append((key_node, value_node))
                continue
            if isinstance(value_node, yaml.MappingNode):
                sources = [value_node]
            elif isinstance(value_node, yaml.SequenceNode) and all(
                    isinstance(item, yaml.MappingNode) for item in value_node.value):
                sources = value_node.value[::-1]
            else:
                raise CardgenError("a merge (<<) takes a mapping or a list of mappings", _where(self.path, value_node))
            for source in sources:
                if id(source) in self.inside:  # `a: &x {<<: *x}`
                    raise CardgenError("a merge (<<) brings in the mapping it stands in, which would never end",
                                       _where(self.path, value_node))
                self.inside.add(id(source))
                try:
                    merged.extend(self._pairs(source)[0])
                finally:
                    self.inside.discard(id(source))
                if len(merged) > MAX_VALUES:
                    raise CardgenError(f"the file holds more than {MAX_VALUES:,} values once its merges (<<) are "
                                       f"expanded", _where(self.path, node))
        self.pairs[id(node)] = (merged + own, len(merged))
        return self.pairs[id(node)]

    def _mapping(self, node: yaml.MappingNode, depth: int) -> YDict:
        """A mapping; its own keys override the keys a ``<<`` merge brings (and a later
        merged mapping's, an earlier one's), but an own key written twice is an error."""
        out = YDict()
        out.where = _where(self.path, node)
        out.key_where, out.value_where = {}, {}
        pairs, merged = self._pairs(node)
        own: set = set()
        for index, (key_node, value_node) in enumerate(pairs):
            key = self.build(key_node, depth + 1)
            if not isinstance(key, (str, int, float, bool)) or key is None:
                raise CardgenError("a mapping key must be a plain value", _where(self.path, key_node))
            if index >= merged:
                if key in own:
                    first = out.key_where[key]
                    raise CardgenError(
                        f"duplicate key '{key}' (first at line {first.line})", _where(self.path, key_node)
                    )
                own.add(key)
            out[key] = self.build(value_node, depth + 1)
            out.key_where[key] = _where(self.path, key_node)
            out.value_where[key] = _where(self.path, value_node)
        return out


# PyYAML's constructors trust that a scalar fits its tag: ``!!int "x"`` (ValueError),
# ``!!bool maybe`` (KeyError), ``!!float ""`` (IndexError), ``!!timestamp x``
# (AttributeError), and a plain ``2001-02-30``, which looks like a date (ValueError).
_SCALAR_ERRORS = (ValueError, KeyError, IndexError, AttributeError, TypeError, OverflowError)


def scalar_error(node: yaml.Node, exc: BaseException, where: Where) -> CardgenError:
    """A scalar PyYAML could not turn into the value its tag (given, or read from its
    look, as for a date) promises."""
    tag = str(node.tag).rsplit(":", 1)[-1]
    kind = {"int": "integer", "float": "number", "bool": "true or false", "timestamp": "date"}.get(tag, tag)
    text = str(node.value)
    shown = repr(text if len(text) <= 40 else text[:39] + "…")
    detail = f" ({exc})" if tag == "timestamp" and isinstance(exc, ValueError) else ""
    return CardgenError(f"bad value: {shown} is not a valid {kind}{detail}", where)


def yaml_error(exc: yaml.YAMLError, path: str) -> CardgenError:
    """Turn a PyYAML error into our one-line form, keeping its line and column."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    where = Where(path, mark.line + 1, mark.column + 1) if mark else Where(path)
    if _LIBYAML_TOO_DEEP in problem:  # libyaml's own ceiling, should a release set it under cardgen's
        return CardgenError("lists and mappings nested deeper than the YAML reader allows", where)
    return CardgenError(f"YAML syntax error: {problem}", where)


def parse_yaml(text: str, path: str) -> Any:
    """Parse YAML text into YDict/YList/scalars with positions; ``path`` labels errors.
    A text nested more than MAX_USER_NESTING deep is refused at the line where it goes
    too deep, before anything recurses."""
    _deepest(text, path, MAX_USER_NESTING, "the file")
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise yaml_error(exc, path) from None
    if node is None:
        return None
    return _Builder(path).build(node)


def load_yaml(path: Path, label: str | None = None) -> Any:
    """Read and parse a YAML file; ``label`` is how the path is shown in errors."""
    label = label or str(path)
    try:
        text = read_utf8(path, label)
    except FileNotFoundError:
        raise CardgenError("file not found", Where(label)) from None
    return parse_yaml(text, label)


MAX_NESTING = 1_000  # lists and mappings inside one another in a rendered layout. At or under
# every libyaml the allowed PyYAML releases bundle: up to 6.0.3 its composer recurses in C and
# some 30,000 levels crash the process; from 6.0.4 it refuses more than 1,000 in words of its own.


class _RenderedLoader(_Loader):
    """The fast loader with merges (``<<``) of its own: an alias shares its value, but
    a merge of merges copies, doubling at each level, so every copied pair is counted.

    PyYAML's own merging changed between releases (6.0.4 drops a pair merged twice
    from the same node), so cardgen merges as the YAML merge-key type says and as
    the user-file loader does: a mapping's own keys win, then the earlier of the
    mappings a ``<<`` lists."""

    def __init__(self, stream: str, path: str):
        super().__init__(stream)
        self.path = path
        self.pairs = 0

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        merged: list = []
        own: list = []
        for key_node, value_node in node.value:
            if key_node.tag != _MERGE_TAG:
                if key_node.tag == "tag:yaml.org,2002:value":  # PyYAML reads `=` as a plain key
                    key_node.tag = "tag:yaml.org,2002:str"
                own.append((key_node, value_node))
                continue
            if isinstance(value_node, yaml.MappingNode):
                sources = [value_node]
            elif isinstance(value_node, yaml.SequenceNode) and all(
                    isinstance(item, yaml.MappingNode) for item in value_node.value):
                sources = value_node.value[::-1]  # the earlier mapping wins: it comes later
            else:
                raise CardgenError("a merge (<<) takes a mapping or a list of mappings", _where(self.path, value_node))
            for source in sources:
                self.flatten_mapping(source)
                self.pairs += len(source.value)
                if self.pairs > MAX_VALUES:  # counted before the copy is made
                    raise CardgenError(f"the layout holds more than {MAX_VALUES:,} values once its merges (<<) "
                                       f"are expanded", _where(self.path, node))
                merged.extend(source.value)
        if merged:
            node.value = merged + own


def _deepest(text: str, path: str, limit: int = MAX_NESTING, what: str = "the layout") -> None:
    """Refuse a text nested deeper than ``limit``, at its line. Each level opens with
    ``[`` or ``{``, a ``-`` or ``?`` indicator, or a block mapping's first key, which
    starts a line (or follows one of those indicators: ``a: b: c`` is no YAML), so only
    a text with more lines and ``[{-?`` than the limit is parsed event by event
    (iteratively) to measure it, before libyaml's composer recurses. (Counting ``:`` too
    made nearly every rendered face pay for a second parse.)"""
    if text.count("\n") + 1 + sum(text.count(c) for c in "[{-?") <= limit:
        return
    try:
        _measure_depth(text, path, limit, what, _Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        if _LIBYAML_TOO_DEEP in str(getattr(exc, "problem", "")) and mark is not None:
            # libyaml (PyYAML 6.0.4 on) stops at a ceiling of its own, even ahead of the events
            # it has handed over: PyYAML's pure-Python parser, which keeps its states in a list
            # and has no ceiling, measures the text up to that place, so the limit is cardgen's
            try:
                _measure_depth(text[:mark.index + 1], path, limit, what, yaml.SafeLoader)
            except yaml.YAMLError:
                pass  # the cut text ends early: under cardgen's limit up to libyaml's place
            raise yaml_error(exc, path) from None  # libyaml's ceiling is the lower one
        return  # the loader reports it, with its line


def _measure_depth(text: str, path: str, limit: int, what: str, loader: type[Any]) -> None:
    """Walk the parser's events, raising at the first collection more than ``limit`` deep."""
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > limit:
                mark = event.start_mark
                where = Where(path, mark.line + 1, mark.column + 1) if mark is not None else Where(path)
                raise CardgenError(f"{what} nests lists and mappings more than {limit:,} deep", where)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _expanded_values(doc: Any) -> int:
    """How many values ``doc`` holds with every alias counted where it is used
    (counted only up to just past MAX_VALUES; a value that contains itself never ends)."""
    count = 0
    stack = [doc]
    while stack and count <= MAX_VALUES:
        value = stack.pop()
        count += 1
        if isinstance(value, dict):
            count += len(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return count


def _long_number(text: str, path: str) -> CardgenError | None:
    """The error for a whole number too long for Python to read, at its line; None if
    the text holds none."""
    limit = sys.get_int_max_str_digits()
    found = re.search(rf"\d{{{limit + 1},}}", text)
    if found is None:
        return None
    line = text.count("\n", 0, found.start()) + 1
    col = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
    return CardgenError(f"a whole number of {len(found.group()):,} digits: cardgen reads at most {limit:,}",
                        Where(path, line, col))


def _located_scalar_error(text: str, path: str) -> CardgenError:
    """The error of a scalar that does not fit its tag, found again at its line by the
    slower loader that keeps positions (only on this error path)."""
    try:
        parse_yaml(text, path)
    except CardgenError as exc:
        return exc
    return CardgenError("bad value: a scalar does not fit its tag", Where(path))  # pragma: no cover


def fast_load(text: str, path: str) -> Any:
    """Parse machine-written YAML (rendered layouts) quickly, without positions, with
    the limits of user files: at most MAX_VALUES values once aliases and merges are
    expanded, and nesting at most MAX_NESTING deep.

    The error quotes the offending rendered line, since the user never sees the
    rendered text otherwise."""
    _deepest(text, path)
    loader = _RenderedLoader(text, path) if "<<" in text else _Loader(text)  # merges need the counting loader
    try:
        doc = loader.get_single_data()
    except (yaml.YAMLError, *_SCALAR_ERRORS) as exc:  # _SCALAR_ERRORS: a scalar that does not fit its tag
        long_number = None if isinstance(exc, yaml.YAMLError) else _long_number(text, path)
        if long_number is not None:  # a whole number too long for Python: its own words, at its place
            raise long_number from None
        err = yaml_error(exc, path) if isinstance(exc, yaml.YAMLError) else _located_scalar_error(text, path)
        lines = text.splitlines()
        if err.where.line and err.where.line <= len(lines):
            err = CardgenError(f"{err.message} in rendered line: {lines[err.where.line - 1].strip()[:90]!r}", err.where)
        raise err from None
    finally:
        loader.dispose()
    if "&" in text and _expanded_values(doc) > MAX_VALUES:  # every alias needs an anchor (&name)
        raise CardgenError(f"the layout holds more than {MAX_VALUES:,} values once its aliases (*name) are expanded",
                           Where(path))
    return doc
