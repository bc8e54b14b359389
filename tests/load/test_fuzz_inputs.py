"""Property tests: a stranger's ``game.yaml``, locale file and template, mutated at
random, never crash the build (issue 15).

Each example copies ``tests/data/mini_game``, breaks one file — values replaced by
values of other types, keys deleted, added or doubled, YAML tags, anchors and aliases,
characters inserted, deleted or changed; locale strings full of placeholders and
Jinja; templates grown from a grammar of Jinja constructs and layout ops — and builds
it in this process. The contract (README, "Errors") must hold whatever comes out:
exit 0, or exit 1 with only ``error: <file>…`` lines (and progress lines) on stderr,
no traceback, no exception name outside a template's own error, the output folder as
it was; a template that reads past the sandbox never succeeds, and no YAML tag runs
code.

By default each test runs a fixed, reproducible set of examples (about a minute for
the file on two cores). ``CARDGEN_FUZZ_EXAMPLES=5000`` runs that many random examples
per test instead (see docs/developers/tests.md).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from conftest import DATA
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardgen.base.errors import display_path
from cardgen.base.paths import shipped_fonts_dir, shipped_templates_dir
from cardgen.layout.ops import SPECS

EXAMPLES = int(os.environ.get("CARDGEN_FUZZ_EXAMPLES") or 0)
FUZZ = settings(
    max_examples=EXAMPLES or 50,
    deadline=None,
    derandomize=not EXAMPLES,  # CI: the same examples on every run
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

SECRET = "fuzz-secret-must-never-show"
EXCEPTION_NAME = re.compile(r"\b(Traceback|[A-Z][A-Za-z]*(Error|Exception|Exit|Interrupt)|StopIteration)\b")
PROGRESS = re.compile(r"  \S.*…$")


# -- building a mutated game and checking the contract ---------------------------------------------


@dataclass
class Game:
    """A fresh copy of mini_game, and an output folder holding one file already."""

    root: Path
    out: Path
    marker: Path  # a file only code run by a YAML tag would write ($CARDGEN_FUZZ_MARKER: the
    # examples' text must not depend on the folder's name, or hypothesis cannot replay them)

    def path(self, *parts: str) -> Path:
        return self.root.joinpath(*parts)


def fresh_game(tmp_path_factory, monkeypatch) -> Game:
    base = tmp_path_factory.mktemp("fuzz")
    root = base / "mini"
    shutil.copytree(DATA / "mini_game", root)
    out = base / "out"
    out.mkdir()
    (out / "keep.txt").write_text("was here\n", encoding="utf-8")
    monkeypatch.setenv("CARDGEN_FUZZ_MARKER", str(base / "pwned"))
    monkeypatch.setenv("CARDGEN_FUZZ_SECRET", SECRET)
    return Game(root, out, base / "pwned")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def located(line: str, prefixes: tuple[str, ...]) -> bool:
    return line.startswith(prefixes) or line.startswith("(the same template errors recur")


def build_holds_contract(cli, game: Game, *, must_fail: bool = False) -> int:
    """Build the game; assert the contract (see the module's docstring); its exit status."""
    from cardgen.render import sandbox

    before = snapshot(game.out)
    try:
        result = cli("build", game.root, "--out", game.out, "--lang", "en", "--paper", "a4", "--jobs", "1")
    finally:
        sandbox._RENDERERS.clear()  # one renderer per example folder would pile up over thousands of examples
    status = result.exit_code
    everything = result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{type(result.exception).__name__} escaped: {result.exception!r}\n{everything}")
    assert "Traceback" not in everything and 'File "' not in everything, everything
    assert SECRET not in everything, everything
    assert not game.marker.exists(), "a YAML tag ran code"
    event(f"exit {status}")
    if status == 0:
        assert not must_fail, f"a sandbox violation built:\n{everything}"
        assert all(PROGRESS.match(line) for line in result.stderr.splitlines()), result.stderr
        assert result.stdout.startswith("Built "), result.stdout
        return status
    assert snapshot(game.out) == before, "a failed build changed the output folder"
    if status == 2:  # a usage error: the game lost the language asked for
        assert "Invalid value for '--lang'" in result.stderr, everything
        return status
    assert status == 1, everything
    prefixes = (display_path(game.root), display_path(game.out), display_path(shipped_templates_dir()),
                display_path(shipped_fonts_dir()))  # a game with a shipped game's id uses its templates
    errors = []
    for line in result.stderr.splitlines():
        if PROGRESS.match(line):
            continue
        assert line.startswith("error: "), f"stray stderr line {line!r}:\n{result.stderr}"
        message = line[len("error: "):]
        assert located(message, prefixes), f"error without its file: {line!r}"
        name = EXCEPTION_NAME.search(message)
        if name:  # only a template's own Python error is reported by its name, at its template line
            assert re.match(r"\S+\.j2:\d+", message), f"exception name outside a template error: {line!r}"
            event(f"template {name.group(0)}")
        errors.append(message)
    assert errors, f"exit 1 without an error line:\n{everything}"
    assert "error:" not in result.stdout, everything
    return status


# -- YAML written from a tree that can hold what a dict cannot --------------------------------------


@dataclass
class Map:
    """A mapping as written: its pairs in order, duplicates allowed."""

    pairs: list[list[Any]] = field(default_factory=list)


@dataclass
class Raw:
    """YAML text written as it is: a tag, an alias, a flow collection."""

    text: str


@dataclass
class Anchored:
    name: str
    value: Any


def tree(value: Any) -> Any:
    if isinstance(value, dict):
        return Map([[k, tree(v)] for k, v in value.items()])
    if isinstance(value, list):
        return [tree(v) for v in value]
    return value


def scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return ".nan"
        if value in (float("inf"), float("-inf")):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Raw):
        return value.text
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def key_text(key: Any) -> str:
    if isinstance(key, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return key
    return scalar(key)


def emit(node: Any, indent: int = 0) -> str:
    """``node`` as block YAML: the text after ``key:`` or ``-`` (with its leading space or newline)."""
    pad = " " * indent
    if isinstance(node, Anchored):
        inner = emit(node.value, indent)
        return f" &{node.name}{inner}"
    if isinstance(node, Map):
        if not node.pairs:
            return " {}"
        return "".join(f"\n{pad}{key_text(k)}:{emit(v, indent + 2)}" for k, v in node.pairs)
    if isinstance(node, list):
        if not node:
            return " []"
        return "".join(f"\n{pad}-{emit(v, indent + 2)}" for v in node)
    return " " + scalar(node)


def document(node: Any) -> str:
    return emit(node, 0).lstrip("\n") + "\n"


# -- values of every type, and the places in a tree they can go ---------------------------------------

PATHS = ["../game.yaml", "/etc/passwd", "front.yaml.j2", "back.yaml.j2", "templates/front.yaml.j2", "",
         ".", "..", "~", "nul", "con:", "a" * 300 + ".j2", "missing.yaml.j2", "game.yaml", "locales/en.yaml"]
WORDS = ["game.name", "component.cards", "card.title", "card-{n}", "{n}", "en", "fr", "xx", "deck", "sheet",
         "board", "round", "hex", "ink", "#zzz", "#12345", "NotoSans-Regular", "NoSuchFont", "mini", "hapy",
         "id", "joker", "yes", "no", "on", "~", "2001-12-14", "0x1F", "1e999", "-0", "0o17", "+.inf", ".NaN"]
PLACEHOLDERS = ["{", "}", "{}", "{0}", "{n}", "{x}", "{x.y}", "{x[0]}", "{x!r}", "{x!s:>10}", "{x:>99999}",
                "{n:>99999999}", "{{", "}}", "{{n}}", "{n.__class__}", "{n.__init__.__globals__}", "%s", "%d",
                "%(n)s", "%", "{{ n }}", "{% if true %}x{% endif %}", "{{ 7*7 }}", "{#", "#}", "${n}", "{n}{n}{n}",
                "{n!a}", "{ n }", "{n }", "{-1}", "{n:{x}}", "{" * 50, "}" * 50]
UNICODE = ["é", "😀" * 50, "\u202e", "\u200b", "\ufeff", "\u0085", "\u2028", "ß" * 10, "𓂀", "\t", "\x7f",
           "\x01", "\\", "\"", "'", "\n", "\r\n", "\u00a0"]
TAGS = ["!!python/object/apply:os.system [\"echo pwned > $CARDGEN_FUZZ_MARKER\"]",
        "!!python/object/new:os.system [\"echo pwned > $CARDGEN_FUZZ_MARKER\"]",
        "!!python/name:os.environ", "!!python/object:__main__.Thing {a: 1}", "!!binary aGVsbG8=",
        "!!timestamp 2001-12-14t21:59:43.10-05:00", "!!set {a, b}", "!!omap [a: 1, b: 2]", "!!pairs [a: 1]",
        "!!str 3", "!!int \"x\"", "!!float \"1e999\"", "!!null \"\"", "!!bool yes", "!custom x", "!!map {}",
        "!<tag:yaml.org,2002:python/object:os.system> x", "!!seq []", "!! x", "!x!y z",
        "[" * 150 + "]" * 150, "{a: " * 120 + "1" + "}" * 120, "9" * 5000, "-" + "1" * 4301,
        "{<<: {a: 1}, a: 2}", "{<<: [{a: 1}, {b: 2}], b: 3}", "{<<: 1}"]
INTERESTING = [[63, 88], [0, 0], [-1, 88], [1e308, 1], [1, 2, 3], ["63", "88"], {"range": [1, 10**6]},
               {"range": [3, 1]}, {"range": ["a", 2]}, {"range": [1, 3, 5]}, {"range": None}, [[]], [{}],
               {"n": {"range": [1, 3]}}, {"n": [1, 2]}, ["en"], ["en", "en"], {"text": "x"}]
KNOWN_KEYS = ["id", "name", "players", "languages", "fonts", "palette", "components", "data", "data_files",
              "kind", "size", "front", "back", "cards", "bleed", "safe", "printshop", "shape", "new_row_per",
              "header", "template", "overlap", "quantity", "for_each", "fields", "variant", "variants", "text",
              "house_rules", "range", "n"]


def numbers() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(min_value=-3, max_value=100),
        st.sampled_from([0, -1, 2**31, 2**63, -(2**63), 10**18, 10**100]),
        st.integers(min_value=1, max_value=300).map(lambda n: int("9" * n)),  # longer ones are in TAGS, as text
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([0.5, -0.0, 1e-320, 1e308, 0.25]),
    )


def texts() -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
        st.sampled_from(PATHS + WORDS + PLACEHOLDERS + UNICODE),
        st.sampled_from(["x", "{n}", "é", "{{ n }}"]).flatmap(
            lambda s: st.sampled_from([1000, 100_000, 1_000_000]).map(lambda k: s * (k // len(s)))),
    )


def values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), numbers(), texts(),
                        st.sampled_from(TAGS).map(Raw),
                        st.sampled_from(INTERESTING).map(tree))
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(st.tuples(st.one_of(st.sampled_from(KNOWN_KEYS), texts(), st.integers(-2, 2), st.none()),
                               inner), max_size=4).map(lambda pairs: Map([list(p) for p in pairs])),
        ),
        max_leaves=8,  # small trees; TAGS holds text nested past the limit of 100
    )


def slots(node: Any) -> list[tuple[Any, int]]:
    """Every (container, index) of a tree: a pair of a Map or an item of a list."""
    found = []
    if isinstance(node, Anchored):
        node = node.value
    if isinstance(node, Map):
        for i, pair in enumerate(node.pairs):
            found.append((node, i))
            found += slots(pair[1])
    elif isinstance(node, list):
        for i, item in enumerate(node):
            found.append((node, i))
            found += slots(item)
    return found


def get(container: Any, i: int) -> Any:
    return container.pairs[i][1] if isinstance(container, Map) else container[i]


def put(container: Any, i: int, value: Any) -> None:
    if isinstance(container, Map):
        container.pairs[i][1] = value
    else:
        container[i] = value


def mutate_tree(data, doc: Any, count: int) -> None:
    """Apply ``count`` structured mutations to ``doc`` in place."""
    anchors = 0
    for _ in range(count):
        places = slots(doc)
        if not places:
            return
        container, i = data.draw(st.sampled_from(places))
        how = data.draw(st.sampled_from(["replace", "replace", "nudge", "nudge", "delete", "add", "duplicate",
                                         "alias", "tag"]))
        event(f"tree {how}")
        old = get(container, i)
        if how == "nudge":  # a value of the same type, often still accepted: the build goes further
            if isinstance(old, bool) or not isinstance(old, (int, float, str)):
                how = "replace"
            elif isinstance(old, str):
                put(container, i, data.draw(st.one_of(texts(), st.sampled_from([old + u for u in UNICODE]))))
            else:
                put(container, i, data.draw(st.one_of(numbers(), st.sampled_from([1, 5, 20, 600, 1000, 10_000]))))
        if how == "replace":
            put(container, i, data.draw(values()))
        elif how == "delete":
            del (container.pairs if isinstance(container, Map) else container)[i]
        elif how == "add":
            if isinstance(container, Map):
                key = data.draw(st.one_of(st.sampled_from(KNOWN_KEYS), texts()))
                container.pairs.insert(data.draw(st.integers(0, len(container.pairs))), [key, data.draw(values())])
            else:
                container.insert(data.draw(st.integers(0, len(container))), data.draw(values()))
        elif how == "duplicate" and isinstance(container, Map):
            key = container.pairs[i][0]
            container.pairs.insert(i + 1, [key, data.draw(st.one_of(values(), st.just(get(container, i))))])
        elif how == "alias":  # an anchor on one value, an alias of it somewhere else (maybe before it)
            anchors += 1
            name = f"a{anchors}"
            put(container, i, Anchored(name, get(container, i)))
            other, j = data.draw(st.sampled_from(slots(doc)))
            if other is not container or j != i:
                put(other, j, Raw(f"*{name}"))
        elif how == "tag":
            put(container, i, Raw(data.draw(st.sampled_from(TAGS))))


YAML_CHARS = list(":-[]{}#&*!|>'\"%@`,?\\ \t\n") + ["\r", "\x00", "\ufeff", "é", "😀", "<<", "\u2028", "0", "a"]


def mutate_text(data, text: str, count: int) -> str:
    """Apply ``count`` character- or line-level edits to ``text``."""
    for _ in range(count):
        how = data.draw(st.sampled_from(["insert", "delete", "replace", "line-dup", "line-del", "indent", "swap"]))
        event(f"text {how}")
        at = data.draw(st.integers(0, max(len(text) - 1, 0)))
        char = data.draw(st.one_of(st.sampled_from(YAML_CHARS), st.characters(blacklist_categories=("Cs",))))
        lines = text.split("\n")
        row = data.draw(st.integers(0, max(len(lines) - 1, 0)))
        if how == "insert":
            text = text[:at] + char + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + data.draw(st.integers(1, 10)):]
        elif how == "replace":
            text = text[:at] + char + text[at + 1:]
        elif how == "line-dup":
            text = "\n".join(lines[:row + 1] + lines[row:])
        elif how == "line-del":
            text = "\n".join(lines[:row] + lines[row + 1:])
        elif how == "indent":
            lines[row] = data.draw(st.sampled_from([" ", "  ", "\t", "-", "- "])) + lines[row]
            text = "\n".join(lines)
        elif how == "swap" and len(lines) > 1:
            other = data.draw(st.integers(0, len(lines) - 1))
            lines[row], lines[other] = lines[other], lines[row]
            text = "\n".join(lines)
    return text


def mutate_yaml_file(data, path: Path) -> None:
    """Structured mutations of the file's tree, character edits of its text, or both."""
    mode = data.draw(st.sampled_from(["tree", "tree", "text", "both"]), label="mutations")
    structured = data.draw(st.sampled_from([1, 1, 1, 2, 3, 4])) if mode != "text" else 0
    edits = data.draw(st.integers(1, 3)) if mode != "tree" else 0
    text = path.read_text(encoding="utf-8")
    if structured:
        doc = tree(yaml.safe_load(text))
        mutate_tree(data, doc, structured)
        text = document(doc)
    text = mutate_text(data, text, edits)
    encoding = data.draw(st.sampled_from(["utf-8"] * 9 + ["latin-1"]), label="encoding")
    path.write_bytes(text.encode(encoding, errors="replace"))


# -- the properties ------------------------------------------------------------------------------------


@FUZZ
@given(data=st.data())
def test_mutated_game_yaml(cli, tmp_path_factory, monkeypatch, data):
    game = fresh_game(tmp_path_factory, monkeypatch)
    mutate_yaml_file(data, game.path("game.yaml"))
    build_holds_contract(cli, game)


# A front that hands the locale strings every kind of value a template could pass.
LOCALE_FRONT = """\
- {text: {x: 5, y: 5, w: {{ w - 10 }}, h: 12, text: {{ t('card.title', n=card.id)|q }}, size: 12, color: ink}}
- {text: {x: 5, y: 20, w: {{ w - 10 }}, h: 12, text: {{ t('card.title', n=3, x=cycler, y=[1], z=none)|q }}, size: 12, color: ink}}
- {text: {x: 5, y: 35, w: {{ w - 10 }}, h: 12, text: {{ t('game.name')|q }}, size: 12, color: ink}}
- {text: {x: 5, y: 50, w: {{ w - 10 }}, h: 12, text: {{ t('component.cards', n=card)|q }}, size: 12, color: ink}}
"""


@FUZZ
@given(data=st.data())
def test_mutated_locale(cli, tmp_path_factory, monkeypatch, data):
    game = fresh_game(tmp_path_factory, monkeypatch)
    game.path("templates", "front.yaml.j2").write_text(LOCALE_FRONT, encoding="utf-8")
    locale = game.path("locales", "en.yaml")
    if data.draw(st.booleans(), label="placeholder strings"):  # each string a mix of text and placeholders
        doc = tree(yaml.safe_load(locale.read_text(encoding="utf-8")))
        strings = st.lists(st.one_of(st.sampled_from(PLACEHOLDERS), texts()), min_size=1, max_size=4).map("".join)
        for container, i in slots(doc):
            if isinstance(get(container, i), str) and data.draw(st.booleans()):
                put(container, i, data.draw(strings))
        text = document(doc)
        locale.write_text(text, encoding="utf-8")
    else:
        mutate_yaml_file(data, locale)
    build_holds_contract(cli, game)


# -- templates from a grammar ---------------------------------------------------------------------------

NAMES = ["card", "card.id", "card.quantity", "w", "h", "bleed", "safe", "lang", "face", "game", "game.name",
         "game.data", "palette", "components", "component", "ink_saver", "t", "cycler", "joiner", "namespace",
         "range", "lipsum", "dict", "none", "true", "false", "nothing_here", "loop", "self", "caller", "varargs",
         "kwargs", "_z0", "_z1", "m0", "b"]
ATOMS = ["0", "1", "-1", "3", "2.5", "1e308", "-1e308", "10**6", "10**9", "99999", "''", "'abc'", "'ink'",
         "'#ffffff'", "'{n}'", "'%s'", "'é😀'", "[]", "[1, 2, 3]", "{}", "{'x': 1, 'y': 2}", "(1, 2)", "none",
         "[{'x': 0, 'y': 0}, {'x': 0, 'y': 0, 'w': 5, 'h': 5}]"]
ATTRS = ["id", "x", "upper", "items", "keys", "append", "format", "__class__", "__dict__", "__globals__",
         "__init__", "__mro__", "__subclasses__", "mro", "environ", "real", "__len__", "_z", "gi_frame", "f_globals"]
FILTERS = ["upper", "lower", "length", "list", "string", "int", "float", "abs", "round", "first", "last", "sort",
           "unique", "reverse", "sum", "min", "max", "trim", "title", "capitalize", "tojson", "q", "dictsort",
           "items", "batch(3)", "slice(2)", "join(',')", "join", "replace('a', 'b')", "center(40)",
           "center(10**9)", "indent(4)", "wordwrap(5)", "truncate(3)", "default('d')", "default(none, true)",
           "map('upper')", "map(attribute='id')", "map(attribute='__class__')", "select('odd')", "reject",
           "selectattr('id')", "attr('__class__')", "attr('id')", "format(1, 2)", "groupby('x')", "xmlattr",
           "urlize", "wordcount", "filesizeformat", "pprint", "mix('#000000', 2)", "mix('nope')", "contrast",
           "luminance", "covered", "covered(0, 0)", "random_is_not_a_filter", "striptags", "e", "safe", "count",
           "forceescape", "list|batch(10**9)", "sum(attribute='x')", "truncate(-1)", "wordwrap(0)", "slice(0)",
           "batch(0)", "indent(-5)", "round(-1000)", "int('x', 99)", "map", "select('nosuchtest')", "xmlattr(1)",
           "reject('divisibleby', 0)", "replace('', 'x')", "format('%s')", "sort(attribute='__class__')"]
TESTS = ["defined", "undefined", "none", "number", "string", "mapping", "iterable", "sequence", "callable",
         "odd", "even", "divisibleby(3)", "divisibleby(0)", "sameas(1)", "eq(1)", "in([1])", "lower", "escaped",
         "filter", "test", "nosuchtest"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "~", "==", "!=", "<", ">=", "and", "or", "in", "not in"]
SNEAKS = [  # each would read past the sandbox; printed, it must fail the build
    "cycler.__init__.__globals__.os.environ.CARDGEN_FUZZ_SECRET",
    "lipsum.__globals__['os'].environ['CARDGEN_FUZZ_SECRET']",
    "''.__class__.__mro__[1].__subclasses__()",
    "t.__globals__",
    "namespace.__init__.__globals__",
    "joiner.__init__.__globals__.os.environ",
    "range.__self__.__import__('os').environ",
    "self.__init__.__globals__",
    "(1).__class__.__base__.__subclasses__()",
    "''|attr('__class__')|attr('__mro__')",
    "card.__class__",
    "game.data.__class__.__base__",
    "dict.__class__",
    "t.__closure__",
]


def expressions() -> st.SearchStrategy[str]:
    atoms = st.one_of(st.sampled_from(ATOMS), st.sampled_from(NAMES))
    return st.recursive(atoms, lambda e: st.one_of(
        st.tuples(e, st.sampled_from(OPERATORS), e).map(lambda p: f"({p[0]} {p[1]} {p[2]})"),
        st.tuples(e, st.sampled_from(ATTRS)).map(lambda p: f"{p[0]}.{p[1]}"),
        st.tuples(e, e).map(lambda p: f"{p[0]}[{p[1]}]"),
        st.tuples(e, st.sampled_from(FILTERS)).map(lambda p: f"({p[0]})|{p[1]}"),
        st.tuples(e, st.sampled_from(TESTS)).map(lambda p: f"({p[0]} is {p[1]})"),
        st.tuples(e, e, e).map(lambda p: f"({p[0]} if {p[1]} else {p[2]})"),
        st.tuples(st.sampled_from(["range", "lipsum", "dict", "cycler", "joiner", "namespace", "t", "m0", "caller",
                                   "'x'.ljust", "'a,b'.split", "'{}'.format", "'-'.join", "nothing_here"]),
                  st.lists(e, max_size=3)).map(lambda p: f"{p[0]}({', '.join(p[1])})"),
        st.tuples(e, e).map(lambda p: f"'%s-%s' % ({p[0]}, {p[1]})"),
        e.map(lambda x: f"not {x}"),
        e.map(lambda x: f"-{x}"),
        st.lists(e, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
    ), max_leaves=6)


def statements() -> st.SearchStrategy[str]:
    """One line of Jinja, complete in itself (every block it opens closed on the line)."""
    e = expressions()
    return st.one_of(
        e.map(lambda x: f"{{% set _z0 = {x} %}}"),
        e.map(lambda x: f"# {{{{ {x} }}}}"),  # printed into a YAML comment: rendered, then ignored
        e.map(lambda x: f"{{% do {x} %}}"),
        st.tuples(e, e, e).map(lambda p: f"{{% if {p[0]} %}}# {{{{ {p[1]} }}}}{{% else %}}{{% set _z1 = {p[2]} %}}{{% endif %}}"),
        st.tuples(e, e).map(lambda p: f"{{% for _i in {p[0]} %}}# {{{{ loop.index }}}} {{{{ {p[1]} }}}}\n{{% endfor %}}"),
        st.tuples(e, e).map(lambda p: f"{{% for _i in {p[0]} %}}{{% else %}}# {{{{ {p[1]} }}}}\n{{% endfor %}}"),
        e.map(lambda x: f"{{% macro m0(a, b=1) %}}{{{{ {x} }}}}{{% endmacro %}}{{% set _z1 = m0(1) %}}"),
        e.map(lambda x: f"{{% macro m0() %}}{{{{ m0() }}}}{{% endmacro %}}{{% set _z1 = {x} %}}"),
        e.map(lambda x: f"{{% call m0() %}}{{{{ {x} }}}}{{% endcall %}}"),
        e.map(lambda x: f"{{% with _w = {x} %}}# {{{{ _w }}}}\n{{% endwith %}}"),
        e.map(lambda x: f"{{% filter upper %}}# {{{{ {x} }}}}\n{{% endfilter %}}"),
        e.map(lambda x: f"{{% set ns = namespace(v={x}) %}}{{% set ns.v = ns.v ~ ns.v %}}"),
        st.sampled_from([
            "{% include 'back.yaml.j2' %}", "{% include 'missing.yaml.j2' %}", "{% include '../game.yaml' %}",
            "{% include '/etc/passwd' %}", "{% include ['nope', 'back.yaml.j2'] %}",
            "{% include 'missing.yaml.j2' ignore missing %}", "{% include 'front.yaml.j2' %}",
            "{% import 'back.yaml.j2' as b %}", "{% from 'back.yaml.j2' import nothing %}",
            "{% import 'missing.j2' as b %}{{ b.x }}", "{% from 'front.yaml.j2' import m0 %}",
            "{% raw %}{{ not rendered }}{% endraw %}", "{# a comment #}", "{% extends 'back.yaml.j2' %}",
            "{% block body %}# x{% endblock %}", "{{ super() }}", "{% set _z0 %}x{% endset %}",
            "{%- if true -%}{%- endif -%}", "{% for a, b in [(1, 2)] recursive %}{{ loop(a) }}{% endfor %}",
            "{% set l = [0] %}{% for _ in range(25) %}{% do l.extend(l) %}{% endfor %}",
            "{% for _ in range(99999) %}{% for _ in range(99999) %}{% endfor %}{% endfor %}",
            "{{ lipsum(10**6) }}", "{{ '' | center(10**9) }}", "{{ range(10**12) | list }}",
            # broken on purpose: Jinja syntax errors
            "{% if %}", "{% endif %}", "{{", "}}", "{% for %}", "{% set = 1 %}", "{{ 1 + }}", "{% nosuchtag %}",
            "{% macro %}", "{{ ((((((((((1)))))))))) }}", "{{ 'unterminated }}", "{% break %}", "{%", "{#",
        ]),
    )


def layout_values() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(["0", "-5", "1e12", "-1e12", ".nan", ".inf", "null", "true", "[]", "{}", "[1, 2]",
                         "[[1, 2], [3, 4]]", "'x'", "\"6\"", "ink", "'#ff0000'", "9" * 400, "0.0001", "1e-300",
                         "{{ w }}", "{{ h * 1000 }}", "{{ card.id|q }}", "{{ 'x' * 20000 }}", "*nothing",
                         "!!binary aGk=", "[{rect: {x: 0, y: 0, w: 1, h: 1}}]", "[{group: {ops: []}}]",
                         "[[h1, T], [p, x], [nope, y], [li]]", "M 0 0 L 10 10 Z", "M 0", "left", "bottom"]),
        st.integers(-10, 10**6).map(str),
        expressions().map(lambda x: f"{{{{ {x} }}}}"),
    )


def layout_ops() -> st.SearchStrategy[str]:
    """One layout op line: a known or unknown op, its keys (some missing, some extra), any values."""
    kinds = st.sampled_from([*SPECS, "nosuchop", "Text", "script", ""])

    def op(kind: str) -> st.SearchStrategy[str]:
        required, optional = SPECS.get(kind, ({"x": "", "y": ""}, {}))
        keys = st.lists(st.sampled_from([*required, *optional, "zzz", "__class__", "x"]), max_size=6).map(
            lambda extra: [*required, *extra])
        return keys.flatmap(lambda ks: st.lists(layout_values(), min_size=len(ks), max_size=len(ks)).map(
            lambda vs: f"- {{{kind}: {{{', '.join(f'{k}: {v}' for k, v in zip(ks, vs))}}}}}"))

    return st.one_of(kinds.flatmap(op), st.sampled_from(["- 3", "- null", "- []", "- {}", "-", "- [rect]",
                                                         "- {rect: 1}", "- {rect: {}, circle: {}}", "key: value",
                                                         "- {group: {ops: [{group: {ops: [3]}}]}}"]))


@FUZZ
@given(data=st.data())
def test_mutated_template(cli, tmp_path_factory, monkeypatch, data):
    game = fresh_game(tmp_path_factory, monkeypatch)
    front = game.path("templates", "front.yaml.j2")
    lines = front.read_text(encoding="utf-8").splitlines()
    must_fail = False
    for _ in range(data.draw(st.integers(1, 5), label="insertions")):
        what = data.draw(st.sampled_from(["statement", "statement", "op", "value", "sneak"]))
        event(f"template {what}")
        at = data.draw(st.integers(0, len(lines)))
        if what == "statement":
            lines.insert(at, data.draw(statements()))
        elif what == "op":
            lines.insert(at, data.draw(layout_ops()))
        elif what == "value":  # a number of an existing op becomes an expression or a value of another type
            row = data.draw(st.integers(0, len(lines) - 1)) if lines else 0
            if lines and re.search(r": [-\w{][^,}]*", lines[row]):
                spans = list(re.finditer(r"(?<=: )[^,{}\[\]]+(?=[,}])|(?<=: ){{[^}]*}}", lines[row]))
                if spans:
                    m = data.draw(st.sampled_from(spans))
                    lines[row] = lines[row][:m.start()] + data.draw(layout_values()) + lines[row][m.end():]
        else:  # printed at the top level, it runs on every face
            sneak = data.draw(st.sampled_from(SNEAKS))
            lines.insert(at, data.draw(st.sampled_from([f"# {{{{ {sneak} }}}}", f"# {{{{ ({sneak})|string }}}}",
                                                        f"{{% set _s = {sneak} %}}# {{{{ _s }}}}"])))
            must_fail = True
    text = "\n".join(lines) + "\n"
    if data.draw(st.booleans(), label="text edits too"):
        text = mutate_text(data, text, data.draw(st.integers(1, 3)))
        must_fail = False  # an edit may have commented the sneak out, or broken a block around it
    if "extends" in text:
        must_fail = False  # a child template prints nothing outside its blocks
    front.write_text(text, encoding="utf-8")
    build_holds_contract(cli, game, must_fail=must_fail)
