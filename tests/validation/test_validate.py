"""``cardgen validate``: deck completeness, the generic runner and its reports, the
replay of a failing seed, the CLI, and the check of a built kit."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pypdf
import pytest
import yaml
from conftest import edit_file, problems_of, static_of
from kitchecks import HAPY_EN_A4

from cardgen.base.errors import CardgenError, display_path
from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.rules.hapy.checker import HapyChecker
from cardgen.rules.hapy.spec import SETUPS
from cardgen.rules.hapy.state import HapyState
from cardgen.validation.kitcheck import check_kit
from cardgen.validation.runner import ValidateOptions, validate
from cardgen.validation.simulate import distribution, percentile, run_config, wilson

FAST = ("--games", "2", "--setup", "pyramid", "--players", "2")

GODS_CARDS = '''    cards:
      - id: "{family.id}-{number}"
        for_each:
          family: families
          number: {range: [1, 6]}
'''


def explicit_gods(folder: Path, edit) -> None:
    """Rewrite the God deck as one entry per card, then let ``edit`` change the list of
    (id, family, number, quantity) before it is written back."""
    game_file = folder / "game.yaml"
    families = {f["id"]: f for f in yaml.safe_load(game_file.read_text(encoding="utf-8"))["data"]["families"]}
    entries = [[f"{fid}-{n}", fid, n, 1] for fid in families for n in range(1, 7)]
    edit(entries)
    lines = ["    cards:"]
    for cid, fid, n, qty in entries:
        fam = {k: families[fid][k] for k in ("id", "god", "colour", "symbol") if k in families[fid]}
        fam_text = ", ".join(f"{k}: {json.dumps(v)}" for k, v in fam.items())
        lines.append(f"      - {{id: {json.dumps(cid)}, quantity: {qty},"
                     f" fields: {{family: {{{fam_text}}}, number: {n}}}}}")
    edit_file(game_file, GODS_CARDS, "\n".join(lines) + "\n")


# --------------------------------------------------------------------------- 1. deck completeness
def test_the_shipped_deck_meets_the_rules():
    res = static_of(load_game("hapy").root)
    assert res.ok, res.problems
    text = "\n".join(res.passed)
    assert "36 cards in deck 'gods' = 6 families × numbers 1–6" in text
    assert "layout 'pyramid': 36 places = rows of 1+2+3+4+5+6+7+8" in text
    for name in SETUPS:
        assert f"layout '{name}'" in text


def test_a_deleted_card_is_named(hapy_copy):
    explicit_gods(hapy_copy, lambda e: e.remove(["jackal-3", "jackal", 3, 1]))
    problems = problems_of(hapy_copy)
    assert len(problems) == 1, problems
    assert re.match(r".*game\.yaml:\d+:\d+: card jackal-3 is missing from deck 'gods': the rules need 6 families"
                    r" × numbers 1–6, each once$", problems[0]), problems[0]


def test_a_card_printed_twice_is_a_duplicate(hapy_copy):
    explicit_gods(hapy_copy, lambda e: e[7].__setitem__(3, 2))  # cat-2, quantity 2
    problems = problems_of(hapy_copy)
    assert len(problems) == 1 and "card 'cat-2' is printed 2 times (quantity 2)" in problems[0]
    assert re.search(r"game\.yaml:\d+:\d+: ", problems[0]), "the message points at the card's line"


def test_two_cards_with_the_same_family_and_number_are_a_duplicate(hapy_copy):
    explicit_gods(hapy_copy, lambda e: e.append(["cat-2-bis", "cat", 2, 1]))
    problems = problems_of(hapy_copy)
    assert len(problems) == 1 and "card cat-2 is in deck 'gods' 2 times (cards 'cat-2', 'cat-2-bis')" in problems[0]


def test_a_seventh_card_in_a_family_is_named(hapy_copy):
    explicit_gods(hapy_copy, lambda e: e.append(["cat-7", "cat", 7, 1]))
    problems = problems_of(hapy_copy)
    assert len(problems) == 1
    assert "card 'cat-7' (cat-7) is not one the rules use: they need 6 families × numbers 1–6" in problems[0]


def test_a_family_numbered_1_to_7_names_every_extra_card(hapy_copy):
    edit_file(hapy_copy / "game.yaml", "number: {range: [1, 6]}", "number: {range: [1, 7]}")
    problems = problems_of(hapy_copy)
    assert sorted(re.findall(r"card '(\w+-7)'", "\n".join(problems))) == sorted(
        f"{f}-7" for f in ("jackal", "cat", "crocodile", "falcon", "hippopotamus", "bull"))


def test_a_seventh_family_is_named(hapy_copy):
    edit_file(hapy_copy / "game.yaml", "  mummy_glyph:",
              '    - {id: ibis, god: thoth, colour: sand, symbol: star, glyph: "x", gardiner: G26}\n  mummy_glyph:')
    res = static_of(hapy_copy)
    text = "\n".join(str(p) for p in res.problems)
    assert "the rules need 6 families; deck 'gods' has 7 (jackal, cat, crocodile, falcon, hippopotamus, bull, ibis)" \
        in text
    assert "family 'ibis' has no god name in 'en' (string 'family.ibis.god')" in text
    assert not res.deck_ok, "the games are not played with a deck the rules do not describe"


def test_a_family_without_its_symbol_is_named(hapy_copy):
    edit_file(hapy_copy / "game.yaml", "colour: gold, symbol: round,", "colour: gold,")
    problems = problems_of(hapy_copy)
    assert any("family 'cat' has no accessibility symbol ('symbol')" in p for p in problems), problems
    line = next(p for p in problems if "family 'cat'" in p)
    text = (hapy_copy / "game.yaml").read_text(encoding="utf-8").splitlines()
    number = int(line.split(":")[1])
    assert "id: cat," in text[number - 1], "the message points at the family's line"


def test_a_family_without_a_name_in_every_language_is_named(hapy_copy):
    for lang in ("en", "fr", "nl", "de"):
        path = hapy_copy / "locales" / f"{lang}.yaml"
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"(\n  bull: \{)god: [^,]+, ", r"\1", text), encoding="utf-8")
    problems = problems_of(hapy_copy)
    assert sorted(p.split(": ", 1)[1] for p in problems) == sorted(
        f"family 'bull' has no god name in '{lang}' (string 'family.bull.god')" for lang in ("en", "fr", "nl", "de"))


def test_two_families_sharing_a_symbol_are_named(hapy_copy):
    edit_file(hapy_copy / "game.yaml", "colour: lapis, symbol: moon,", "colour: lapis, symbol: cross,")
    problems = problems_of(hapy_copy)
    assert any("families 'jackal' and 'falcon' share the symbol 'cross'" in p for p in problems), problems


def test_a_layout_that_misses_a_card_is_named(hapy_copy):
    edit_file(hapy_copy / "layouts.yaml", "x: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5]}",
              "x: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]}")
    res = static_of(hapy_copy)
    text = "\n".join(str(p) for p in res.problems)
    assert "layout 'pyramid' has 35 places for 36 cards" in text
    assert "layout 'pyramid': rows of 1+2+3+4+5+6+6+8; the rules lay 8 rows of 1 to 8 cards" in text
    assert res.bad_setups == {"pyramid"} and res.deck_ok


def test_a_layout_with_the_wrong_number_of_fixed_places_is_named(hapy_copy):
    edit_file(hapy_copy / "layouts.yaml", "x: [3, 4, 5, 6, 7, 8], need: {number: 1}",
              "x: [3, 4, 5, 6, 7], need: {number: 1}")
    text = "\n".join(problems_of(hapy_copy))
    assert "layout 'mastaba' has 35 places for 36 cards" in text
    assert "layout 'mastaba' has 5 places for the cards with number 1; the deck has 6 such cards" in text


def test_a_bad_layout_value_points_at_its_line(hapy_copy):
    edit_file(hapy_copy / "layouts.yaml", "- {side: mummy, y: 0.5, x: [3, 4]}", "- {side: sideways, y: 0.5, x: [3, 4]}")
    problems = problems_of(hapy_copy)
    assert len(problems) == 1
    assert re.match(r".*layouts\.yaml:\d+:\d+: layout 'pyramid': row 2: 'side' must be god or mummy, found 'sideways'$",
                    problems[0])


def test_deck_problems_fail_the_command_and_skip_the_games(hapy_copy, cli):
    explicit_gods(hapy_copy, lambda e: e.remove(["bull-6", "bull", 6, 1]))
    r = cli("validate", hapy_copy, *FAST)
    assert r.exit_code == 1
    assert "✗" in r.stdout and "card bull-6 is missing from deck 'gods'" in r.stdout
    assert "Play: FAILED — the deck does not match the rules" in r.stdout
    assert "Result: FAILED" in r.stdout


# --------------------------------------------------------------------------- 2. the runner
def test_wilson_interval_and_percentiles():
    lo, hi = wilson(50, 100)
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0) and wilson(0, 0) == (None, None)
    assert percentile([1, 2, 3, 4], 50) == 2.5 and percentile(list(range(1, 101)), 95) == 95


def test_report_figures_per_setup_players_and_kind():
    game = load_game("hapy")
    report = validate(game, ValidateOptions(games=20, setups=("pyramid", "giza"), players=(2, 4)))
    assert report["ok"] and report["static"]["ok"] and report["simulation"]["ok"]
    configs = report["simulation"]["configs"]
    assert [(c["setup"], c["players"], c["agents"]) for c in configs] == [
        (s, n, k) for s in ("pyramid", "giza") for n in (2, 4) for k in ("random", "greedy")]
    for c in configs:
        assert c["games"] == 20 and c["completed"] == 20 and c["completion_rate"] == 1.0
        assert c["length"]["median"] > 10 and c["length"]["p95"] >= c["length"]["median"]
        assert len(c["seats"]) == c["players"] and sum(s["wins"] for s in c["seats"]) == 20
        for s in c["seats"]:
            assert 0 <= s["ci95"][0] <= s["rate"] <= s["ci95"][1] <= 1


def test_distribution_of_a_per_game_figure():
    d = distribution([3, 1, 2, 2, 5, 4, 2, 3, 1, 7])
    assert (d["n"], d["mean"], d["min"], d["median"], d["max"]) == (10, 3.0, 1, 2.5, 7)
    assert d["p5"] == 1 and d["p95"] == 7 and d["sd"] == pytest.approx(1.886, abs=1e-3)
    # few whole numbers: one bin per value, each [low, high, count]
    assert d["histogram"] == [[1, 1, 2], [2, 2, 3], [3, 3, 2], [4, 4, 1], [5, 5, 1], [6, 6, 0], [7, 7, 1]]
    wide = distribution([float(x) for x in range(100)])
    assert len(wide["histogram"]) == 10 and sum(c for _, _, c in wide["histogram"]) == 100
    assert distribution([]) == {"n": 0}


def test_per_game_figures_reach_the_report_and_the_json(cli, tmp_path):
    """An engine's own figures (Egypt: tribute, control changes…) are pooled per configuration."""
    out = tmp_path / "r.json"
    r = cli("validate", "egypt", "--games", "12", "--players", "3", "--json", out)
    assert r.exit_code == 0, r.stdout + r.stderr
    configs = json.loads(out.read_text(encoding="utf-8"))["simulation"]["configs"]
    for c in configs:
        figs = c["figures"]
        assert figs["tribute"]["n"] == 3 * 12 and figs["control_changes"]["n"] == 12
        assert figs["winning_tribute"]["mean"] >= figs["tribute"]["mean"]
        assert sum(k for _, _, k in figs["control_changes"]["histogram"]) == 12
    text = cli("validate", "egypt", "--games", "12", "--players", "3").stdout
    assert "Per game, mean [5th–95th percentile]" in text and "control changes" in text


class LosesSixes(HapyState):
    """A rule bug: a requested number-6 card leaves the giver but never reaches the taker."""

    __slots__ = ()

    def _transfer(self, card, giver, taker):
        if card % 6 == 5:
            self.hand[giver] &= ~(1 << card)
            self.hand_n[giver] -= 1
            return
        super()._transfer(card, giver, taker)


def test_an_injected_rule_bug_is_reported_with_seed_and_step(monkeypatch):
    rules = rules_for("hapy")
    gd = rules.load(load_game("hapy"), 2, "pyramid")
    monkeypatch.setattr(gd, "new_initial_state", lambda: LosesSixes(gd))
    res = run_config(gd, rules.agents["greedy"], "greedy", True, 30, 100)
    assert res.failure_count > 0 and not res.ok
    first = res.failures[0]
    assert "was asked for a card it holds but seat" in first.message and first.steps > 36
    # the same seed fails at the same step, every time
    from cardgen.validation.simulate import play_game

    again = play_game(gd, rules.agents["greedy"], first.seed)
    assert (again.status, again.steps, again.message) == ("failure", first.steps, first.message)


def test_a_failing_seed_is_named_and_replayed_by_the_cli(monkeypatch, cli, tmp_path):
    monkeypatch.setattr(HapyState, "_transfer", LosesSixes._transfer)
    out = tmp_path / "report.json"
    r = cli("validate", "hapy", "--games", "20", "--setup", "pyramid", "--players", "3", "--agents", "greedy",
            "--json", out)
    assert r.exit_code == 1
    report = json.loads(out.read_text(encoding="utf-8"))
    fail = report["simulation"]["failures"][0]
    assert fail["setup"] == "pyramid" and fail["players"] == 3 and fail["agents"] == "greedy"
    assert fail["replay"] == (f"cardgen validate hapy --seed {fail['seed']} --games 1 --players 3 --setup pyramid"
                              " --agents greedy --trace")
    assert f"seed {fail['seed']}, step {fail['step']}" in r.stdout and fail["replay"] in r.stdout
    r2 = cli(*fail["replay"].split()[1:])
    assert r2.exit_code == 1
    assert f"seed {fail['seed']}, step {fail['step']} (turn {fail['turn'] + 1}): {fail['message']}" in r2.stdout
    trace = [line for line in r2.stderr.splitlines() if line.startswith("step") and "→" not in line]
    assert len(trace) == fail["step"] + 1, "the trace runs up to the failing step"


def test_unfinished_games_are_counted_and_listed_with_their_seeds(monkeypatch, cli):
    rules = rules_for("hapy")
    load = rules.load
    monkeypatch.setattr(rules, "load", lambda game, n, setup: load(game, n, setup, max_turns=8))
    r = cli("validate", "hapy", "--games", "4", "--setup", "pyramid", "--players", "2", "--json", "-")
    report = json.loads(r.stdout)
    by_kind = {c["agents"]: c for c in report["simulation"]["configs"]}
    assert by_kind["random"]["completion_rate"] == 0 and by_kind["random"]["nonterminating"]["seeds"] == [1, 2, 3, 4]
    assert by_kind["random"]["nonterminating"]["counts_as_failure"] is False
    assert by_kind["greedy"]["nonterminating"]["counts_as_failure"] is True and not by_kind["greedy"]["ok"]
    assert r.exit_code == 1
    r = cli("validate", "hapy", "--games", "4", "--setup", "pyramid", "--players", "2", "--agents", "random")
    assert r.exit_code == 0, "random players may pass forever: counted, not failed"
    assert "! pyramid, 2 players, random: seed 1, unfinished: no end within 60 steps" in r.stdout
    assert "cardgen validate hapy --seed 1 --games 1 --players 2 --setup pyramid --agents random --trace" in r.stdout


# --------------------------------------------------------------------------- the command line
def test_cli_quick_pass_exits_0_with_a_readable_report(cli):
    r = cli("validate", "hapy", "--games", "5", "--players", "2,3")
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "Deck and setups: OK" in r.stdout and "Play: OK — 120 games" in r.stdout  # 6 setups × 2 × 2 × 5
    assert "Result: OK — everything holds." in r.stdout
    assert "playing pyramid" in r.stderr, "progress goes to standard error"


def test_cli_json_holds_every_figure(cli, tmp_path):
    out = tmp_path / "r.json"
    r = cli("validate", "hapy", "--games", "3", "--setup", "tomb", "--players", "4", "--json", out)
    assert r.exit_code == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["ok"] is True and report["game"] == "hapy" and report["rules"] == "cardgen.rules.hapy"
    assert report["options"]["games"] == 3 and report["simulation"]["seeds"] == [1, 3]
    c = report["simulation"]["configs"][0]
    assert set(c) >= {"setup", "players", "agents", "games", "completed", "completion_rate", "length", "seats",
                      "nonterminating", "failures", "games_per_s"}
    r = cli("validate", "hapy", *FAST, "--json", "-")
    assert json.loads(r.stdout)["simulation"]["games"] == 4


@pytest.mark.parametrize("args", [
    ("--players", "2,x"), ("--players", "5"), ("--games", "0"), ("--setup", "moon"), ("--agents", "smart"),
    ("--lang", "xx"), ("--seed", "-1"),
])
def test_cli_usage_errors_exit_2(cli, args):
    r = cli("validate", "hapy", *args)
    assert r.exit_code == 2, (args, r.stdout, r.stderr)


def test_cli_bad_input_is_one_line_and_exit_1(cli, tmp_path, hapy_copy):
    r = cli("validate", "no-such-game")
    assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("error: unknown game 'no-such-game'")
    r = cli("validate", "hapy", "--kit", tmp_path / "nowhere")
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == [f"error: kit folder '{tmp_path / 'nowhere'}' not found"]
    edit_file(hapy_copy / "layouts.yaml", "  pyramid:\n", "  pyramid: [\n")
    r = cli("validate", hapy_copy)
    assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1 and "layouts.yaml:" in r.stderr
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_a_game_without_rules_gets_the_static_and_kit_checks(cli, scenario, tmp_path):
    folder = scenario("validate_norules")
    r = cli("validate", folder)
    assert r.exit_code == 0
    assert "note: no rules module for game 'validate-norules'" in r.stdout
    assert "Play: not run — no rules module" in r.stdout
    assert cli("build", folder, "--lang", "en", "--paper", "a4", "--out", tmp_path).exit_code == 0
    r = cli("validate", folder, "--kit", tmp_path / "validate-norules", "--lang", "en")
    assert r.exit_code == 0, r.stdout
    assert "Kit " in r.stdout and "✓ every card printed as many times as its deck says" in r.stdout


# --------------------------------------------------------------------------- 3. the built kit
@pytest.fixture(scope="module")
def built_kit(shared_kit) -> Path:
    return shared_kit(*HAPY_EN_A4).folder


@pytest.fixture
def kit_copy(built_kit, tmp_path) -> Path:
    dst = tmp_path / "hapy"
    shutil.copytree(built_kit, dst)
    return dst


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def save(folder: Path, doc: dict) -> None:
    (folder / "manifest.json").write_text(json.dumps(doc), encoding="utf-8")


def cards_file(doc: dict) -> dict:
    return next(f for f in doc["files"] if f["kind"] == "cards")


def test_kit_a_real_build_passes(cli, built_kit):
    r = cli("validate", "hapy", *FAST, "--kit", built_kit, "--lang", "en")
    assert r.exit_code == 0, r.stdout
    assert "every front has its back at the mirrored place" in r.stdout


def test_kit_every_language_must_be_present(built_kit):
    res = check_kit(load_game("hapy"), built_kit)
    assert not res.ok
    assert any("language 'fr' has no cards file for a4" in p for p in res.problems)
    assert any("language 'nl' has no print-shop file" in p for p in res.problems)


def test_kit_a_card_removed_from_the_manifest_is_named(kit_copy):
    doc = manifest(kit_copy)
    page = cards_file(doc)["pages"][0]
    removed = page["items"].pop(2)
    save(kit_copy, doc)
    res = check_kit(load_game("hapy"), kit_copy, ("en",))
    text = "\n".join(res.problems)
    assert f"card '{removed['card']}' of 'gods' is printed 0 time(s), the deck says 1" in text
    assert f"prints the back of '{removed['card']}' (copy 1) with no front on page 1" in text


def test_kit_a_moved_back_is_named(kit_copy):
    doc = manifest(kit_copy)
    back = cards_file(doc)["pages"][1]
    assert back["side"] == "back"
    item = back["items"][0]
    item["x"] += 5
    save(kit_copy, doc)
    res = check_kit(load_game("hapy"), kit_copy, ("en",))
    assert len(res.problems) == 1, res.problems
    assert f"page 2: the back of '{item['card']}' (copy 1) is at x {item['x']:g}" in res.problems[0]
    assert "a long-edge flip needs x" in res.problems[0]


def test_kit_a_page_count_that_differs_from_the_pdf_is_named(kit_copy):
    doc = manifest(kit_copy)
    sheets = next(f for f in doc["files"] if f["kind"] == "sheets")
    sheets["pages"].pop()
    save(kit_copy, doc)
    res = check_kit(load_game("hapy"), kit_copy, ("en",))
    assert any(f"{sheets['file']}: the PDF has {len(sheets['pages']) + 1} page(s), the manifest lists"
               f" {len(sheets['pages'])}" in p for p in res.problems), res.problems


def test_kit_a_missing_file_is_named(kit_copy):
    (kit_copy / "hapy-en-printshop-63x88mm.pdf").unlink()
    res = check_kit(load_game("hapy"), kit_copy, ("en",))
    assert any("hapy-en-printshop-63x88mm.pdf: listed in the manifest but missing from the kit" in p for p in res.problems)


def shop_file(doc: dict) -> dict:
    return next(f for f in doc["files"] if f["kind"] == "printshop")


def test_kit_a_print_shop_file_out_of_front_back_order_is_named(kit_copy):
    """A shop imposes odd page = front, even page = back: a back on an odd page is wrong."""
    doc = manifest(kit_copy)
    pages = shop_file(doc)["pages"]
    pages[0], pages[1] = dict(pages[1], page=1), dict(pages[0], page=2)
    save(kit_copy, doc)
    res = check_kit(load_game("hapy"), kit_copy, ("en",))
    assert any("hapy-en-printshop-63x88mm.pdf: page 1 is a back; in a two-sided print-shop file it must be a front"
               in p for p in res.problems), res.problems


def test_kit_a_print_shop_file_mixing_trim_sizes_is_named(kit_copy):
    path = kit_copy / "hapy-en-printshop-63x88mm.pdf"
    pdf = pypdf.PdfWriter(clone_from=path)
    box = pdf.pages[2].trimbox
    pdf.pages[2].trimbox = pypdf.generic.RectangleObject((box.left, box.bottom, box.right - 10, box.top))
    pdf.write(path)
    res = check_kit(load_game("hapy"), kit_copy, ("en",))
    assert res.problems == [f"{display_path(path)}: page 3's TrimBox is 168.6×249.4 pt, the file's trim 178.6×249.4"
                            " pt: one print-shop file holds one trim size"]


def test_kit_print_shop_details_that_disagree_with_the_deck_are_named(kit_copy):
    doc = manifest(kit_copy)
    shop_file(doc)["printshop"].update(trim=[63, 89], two_sided=False, page_count=3)
    save(kit_copy, doc)
    text = "\n".join(check_kit(load_game("hapy"), kit_copy, ("en",)).problems)
    assert "deck 'gods' is trimmed 63×88 mm, the file 63×89 mm" in text
    assert "the manifest gives 3 page(s) and lists 72" in text
    assert "page 2 is a back; in a one-sided print-shop file it must be a front" in text
    assert "page 1's TrimBox is 178.6×249.4 pt, the file's trim 178.6×252.3 pt" in text


def test_kit_a_print_shop_deck_in_no_print_shop_file_is_named(kit_copy):
    doc = manifest(kit_copy)
    shop_file(doc)["printshop"]["components"] = []
    save(kit_copy, doc)
    text = "\n".join(check_kit(load_game("hapy"), kit_copy, ("en",)).problems)
    assert "language 'en' has no print-shop file for deck 'gods'" in text
    assert "page 1 prints 'gods', which the file does not list" in text


@pytest.mark.parametrize("damage", ["truncated", "not a pdf"])
def test_kit_an_unreadable_pdf_is_named(kit_copy, cli, damage):
    pdf = kit_copy / "hapy-en-a4-cards.pdf"
    data = pdf.read_bytes()
    pdf.write_bytes(data[: len(data) // 3] if damage == "truncated" else b"hello, not a PDF\n")
    res = check_kit(load_game("hapy"), kit_copy, ("en",))
    assert any("hapy-en-a4-cards.pdf: cannot be read as a PDF (" in p for p in res.problems), \
        res.problems
    r = cli("validate", "hapy", *FAST, "--kit", kit_copy, "--lang", "en")
    assert r.exit_code == 1 and "Traceback" not in r.stdout + r.stderr


def test_kit_a_broken_manifest_is_one_line(kit_copy, cli):
    (kit_copy / "manifest.json").write_text('{"game": "hapy",\n "files": [}', encoding="utf-8")
    with pytest.raises(CardgenError, match="not valid JSON"):
        check_kit(load_game("hapy"), kit_copy)
    r = cli("validate", "hapy", *FAST, "--kit", kit_copy)
    assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1
    assert re.search(r"manifest\.json:2:\d+: not valid JSON", r.stderr)


def test_kit_a_manifest_key_of_the_wrong_type_is_one_line_naming_it(kit_copy, cli):
    doc = manifest(kit_copy)
    index, entry = next((i, f) for i, f in enumerate(doc["files"]) if f["kind"] == "cards")
    entry["pages"][1]["items"][2]["y"] = "12"
    save(kit_copy, doc)
    r = cli("validate", "hapy", *FAST, "--kit", kit_copy, "--lang", "en")
    assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert f"manifest.json: files[{index}] ('{entry['file']}'), page 2, item 3: 'y' must be a number, found text" \
           f" '12'" in r.stderr


def test_kit_an_entry_the_check_does_not_know_is_named_and_the_rest_checked(kit_copy):
    doc = manifest(kit_copy)
    index, entry = next((i, f) for i, f in enumerate(doc["files"]) if f["kind"] == "cards")
    entry["duplex"] = "sideways"
    doc["files"][index + 1]["paper"] = "a5"
    save(kit_copy, doc)
    res = check_kit(load_game("hapy"), kit_copy, ("en",))
    label = display_path(kit_copy / "manifest.json")
    assert f"{label}: files[{index}]: '{entry['file']}': duplex must be 'long' or 'short', found 'sideways'" \
        in res.problems
    assert f"{label}: files[{index + 1}]: '{doc['files'][index + 1]['file']}': unknown paper 'a5'" in res.problems
    assert [f["file"] for f in res.files] == [f["file"] for i, f in enumerate(doc["files"]) if i not in
                                              (index, index + 1)]


class WrongNextPlayer(HapyState):
    """An engine bug in a fast path: apply_action returns the wrong next player."""

    __slots__ = ()

    def apply_action(self, action):
        p = super().apply_action(action)
        return (p + 1) % self.g.num_players if p >= 0 else p


def test_a_wrong_next_player_from_apply_action_is_caught(monkeypatch):
    rules = rules_for("hapy")
    gd = rules.load(load_game("hapy"), 3, "pyramid")
    monkeypatch.setattr(gd, "new_initial_state", lambda: WrongNextPlayer(gd))
    from cardgen.validation.simulate import play_game

    out = play_game(gd, rules.agents["random"], 1)
    assert out.status == "failure" and out.steps < 36 + 16, "found by the checker or at the next full step"
    # a wrong player that slips past the checker is found at the next full check step
    monkeypatch.setattr(HapyChecker, "before", lambda self, s, player, action: None)
    out = play_game(gd, rules.agents["random"], 1)
    assert out.status == "failure" and "is to move" in out.message and out.steps <= 48


def test_the_quick_pass_is_sized_by_the_game(cli):
    """A game whose simulation is slow (Horus) declares a smaller default pass; --games overrides it."""
    r = cli("validate", "horus", "--players", "2", "--agents", "random", "--json", "-")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["options"]["games"] == rules_for("horus").quick_games < 100
    r = cli("validate", "hapy", "--players", "2", "--setup", "pyramid", "--agents", "random", "--json", "-")
    assert json.loads(r.stdout)["options"]["games"] == 100
    r = cli("validate", "horus", "--players", "2", "--agents", "random", "--games", "3", "--json", "-")
    assert json.loads(r.stdout)["options"]["games"] == 3


# --------------------------------------------------------------------------- seat balance
def _config(wins: list[int], completed: int, draws: int = 0) -> dict:
    from cardgen.validation.simulate import ConfigResult

    res = ConfigResult("standard", len(wins), "greedy", True, games=completed, completed=completed,
                       wins=list(wins), draws=draws)
    return res.figures()


def test_a_seat_that_wins_too_often_is_marked_beyond_doubt():
    from cardgen.validation.simulate import mark_seat_balance

    c = _config([400, 200, 200, 200], 1000)
    assert c["fair_share"] == 0.25
    judged = mark_seat_balance([c])
    assert judged["seats_judged"] == 4 and judged["confidence_all"] == 0.95
    assert [s["vs_fair_share"] for s in c["seats"]] == ["above", "below", "below", "below"]
    # draws are nobody's win: the fair share is what the seats won between them, split evenly
    d = _config([300, 250, 250], 1000, draws=200)
    mark_seat_balance([d])
    assert d["fair_share"] == pytest.approx(0.8 / 3) and [s["vs_fair_share"] for s in d["seats"]] == ["fair"] * 3


def test_seat_balance_allows_for_the_number_of_seats_judged():
    """28 % against a fair 25 % over 1,000 games stands out at 95 % for one seat alone,
    not once four seats are judged together; 60 fair seats are all judged fair."""
    from cardgen.validation.simulate import mark_seat_balance, wilson

    one = _config([280, 240, 240, 240], 1000)
    assert wilson(280, 1000)[0] > 0.25  # at 95 % on its own: "above"
    mark_seat_balance([one])
    assert one["seats"][0]["vs_fair_share"] == "fair"  # four seats judged: no longer beyond doubt
    many = [_config([250, 250, 250, 250], 1000) for _ in range(15)]
    mark_seat_balance(many)
    assert all(s["vs_fair_share"] == "fair" for c in many for s in c["seats"])


def test_the_report_names_unbalanced_seats():
    from cardgen.validation.report import render

    report = validate(load_game("horus"), ValidateOptions(games=400, players=(4,)))
    marked = [(c["agents"], s["seat"]) for c in report["simulation"]["configs"] for s in c["seats"]
              if s["vs_fair_share"] == "above"]
    assert ("greedy", 1) in marked  # the game ends mid-round: the first seat has had one more turn
    assert report["simulation"]["seat_balance"]["seats_judged"] == 8
    text = render(report)
    assert "so that all 8 together are wrong at most 5 % of the time" in text
    assert "standard, 4 players, greedy: seat 1 wins" in text
    fair = validate(load_game("hapy"), ValidateOptions(games=30, setups=("pyramid",), players=(2,)))
    assert all(s["vs_fair_share"] == "fair" for c in fair["simulation"]["configs"] for s in c["seats"])
    assert "Seat balance" not in render(fair)


def test_a_layout_is_checked_against_the_cards_the_deck_holds(tmp_path, monkeypatch):
    """A deck of 17 cards (ranks 1 to 5) under rules that lay 20 places: the layout is not
    passed as "each card exactly once" (the deck check names the three missing cards)."""
    import cardgen.rules
    from cardgen.rules.plugins import load_rules_file
    from cardgen.validation.static import check_static

    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    root = Path(__file__).resolve().parents[2]
    folder = tmp_path / "night-sky"
    shutil.copytree(root / "docs" / "examples" / "first-game", folder)
    edit_file(folder / "game.yaml", "rank: {range: [1, 6]}", "rank: {range: [1, 5]}")
    game = load_game(folder)
    rules = load_rules_file(root / "docs" / "examples" / "rules" / "night_sky.py", game.id)
    res = check_static(game, rules.static_spec(game, game.data_marks), game.data_marks)
    assert not any(line.startswith("layout 'standard'") for line in res.passed), res.passed
    assert "standard" in res.bad_setups
    assert sum("is missing from deck 'cards'" in str(p) for p in res.problems) == 3, [str(p) for p in res.problems]


def test_the_chance_test_passes_a_fair_tally_and_fails_a_biased_one():
    """Chi-square's tail at known points, and the verdict: uniform bins pass, bins piled up
    at one end fail, judged at the false-alarm rate split over the tests made."""
    from cardgen.validation.chance import chi2_sf, judge

    assert abs(chi2_sf(16.919, 9) - 0.05) < 1e-3 and abs(chi2_sf(2.088, 9) - 0.99) < 1e-3
    fair = judge([("a", {"deal": [100] * 10}), ("b", {"deal": [103, 97] * 5})])
    assert fair["ok"] and fair["tests"] == 2 and fair["level_each"] == 1e-4 / 2
    biased = judge([("a", {"deal": [300] + [78] * 9})])
    assert not biased["ok"] and biased["failed"][0]["config"] == "a"
