"""A face whose inputs equal an earlier face's is not rendered again (render/memo.py):
the inputs are the template sources and the context names they read, so a back that
never reads ``card`` renders once per deck, in every language that gives it the same
values, and a template that is not a function of its inputs renders every time."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardgen.base.errors import Collector
from cardgen.load.game import load_game
from cardgen.pipeline import BuildOptions, KitBuilder
from cardgen.render.memo import canonical
from cardgen.render.sandbox import TemplateRenderer

MINI = Path(__file__).parents[1] / "data" / "mini_game"


def _renders(folder: Path, monkeypatch) -> tuple[list[tuple[str, str]], dict]:
    """(template, label) of every face actually rendered for every language, and the kits."""
    game = load_game(folder)
    builder = KitBuilder(game, BuildOptions(out_dir=folder / "out", jobs=1))
    calls = []
    real = TemplateRenderer.render_text

    def counted(self, name, context, label):
        calls.append((name, label))
        return real(self, name, context, label)

    monkeypatch.setattr(TemplateRenderer, "render_text", counted)
    heard = []
    builder.renderer.on_face = heard.append
    kits = {}
    for lang in game.languages:
        errors = Collector()
        kits[lang] = builder.render_lang(lang, errors)
        assert not errors.errors
    return calls, {"kits": kits, "heard": heard}


@pytest.fixture
def mini(tmp_path):
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    return folder


def test_a_back_that_reads_no_card_is_rendered_once_for_every_card_and_language(mini, monkeypatch):
    calls, got = _renders(mini, monkeypatch)
    backs = [c for c in calls if c[0] == "back.yaml.j2"]
    fronts = [c for c in calls if c[0] == "front.yaml.j2"]
    assert len(backs) == 1  # 4 cards x 2 languages, the same values each time
    assert len(fronts) == 4  # each card once: the front reads card.id, not the language
    en, fr = got["kits"]["en"], got["kits"]["fr"]
    assert en.backs == fr.backs and len(set(f.key for f in en.backs.values())) == 1
    assert set(en.fronts) == set(fr.fronts) and len(en.fronts) == 4


def test_a_face_that_reads_a_string_is_rendered_per_language_and_its_reads_are_heard(mini, monkeypatch):
    (mini / "templates" / "front.yaml.j2").write_text(
        '- {text: {x: 5, y: 5, w: 50, h: 12, text: {{ t("card.title", n=card.id)|q }}, size: 12, color: ink}}\n',
        encoding="utf-8")
    calls, got = _renders(mini, monkeypatch)
    assert len([c for c in calls if c[0] == "front.yaml.j2"]) == 8
    fronts = [u for u in got["heard"] if u.template == "front.yaml.j2"]
    assert fronts and all(u.keys == ("card.title",) for u in fronts)
    backs = [u for u in got["heard"] if u.template == "back.yaml.j2"]
    assert len(backs) == 8 and all(u.keys == () for u in backs)  # every face is heard, rendered or not


def test_the_same_string_read_twice_is_heard_on_the_face_that_reused_the_rendering(mini, monkeypatch):
    (mini / "templates" / "back.yaml.j2").write_text(
        '- {text: {x: 5, y: 5, w: 50, h: 12, text: {{ t("game.name")|q }}, size: 12, color: ink}}\n',
        encoding="utf-8")
    calls, got = _renders(mini, monkeypatch)
    assert len([c for c in calls if c[0] == "back.yaml.j2"]) == 2  # once per language
    backs = [u for u in got["heard"] if u.template == "back.yaml.j2"]
    assert len(backs) == 8 and all(u.keys == ("game.name",) for u in backs)


@pytest.mark.parametrize("body", [
    "{{ [1, 2, 3]|random }}",
    "{{ lipsum(1, false, 1, 2)|length }}",
    '{% include ["back_" ~ "part.j2"] %}',
])
def test_a_template_not_decided_by_its_inputs_is_rendered_every_time(mini, monkeypatch, body):
    (mini / "templates" / "back_part.j2").write_text("1", encoding="utf-8")
    (mini / "templates" / "back.yaml.j2").write_text(
        f'- {{rect: {{x: 0, y: 0, w: 10, h: {body}, fill: ink}}}}\n', encoding="utf-8")
    calls, _ = _renders(mini, monkeypatch)
    assert len([c for c in calls if c[0] == "back.yaml.j2"]) == 8


def test_an_included_template_decides_the_key(mini, monkeypatch):
    """A name read only by an included template still keys the face: each card renders."""
    (mini / "templates" / "part.j2").write_text("{{ card.id|length }}", encoding="utf-8")
    (mini / "templates" / "back.yaml.j2").write_text(
        '- {rect: {x: 0, y: 0, w: 10, h: {% include "part.j2" %}, fill: ink}}\n', encoding="utf-8")
    calls, got = _renders(mini, monkeypatch)
    assert len([c for c in calls if c[0] == "back.yaml.j2"]) == 4  # per card, shared by the languages
    assert {f.key for f in got["kits"]["en"].backs.values()} != {got["kits"]["en"].backs[("cards", "joker")].key}


def test_keys_tell_numbers_of_another_type_apart():
    def text(v):
        return json.dumps(canonical(v), sort_keys=True)

    assert text(1) != text(1.0) and text(True) != text(1)
    assert text({"b": 1, "a": [1, (2,)]}) == text({"a": [1, (2,)], "b": 1})
    assert text([1]) != text((1,))


def test_a_face_that_reads_some_fields_of_the_card_is_keyed_by_those_fields(mini, monkeypatch, tmp_path):
    """The back reads card.quantity only: the three cards of quantity 1 share one rendering,
    the joker (quantity 2) has its own; a bare ``card`` read anywhere keys on the whole card."""
    (mini / "templates" / "back.yaml.j2").write_text(
        '- {rect: {x: 0, y: 0, w: 10, h: {{ card.quantity * 5 }}, fill: ink}}\n', encoding="utf-8")
    calls, got = _renders(mini, monkeypatch)
    assert len([c for c in calls if c[0] == "back.yaml.j2"]) == 2
    backs = got["kits"]["fr"].backs
    assert backs[("cards", "card-1")] == backs[("cards", "card-3")] != backs[("cards", "joker")]
    mini = tmp_path / "other"  # a folder of its own: its templates compile afresh
    shutil.copytree(MINI, mini)
    (mini / "templates" / "back.yaml.j2").write_text(
        '{% set c = card %}- {rect: {x: 0, y: 0, w: 10, h: {{ c.quantity * 5 }}, fill: ink}}\n', encoding="utf-8")
    calls, _ = _renders(mini, monkeypatch)
    assert len([c for c in calls if c[0] == "back.yaml.j2"]) == 4
