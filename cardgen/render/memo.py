"""Which inputs decide a face's rendering, so that a face whose inputs equal an earlier
one's is not rendered again (one card back for a whole deck, a tile that reads no
string in every language).

A template sees its context; what it can read of it is the names it (or any template
it includes, imports or extends) uses. Jinja's parser lists those names, so a face's
key is its template and the values of those names only: the card back that never
reads ``card`` has one key for every card. The key is canonical text (mappings
sorted, sequences in order), never pickled; values that are not data (the ``t``
function, the count helpers) stand for their language, whose strings then also
decide the key. A template whose output is not a function of its inputs (Jinja's
``random`` filter, ``lipsum``) or whose included names are computed has no key and
is always rendered.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from jinja2 import nodes

from ..version import __version__

_IMPURE_FILTERS = frozenset({"random"})  # a different result on every call
_IMPURE_NAMES = frozenset({"lipsum"})
_TEMPLATE_REFS = (nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)  # nodes naming another template
_NOT_YET = object()  # a template of the closure is not compiled yet


def canonical(value: Any) -> Any:
    """``value`` as plain JSON data: mappings with sorted text keys, sequences as lists,
    numbers with their type (1 and 1.0 render differently)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return {"f": repr(value)}
    if isinstance(value, Mapping):
        return {"m": sorted(([repr(k) if not isinstance(k, str) else k, canonical(v)] for k, v in value.items()),
                            key=lambda kv: kv[0])}
    if isinstance(value, (list, tuple)):
        return {"l" if isinstance(value, list) else "t": [canonical(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"s": sorted(json.dumps(canonical(v), sort_keys=True) for v in value)}
    raise TypeError(type(value).__name__)


@dataclass(frozen=True)
class TemplateFacts:
    """What one template's source can read, learnt from its syntax tree as it compiles:
    the names it loads as a whole, and the fields (``card.kind``, ``card["kind"]``) of
    names it loads only field by field (its own variables are among them: a superset of
    what it reads of its context), the templates it includes, imports or extends (None
    in ``refs``: a computed name), whether it calls something impure, and a digest of
    its source."""

    whole: frozenset[str]
    fields: frozenset[tuple[str, ...]]  # (name, field, field…): ``game.data.tiles``
    refs: tuple[str | None, ...]
    impure: bool
    digest: str

    def as_json(self) -> dict[str, Any]:
        """The facts as JSON data, for the face cache (render/facestore.py)."""
        return {"whole": sorted(self.whole), "fields": sorted(list(p) for p in self.fields),
                "refs": list(self.refs), "impure": self.impure}

    @staticmethod
    def from_json(data: Mapping[str, Any], digest: str) -> TemplateFacts | None:
        """Facts read back from the face cache; None unless every field has its type."""
        whole, fields, refs, impure = (data.get(k) for k in ("whole", "fields", "refs", "impure"))
        if not (isinstance(whole, list) and all(isinstance(n, str) for n in whole)
                and isinstance(fields, list)
                and all(isinstance(p, list) and 2 <= len(p) <= MAX_PATH + 1 and all(isinstance(x, str) for x in p)
                        for p in fields)
                and isinstance(refs, list) and all(r is None or isinstance(r, str) for r in refs)
                and isinstance(impure, bool)):
            return None
        return TemplateFacts(frozenset(whole), frozenset(tuple(p) for p in fields), tuple(refs), impure, digest)


MAX_PATH = 4  # fields of a name followed into its value (``game.data.tiles``): a longer chain keys on its start


def _chain(node: nodes.Node) -> tuple[nodes.Name, tuple[str, ...]] | None:
    """The name and fields of ``name.a.b["c"]`` (fields by attribute or constant text),
    None for anything else."""
    steps: list[str] = []
    while isinstance(node, (nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Getattr):
            steps.append(node.attr)
        elif isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            steps.append(node.arg.value)
        else:
            return None
        node = node.node
    if isinstance(node, nodes.Name) and node.ctx == "load":
        return node, tuple(reversed(steps))
    return None


def template_facts(tree: nodes.Template, source: str) -> TemplateFacts:
    chains: dict[int, tuple[str, tuple[str, ...]]] = {}
    inner: set[int] = set()  # chains inside a longer one
    by_field: set[int] = set()  # the Name nodes read field by field
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        found = _chain(node)
        if found is None:
            continue
        target, steps = found
        chains[id(node)] = (target.name, steps[:MAX_PATH])
        inner.add(id(node.node))  # type: ignore[attr-defined]  # a Getattr or Getitem
        by_field.add(id(target))
    fields = {(name, *steps) for n, (name, steps) in chains.items() if n not in inner}
    whole = frozenset(n.name for n in tree.find_all(nodes.Name) if n.ctx == "load" and id(n) not in by_field)
    refs: list[str | None] = []
    for ref in tree.find_all(_TEMPLATE_REFS):
        assert isinstance(ref, _TEMPLATE_REFS)  # (for the type checker: find_all gives the types asked for)
        named = ref.template
        refs.append(named.value if isinstance(named, nodes.Const) and isinstance(named.value, str) else None)
    impure = bool((whole | {p[0] for p in fields}) & _IMPURE_NAMES) \
        or any(f.name in _IMPURE_FILTERS for f in tree.find_all(nodes.Filter))
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    return TemplateFacts(whole, frozenset(fields), tuple(refs), impure, digest)


_MISSING = "\0missing"


def _field(value: Any, name: str) -> Any:
    """``value.name`` as a template reads it from a mapping (its key; a mapping's own
    method names, such as ``items``, are not fields): _NOT_DATA where that is not so."""
    if not isinstance(value, Mapping) or hasattr(dict, name):
        return _NOT_DATA
    return value.get(name, _MISSING)


_NOT_DATA = object()


def _path_value(value: Any, path: tuple[str, ...]) -> Any:
    """``value.a.b`` as a template reads it (see _field), _MISSING from the first field
    that is not there."""
    for name in path:
        value = _field(value, name)
        if value is _NOT_DATA or value is _MISSING:
            return value
    return value


_Closure = tuple[frozenset[str], dict[str, frozenset[tuple[str, ...]]], str]  # names, fields read, sources


class FaceKeys:
    """The key of a face's rendering from its template and context (None: no key)."""

    def __init__(self, facts: Mapping[str, TemplateFacts],
                 source_digest: Callable[[str], str | None] | None = None,
                 stored: Callable[[str], TemplateFacts | None] | None = None):
        self.facts = facts  # filled as templates compile (LimitedSandbox._parse)
        # With the face cache, a key must hold for the sources as they are now: each
        # template's facts are checked against its source's digest, and the facts of a
        # source not compiled in this process are looked up in the cache (``stored``).
        self.source_digest = source_digest
        self.stored = stored
        self._names: dict[str, _Closure | None] = {}

    def names(self, template: str) -> _Closure | None:
        """The context names ``template`` and the templates it reaches can read, and a
        digest of all their sources; None when that cannot be known."""
        if template in self._names:
            return self._names[template]
        found = self._closure(template)
        if found is not _NOT_YET:
            self._names[template] = found
            return found
        return None

    def _closure(self, template: str) -> Any:
        whole: set[str] = set()
        fields: dict[str, set[tuple[str, ...]]] = {}
        digest = hashlib.sha256()
        todo, seen = [template], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            facts = self.facts.get(name)
            if self.source_digest is not None:
                digest_now = self.source_digest(name)
                if digest_now is None:
                    return None  # unreadable: the rendering reports it
                if facts is None or facts.digest != digest_now:
                    facts = self.stored(digest_now) if self.stored is not None else None
            if facts is None:  # not compiled yet (an include met later): known after a rendering
                return _NOT_YET
            if facts.impure or None in facts.refs:
                return None  # impure, or reaching a computed name
            digest.update(f"{name}\0{facts.digest}\0".encode("utf-8", "surrogatepass"))
            whole |= facts.whole
            for name, *path in facts.fields:
                fields.setdefault(name, set()).add(tuple(path))
            todo.extend(r for r in facts.refs if r is not None)
        by_field = {n: frozenset(f) for n, f in fields.items() if n not in whole}
        return frozenset(whole), by_field, digest.hexdigest()

    def key(self, template: str, context: Mapping[str, Any], base: Mapping[str, Any],
            language_token: Callable[[], str], shared: dict[str, str]) -> str | None:
        """The face's key: cardgen's version, the sources it reaches, and the values of
        the names it reads. ``shared`` keeps the text of the values of ``base`` (the
        language's context every face shares: the game, the palette) once worked out."""
        found = self.names(template)
        if found is None:
            return None
        whole, by_field, sources = found
        parts = [__version__, template, sources]
        for name in sorted(whole | by_field.keys()):
            if name not in context:
                continue  # a global (range, dict…) or an error the rendering will report
            value = context[name]
            if name in by_field:  # only some fields read: the face is decided by those
                picked = {"\x1f".join(p): _path_value(value, p) for p in sorted(by_field[name])}
                if all(v is not _NOT_DATA for v in picked.values()):
                    token = self._token(picked, False, language_token)
                    if token is None:
                        return None
                    parts.append(f"{name}.={token}")
                    continue
            is_base = name in base and base[name] is value
            token = shared.get(name) if is_base else None
            if token is None:
                token = self._token(value, True, language_token)
                if token is None:
                    return None
                if is_base:
                    shared[name] = token
            parts.append(f"{name}={token}")
        return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()

    @staticmethod
    def _token(value: Any, may_call: bool, language_token: Callable[[], str]) -> str | None:
        """A value as key text; a function (``t``, the count helpers) stands for its language."""
        try:
            return json.dumps(canonical(value), sort_keys=True, ensure_ascii=False)
        except TypeError:
            if may_call and callable(value):
                return "lang:" + language_token()
            return None
