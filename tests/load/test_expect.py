"""game.yaml's ``expect``: a designer states what each deck holds, and ``cardgen
validate`` names every card missing, doubled or extra, at the line or spreadsheet cell
to fix, for a game without rules (docs/examples/star-freight) and with them (Hâpy).
A mistake in the expectations themselves stops the load at its line.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import edit_file, game_label

from cardgen.base.errors import CardgenError, display_path
from cardgen.load.game import load_game
from cardgen.load.tables import CellWhere
from cardgen.validation.runner import ValidateOptions, validate

DOCS = Path(__file__).resolve().parents[2] / "docs"
STAR_FREIGHT = DOCS / "examples" / "star-freight"
EVERY_KEY = DOCS / "examples" / "every-key"


@pytest.fixture
def freight(tmp_path: Path) -> Path:
    """An editable copy of Star Freight: 5 suits × 1..10 and 10 action cards from a CSV."""
    folder = tmp_path / "star-freight"
    shutil.copytree(STAR_FREIGHT, folder)
    return folder


def report_of(folder: Path, *variants: str) -> dict:
    game = load_game(folder, variants)
    return validate(game, ValidateOptions(games=2, jobs=1, game_arg=str(folder)))


def problems(folder: Path, *variants: str) -> list[str]:
    return report_of(folder, *variants)["static"]["problems"]


def at(path: Path, needle: str, after: str = "") -> str:
    """``file:line:col`` of the only place ``needle`` stands (on a line holding ``after``)."""
    found = [(n, line.index(needle) + 1) for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if needle in line and after in line]
    assert len(found) == 1, (needle, found)
    return f"{game_label(path.parent, path.name)}:{found[0][0]}:{found[0][1]}"


def cell(path: Path, row: int, col: int = 1) -> str:
    return CellWhere(display_path(path), row, col).prefix()


def load_error_lines(folder: Path) -> list[str]:
    with pytest.raises(CardgenError) as caught:
        load_game(folder)
    return caught.value.lines()


# -- the example, as shipped --------------------------------------------------------


def test_the_example_holds_what_it_expects(freight):
    report = report_of(freight)
    assert report["static"]["problems"] == []
    assert "deck 'cards' holds what game.yaml expects: 60 cards (50 cards with suit.id and value, 5 × 10" \
           " combinations; 10 cards with action.id, 5 values)" in report["static"]["passed"]
    assert report["ok"] and report["simulation"]["skipped"] == "no rules module"
    assert any("game.yaml's expect" in note for note in report["notes"])


def test_the_expectations_are_in_the_model(freight):
    game = load_game(freight)
    suits, actions = game.expect["cards"]
    assert suits.key == ("suit.id", "value") and suits.copies == 1
    assert suits.values is not None and suits.values[1].values == tuple(range(1, 11))
    assert actions.values is not None and actions.values[0].values == (
        "pirate-raid", "trade-route", "customs", "wormhole", "black-market")
    assert actions.wanted(("pirate-raid",)) == 3 and actions.wanted(("black-market",)) == 1
    with pytest.raises(AttributeError):
        suits.copies = 2  # type: ignore[misc]


# -- cards missing, doubled, extra ------------------------------------------------------


def test_a_csv_row_removed_is_missing_at_the_value_that_names_it(freight):
    edit_file(freight / "actions.csv", "customs,Customs,2\n", "")
    assert problems(freight) == [f"{at(freight / 'game.yaml', 'customs: 2')}: the card with action.id 'customs' is"
                                 " missing from deck 'cards' (expected 2)"]


def test_a_yaml_entry_removed_is_missing_at_the_values(tmp_path):
    """A deck written card by card in game.yaml, one entry deleted."""
    folder = tmp_path / "star-freight"
    shutil.copytree(STAR_FREIGHT, folder)
    entries = "".join(f"      - {{id: {s}-{v}, fields: {{suit: {{id: {s}}}, value: {v}}}}}\n"
                      for s in ("fuel", "ore", "ice", "spice", "crystal") for v in range(1, 11))
    edit_file(folder / "game.yaml", '      - id: "{suit.id}-{value}"         # fuel-1 … crystal-10\n'
              "        for_each: {suit: suits, value: {range: [1, 10]}}\n", entries)
    assert problems(folder) == []
    edit_file(folder / "game.yaml", "      - {id: ore-7, fields: {suit: {id: ore}, value: 7}}\n", "")
    assert problems(folder) == [f"{at(folder / 'game.yaml', '{suit.id: [fuel')}: the card with suit.id 'ore' and"
                                " value 7 is missing from deck 'cards' (expected 1)"]


def test_a_whole_suit_removed_is_one_line_at_the_suit(freight):
    edit_file(freight / "game.yaml", "    - {id: ice}\n", "")
    assert problems(freight) == [f"{at(freight / 'game.yaml', 'ice, spice')}: the cards with suit.id 'ice' are"
                                 " missing from deck 'cards' (expected 10: value 1..10, 1 each)"]


def test_too_many_copies_in_a_csv_cell_are_named_at_the_row(freight):
    edit_file(freight / "actions.csv", "wormhole,Wormhole,2", "wormhole,Wormhole,3")
    assert problems(freight) == [f"{cell(freight / 'actions.csv', 5)}: card 'wormhole' (action.id 'wormhole') is"
                                 " printed 3 times (quantity 3); expected 2"]


def test_too_few_copies_are_named_at_the_card(freight):
    edit_file(freight / "actions.csv", "pirate-raid,Pirate raid,3", "pirate-raid,Pirate raid,1")
    assert problems(freight) == [f"{cell(freight / 'actions.csv', 2)}: card 'pirate-raid' (action.id 'pirate-raid')"
                                 " is printed 1 time (quantity 1); expected 3"]


def test_a_doubled_card_is_named_at_the_second(freight):
    edit_file(freight / "game.yaml", '        quantity: "{action.copies}"\n',
              '        quantity: "{action.copies}"\n      - {id: fuel-3-again, fields: {suit: {id: fuel}, value: 3}}\n')
    assert problems(freight) == [f"{at(freight / 'game.yaml', 'fuel-3-again')}: the card with suit.id 'fuel'"
                                 " and value 3 is in deck 'cards' 2 times (cards 'fuel-3', 'fuel-3-again'); expected 1"]


def test_an_extra_csv_row_is_named_at_its_cell(freight):
    (freight / "actions.csv").write_text((freight / "actions.csv").read_text(encoding="utf-8")
                                         + "smuggler,Smuggler,1\n", encoding="utf-8")
    assert problems(freight) == [f"{cell(freight / 'actions.csv', 7)}: card 'smuggler' (action.id 'smuggler') is not"
                                 " one deck 'cards' expects: action.id 'smuggler' is not among pirate-raid,"
                                 " trade-route, customs, wormhole, black-market"]


def test_a_value_out_of_range_and_a_card_of_no_kind_are_extra(freight):
    edit_file(freight / "game.yaml", '        quantity: "{action.copies}"\n',
              '        quantity: "{action.copies}"\n      - {id: fuel-11, fields: {suit: {id: fuel}, value: 11}}\n'
              "      - {id: joker, quantity: 2}\n")
    gy = freight / "game.yaml"
    assert problems(freight) == [
        f"{at(gy, 'fuel-11')}: card 'fuel-11' (suit.id 'fuel' and value 11) is not one deck 'cards' expects:"
        " value 11 is not among 1..10",
        f"{at(gy, 'joker')}: card 'joker' is not one deck 'cards' expects: it lacks a field of every expectation's"
        " key ([suit.id, value] or [action.id])",
    ]


def test_the_docs_listing_is_the_real_output(freight, cli):
    """The failures shown on docs/validator/deck-expectations.md are what validate prints."""
    edit_file(freight / "actions.csv", "customs,Customs,2\n", "")
    edit_file(freight / "actions.csv", "wormhole,Wormhole,2", "wormhole,Wormhole,3")
    (freight / "actions.csv").write_text((freight / "actions.csv").read_text(encoding="utf-8")
                                         + "smuggler,Smuggler,1\n", encoding="utf-8")
    edit_file(freight / "game.yaml", '        quantity: "{action.copies}"\n',
              '        quantity: "{action.copies}"\n      - {id: fuel-3-again, fields: {suit: {id: fuel}, value: 3}}\n')
    edit_file(freight / "game.yaml", "    - {id: ice}\n", "")
    result = cli("validate", freight)
    assert result.exit_code == 1
    shown = [line for line in result.stdout.splitlines() if line.startswith("  ✗")]
    listing = "\n".join(["Deck and setups: FAILED", *shown]).replace(display_path(freight), "docs/examples/star-freight")
    page = (DOCS / "validator" / "deck-expectations.md").read_text(encoding="utf-8")
    assert f"```text\n{listing}\n```" in page, listing


def test_the_docs_passing_listing_is_the_real_output(cli):
    result = cli("validate", STAR_FREIGHT)
    assert result.exit_code == 0
    block = result.stdout[result.stdout.index("Deck and setups"):result.stdout.index("\n\nPlay")]
    page = (DOCS / "validator" / "deck-expectations.md").read_text(encoding="utf-8")
    assert f"```text\n{block}\n```" in page, block


# -- totals, unique fields, keys without values, variants ------------------------------------


def add_rules(folder: Path, text: str) -> None:
    edit_file(folder / "game.yaml", "# --8<-- [end:expect]\n", text + "# --8<-- [end:expect]\n")


def test_a_total_of_the_whole_deck(freight):
    add_rules(freight, "    - total: 61\n")
    assert problems(freight) == [f"{at(freight / 'game.yaml', '61')}: deck 'cards' has 60 cards; expected 61"]


def test_a_total_of_one_kind_counts_copies(freight):
    edit_file(freight / "game.yaml", "    - key: [action.id]\n", "    - key: [action.id]\n      total: 10\n")
    assert problems(freight) == []
    edit_file(freight / "actions.csv", "black-market,Black market,1", "black-market,Black market,2")
    assert problems(freight) == [
        f"{cell(freight / 'actions.csv', 6)}: card 'black-market' (action.id 'black-market') is printed 2 times"
        " (quantity 2); expected 1",
        f"{at(freight / 'game.yaml', '10', after='total')}: deck 'cards' has 11 cards with action.id; expected 10",
    ]


def test_unique_fields(freight):
    add_rules(freight, "    - unique: [action.title]\n")
    assert problems(freight) == []  # copies of one card share its title
    edit_file(freight / "actions.csv", "customs,Customs,2", "customs,Wormhole,2")
    assert problems(freight) == [f"{cell(freight / 'actions.csv', 5)}: cards 'customs' and 'wormhole' of deck"
                                 " 'cards' share the action.title 'Wormhole'; expected each action.title once"]


def test_a_key_without_values_wants_each_combination_copies_times(freight):
    add_rules(freight, "    - key: [suit.id]\n      copies: 10\n")
    assert problems(freight) == []
    edit_file(freight / "game.yaml", "    - {id: ice}\n", "    - {id: ice}\n    - {id: ice2}\n")
    # the third expectation takes any suit, but the first lists them: ice2's cards are extra
    found = problems(freight)
    entry = at(freight / "game.yaml", '"{suit.id}-{value}"')
    assert found == [f"{entry}: card 'ice2-{v}' (suit.id 'ice2' and value {v})"
                     " is not one deck 'cards' expects: suit.id 'ice2' is not among fuel, ore, ice, spice, crystal"
                     for v in range(1, 11)]


def test_variant_expectations_apply_with_their_variant(tmp_path):
    folder = tmp_path / "every-key"
    shutil.copytree(EVERY_KEY, folder)
    assert report_of(folder)["static"]["problems"] == []
    assert report_of(folder, "pests")["static"]["problems"] == []
    edit_file(folder / "game.yaml", "      variant: pests            # the cards of variant pests (validate"
              " --variant pests)\n      copies: 2\n", "      variant: pests\n      copies: 3\n")
    assert report_of(folder)["static"]["problems"] == []
    slug = at(folder / "game.yaml", '"{v.id}"')
    assert report_of(folder, "pests")["static"]["problems"] == [
        f"{slug}: card 'slug' (v.id 'slug') is printed 2 times (quantity 2); expected 3"]


def test_a_variant_without_expectations_has_extra_cards(tmp_path):
    folder = tmp_path / "every-key"
    shutil.copytree(EVERY_KEY, folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = re.sub(r"    - key: \[v\.id\]\n.*\n.*\n", "", text)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert report_of(folder)["static"]["problems"] == []
    slug = at(folder / "game.yaml", '"{v.id}"')
    assert report_of(folder, "pests")["static"]["problems"] == [
        f"{slug}: card 'slug' (variant 'pests') is not one deck 'cards' expects:"
        " no expectation is about variant 'pests'"]


def test_a_game_with_rules_gets_its_expectations_checked_too(hapy_copy):
    gy = hapy_copy / "game.yaml"
    gy.write_text(gy.read_text(encoding="utf-8") + "expect:\n  gods:\n    - key: [family.id, number]\n"
                  "      values: {number: 1..7, family.id: {data: families, field: id}}\n", encoding="utf-8")
    report = report_of(hapy_copy)
    assert report["rules"] is not None
    where = at(gy, "1..7")
    assert report["static"]["problems"] == [
        f"{where}: the cards with number 7 are missing from deck 'gods' (expected 6: family.id as in data"
        " 'families', 1 each)"]
    assert not report["ok"]


# -- mistakes in the expectations stop the load ---------------------------------------------

LOAD_MISTAKES = [  # (old text, new text, the text the error points at, a text on its line, the message)
    ("  cards:                                  # a deck's id", "  cardz:", "cardz:", "",
     "'expect' names deck 'cardz', which the game does not have (decks: cards)"),
    ("  cards:                                  # a deck's id", "  rules:", "rules:", "",
     "'expect' names 'rules', which is not a deck (decks: cards)"),
    ("key: [suit.id, value]", "key: [suit.idd, value]", "suit.idd", "",
     "'key' in expectation 1 of deck 'cards' names the field 'suit.idd', which no card of deck 'cards' has"
     " (their fields: suit, value, action)"),
    ("key: [suit.id, value]", "key: [suit, value]", "suit, value", "",
     "'key' in expectation 1 of deck 'cards' names the field 'suit', which holds a mapping on card 'fuel-1';"
     " name one of its fields, such as suit.id"),
    ("value: 1..10", "value: 1..x", "1..x", "",
     "'values.value' in expectation 1 of deck 'cards' must be a list, a range of whole numbers such as 1..10,"
     " or {data: NAME}, found '1..x'"),
    ("value: 1..10", "value: 10..1", "10..1", "",
     "'values.value' in expectation 1 of deck 'cards': the range 10..1 must run from a first to a last whole"
     " number, at most 10,000 of them"),
    ("value: 1..10", "value: [1, 2, 2]", "2]", "",
     "'values.value' in expectation 1 of deck 'cards' lists 2 twice"),
    ("value: 1..10}", "value: 1..10, colour: [red]}", "colour", "",
     "'values' in expectation 1 of deck 'cards' names 'colour', which is not a field of its key [suit.id, value]"),
    ("values: {suit.id: [fuel, ore, ice, spice, crystal], value: 1..10}",
     "values: {suit.id: [fuel, ore, ice, spice, crystal]}", "values:", "",
     "'values' in expectation 1 of deck 'cards' gives no values for the key field 'value'"),
    ("value: 1..10", "value: {data: values}", "values}", "",
     "'values.value' in expectation 1 of deck 'cards' names data 'values', which is not a list under 'data'"
     " (lists: suits, actions)"),
    ("value: 1..10", "value: {data: suits, field: name}", "name}", "",
     "'values.value' in expectation 1 of deck 'cards': item 1 of data 'suits' has no field 'name'"),
    ("copies: 1                           # of every combination", "copies: {fuel: 2}", "{fuel: 2}", "",
     "'copies' in expectation 1 of deck 'cards' gives copies per value, which needs a key of one field; this key"
     " has 2: give one number of copies for every combination"),
    ("copies: 1                           # of every combination", "copies: 1\n      total: 40", "40", "total",
     "'total' in expectation 1 of deck 'cards' is 40, but its values and copies make 50 cards"),
    ("    - key: [action.id]\n", "    - {copies: 2}\n    - key: [action.id]\n", "{copies", "",
     "expectation 2 of deck 'cards' says nothing: give it a 'key', a 'total' or 'unique'"),
    ("    - key: [action.id]\n", "    - {copies: 2}\n    - key: [action.id]\n", "copies: 2}", "",
     "'copies' in expectation 2 of deck 'cards' needs a 'key': the card fields whose values it gives"),
    ("    - key: [action.id]\n", "    - {key: [action.id], variant: jokers}\n    - key: [action.id]\n", "jokers", "",
     "'variant' in expectation 2 of deck 'cards': no card of deck 'cards' belongs to variant 'jokers'"
     " (it has no variants)"),
    ("    - key: [action.id]\n", "    - {total: 60, unique: [action.name]}\n    - key: [action.id]\n",
     "action.name", "", "'unique' in expectation 2 of deck 'cards' names the field 'action.name', which no card of"
     " deck 'cards' has (their fields: suit, value, action)"),
    ("  cards:                                  # a deck's id\n", "  cards: 3\n  old-cards:\n", "3", "cards: 3",
     "'expect.cards' must be a list of expectations, found int 3"),
    ("  cards:                                  # a deck's id\n", "  cards: []\n  old-cards:\n", "[]", "",
     "'expect.cards' is empty: list at least one expectation"),
    ("copies: {pirate-raid: 3,", "copies: {pirate-raid: 0,", "0,", "",
     "'copies.pirate-raid' in expectation 2 of deck 'cards' must be a whole number from 1 to 1,000, found int 0"),
]


@pytest.mark.parametrize(("old", "new", "needle", "after", "message"), LOAD_MISTAKES, ids=lambda v: v[:24])
def test_a_mistake_in_the_expectations_is_an_error_at_its_line(freight, old, new, needle, after, message):
    edit_file(freight / "game.yaml", old, new)
    lines = load_error_lines(freight)
    assert f"{at(freight / 'game.yaml', needle, after)}: {message}" in lines, lines


def test_copies_of_a_value_not_among_the_values(freight):
    edit_file(freight / "game.yaml", "    - key: [action.id]\n",
              "    - key: [action.id]\n      values: {action.id: [pirate-raid, trade-route, customs, wormhole,"
              " black-market]}\n")
    assert problems(freight) == []
    edit_file(freight / "game.yaml", "wormhole: 2,", "wormhole: 2, warp: 1,")
    assert load_error_lines(freight) == [
        f"{at(freight / 'game.yaml', 'warp')}: 'copies' in expectation 2 of deck 'cards' names 'warp', which is not"
        " among the values of action.id (pirate-raid, trade-route, customs, wormhole, black-market)"]


def test_copies_naming_a_value_no_card_has_is_missing(freight):
    """Without values, the copies mapping is the list of values: a value no card has is missing."""
    edit_file(freight / "game.yaml", "wormhole: 2,", "wormhole: 2, warp: 1,")
    assert problems(freight) == [f"{at(freight / 'game.yaml', 'warp')}: the card with action.id 'warp' is missing"
                                 " from deck 'cards' (expected 1)"]


def test_the_docs_load_error_is_the_real_one(freight, cli):
    edit_file(freight / "game.yaml", "key: [suit.id, value]", "key: [suit, value]")
    result = cli("validate", freight)
    assert result.exit_code == 1
    line = result.stderr.strip().replace(display_path(freight), "docs/examples/star-freight")
    assert len(line.splitlines()) == 1
    page = (DOCS / "validator" / "deck-expectations.md").read_text(encoding="utf-8")
    assert f"```text\n{line}\n```" in page, line
