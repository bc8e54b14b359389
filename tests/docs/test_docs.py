"""The documentation stays true to the code.

The layout-op and command-line references, game.yaml's key tables, the stages of the
architecture page and the examples shown from docs/examples/ are generated into the
committed pages by ``docs/generate.py``. These tests guard that no page is stale, that
the code carries what the pages are generated from (a description of every op and key,
help text for every option), that every example game folder the pages show builds, and
that every page, link and included file exists. None of it needs MkDocs installed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

import cardgen.rules
from cardgen.base.errors import Collector
from cardgen.base.stages import ALLOWED
from cardgen.cli import main
from cardgen.layout import reference as opdocs
from cardgen.layout.ops import parse_ops
from cardgen.load import gamedoc
from cardgen.load.gameschema import COMPONENTS, GAME, SECTIONS
from cardgen.load.schema import Section

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
EXAMPLE_GAMES = sorted(p.parent for p in EXAMPLES.glob("*/game.yaml"))
PAPERS = ("a4", "letter")

FENCE = re.compile(r"^(?P<ticks>```+)(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=ticks)[ \t]*$", re.M | re.S)
LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")

BACKTICKED = re.compile(r"`([a-z_][a-z0-9_]*)`")


def load_generator():
    """docs/generate.py, the one command that writes every generated part of the pages."""
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = load_generator()


def pages() -> list[Path]:
    return generate.pages(DOCS)


class _ConfigLoader(yaml.SafeLoader):
    """Reads mkdocs.yml, whose !!python/name tags name Python objects, as plain data."""


_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: suffix)


def mkdocs_config() -> dict:
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)


def without_code(text: str) -> str:
    """The page with its fenced blocks and inline code taken out (links inside code are text)."""
    text = FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """Python-Markdown's default heading id."""
    import unicodedata

    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


# -- the layout-op reference --------------------------------------------------------
def test_every_op_and_op_key_has_a_description():
    missing = [kind for kind in opdocs.SPECS if not opdocs.OPS_TEXT.get(kind, "").strip()]
    for kind, (required, optional) in opdocs.SPECS.items():
        missing += [f"{kind}.{key}" for key in (*required, *optional)
                    if opdocs.describe(kind, key) is None or not opdocs.describe(kind, key).text.strip()]
    missing += [f"flow block {b}" for b in opdocs.BLOCK_KINDS if not opdocs.BLOCKS_TEXT.get(b, "").strip()]
    missing += [f"value kind {want}" for required, optional in opdocs.SPECS.values()
                for want in {**required, **optional}.values() if want not in opdocs.VALUE_KINDS]
    missing += [f"example of {kind}" for kind in opdocs.SPECS if kind not in opdocs.EXAMPLES]
    assert not missing, "undocumented in cardgen/opdocs.py: " + ", ".join(missing)


def test_descriptions_name_only_ops_and_keys_that_exist():
    every_key = {key for required, optional in opdocs.SPECS.values() for key in (*required, *optional)}
    wrong = [f"op {kind}" for kind in {*opdocs.OPS_TEXT, *opdocs.KEYS, *opdocs.EXAMPLES} if kind not in opdocs.SPECS]
    for kind, keys in opdocs.KEYS.items():
        required, optional = opdocs.SPECS.get(kind, ({}, {}))
        wrong += [f"{kind}.{key}" for key in keys if key not in required and key not in optional]
    # a shared description must be shown somewhere: some op takes the key and has no text of its own
    for key in opdocs.SHARED_KEYS:
        users = [kind for kind, (req, opt) in opdocs.SPECS.items() if key in {**req, **opt}
                 and key not in opdocs.KEYS.get(kind, {})]
        if not users:
            wrong.append(f"shared key {key} (no op shows it)")
    wrong += [f"block {b}" for b in opdocs.BLOCKS_TEXT if b not in opdocs.BLOCK_KINDS]
    # an op's texts may name (in backticks) its own keys, ops and blocks, never another op's key
    for kind, (required, optional) in opdocs.SPECS.items():
        texts = [opdocs.OPS_TEXT.get(kind, "")]
        texts += [opdocs.describe(kind, key).text for key in (*required, *optional) if opdocs.describe(kind, key)]
        for text in texts:
            for word in BACKTICKED.findall(text):
                if word in every_key and word not in required and word not in optional \
                        and word not in opdocs.SPECS and word not in opdocs.BLOCK_KINDS:
                    wrong.append(f"{kind} mentions `{word}`, which {kind} does not take")
    for kind, (required, _) in opdocs.SPECS.items():
        wrong += [f"{kind}.{key} is required but has a default" for key in required
                  if opdocs.describe(kind, key) and opdocs.describe(kind, key).default]
    texts = [*opdocs.OPS_TEXT.values(), *opdocs.BLOCKS_TEXT.values(),
             *(k.text + (k.default or "") for k in opdocs.SHARED_KEYS.values()),
             *(k.text + (k.default or "") for keys in opdocs.KEYS.values() for k in keys.values())]
    wrong += [f"a '|' in {text[:40]!r} (it breaks the table)" for text in texts if "|" in text]
    assert not wrong, "; ".join(wrong)


@pytest.mark.parametrize("kind", sorted(opdocs.SPECS))
def test_each_op_example_passes_the_layout_checker(kind):
    doc = yaml.safe_load(opdocs.EXAMPLES[kind])
    errors = Collector()
    ops = parse_ops(doc, f"example of {kind}", errors)
    assert not errors.errors, [str(e) for e in errors.errors]
    assert ops and {op.kind for op in ops} == {kind}


def test_the_reference_lists_every_op_key_block_and_choice():
    md = opdocs.reference_markdown()
    sections = dict(zip(opdocs.SPECS, re.split(r"^### `[a-z]+`$", md, flags=re.M)[1:]))
    assert list(sections) == list(opdocs.SPECS) and len(re.findall(r"^### `", md, re.M)) == len(opdocs.SPECS)
    for kind, (required, optional) in opdocs.SPECS.items():
        section = sections[kind]
        for key in required:
            assert re.search(rf"^\| `{key}` \| [^|]+ \| required \|", section, re.M), f"{kind}.{key}"
        for key in optional:
            assert re.search(rf"^\| `{key}` \| [^|]+ \| optional \|", section, re.M), f"{kind}.{key}"
            if key in opdocs.CHOICES:
                assert "one of " + ", ".join(f"`{c}`" for c in opdocs.CHOICES[key]) in section, f"{kind}.{key}"
    for block in opdocs.BLOCK_KINDS:
        assert f"| `{block}` |" in sections["flow"]
    assert "| `size` | number | optional | 9 |" in sections["text"]  # a default reaches the table
    odd = [line for line in md.splitlines() if line.startswith("|") and line.count("`") % 2]  # a cut code span
    assert not odd, odd
    headings = {slug(h) for h in re.findall(r"^###\s+(.+)$", md, re.M)}
    assert set(re.findall(r"\]\(#([a-z-]+)\)", md)) == headings


def test_the_layout_page_holds_the_op_reference_once():
    page = (DOCS / "design" / "layout.md").read_text(encoding="utf-8")
    block = "<!-- generated: layout ops -->\n" + opdocs.reference_markdown() + "<!-- end generated -->"
    assert page.count(block) == 1 and page.count("<!-- generated: layout ops -->") == 1


# -- the architecture page ----------------------------------------------------------
def test_the_architecture_page_draws_each_stage_above_what_it_imports():
    page = (DOCS / "developers" / "architecture.md").read_text(encoding="utf-8")
    diagram = page[page.index("<!-- generated: stages diagram -->"):page.index("<!-- generated: stages table -->")]
    rows = re.findall(r"^layer +(\d+) +(.+)$", diagram, re.M)
    layer_of = {name: int(n) for n, names in rows for name in names.split()}
    assert set(layer_of) == set(ALLOWED) and len(layer_of) == sum(len(names.split()) for _, names in rows)
    wrong = [f"{name} imports {other}, drawn level or above" for name, imports in ALLOWED.items()
             for other in imports if layer_of[other] >= layer_of[name]]
    assert not wrong, wrong
    arrows = set(re.findall(r"^    (\w+) --> (\w+)$", diagram, re.M))
    node = {name.strip("_"): name for name in ALLOWED}  # the graph's ids
    assert arrows and all(node[b] in ALLOWED[node[a]] for a, b in arrows), "an arrow no import allows"
    for name in ALLOWED:
        row = re.search(rf"^\| `cardgen/{name}(/|\.py)` \| (?P<imports>[^|]*) \|", page, re.M)
        assert row, f"no row for {name}"
        assert set(re.findall(r"`([a-z0-9_]+)`", row.group("imports"))) == ALLOWED[name], name


# -- the command-line reference -----------------------------------------------------
def walk(command: click.Command, path: tuple[str, ...] = ("cardgen",)):
    """Every command under ``command``, with its path of names."""
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from walk(sub, (*path, name))


def test_every_command_and_option_has_help_text():
    missing = []
    for path, command in walk(main):
        if not (command.help or command.short_help or "").strip():
            missing.append(" ".join(path))
        if command.hidden:
            missing.append(f"{' '.join(path)} (hidden: the reference would leave it out)")
        for param in command.params:
            if isinstance(param, click.Option) and not (param.help or "").strip():
                missing.append(f"{' '.join(path)} {param.opts[0]}")
            if isinstance(param, click.Option) and param.hidden:
                missing.append(f"{' '.join(path)} {param.opts[0]} (hidden)")
    assert not missing, "no help text: " + ", ".join(missing)


def cli_sections(page: str) -> dict[str, str]:
    """The command-line page's sections: a command's names → the text block under its heading."""
    found = re.findall(r"^### (cardgen[a-z0-9 -]*)\n\n```text\n(.*?)^```$", page, re.M | re.S)
    return {name: body for name, body in found}


def test_the_cli_reference_shows_what_help_prints_for_every_command():
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    sections = cli_sections(page)
    assert set(sections) == {" ".join(path) for path, _ in walk(main)} and len(sections) > 5
    for name, body in sections.items():
        result = CliRunner().invoke(main, [*name.split()[1:], "--help"], prog_name="cardgen", terminal_width=80)
        assert result.exit_code == 0 and body == result.output, f"the page's '{name}' is not its --help"
        assert f"[`{name}`](#{name.replace(' ', '-')})" in page, f"'{name}' is not in the page's index"
    assert "reference/cli.md" in nav_pages()


def test_the_cli_check_notices_a_command_left_out():
    """The check above can fail: a page without a section, or with another width, is not the commands' help."""
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    sections = cli_sections(page)
    del sections["cardgen config set"]
    assert set(sections) != {" ".join(path) for path, _ in walk(main)}
    narrow = CliRunner().invoke(main, ["build", "--help"], prog_name="cardgen", terminal_width=60).output
    assert narrow != cli_sections(page)["cardgen build"]


# -- the generated pages ------------------------------------------------------------
def test_every_generated_page_is_current(capsys):
    assert generate.main(["--check"]) == 0, capsys.readouterr().out + "run: python docs/generate.py --write"


def test_the_pages_read_whole_without_the_site():
    """Nothing is left for MkDocs to put in: no snippet line, directive or hook marker."""
    leftovers = {}
    for page in pages():
        text = without_code(page.read_text(encoding="utf-8"))
        found = re.findall(r"^[ \t]*(?:--8<--.*|:::.*|<!-- layout-op-reference -->)$", text, re.M)
        found += [line for line in page.read_text(encoding="utf-8").splitlines() if re.match(r"\s*--8<--\s+\"", line)]
        if found:
            leftovers[str(page.relative_to(DOCS))] = found
    assert not leftovers, leftovers
    config = mkdocs_config()
    extensions = [next(iter(e)) if isinstance(e, dict) else e for e in config["markdown_extensions"]]
    assert "hooks" not in config and "pymdownx.snippets" not in extensions and "mkdocs-click" not in extensions


STALINGS = {  # a page, a line of its generated text, and that line made stale
    "design/layout.md": ("| `size` | number | optional | 9 |", "| `size` | number | optional | 10 |"),
    "reference/cli.md": ("  --ink-saver ", "  --ink-spender "),
    "developers/architecture.md": ("| `cardgen/model/` | `base` |", "| `cardgen/model/` | `base`, `layout` |"),
    "design/demo.md": ("lantern,2,1,2,scallop.svg,,", "lantern,2,1,3,scallop.svg,,"),
    "design/game-folder.md": ("| `bleed` | a number, between 0 and 20 mm | `3` |",
                              "| `bleed` | a number, between 0 and 20 mm | `5` |"),
}


@pytest.mark.parametrize("name", sorted(STALINGS))
def test_a_stale_page_is_noticed_and_rewritten(name, tmp_path, capsys):
    """The check above can fail: each kind of generated text, changed by hand, is stale."""
    text = (DOCS / name).read_text(encoding="utf-8")
    fresh, stale = STALINGS[name]
    assert fresh in text
    copy = tmp_path / Path(name).name
    copy.write_text(text.replace(fresh, stale, 1), encoding="utf-8")
    assert generate.main(["--check", str(copy)]) == 1
    assert f"stale: {copy}" in capsys.readouterr().out
    assert generate.main(["--write", str(copy)]) == 0
    assert copy.read_text(encoding="utf-8") == text
    assert generate.main(["--check", str(copy)]) == 0


def test_an_included_block_follows_its_source(tmp_path):
    (tmp_path / "ex.yaml").write_text("top: 1\n# --8<-- [start:part]\nkeep: 2\n  # --8<-- [start:inner]\n"
                                      "inner: 3\n  # --8<-- [end:inner]\n# --8<-- [end:part]\nlast: ```\n",
                                      encoding="utf-8")
    page = ('Text.\n\n<!-- include: ex.yaml:part ex.yaml:inner -->\n```yaml title="ex"\nold\n```\n'
            "<!-- end include -->\n\n<!-- include: ex.yaml -->\n```yaml\n```\n<!-- end include -->\n")
    filled = generate.fill(page, tmp_path)
    assert filled == ('Text.\n\n<!-- include: ex.yaml:part ex.yaml:inner -->\n```yaml title="ex"\nkeep: 2\n'
                      "inner: 3\ninner: 3\n```\n<!-- end include -->\n\n<!-- include: ex.yaml -->\n"
                      "````yaml\ntop: 1\nkeep: 2\ninner: 3\nlast: ```\n````\n<!-- end include -->\n")
    assert generate.fill(filled, tmp_path) == filled
    (tmp_path / "ex.yaml").write_text("top: 1\n# --8<-- [start:part]\nkeep: 4\n# --8<-- [end:part]\n"
                                      "# --8<-- [start:inner]\n# --8<-- [end:inner]\n", encoding="utf-8")
    assert "keep: 4" in generate.fill(filled, tmp_path) and "keep: 2" not in generate.fill(filled, tmp_path)


@pytest.mark.parametrize(("page", "message"), [
    ("a\n<!-- include: gone.yaml -->\n```yaml\n```\n<!-- end include -->\n", "line 2: no file 'gone.yaml'"),
    ("<!-- include: docs/examples/demo/game.yaml:nowhere -->\n```yaml\n```\n<!-- end include -->\n",
     "line 1: 'docs/examples/demo/game.yaml' has no section 'nowhere'"),
    ("<!-- include: ../outside.yaml -->\n```yaml\n```\n<!-- end include -->\n", "no file '../outside.yaml'"),
    ("\n\n<!-- generated: layout opz -->\n<!-- end generated -->\n", "line 3: nothing generates 'layout opz'"),
    ("<!-- generated: game.yaml keys: decks -->\n<!-- end generated -->\n", "no section 'decks'"),
])
def test_a_mark_naming_nothing_is_a_one_line_error(page, message, tmp_path, capsys):
    path = tmp_path / "page.md"
    path.write_text(page, encoding="utf-8")
    assert generate.main(["--check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {path}: ") and message in err, err


# -- game.yaml ----------------------------------------------------------------------
# Keys of the key table that docs/examples/every-key/game.yaml leaves out, and why.
NOT_IN_EVERY_KEY = {
    ("data_file", "file"): "an entry of its own is for a spreadsheet; docs/examples/spreadsheet/ has one",
    ("data_file", "sheet"): "a workbook's sheet: docs/examples/spreadsheet/ reads one",
    ("data_file", "name"): "a spreadsheet under another key; every-key has no spreadsheet",
    ("print", "profile"): "an ICC file of a megabyte; tests/output/test_game_print.py builds a game with one",
    ("print", "shop"): "a shop changes the print-shop files; tests/output/test_game_print.py builds one",
}


def key_pages() -> dict[Path, str]:
    """The pages that hold a generated table of game.yaml's keys, with their text."""
    texts = {page: page.read_text(encoding="utf-8") for page in pages()}
    return {page: text for page, text in texts.items() if gamedoc.marked(text)}


def test_the_game_yaml_key_tables_are_generated_from_the_key_table():
    found = key_pages()
    for page, text in found.items():
        assert gamedoc.fill(text) == text, (f"{page.relative_to(ROOT)} is stale: run python -m cardgen.load.gamedoc "
                                            f"--write {' '.join(str(p.relative_to(ROOT)) for p in found)}")
    marked = [name for text in found.values() for name in gamedoc.marked(text)]
    assert sorted(marked) == sorted(s.name for s in SECTIONS), "each section of the key table is on one page"


def test_a_stale_key_table_is_noticed_and_rewritten(tmp_path, capsys):
    """The check above can fail: a page whose table says another default is stale."""
    page = DOCS / "design" / "game-folder.md"
    copy = tmp_path / "game-folder.md"
    text = page.read_text(encoding="utf-8")
    row = "| `bleed` | a number, between 0 and 20 mm | `3` |"
    assert row in text
    copy.write_text(text.replace(row, row.replace("`3`", "`5`"), 1), encoding="utf-8")
    assert gamedoc.fill(copy.read_text(encoding="utf-8")) != copy.read_text(encoding="utf-8")
    assert gamedoc.main(["--check", str(copy)]) == 1
    assert f"stale: {copy}" in capsys.readouterr().out
    assert gamedoc.main(["--write", str(copy)]) == 0
    assert copy.read_text(encoding="utf-8") == text
    assert gamedoc.main(["--check", str(copy)]) == 0


def test_a_marker_naming_no_section_is_an_error(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("<!-- generated: game.yaml keys: decks -->\n<!-- end generated -->\n", encoding="utf-8")
    assert gamedoc.main(["--check", str(page)]) == 1
    assert "no section 'decks'" in capsys.readouterr().err


def used_keys(section: Section, mapping: dict, used: dict[str, set[str]]) -> None:
    """Record the keys ``mapping`` (a ``section``) uses, and those of the entries its keys
    hold, as the key table nests them; a key the table lacks is recorded too."""
    used.setdefault(section.name, set()).update(mapping)
    for key in section.keys:
        value = mapping.get(key.name)
        if not key.entries or value is None:
            continue
        names = {k.name for s in key.entries for k in s.keys}
        if isinstance(value, dict) and len(key.entries) == 1 and value and set(value) <= names:
            items = [value]  # a mapping that is itself the section (print:), not a mapping of entries
        else:
            items = value.values() if isinstance(value, dict) else value
        items = [x for item in items for x in (item if isinstance(item, list) else [item])]  # expect: lists
        for item in items:
            if not isinstance(item, dict):
                continue  # a data file named by its file name alone
            by_tag = [s for s in key.entries if s.tag is None or item.get(s.tag[0]) == s.tag[1]]
            assert len(by_tag) == 1, f"{section.name}.{key.name}: which section is {item}?"
            used_keys(by_tag[0], item, used)


def test_the_every_key_example_uses_every_key():
    doc = yaml.safe_load((EXAMPLES / "every-key" / "game.yaml").read_text(encoding="utf-8"))
    used: dict[str, set[str]] = {}
    used_keys(GAME, doc, used)
    known = {(s.name, k.name) for s in SECTIONS for k in s.keys}
    shown = {(section, key) for section, keys in used.items() for key in keys}
    assert not shown - known, f"every-key uses keys the table lacks: {sorted(shown - known)}"
    unused = known - shown - set(NOT_IN_EVERY_KEY)
    assert not unused, f"docs/examples/every-key/game.yaml does not use {sorted(unused)}"
    assert not set(NOT_IN_EVERY_KEY) & shown, "a key said not to be shown is shown: take it off the list"
    assert set(NOT_IN_EVERY_KEY) <= known


def test_the_every_key_check_notices_a_key_left_out():
    """The check above can fail: without its icons the example misses the icon keys."""
    doc = yaml.safe_load((EXAMPLES / "every-key" / "game.yaml").read_text(encoding="utf-8"))
    del doc["icons"]
    used: dict[str, set[str]] = {}
    used_keys(GAME, doc, used)
    assert "icon" not in used and "icons" not in used["game"]
    assert set(COMPONENTS) <= set(used)


# -- the example game folders -------------------------------------------------------
@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """Each example folder built with the command line: folder name → (its kit, stdout)."""
    out: dict[str, tuple[Path, str]] = {}
    here = os.getcwd()
    for folder in EXAMPLE_GAMES:
        work = tmp_path_factory.mktemp(folder.name)
        os.chdir(work)  # so that the listing names output/<id>/, as in the docs
        try:
            result = CliRunner().invoke(main, ["build", str(folder), "--out", "output", "--jobs", "1"])
        finally:
            os.chdir(here)
        assert result.exit_code == 0, result.output
        game_id = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))["id"]
        out[folder.name] = (work / "output" / game_id, result.stdout)
    return out


def test_there_are_example_folders():
    assert {"first-game", "every-key", "demo"} <= {f.name for f in EXAMPLE_GAMES}


@pytest.mark.parametrize("folder", EXAMPLE_GAMES, ids=lambda f: f.name)
def test_each_example_folder_builds_its_pdfs(folder, built):
    kit, _ = built[folder.name]
    doc = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    expected = [f"{doc['id']}-{lang}-{paper}-{what}.pdf" for lang in doc["languages"] for paper in PAPERS
                for what in ("cards", "sheets")]
    expected += [f"{doc['id']}-{lang}-{c['id']}-fullsize.pdf" for lang in doc["languages"]
                 for c in doc["components"] if c["kind"] == "board"]
    for name in expected:
        assert (kit / name).is_file(), f"{name} not built"
        assert (kit / name).read_bytes()[:5] == b"%PDF-"
    assert (kit / "manifest.json").is_file()
    for lang in doc["languages"]:  # print-shop files, one per trim size
        shops = list(kit.glob(f"{doc['id']}-{lang}-printshop-*.pdf"))
        assert shops and all(p.read_bytes()[:5] == b"%PDF-" for p in shops), lang


def test_the_first_game_listing_is_the_real_build_output(built):
    _, stdout = built["first-game"]
    page = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    assert stdout.startswith("Built night-sky into output/night-sky/\n") and stdout.count("pages") >= 6
    assert f"```text\n{stdout}```" in page, "docs/getting-started.md shows another build output:\n" + stdout


def test_the_demo_listing_is_the_real_build_output(built):
    _, stdout = built["demo"]
    page = (DOCS / "design" / "demo.md").read_text(encoding="utf-8")
    assert stdout.startswith("Built lantern-reef into output/lantern-reef/\n")
    assert f"```text\n{stdout}```" in page, "docs/design/demo.md shows another build output:\n" + stdout


def test_the_every_key_example_builds_with_its_variant(tmp_path):
    folder = EXAMPLES / "every-key"
    result = CliRunner().invoke(main, ["build", str(folder), "--out", str(tmp_path), "--jobs", "1",
                                       "--variant", "pests", "--lang", "nl", "--paper", "a4"])
    assert result.exit_code == 0, result.output
    manifest = (tmp_path / "garden" / "manifest.json").read_text(encoding="utf-8")
    assert '"pests"' in manifest and "slug" in manifest


@pytest.fixture
def night_sky_rules(monkeypatch):
    """The rules module of docs/examples/rules/, registered for this test only."""
    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    path = EXAMPLES / "rules" / "night_sky.py"
    spec = importlib.util.spec_from_file_location("night_sky_example", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    monkeypatch.chdir(ROOT)
    return module


def test_the_night_sky_rules_play_the_first_game(night_sky_rules):
    result = CliRunner().invoke(main, ["validate", "docs/examples/first-game", "--games", "40", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "Play: OK" in result.output and "0 unfinished game(s)" in result.output
    page = (DOCS / "validator" / "writing-rules.md").read_text(encoding="utf-8")
    shown = [line for line in page.splitlines() if line.lstrip().startswith("✓")]
    assert len(shown) == 2 and all(line in result.output for line in shown), result.output


def test_the_night_sky_checker_catches_a_broken_engine(night_sky_rules):
    ns = night_sky_rules
    ns.NightSkyState._plays = lambda self, c: [ns.play_action(c, 1 if self.game.cards[c].suit is None else 0)]
    result = CliRunner().invoke(main, ["validate", "docs/examples/first-game", "--games", "5", "--players", "3",
                                       "--jobs", "1"])
    assert result.exit_code == 1
    assert "which follows neither its suit nor its number" in result.output
    assert "cardgen validate docs/examples/first-game --seed 1 --games 1 --players 3 --setup standard" \
           in result.output


# -- pages, links and included files ------------------------------------------------
def nav_pages() -> list[str]:
    config = mkdocs_config()
    found: list[str] = []

    def visit(node):
        if isinstance(node, str):
            found.append(node)
        elif isinstance(node, list):
            for item in node:
                visit(item)
        elif isinstance(node, dict):
            for value in node.values():
                visit(value)

    visit(config["nav"])
    return found


def test_every_nav_page_exists_and_every_page_is_in_the_nav():
    nav = nav_pages()
    assert len(nav) == len(set(nav)) and nav
    missing = [p for p in nav if not (DOCS / p).is_file()]
    assert not missing, f"in mkdocs.yml's nav but not in docs/: {missing}"
    left_out = [str(p.relative_to(DOCS)) for p in pages() if str(p.relative_to(DOCS)) not in nav]
    assert not left_out, f"pages not in mkdocs.yml's nav: {left_out}"


def broken_links(path: Path, root: Path) -> list[str]:
    """Relative links of a Markdown file that point to no file (or no heading)."""
    broken = []
    for m in LINK.finditer(without_code(path.read_text(encoding="utf-8"))):
        target = m.group("target")
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve()
        if not resolved.is_file() or not resolved.is_relative_to(root.resolve()):
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(target)
    return broken


def test_every_relative_link_of_the_pages_points_to_a_file():
    broken = {str(p.relative_to(DOCS)): b for p in pages() if (b := broken_links(p, DOCS))}
    assert not broken, broken


def test_the_link_check_finds_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# A heading\n", encoding="utf-8")
    page.write_text("[a](there.md) [b](gone.md) [c](there.md#a-heading) [d](there.md#nowhere) "
                    "[e](https://example.org) `[f](code.md)`\n", encoding="utf-8")
    assert broken_links(page, tmp_path) == ["gone.md", "there.md#nowhere"]


def test_every_included_file_and_section_exists():
    missing, count = [], 0
    for page in pages():
        for m in generate.INCLUDE.finditer(page.read_text(encoding="utf-8")):
            for ref in m.group("refs").split():
                count += 1
                try:
                    assert generate.included_lines(ref), f"{ref} is empty"
                except (generate.PageError, AssertionError) as exc:
                    missing.append(f"{page.name}: {exc}")
    assert not missing and count > 40, missing


def included_refs(text: str, fence_start: int) -> list[str] | None:
    """The files a fenced block includes (its include mark is on the line above), or None."""
    m = re.search(r"^<!-- include: ([^>\n]+?) -->\n\Z", text[:fence_start], re.M)
    return m.group(1).split() if m else None


def yaml_blocks_that_claim_to_build(text: str) -> list[str]:
    """YAML blocks neither titled as a fragment nor made only of files of a built example folder."""
    wrong = []
    for m in FENCE.finditer(text):
        info, body = m.group("info").strip(), m.group("body")
        if not info.startswith("yaml"):
            continue
        if re.search(rf'title="{opdocs.FRAGMENT_TITLE}', info):
            continue
        included = included_refs(text, m.start())
        if included:
            for ref in included:
                parts = Path(ref.partition(":")[0]).parts
                built = parts[:2] == ("docs", "examples") and len(parts) > 3 and \
                    (ROOT / parts[0] / parts[1] / parts[2] / "game.yaml").is_file()
                if not built:
                    wrong.append(f"includes {ref}, which is no built example folder's file")
            continue
        wrong.append(f"```{info}: {body[:60]!r}…")
    return wrong


def test_every_yaml_block_is_a_built_example_or_marked_as_a_fragment():
    wrong = {p.name: w for p in pages() if (w := yaml_blocks_that_claim_to_build(p.read_text(encoding="utf-8")))}
    generated = yaml_blocks_that_claim_to_build(opdocs.reference_markdown())
    assert not wrong and not generated, (wrong, generated)


def test_the_yaml_block_check_finds_an_unmarked_block():
    text = ('```yaml\nid: x\n```\n\n```yaml title="Fragment of a template"\n- {rect: {}}\n```\n\n'
            '<!-- include: docs/examples/first-game/game.yaml -->\n```yaml\nid: night-sky\n```\n'
            '<!-- end include -->\n\n<!-- include: card_data/hapy/layouts.yaml -->\n```yaml\nx: 1\n```\n'
            '<!-- end include -->\n')
    wrong = yaml_blocks_that_claim_to_build(text)
    assert len(wrong) == 2 and "id: x" in wrong[0] and "card_data/hapy/layouts.yaml" in wrong[1]


# -- the README ---------------------------------------------------------------------
def test_readme_starts_with_the_two_set_up_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = FENCE.search(text).group("body").splitlines()
    assert first[:2] == ["python3 -m pip install . && cardgen build hapy",
                         "python3 -m pip install '.[test]' && python3 -m pytest -q"]


def test_readme_links_point_to_real_pages():
    readme = ROOT / "README.md"
    assert not broken_links(readme, ROOT), broken_links(readme, ROOT)
    nav = set(nav_pages())
    linked = [m.group("target") for m in LINK.finditer(without_code(readme.read_text(encoding="utf-8")))]
    pages_linked = [t.partition("#")[0] for t in linked if t.startswith("docs/") and t.endswith(".md")]
    assert pages_linked and all(p.removeprefix("docs/") in nav for p in pages_linked), pages_linked
    assert "docs/reference/cli.md" in pages_linked and "docs/getting-started.md" in pages_linked
