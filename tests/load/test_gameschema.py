"""game.yaml is checked from its key table (cardgen.load.gameschema): for every section
and key of the table, a game that breaks the key gets a one-line error at its line that
says what the table says: the allowed keys, the required ones, the type or choices and
the range.

Each case edits a copy of docs/examples/every-key, the game that uses every key.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from cardgen.base.errors import CardgenError, display_path
from cardgen.load.game import load_game
from cardgen.load.gameschema import CARD, COMPONENTS, DATA_FILE, EXPECT, EXPECT_VALUES, GAME, ICON, PRINT, SECTIONS
from cardgen.load.schema import Key, Section

EVERY_KEY = Path(__file__).resolve().parents[2] / "docs" / "examples" / "every-key"
MARK = "wrong-value-here"


def base_doc() -> dict:
    doc = yaml.safe_load((EVERY_KEY / "game.yaml").read_text(encoding="utf-8"))
    doc["data_files"] = [{"file": "plants.yaml"}]  # an entry of its own, so that its keys can be broken too
    # every print key (the loader checks that the profile is a small file inside the folder; whether it is
    # a CMYK output profile, and whether the shop exists, the build checks: tests/output/test_game_print.py)
    doc["print"] = {"profile": "plants.yaml", "ink_limit": 300, "shop": "pdfx4"}
    return doc


def mappings(doc: dict) -> Iterator[tuple[Section, dict, str]]:
    """Each mapping of the game with its section and how messages name it."""
    yield GAME, doc, "the game"
    for n, comp in enumerate(doc["components"], 1):
        what = f"component '{comp['id']}'" if isinstance(comp.get("id"), str) else f"component {n}"
        yield COMPONENTS[comp["kind"]], comp, what
        for i, entry in enumerate(comp.get("cards", [])):
            yield CARD, entry, f"card entry {i + 1} of {what}"
    for name, icon in doc["icons"].items():
        yield ICON, icon, f"icon '{name}'"
    for entry in doc["data_files"]:
        yield DATA_FILE, entry, "data file entry"
    if isinstance(doc.get("print"), dict):
        yield PRINT, doc["print"], "print"
    for deck, rules in doc["expect"].items():
        for n, rule in enumerate(rules, 1):
            yield EXPECT, rule, f"expectation {n} of deck '{deck}'"
            for name, source in rule.get("values", {}).items():
                if isinstance(source, dict):
                    yield EXPECT_VALUES, source, f"'values.{name}' in expectation {n} of deck '{deck}'"


def target(doc: dict, section: Section, key: str) -> tuple[dict, str]:
    """The first mapping of ``section`` that sets ``key`` (a hex's top is set on a hex),
    else the first of the section."""
    found = [(m, what) for s, m, what in mappings(doc) if s is section]
    assert found, section.name
    return next(((m, what) for m, what in found if key in m), found[0])


def errors_of(tmp_path: Path, section: Section, key: str, edit: Callable[[dict], None]
              ) -> tuple[list[str], list[str], str, str]:
    """The error lines of loading every-key with ``edit`` made to the first mapping of
    ``section`` that sets ``key``; the lines of its game.yaml, how messages name that
    file and how they name the mapping."""
    folder = tmp_path / "every-key"
    shutil.copytree(EVERY_KEY, folder)
    doc = base_doc()
    mapping, _ = target(doc, section, key)
    edit(mapping)
    what = next(w for _, m, w in mappings(doc) if m is mapping)
    text = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, default_flow_style=False)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(CardgenError) as caught:
        load_game(folder)
    return str(caught.value).splitlines(), text.splitlines(), display_path(folder / "game.yaml"), what


def at(lines: list[str], needle: str) -> tuple[int, int]:
    """Line and column (1-based) of the only line that holds ``needle``."""
    found = [(n, line.index(needle) + 1) for n, line in enumerate(lines, 1) if needle in line]
    assert len(found) == 1, (needle, found)
    return found[0]


def test_the_base_game_loads(tmp_path):
    folder = tmp_path / "every-key"
    shutil.copytree(EVERY_KEY, folder)
    (folder / "game.yaml").write_text(yaml.safe_dump(base_doc(), sort_keys=False, allow_unicode=True),
                                      encoding="utf-8")
    assert load_game(folder).id == "garden"


@pytest.mark.parametrize("section", SECTIONS, ids=lambda s: s.name)
def test_an_unknown_key_is_named_with_the_keys_of_the_table(section, tmp_path):
    def edit(mapping):
        mapping["colour_x"] = 1

    lines, text, label, what = errors_of(tmp_path, section, "", edit)
    line, col = at(text, "colour_x:")
    allowed = ", ".join(sorted(k.name for k in section.keys))
    assert f"{label}:{line}:{col}: unknown key 'colour_x' in {what} (allowed: {allowed})" in lines


REQUIRED = [(s, k) for s in SECTIONS for k in s.keys if k.required and (s.tag is None or k.name != s.tag[0])]


@pytest.mark.parametrize(("section", "key"), REQUIRED, ids=lambda v: v.name)
def test_a_required_key_left_out_is_named(section, key, tmp_path):
    def edit(mapping):
        del mapping[key.name]

    lines, _, label, what = errors_of(tmp_path, section, key.name, edit)
    assert any(line.startswith(f"{label}:") and line.endswith(f": {what} is missing required key '{key.name}'")
               for line in lines), lines


def wrong_value(key: Key) -> object:
    """A value of the wrong type for ``key``: text where a list or mapping is due, else a list."""
    return MARK if key.choices or list in key.types or dict in key.types else [MARK]


TYPED = [(s, k) for s in SECTIONS for k in s.keys if k.types or k.choices]


@pytest.mark.parametrize(("section", "key"), TYPED, ids=lambda v: v.name)
def test_a_value_of_the_wrong_type_is_refused_as_the_table_says(section, key, tmp_path):
    value = wrong_value(key)

    def edit(mapping):
        mapping[key.name] = value

    lines, text, label, what = errors_of(tmp_path, section, key.name, edit)
    line, col = at(text, f"- {MARK}" if isinstance(value, list) else MARK)
    start = f"{label}:{line}:{col}: '{key.name}' in {what} must be "
    said = [x for x in lines if x.startswith(start)]
    assert len(said) == 1, (start, lines)
    wants = [f"'{c}'" if m else c for c, m in key.choices.items()] if key.choices else [key.expected()]
    assert all(w in said[0] for w in wants), said[0]
    assert said[0].endswith("found a list" if isinstance(value, list) else f"'{MARK}'")


RANGED = [(s, k) for s in SECTIONS for k in s.keys if k.range is not None and k.types]


@pytest.mark.parametrize(("section", "key"), RANGED, ids=lambda v: v.name)
def test_a_number_out_of_range_is_refused_as_the_table_says(section, key, tmp_path):
    assert key.range is not None
    value = key.range.low - 1 if math.isinf(key.range.high) else key.range.high + 1

    def edit(mapping):
        mapping[key.name] = value

    lines, _, label, what = errors_of(tmp_path, section, key.name, edit)
    said = [x for x in lines if f": '{key.name}' in {what} must be {key.range.describe()}" in x]
    assert len(said) == 1, lines
    assert said[0].startswith(f"{label}:") and said[0].endswith(f"found {value:g}")


def test_the_cases_cover_the_table():
    """Every key of the table is broken by some case above (or checked by the loader's
    own code, which has tests of its own: a size, a template, the players)."""
    covered = {(s.name, k.name) for s, k in REQUIRED + TYPED}
    own_code = {(s.name, k.name) for s in SECTIONS for k in s.keys if not k.types and not k.choices}
    assert covered | own_code == {(s.name, k.name) for s in SECTIONS for k in s.keys}
    assert len(TYPED) > 25 and len(RANGED) >= 5
