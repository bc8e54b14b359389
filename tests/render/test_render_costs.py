"""What a build works out once rather than for every face (issue 32): the file that
names a template in errors, looked up once per template and build."""

from __future__ import annotations

import shutil
from pathlib import Path

from cardgen.base.errors import Collector
from cardgen.load.game import load_game
from cardgen.pipeline import BuildOptions, KitBuilder
from cardgen.render.sandbox import TemplateRenderer

MINI = Path(__file__).parents[1] / "data" / "mini_game"


def test_a_templates_file_is_looked_up_once_per_build_not_per_face(tmp_path, monkeypatch):
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    game = load_game(folder)
    builder = KitBuilder(game, BuildOptions(out_dir=tmp_path / "out", jobs=1))
    looked_up = []
    real = TemplateRenderer.template_path

    def counted(self, name):
        looked_up.append(name)
        return real(self, name)

    monkeypatch.setattr(TemplateRenderer, "template_path", counted)
    faces = 0
    for lang in game.languages:
        errors = Collector()
        kit = builder.render_lang(lang, errors)
        assert not errors.errors
        faces += len(kit.fronts) + len(kit.backs)
    assert faces >= 16  # 4 cards, front and back, 2 languages
    assert sorted(set(looked_up)) == sorted(looked_up)  # each template once
