"""`new_row_per: card`: a deck whose card entries each start a new row on the imposed
sheets (e.g. each colour of tokens on rows of its own), for any game: the row
arithmetic, the data check, and a built kit whose manifest, duplex backs and
`cardgen validate --kit` agree."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from cardgen.impose.grid import paginate_rows
from cardgen.load.game import load_game
from tests.conftest import edit_file, game_label


# --------------------------------------------------------------------------- the arithmetic
def test_each_group_starts_a_row_and_long_groups_fill_whole_rows():
    # 3 columns, 4 rows: 2 items | 4 items (a row and one) | 1 item
    (sheet,) = paginate_rows([2, 4, 1], 3, 4)
    assert sheet == [(0, 0), (1, 1), (2, 3), (3, 4), (4, 5), (5, 6), (6, 9)]


def test_a_group_that_does_not_fit_the_rows_left_starts_the_next_sheet():
    # 2 × 2 sheets: the second group needs both rows of a sheet, only one is left
    assert paginate_rows([1, 3], 2, 2) == [[(0, 0)], [(1, 0), (2, 1), (3, 2)]]
    # a group larger than a whole sheet flows on from the rows left
    assert paginate_rows([1, 5], 2, 2) == [[(0, 0), (1, 2), (2, 3)], [(3, 0), (4, 1), (5, 2)]]
    # the last row of a sheet taken: the next group starts the next sheet
    assert paginate_rows([2, 2, 1], 2, 2) == [[(0, 0), (1, 1), (2, 2), (3, 3)], [(4, 0)]]


@pytest.mark.parametrize("groups,cols,rows", [([20, 20, 20, 20], 9, 13), ([20, 20, 20, 20], 9, 9), ([0, 5, 0, 7], 3, 2),
                                              ([1] * 10, 4, 3), ([30], 4, 3)])
def test_every_item_once_every_slot_on_its_sheet_once_and_groups_never_share_a_row(groups, cols, rows):
    sheets = paginate_rows(groups, cols, rows)
    items = [i for sheet in sheets for i, _ in sheet]
    assert items == list(range(sum(groups)))
    group_of = [g for g, n in enumerate(groups) for _ in range(n)]
    for sheet in sheets:
        slots = [j for _, j in sheet]
        assert len(set(slots)) == len(slots) and all(0 <= j < cols * rows for j in slots)
        by_row = defaultdict(set)
        for i, j in sheet:
            by_row[j // cols].add(group_of[i])
        assert all(len(g) == 1 for g in by_row.values()), by_row


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        paginate_rows([1], 0, 3)
    with pytest.raises(ValueError):
        paginate_rows([-1], 3, 3)


# --------------------------------------------------------------------------- a user's game
def rows_game(game_copy, value: str = "card"):
    """The no-rules scenario game (63 × 88 cards, 3 × 3 on A4) with three cards of two
    copies each and two jokers, one card entry a row."""
    folder = game_copy("validate_norules")
    edit_file(folder / "game.yaml", "    back: back.yaml.j2\n", f"    back: back.yaml.j2\n    new_row_per: {value}\n")
    edit_file(folder / "game.yaml", "      - id: \"card-{n}\"\n", "      - id: \"card-{n}\"\n        quantity: 2\n")
    return folder


def test_the_option_is_read_and_defaults_to_none(game_copy, scenario):
    assert load_game(scenario("validate_norules")).component("cards").new_row_per is None
    assert load_game(rows_game(game_copy)).component("cards").new_row_per == "card"


def test_a_bad_value_is_a_one_line_error_at_its_line(game_copy, cli):
    folder = rows_game(game_copy, "colour")
    r = cli("build", folder, "--out", folder / "out")
    assert r.exit_code == 1
    line = next(n for n, t in enumerate((folder / "game.yaml").read_text().splitlines(), 1) if "new_row_per" in t)
    assert r.stderr.strip().splitlines() == [
        f"error: {game_label(folder)}:{line}:18: 'new_row_per' in component 'cards' must be 'card' (each card "
        f"entry starts a new row), found str 'colour'"]
    assert "Traceback" not in r.output


def test_a_built_kit_breaks_rows_where_the_card_changes_with_backs_mirrored(game_copy, cli, tmp_path):
    folder = rows_game(game_copy)
    out = tmp_path / "out"
    r = cli("build", folder, "--lang", "en", "--paper", "a4", "--out", out, "--jobs", "1")
    assert r.exit_code == 0, r.output
    kit = out / "validate-norules"
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = [f for f in manifest["files"] if f["kind"] == "cards"]
    fronts = [p for p in entry["pages"] if p["side"] == "front"]
    assert len(fronts) == 2  # card-1, card-2, card-3 fill the three rows of sheet 1; the jokers go on sheet 2
    rows = [{(it["row"], it["col"]): it["card"] for it in p["items"]} for p in fronts]
    assert rows[0] == {(0, 0): "card-1", (0, 1): "card-1", (1, 0): "card-2", (1, 1): "card-2",
                       (2, 0): "card-3", (2, 1): "card-3"}
    assert rows[1] == {(0, 0): "joker", (0, 1): "joker"}
    # positions are those of the slots named: the row's y, the column's x
    first = fronts[0]["items"]
    assert len({it["x"] for it in first if it["col"] == 0}) == 1
    assert all(len({it["y"] for it in first if it["row"] == row}) == 1 for row in range(3))
    assert first[2]["y"] - first[0]["y"] == pytest.approx(88)  # butted rows: one card height apart
    # each back at the long-edge mirror of its front (validate --kit checks every one)
    backs = {(it["card"], it["copy"]): it for p in entry["pages"] if p["side"] == "back" for it in p["items"]}
    for it in first:
        b = backs[(it["card"], it["copy"])]
        assert (b["x"], b["y"], b["slot"]) == (pytest.approx(210 - it["x"] - 63), it["y"], it["slot"])
    r = cli("validate", folder, "--kit", kit, "--lang", "en")
    assert r.exit_code == 0, r.stdout
    assert "every front has its back at the mirrored place" in r.stdout


def test_without_the_option_the_sheets_fill_slot_after_slot(game_copy, scenario, cli, tmp_path):
    folder = rows_game(game_copy)
    edit_file(folder / "game.yaml", "    new_row_per: card\n", "")
    out = tmp_path / "out"
    assert cli("build", folder, "--lang", "en", "--paper", "a4", "--out", out, "--jobs", "1").exit_code == 0
    manifest = json.loads((out / "validate-norules" / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = [f for f in manifest["files"] if f["kind"] == "cards"]
    (front,) = [p for p in entry["pages"] if p["side"] == "front"]
    assert [it["slot"] for it in front["items"]] == list(range(8))


def test_gutterfold_and_short_edge_kits_keep_the_rows_and_pass_the_kit_check(game_copy, cli, tmp_path):
    folder = rows_game(game_copy)
    for args in (["--layout", "gutterfold"], ["--duplex", "short"]):
        out = tmp_path / args[1]
        r = cli("build", folder, "--lang", "en", "--paper", "letter", "--out", out, "--jobs", "1", *args)
        assert r.exit_code == 0, r.output
        kit = out / "validate-norules"
        manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
        (entry,) = [f for f in manifest["files"] if f["kind"] == "cards"]
        for page in entry["pages"]:
            rows = defaultdict(set)
            for it in page["items"]:
                rows[(it["side"], it["row"])].add(it["card"])
            assert all(len(cards) == 1 for cards in rows.values()), (args, rows)
        r = cli("validate", folder, "--kit", kit, "--lang", "en")
        assert r.exit_code == 0, (args, r.stdout)
