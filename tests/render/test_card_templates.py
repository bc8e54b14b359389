"""A card's own front or back (issue 17, item 5) and the ink-saver colours a game
declares (item 6): what is drawn, what is refused, and the warning when --ink-saver
would change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edit_file, game_label, load_errors

from cardgen import load_game
from cardgen.base.errors import Collector
from cardgen.export import face_images
from cardgen.pipeline import BuildOptions, KitBuilder

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "spreadsheet"
pytestmark = pytest.mark.usefixtures("isolated_settings")


@pytest.fixture
def game(market_copy: Path) -> Path:
    return market_copy


errors_of = load_errors


def rendered(folder: Path, **options):
    game = load_game(folder)
    errors = Collector()
    kit = KitBuilder(game, BuildOptions(langs=("en",), **options)).render_lang("en", errors)
    errors.raise_if_any()
    return kit


def texts(face) -> list[str]:
    return [op.args["text"] for op in face.ops if op.kind == "text"]


# -- per-card fronts and backs ---------------------------------------------------------------


def test_each_card_is_drawn_by_its_own_front_or_the_decks(game):
    kit = rendered(game)
    assert "Event" in texts(kit.fronts[("market", "storm")])  # the 'front' cell of its row
    assert "Event" not in texts(kit.fronts[("market", "fish")])  # an empty cell: the deck's front
    assert "Worth 3" in texts(kit.fronts[("market", "goods-amber")])  # the entry's own front
    backs = {kit.backs[("market", c)].key for c in ("fish", "storm", "goods-pearl")}
    assert len(backs) == 1  # the deck's back for all


def test_a_card_may_have_its_own_back(game):
    (game / "templates" / "storm_back.yaml.j2").write_text(
        "- {text: {x: 5, y: 5, w: 50, h: 10, text: 'Storm ahead', size: 10}}\n", encoding="utf-8")
    edit_file(game / "game.yaml", '        front: "{row.front}"', '        front: "{row.front}"\n'
              '        back: "{row.back}"')
    (game / "actions.csv").write_text("id,title,copies,text,back\nfish,Fish,1,x,\nstorm,Storm,1,y,storm_back.yaml.j2\n",
                                      encoding="utf-8")
    kit = rendered(game)
    assert texts(kit.backs[("market", "storm")]) == ["Storm ahead"]
    assert texts(kit.backs[("market", "fish")]) == ["Harbour Market"]


def test_a_card_back_on_a_one_sided_deck_is_refused(game):
    edit_file(game / "game.yaml", "    back: back.yaml.j2\n", "")
    edit_file(game / "game.yaml", "        front: good.yaml.j2", "        front: good.yaml.j2\n        back: back.yaml.j2")
    (line,) = errors_of(game)
    assert line == (f"{game_label(game)}:42:15: card 'goods-salt' sets its own 'back', but component 'market' is "
                    f"one-sided: give the deck a 'back' too")  # at the entry's 'back', where it is set


def test_a_card_front_that_is_not_a_name_or_not_found(game):
    edit_file(game / "game.yaml", "front: good.yaml.j2", "front: [good.yaml.j2]")
    assert errors_of(game) == [f"{game_label(game)}:42:16: 'front' of a card must be a template file name, "
                               f"found a list"]
    edit_file(game / "game.yaml", "front: [good.yaml.j2]", "front: ../good.yaml.j2")
    assert errors_of(game) == [f"{game_label(game)}:42:16: template '../good.yaml.j2' must be a name inside the "
                               f"templates folder"]


# -- ink-saver colours ---------------------------------------------------------------------------


def pixel(folder: Path, card: str, side: str, ink_saver: bool) -> tuple[int, int, int]:
    game = load_game(folder)
    images = face_images(game, "en", 40, trim_only=True, options=BuildOptions(langs=("en",), ink_saver=ink_saver),
                         component="market")
    (image,) = [f.image for f in images if f.card_id == card and f.side == side]
    return image.getpixel((3, 3))


def test_the_declared_ink_saver_colours_replace_the_palettes(game):
    assert pixel(game, "fish", "back", False) == (0x1F, 0x4E, 0x79)  # sea
    assert pixel(game, "fish", "back", True) == (0xD6, 0xE4, 0xF0)  # its ink-saver colour
    assert pixel(game, "storm", "front", True) == (0xF6, 0xD2, 0xC4)  # coral, by name
    edit_file(game / "game.yaml", "  coral: \"#f6d2c4\"", "  \"#D9603B\": sand")  # by value, any case
    assert pixel(game, "storm", "front", True) == (0xF3, 0xE6, 0xC4)


def test_bad_ink_saver_colours(game):
    edit_file(game / "game.yaml", "  pale: ink ", "  pale: inky \n  teal: ink ")
    assert errors_of(game) == [
        f"{game_label(game)}:19:9: ink_saver colour 'pale' must become a palette name, #rrggbb or none, found 'inky'",
        f"{game_label(game)}:20:3: ink_saver colour 'teal' must be a palette name or look like #1f4e8c"]


def test_ink_saver_that_changes_nothing_is_a_warning(cli, game, tmp_path):
    args = ("--out", tmp_path / "out", "--paper", "a4", "--jobs", "1", "--ink-saver")
    result = cli("build", game, *args)
    assert result.exit_code == 0 and "warning:" not in result.output
    text = (game / "game.yaml").read_text(encoding="utf-8")
    start, end = text.index("ink_saver:"), text.index("# --8<-- [end:ink]")
    (game / "game.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    result = cli("build", game, *args)
    assert result.exit_code == 0
    warning = ("warning: --ink-saver changes nothing in 'harbour-market': game.yaml declares no ink_saver colours "
               "and no template reads ink_saver")
    assert warning in result.output.splitlines()
    assert cli("build", game, "--out", tmp_path / "out", "--paper", "a4", "--jobs", "1").output.count("warning") == 0
    exported = cli("export", game, "--tts", "--out", tmp_path / "o2", "--ink-saver")
    assert exported.exit_code == 0 and warning in exported.output.splitlines()
    # a template (here through an imported macro file) that reads ink_saver and draws otherwise is enough
    (game / "templates" / "bits.j2").write_text("{% macro fill() %}{{ 'sand' if ink_saver else 'sea' }}{% endmacro %}",
                                                encoding="utf-8")
    edit_file(game / "templates" / "back.yaml.j2", "{#- One back", '{% import "bits.j2" as bits %}\n{#- One back')
    edit_file(game / "templates" / "back.yaml.j2", "fill: sea}}", "fill: {{ bits.fill() }}}}")
    assert "warning:" not in cli("build", game, *args).output


SAME_WARNING = ("warning: --ink-saver changes nothing in 'harbour-market': game.yaml declares no ink_saver colours "
                "and the templates that read ink_saver draw the same faces with it; the -ink-saver files are the "
                "usual ones renamed")


@pytest.mark.parametrize("jobs", [1, 2])
def test_ink_saver_read_but_drawing_nothing_else_is_a_warning(cli, game, tmp_path, jobs):
    """A template that reads ink_saver but draws the same face with it (a macro file
    imported and its macro never called; both branches alike) changes no file."""
    text = (game / "game.yaml").read_text(encoding="utf-8")
    start, end = text.index("ink_saver:"), text.index("# --8<-- [end:ink]")
    (game / "game.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    edit_file(game / "game.yaml", "languages: [en]", "languages: [en, fr]")
    (game / "locales" / "fr.yaml").write_text((game / "locales" / "en.yaml").read_text(encoding="utf-8"),
                                              encoding="utf-8")
    (game / "templates" / "bits.j2").write_text("{% macro fill() %}{{ 'sand' if ink_saver else 'sea' }}{% endmacro %}",
                                                encoding="utf-8")
    edit_file(game / "templates" / "back.yaml.j2", "{#- One back", '{% import "bits.j2" as bits %}\n{#- One back')
    edit_file(game / "templates" / "action.yaml.j2", "fill: sand}}", "fill: {{ 'sand' if ink_saver else 'sand' }}}}")
    args = ("--out", tmp_path / "out", "--paper", "a4", "--jobs", jobs)
    result = cli("build", game, *args, "--ink-saver")
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if "warning" in line] == [SAME_WARNING]
    assert "warning" not in cli("build", game, *args).output  # without --ink-saver: nothing to say
    # one face that is drawn otherwise is enough
    edit_file(game / "templates" / "action.yaml.j2", "'sand' if ink_saver else 'sand'", "'pale' if ink_saver else 'sand'")
    result = cli("build", game, *args, "--ink-saver")
    assert result.exit_code == 0 and "warning" not in result.output, result.output


@pytest.mark.parametrize("jobs", [1, 2])
def test_strict_turns_every_warning_into_an_error_and_keeps_the_kit(cli, game, tmp_path, jobs):
    """`cardgen build --strict` fails on a warning, names it as an error, and leaves the
    kit already in the output folder as it was; without warnings it builds as usual."""
    out = tmp_path / "out"
    args = ("--out", out, "--paper", "a4", "--jobs", jobs)
    assert cli("build", game, *args, "--strict").exit_code == 0  # nothing to warn about
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    text = (game / "game.yaml").read_text(encoding="utf-8")
    start, end = text.index("ink_saver:"), text.index("# --8<-- [end:ink]")
    (game / "game.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    result = cli("build", game, *args, "--ink-saver", "--strict")
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert errors == ["error: --ink-saver changes nothing in 'harbour-market': game.yaml declares no ink_saver "
                      "colours and no template reads ink_saver (a warning: --strict fails the build on it)"]
    assert "Traceback" not in result.output
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before


def test_a_build_returns_its_warnings_as_records(game, tmp_path):
    """The API's result carries each warning as a record (text and place), once."""
    from cardgen import BuildOptions, CardgenWarning, build, load_game

    text = (game / "game.yaml").read_text(encoding="utf-8")
    start, end = text.index("ink_saver:"), text.index("# --8<-- [end:ink]")
    (game / "game.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    lines: list[str] = []
    built = build(load_game(game), BuildOptions(langs=("en",), papers=("a4",), out_dir=tmp_path, jobs=1,
                                                ink_saver=True), progress=lines.append)
    assert built.warnings == [CardgenWarning("--ink-saver changes nothing in 'harbour-market': game.yaml declares "
                                             "no ink_saver colours and no template reads ink_saver")]
    assert [line for line in lines if line.startswith("warning:")] == [built.warnings[0].line()]
    assert built.files and built.folder == tmp_path / "harbour-market"
