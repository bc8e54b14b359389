"""Text checks that catch what the eye would (issue 17, item 8): a translation's
placeholder that no value fills is an error naming the key, language and template;
text that a board's seam cuts is a warning naming the text and the seam."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import assert_user_error, edit_file, game_label

from cardgen import load_game
from cardgen.base.errors import Collector
from cardgen.impose.seams import seam_warnings, text_lines
from cardgen.impose.tiling import plan_tiles
from cardgen.layout.ops import Op
from cardgen.pipeline import BuildOptions, KitBuilder
from cardgen.render.placeholders import PlaceholderError
from cardgen.render.sandbox import translator

DOCS = Path(__file__).resolve().parents[2] / "docs" / "examples"
pytestmark = pytest.mark.usefixtures("isolated_settings")


@pytest.fixture
def garden(tmp_path: Path) -> Path:
    folder = tmp_path / "garden"
    shutil.copytree(DOCS / "every-key", folder)
    return folder


def build(cli, folder: Path, tmp_path: Path, *extra: str):
    return cli("build", folder, "--out", tmp_path / "out", "--lang", "en", "--jobs", "1", *extra)


def test_an_unfilled_placeholder_is_an_error_naming_key_language_and_template(cli, tmp_path):
    folder = tmp_path / "market"
    shutil.copytree(DOCS / "spreadsheet", folder)
    edit_file(folder / "templates" / "good.yaml.j2", 't("card.worth", n=card.good.worth)', 't("card.worth")')
    lines = assert_user_error(build(cli, folder, tmp_path))
    assert lines[0] == (f"{game_label(folder, 'templates', 'good.yaml.j2')}:5: market/goods-salt front [en]: "
                        f"string 'card.worth' in en ({game_label(folder, 'locales', 'en.yaml')}:8): {{n}} not filled: "
                        f"the template gives t() no value for it "
                        f"(t(\"card.worth\", n=…))")
    assert not (tmp_path / "out" / "harbour-market").exists()


def test_literal_braces_need_no_values(tmp_path):
    folder = tmp_path / "market"
    shutil.copytree(DOCS / "spreadsheet", folder)
    edit_file(folder / "locales" / "en.yaml", "event: Event", 'event: "Event {{storm}}"\n  odd: "a { b"')
    kit = KitBuilder(load_game(folder), BuildOptions(langs=("en",)))
    errors = Collector()
    fronts = kit.render_lang("en", errors).fronts
    errors.raise_if_any()
    assert "Event {storm}" in [op.args["text"] for op in fronts[("market", "storm")].ops if op.kind == "text"]
    t = translator({"odd": "a { b", "two": "{a} and {b}"}, "en", lambda key: None)
    assert t("odd") == "a { b"  # not a string of placeholders: printed as written
    with pytest.raises(PlaceholderError) as exc:
        t("two")
    assert str(exc.value) == "string 'two' in en: {a}, {b} not filled: the template gives t() no value for them " \
                             "(t(\"two\", a=…))"


def test_a_placeholder_in_the_game_name_is_an_error(cli, tmp_path):
    folder = tmp_path / "market"
    shutil.copytree(DOCS / "spreadsheet", folder)
    edit_file(folder / "locales" / "en.yaml", "name: Harbour Market", 'name: "Harbour {n}"')
    lines = assert_user_error(build(cli, folder, tmp_path))
    assert lines == [f"{game_label(folder)}:3:1: the game's name, string 'game.name' in en, holds a {{placeholder}} "
                     f"that nothing fills (write {{{{ and }}}} for a literal brace)"]


BOARD_TITLE = ('- {text: {x: 20, y: 100, w: 260, h: 14, text: "The Kitchen Garden", font: title, align: center, '
               'size: 24}}\n')


def test_text_across_a_board_seam_is_a_warning_naming_text_and_seam(cli, garden, tmp_path):
    with (garden / "templates" / "board.yaml.j2").open("a", encoding="utf-8") as f:
        f.write(BOARD_TITLE)
        f.write('- {group: {translate: [150, 0], ops: [{text: {x: 1, y: 4, w: 40, h: 6, text: "one piece"}}]}}\n')
    result = build(cli, garden, tmp_path, "--paper", "a4")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("warning:")]
    # 300 mm across on A4: two pieces side by side, the seam 145 mm from the left edge
    assert warnings == ["warning: board 'board' [en, a4]: the text 'The Kitchen Garden' crosses the seam between "
                        "pieces A1 and B1 (145 mm from the board's left edge); move it or keep it on one piece"]


def test_the_plots_of_the_example_board_cross_no_seam(cli, garden, tmp_path):
    result = build(cli, garden, tmp_path)
    assert result.exit_code == 0 and "warning:" not in result.output


def test_seams_follow_groups_and_horizontal_seams(garden):
    game = load_game(garden)
    builder = KitBuilder(game, BuildOptions(langs=("en",)))
    engine = builder.text
    text = Op("text", {"x": 0.0, "y": 0.0, "w": 60.0, "h": 10.0, "text": "Nile delta", "size": 12.0})
    (_, (x0, y0, x1, y1)), = text_lines((Op("group", {"translate": [100.0, 50.0], "rotate": 90.0}, (text,)),), engine)
    width = engine.book.string_width_mm(engine.font(None), "Nile delta", 12.0)
    # turned a quarter: the line runs down the page from (100, 50), its height to the left
    assert (x1, y0, y1 - y0) == pytest.approx((100.0, 50.0, width)) and 95 < x0 < 100
    plan = plan_tiles((210, 297), (150, 500), 3, 10)  # tall: pieces one above the other
    assert plan.cols == 1 and plan.rows > 1
    seam = plan.seams_y[0]
    across = Op("group", {"translate": [20.0, seam - 10]}, (Op("group", {"rotate": 90.0}, (text,)),))
    (warning,) = seam_warnings("river", (across,), engine, plan, "[en, a4]")
    assert warning.line() == (f"warning: board 'river' [en, a4]: the text 'Nile delta' crosses the seam between pieces A1 "
                       f"and A2 ({seam:g} mm from the board's top edge); move it or keep it on one piece")
    inside = Op("group", {"translate": [20.0, seam + 5]}, (text,))
    assert seam_warnings("river", (inside,), engine, plan, "[en, a4]") == []
