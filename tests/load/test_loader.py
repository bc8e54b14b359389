"""The loader: a game folder → a checked model, or every problem as `path:line:col: message`.

Each broken game is a scenario folder in tests/data/ (or a tmp copy edited here),
and each message is checked with its exact position.
"""

from __future__ import annotations

import dataclasses

import pytest
from conftest import edit_file, game_label

from cardgen.base.errors import CardgenError, ErrorList, Where, display_path
from cardgen.base.paths import shipped_games_dir
from cardgen.load.game import find_game, load_game, shipped_game_ids


def problems(game) -> list[str]:
    """Every line the loader reports for a game that must fail to load."""
    with pytest.raises(CardgenError) as exc:
        load_game(game)
    lines = exc.value.lines()
    assert lines and all("\n" not in line for line in lines)
    return lines


# -- a valid game -----------------------------------------------------------------


def test_mini_game_loads(scenario):
    game = load_game(scenario("mini_game"))
    assert game.id == "mini"
    assert game.languages == ("en", "fr")
    assert game.players == (2, 3)
    assert game.name("en") == "Mini Game" and game.name("fr") == "Mini-jeu"
    (deck,) = game.components
    assert (deck.id, deck.kind, deck.size, deck.bleed) == ("cards", "deck", (63.0, 88.0), 3.0)
    assert (deck.front, deck.back) == ("front.yaml.j2", "back.yaml.j2")
    assert [(c.id, c.quantity) for c in deck.cards] == [("card-1", 1), ("card-2", 1), ("card-3", 1), ("joker", 2)]
    assert deck.count == 5
    assert game.strings["fr"]["card.title"] == "Carte {n}"
    # the game's own template folder is searched first, then shared macros
    assert game.template_dirs[0] == scenario("mini_game") / "templates"
    assert game.template_dirs[-1].name == "common"


def test_model_is_read_only(scenario):
    game = load_game(scenario("mini_game"))
    with pytest.raises(TypeError):
        game.strings["en"]["game.name"] = "changed"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.id = "other"  # type: ignore[misc]


def test_shipped_game_by_id_and_by_path():
    assert "hapy" in shipped_game_ids()
    assert find_game("hapy") == shipped_games_dir() / "hapy"
    by_path = load_game(shipped_games_dir() / "hapy")
    assert by_path.id == "hapy"


def test_data_marks_say_where_each_value_of_the_data_stands():
    """The loader keeps the line of every value under ``data`` (game.yaml's or a data
    file's) beside it, so that checks of the data need not read the YAML again."""
    marks = load_game("hapy").data_marks
    folder = shipped_games_dir() / "hapy"
    game_yaml, layouts = game_label(folder), game_label(folder, "layouts.yaml")
    crocodile = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()[38]
    assert crocodile.lstrip().startswith("- {id: crocodile")
    assert marks("families", 2, "symbol") == Where(game_yaml, 39, crocodile.index("clover") + 1)
    assert marks("families", 2) == Where(game_yaml, 39, crocodile.index("{") + 1)
    assert marks("families") == Where(game_yaml, 37, 5)
    assert marks("numbers") == Where(game_yaml, 44, 12)
    # a value of a data file, in that file
    assert marks("layouts", "pyramid", "rows", 1, "x", 1) == Where(layouts, 27, 38)
    # the deepest part of the path that exists; the game file when not even the first key does
    assert marks("families", 2, "no such key", 0) == marks("families", 2)
    assert marks("families", 99) == marks("families", "0") == marks("families", ["unhashable"]) == marks("families")
    assert marks("numbers", 0) == marks("numbers")
    assert marks("no such key") == marks() == Where(game_yaml)


# -- for_each expansion and quantities --------------------------------------------


def test_for_each_family_times_range_gives_36_gods():
    game = load_game("hapy")
    gods = game.component("gods")
    families = [f["id"] for f in game.data["families"]]
    assert len(families) == 6
    expected = [f"{fam}-{n}" for fam in families for n in range(1, 7)]
    assert [c.id for c in gods.cards] == expected  # family-major, in data order
    assert len(set(c.id for c in gods.cards)) == 36
    assert all(c.quantity == 1 for c in gods.cards) and gods.count == 36
    falcon3 = next(c for c in gods.cards if c.id == "falcon-3")
    assert falcon3.fields["number"] == 3
    assert falcon3.fields["family"]["glyph"] == "\U00013143"  # the astral hieroglyph survives YAML


def test_for_each_with_quantity_counts_every_copy():
    stickers = load_game("hapy").component("stickers")
    assert [c.id for c in stickers.cards] == [
        "sticker-jackal", "sticker-cat", "sticker-crocodile", "sticker-falcon", "sticker-hippopotamus", "sticker-bull"
    ]
    assert all(c.quantity == 6 for c in stickers.cards)
    assert stickers.count == 36


def test_quantity_read_from_the_data(game_copy):
    """Counts live once, in the data: `quantity: "{kind.count}"` for each for_each item."""
    root = game_copy("mini_game")
    edit_file(
        root / "game.yaml",
        '      - id: "card-{n}"\n        for_each:\n          n: {range: [1, 3]}\n',
        '      - id: "{kind.id}"\n        quantity: "{kind.count}"\n        for_each:\n'
        "          kind: [{id: sun, count: 3}, {id: moon, count: 1}]\n",
    )
    deck = load_game(root).component("cards")
    assert [(c.id, c.quantity) for c in deck.cards] == [("sun", 3), ("moon", 1), ("joker", 2)]
    assert deck.count == 6


def test_quantity_from_the_data_must_be_a_count(game_copy):
    root = game_copy("mini_game")
    edit_file(
        root / "game.yaml",
        '      - id: "card-{n}"\n        for_each:\n          n: {range: [1, 3]}\n',
        '      - id: "{kind.id}"\n        quantity: "{kind.count}"\n        for_each:\n'
        "          kind: [{id: sun, count: 0}]\n",
    )
    (line,) = problems(root)
    assert line.endswith(": 'quantity' \"{kind.count}\" gives 0; it must be a whole number, 1 or more"), line
    assert ":21:35:" in line, line  # where the count is written (a data file's line, a spreadsheet's cell)


def test_for_each_inline_list_and_fields(game_copy):
    root = game_copy("mini_game")
    edit_file(
        root / "game.yaml",
        '      - id: "card-{n}"\n        for_each:\n          n: {range: [1, 3]}\n',
        '      - id: "{suit}-{n}"\n        fields: {colour: ink}\n        for_each:\n'
        "          suit: [sun, moon]\n          n: {range: [2, 3]}\n",
    )
    deck = load_game(root).component("cards")
    assert [c.id for c in deck.cards] == ["sun-2", "sun-3", "moon-2", "moon-3", "joker"]
    assert dict(deck.cards[0].fields) == {"suit": "sun", "n": 2, "colour": "ink"}


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("n: {range: [1, 3]}", "n: nowhere",
         "card entry 1 of component 'cards': for_each 'n' names 'nowhere', which is not a list under 'data'"),
        ("n: {range: [1, 3]}", "n: {range: [3, 1]}",
         "card entry 1 of component 'cards': for_each 'n' range must be [first, last] whole numbers"),
        ("n: {range: [1, 3]}", "n: {range: [1, 2.5]}",
         "card entry 1 of component 'cards': for_each 'n' range must be [first, last] whole numbers"),
        ('id: "card-{n}"', 'id: "card-{colour}"', "card id 'card-{colour}' refers to unknown field 'colour'"),
        ("quantity: 2", "quantity: 0", "'quantity' in card entry 2 of component 'cards' must be 1 or more, found 0"),
        ("quantity: 2", 'quantity: "{copies}"', "'quantity' refers to unknown field 'copies'"),
        ("quantity: 2", 'quantity: "two"', "'quantity' in card entry 2 of component 'cards' must be a whole"
         " number (or a placeholder such as \"{kind.count}\"), found str 'two'"),
    ],
)
def test_for_each_mistakes(game_copy, old, new, message):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", old, new)
    lines = problems(root)
    label = game_label(root)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{label}:") and lines[0].endswith(f": {message}"), lines[0]
    line_no = int(lines[0][len(label) + 1:].split(":")[0])
    source = (root / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert new.split(":")[0].strip() in source[line_no - 1], (line_no, source[line_no - 1])


# -- data_files -------------------------------------------------------------------


def test_data_files_are_merged(scenario):
    game = load_game(scenario("data_files"))
    assert set(game.data) == {"numbers", "animals", "colours"}
    assert game.data["numbers"] == 2
    assert list(game.data["animals"]) == ["ibis", "cobra"]
    assert [c["id"] for c in game.data["colours"]] == ["red", "blue", "green"]
    deck = game.component("cards")
    assert [c.id for c in deck.cards] == [
        "ibis-red", "ibis-blue", "ibis-green", "cobra-red", "cobra-blue", "cobra-green"
    ]
    assert deck.cards[4].fields["colour"]["hex"] == "#23508f"


def test_data_files_mistakes_all_reported(scenario):
    root = scenario("data_files_errors")
    lines = problems(root)
    g = game_label(root)
    assert lines == [
        f"{game_label(root, 'more.yaml')}:2:1: data key 'animals' is defined twice (game.yaml or an earlier data file)",
        f"{g}:10:5: data file 'missing.yaml' not found",
        f"{g}:11:5: data file '../escape.yaml' must be a file name inside the game folder",
        f"{g}:12:5: data file 'list.yaml' must hold a mapping",
    ]


# -- YAML errors keep their line and column -------------------------------------


def test_yaml_syntax_error_line_and_column(scenario):
    root = scenario("yaml_syntax_error")
    # line 6 is `tagline: Hâpy: find the gods`; the second ':' is character 14 (not byte 15)
    assert problems(root) == [
        f"{game_label(root)}:6:14: YAML syntax error: mapping values are not allowed in this context"
    ]


def test_yaml_syntax_error_in_a_locale_file(game_copy):
    root = game_copy("mini_game")
    (root / "locales" / "fr.yaml").write_text('game:\n  name: "Mini-jeu\ncomponent:\n  cards: [Cartes\n',
                                               encoding="utf-8")
    (line,) = problems(root)
    assert line.startswith(f"{game_label(root, 'locales', 'fr.yaml')}:")
    assert ": YAML syntax error: " in line
    where = line[len(game_label(root, "locales", "fr.yaml")) + 1:].split(":")
    assert where[0].isdigit() and where[1].isdigit()


def test_duplicate_key(scenario):
    root = scenario("duplicate_key")
    assert problems(root) == [f"{game_label(root)}:5:1: duplicate key 'name' (first at line 2)"]


def test_duplicate_key_nested(game_copy):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "    size: [63, 88]\n", "    size: [63, 88]\n    kind: sheet\n")
    assert problems(root) == [f"{game_label(root)}:15:5: duplicate key 'kind' (first at line 12)"]


def test_unsafe_yaml_tag_is_refused(game_copy):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "id: mini", "id: !!python/object/apply:os.system echo-hi")
    (line,) = problems(root)
    assert line.startswith(f"{game_label(root)}:2:5: bad value: could not determine a constructor for the tag ")


def test_not_utf8(game_copy):
    root = game_copy("mini_game")
    (root / "game.yaml").write_bytes("id: mini\nname: H\xe2py\n".encode("latin-1"))
    assert problems(root) == [f"{game_label(root)}:2:8: not UTF-8 text (byte 0xE2)"]


# -- schema: unknown keys, wrong types -------------------------------------------


def test_unknown_keys_each_at_its_own_line(scenario):
    root = scenario("unknown_key")
    g = game_label(root)
    lines = problems(root)
    assert len(lines) == 3, lines
    assert lines[0].startswith(f"{g}:4:1: unknown key 'colour' in the game (allowed: ")
    assert lines[1].startswith(f"{g}:12:5: unknown key 'finish' in component 'cards' (allowed: ")
    assert lines[2].startswith(f"{g}:15:9: unknown key 'colour' in card entry 1 of component 'cards' (allowed: ")
    # the allowed list helps the user find the right spelling
    assert "languages" in lines[0] and "components" in lines[0]
    assert "bleed" in lines[1] and "front" in lines[1]
    assert "quantity" in lines[2] and "for_each" in lines[2]


def test_wrong_types(scenario):
    root = scenario("wrong_type")
    g = game_label(root)
    assert problems(root) == [
        f"{g}:4:10: 'players' must be [min, max] whole numbers with 1 <= min <= max, found [3, 2]",
        f"{g}:11:12: 'bleed' in component 'cards' must be a number, found str 'thick'",
        f"{g}:15:19: 'quantity' in card entry 1 of component 'cards' must be a whole number"
        " (or a placeholder such as \"{kind.count}\"), found str '2'",
        f"{g}:17:17: 'fields' in card entry 2 of component 'cards' must be a mapping, found a list",
    ]


@pytest.mark.parametrize(
    "old, new, fragment",
    [
        ("size: [63, 88]", "size: [63, -88]", "'size' in component 'cards' must be [width, height] in mm, both positive"),
        ("size: [63, 88]", "size: [63, 88]\n    bleed: 25", "'bleed' in component 'cards' must be between 0 and 20 mm"),
        ("kind: deck", "kind: tile", "component 'cards': 'kind' must be 'deck', 'sheet' or 'board', found 'tile'"),
        ("languages: [en, fr]", "languages: [en, EN]", "language 'EN' is not a language code such as en, fr, nl"),
        ("languages: [en, fr]", "languages: [en, fr, en]", "language 'en' is listed twice"),
        ('ink: "#1d1b24"', "ink: blue", "palette colour 'ink' must look like #1f4e8c or cmyk(0,60,100,0), found 'blue'"),
        ("id: mini", "id: Mini Game", "game id 'Mini Game' must be lower-case letters, digits, '-' or '_'"),
        ("text: NotoSans-Regular", "text: ../fonts/NotoSans-Regular", "invalid font name '../fonts/NotoSans-Regular'"),
        ("  - id: cards", "  - id: cards\n    printshop: sometimes",
         "'printshop' in component 'cards' must be true or false, found str 'sometimes'"),
    ],
)
def test_value_checks(game_copy, old, new, fragment):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", old, new)
    lines = problems(root)
    assert any(line.startswith(f"{game_label(root)}:") and fragment in line for line in lines), lines


def test_missing_required_keys(game_copy):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "    front: front.yaml.j2\n", "")
    (line,) = problems(root)
    assert line == f"{game_label(root)}:11:5: component 'cards' is missing required key 'front'"


def test_missing_template_points_at_its_key(scenario):
    root = scenario("missing_template")
    (line,) = problems(root)
    # line 10 is `    front: nothere.yaml.j2`
    assert line.startswith(f"{game_label(root)}:10:")
    assert ": template 'nothere.yaml.j2' not found (looked in: " in line
    assert display_path(root / "templates") in line


def test_template_path_outside_folder_refused(game_copy):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "back: back.yaml.j2", "back: ../../secret.yaml.j2")
    (line,) = problems(root)
    assert line == f"{game_label(root)}:16:11: template '../../secret.yaml.j2' must be a name inside the templates folder"


def test_unknown_font(scenario):
    root = scenario("unknown_font")
    (line,) = problems(root)
    assert line.startswith(f"{game_label(root)}:6:10: unknown font 'Papyrus-Bold' (looked in: ")
    assert display_path(root / "fonts") in line


def test_unknown_game():
    with pytest.raises(CardgenError) as exc:
        load_game("nosuchgame")
    msg = str(exc.value)
    assert msg.startswith("unknown game 'nosuchgame' (shipped games: ")
    assert "hapy" in msg and msg.endswith("or give the path of a game folder)")


def test_folder_without_game_yaml(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(CardgenError) as exc:
        load_game(tmp_path / "empty")
    assert str(exc.value) == f"'{tmp_path / 'empty'}' is a folder but has no game.yaml"


def test_missing_locale_file(game_copy):
    root = game_copy("mini_game")
    (root / "locales" / "fr.yaml").unlink()
    (line,) = problems(root)
    assert line == f"{game_label(root, 'locales', 'fr.yaml')}: no strings for language 'fr': file missing"


# -- translations -----------------------------------------------------------------


def test_the_first_languages_keys_are_the_games_and_a_translation_lacking_some_is_no_error(scenario):
    root = scenario("missing_translation")
    lines = problems(root)
    # fr and nl lack some of en's strings (unfinished, not wrong); nl's card.z, which en lacks,
    # is nl's own business: only the component name no language has is an error
    assert not any("translation(s)" in line for line in lines), lines
    used = [line for line in lines if "string 'component.cards' is not in" in line]
    assert [line.rsplit(" ", 1)[1] for line in used] == ["locales/en.yaml", "locales/fr.yaml", "locales/nl.yaml"]
    assert len(lines) == 3, lines


def test_an_unfinished_language_is_loaded_with_the_first_languages_text_and_its_gaps_recorded(game_copy):
    root = game_copy("mini_game")
    edit_file(root / "locales" / "fr.yaml", 'card:\n  title: "Carte {n}"\n', "")
    game = load_game(root)
    assert game.unfinished == {"fr": ("card.title",)}
    assert game.strings["fr"]["card.title"] == game.strings["en"]["card.title"]
    assert not game.fallbacks  # not loaded to fall back: a build of fr refuses it
    assert load_game(root, fallback=True).fallbacks == {"fr": frozenset({"card.title"})}


def test_missing_component_name_string_points_at_name_key(scenario):
    root = scenario("missing_translation")
    lines = [line for line in problems(root) if "string 'component.cards'" in line]
    assert lines and all(line.startswith(f"{game_label(root)}:11:") for line in lines), lines


def test_missing_game_name_string_points_at_name_key(game_copy):
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "name: game.name", "name: game.title")
    assert problems(root) == [
        f"{game_label(root)}:3:7: string 'game.title' is not in locales/en.yaml",
        f"{game_label(root)}:3:7: string 'game.title' is not in locales/fr.yaml",
    ]


def test_locale_value_must_be_text(game_copy):
    root = game_copy("mini_game")
    edit_file(root / "locales" / "fr.yaml", 'title: "Carte {n}"', "title: [Carte]")
    lines = problems(root)
    assert f"{game_label(root, 'locales', 'fr.yaml')}:6:10: string 'card.title' must be text, found a list" in lines


# -- duplicate card ids -----------------------------------------------------------


def test_duplicate_card_ids(scenario):
    root = scenario("duplicate_card_id")
    g = game_label(root)
    assert problems(root) == [
        f"{g}:15:13: duplicate card id 'card-2' (first at line 12)",
        f"{g}:18:13: duplicate card id 'joker' (first at line 16)",
    ]


def test_duplicate_component_ids(game_copy):
    root = game_copy("mini_game")
    text = (root / "game.yaml").read_text(encoding="utf-8")
    deck = text[text.index("  - id: cards"):]
    (root / "game.yaml").write_text(text + deck.replace("card-{n}", "other-{n}").replace("joker", "fool"),
                                    encoding="utf-8")
    lines = problems(root)
    assert len(lines) == 1 and lines[0].endswith(": component id 'cards' is used twice (first at line 11)"), lines


def test_every_problem_at_once(game_copy):
    """One pass reports unrelated mistakes from game.yaml and the locales together."""
    root = game_copy("mini_game")
    edit_file(root / "game.yaml", "size: [63, 88]", "size: big\n    finish: glossy")
    edit_file(root / "game.yaml", "text: NotoSans-Regular", "text: NoSuchFont")
    edit_file(root / "locales" / "fr.yaml", 'card:\n  title: "Carte {n}"\n', "")
    with pytest.raises(ErrorList) as exc:
        load_game(root)
    text = "\n".join(exc.value.lines())
    assert "unknown key 'finish'" in text
    assert "'size' in component 'cards' must be [width, height]" in text
    assert "unknown font 'NoSuchFont'" in text
    assert "card.title" not in text  # fr unfinished: no error of the game (a build of fr says so)
    assert len(exc.value.errors) == 3
