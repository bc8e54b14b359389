"""Hâpy Families where the engine once got the rulebook wrong or left it out: a request
may name any God card (one's own included), the two rulebooks' readings of the request
ban as a named option, and the Giza layout with one design all Mummy side up. Each test
cites the rulebook's section and says the rule in our words."""

from __future__ import annotations

import re

import pytest
from conftest import copy_shipped, edit_file
from test_rules_hapy import card, cards, position, request

from cardgen.load.game import load_game
from cardgen.rules import RuleViolation, rules_for
from cardgen.rules.hapy.codec import EV_REQUEST, PASS
from cardgen.rules.hapy.spec import GIZA_MUMMY


@pytest.fixture(scope="module")
def rules():
    return rules_for("hapy")


@pytest.fixture(scope="module")
def english(rules):
    return rules.load(load_game("hapy"), 4, "pyramid")


@pytest.fixture(scope="module")
def french_folder(tmp_path_factory):
    folder = copy_shipped("hapy", tmp_path_factory.mktemp("fr"))
    edit_file(folder / "game.yaml", "request_ban: previous_player", "request_ban: last_other_request")
    return folder


@pytest.fixture(scope="module")
def french(rules, french_folder):
    return rules.load(load_game(french_folder), 4, "pyramid")


def play(gd, s, checker, action):
    checker.before(s, s.current_player(), action)
    s.apply_action(action)
    checker.after(s, True)


# ------------------------------------------------------------ Requesting a God: any card
def test_a_request_may_name_a_card_in_the_requesters_own_hand(english):
    """Requesting a God: the player names one God card; nothing bars a card of their own
    hand. The request fails (nobody else holds it) and that card becomes the one the next
    player may not name: a bluff and a shield."""
    gd = english
    s = position(gd, {}, [cards(gd, "cat-1", "bull-1"), cards(gd, "cat-2")])
    own = request(gd, 1, "cat-1")
    assert own in s.legal_actions()
    checker = gd.checker()
    play(gd, s, checker, own)  # the checker accepts it
    asked = [e for e in s.events if e[0] == EV_REQUEST][-1]
    assert asked == (EV_REQUEST, 0, 1, card(gd, "cat-1"), 0) and s.hand[0] >> card(gd, "cat-1") & 1
    assert request(gd, 0, "cat-1") not in s.legal_actions()  # seat 2 may not ask seat 1 for it now
    with pytest.raises(RuleViolation, match="previous player requested"):
        checker.before(s, 1, request(gd, 0, "cat-1"))


def test_the_checker_fails_an_engine_that_hides_own_cards_from_the_requests(english, monkeypatch):
    """The old engine left one's own cards out of the requests: the checker's own list of
    the requests the rules allow now differs from it."""
    from cardgen.rules.hapy import state as engine

    s = position(english, {}, [cards(english, "cat-1", "bull-1"), cards(english, "cat-2")])
    honest = s.legal_actions()
    mine = {request(english, t, n) for t in (1, 2, 3) for n in ("cat-1", "bull-1")}
    monkeypatch.setattr(engine.HapyState, "legal_actions", lambda self: [a for a in honest if a not in mine])
    with pytest.raises(RuleViolation, match="does not offer ask seat 2 for cat-1"):
        english.checker().requests_offered(s)


# ------------------------------------------------------------ the ban: EN and FR readings
def test_english_reading_a_pass_lifts_the_ban(english):
    """EN rulebook, Requesting a God (note): the card barred is the one the previous
    player requested; after a pass nothing is barred."""
    gd = english
    s = position(gd, {}, [cards(gd, "cat-1"), cards(gd, "cat-2")])
    checker = gd.checker()
    play(gd, s, checker, request(gd, 2, "jackal-4"))
    play(gd, s, checker, PASS)  # seat 2 passes
    assert request(gd, 0, "jackal-4") in s.legal_actions()
    checker.before(s, 2, request(gd, 0, "jackal-4"))  # allowed


def test_french_reading_the_ban_survives_passes(french):
    """French rulebook, 2) demander une divinité: the card barred is the last one another
    player requested, so a pass leaves it barred."""
    gd = french
    s = position(gd, {}, [cards(gd, "cat-1"), cards(gd, "cat-2")])
    checker = gd.checker()
    play(gd, s, checker, request(gd, 2, "jackal-4"))
    play(gd, s, checker, PASS)
    play(gd, s, checker, PASS)
    assert s.current_player() == 3
    assert request(gd, 0, "jackal-4") not in s.legal_actions()
    with pytest.raises(RuleViolation, match="another player requested last"):
        checker.before(s, 3, request(gd, 0, "jackal-4"))
    play(gd, s, checker, PASS)
    # back to seat 1, who asked for it: the last card *another* player requested is none
    assert s.current_player() == 0 and request(gd, 2, "jackal-4") in s.legal_actions()


def test_the_checker_fails_an_engine_that_follows_the_english_reading_under_the_french(french, monkeypatch):
    from cardgen.rules.hapy import state as engine

    monkeypatch.setattr(engine.HapyState, "_ban_for", lambda self, seat: -1)  # a pass lifts the ban
    gd = french
    s = position(gd, {}, [cards(gd, "cat-1"), cards(gd, "cat-2")])
    checker = gd.checker()
    with pytest.raises(RuleViolation, match="offers ask seat 1 for jackal-4, which the rules forbid"):
        play(gd, s, checker, request(gd, 2, "jackal-4"))  # the engine bans nothing at seat 2's turn


def test_whole_games_under_the_french_reading_pass_every_check(french_folder, cli):
    r = cli("validate", french_folder, "--games", 3, "--jobs", 1, "--setup", "pyramid")
    assert r.exit_code == 0, r.output
    assert "0 rule or invariant failure(s)" in r.stdout


def test_a_wrong_ban_option_is_named_at_its_line(tmp_path, cli):
    folder = copy_shipped("hapy", tmp_path)
    edit_file(folder / "game.yaml", "request_ban: previous_player", "request_ban: french")
    r = cli("validate", folder, "--games", 1, "--jobs", 1)
    assert r.exit_code == 1 and "Traceback" not in r.output
    line = next(x for x in r.stdout.splitlines() if "rule option 'request_ban' must be one of" in x)
    n = int(re.search(r"game\.yaml:(\d+):", line).group(1))
    assert "request_ban" in (folder / "game.yaml").read_text(encoding="utf-8").splitlines()[n - 1]


def test_the_printed_summary_states_the_reading_chosen(french_folder, cli, tmp_path):
    from pypdf import PdfReader

    r = cli("build", french_folder, "--lang", "en", "--paper", "a4", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    text = " ".join(p.extract_text() for p in PdfReader(tmp_path / "hapy" / "hapy-en-a4-sheets.pdf").pages)
    text = " ".join(text.split())
    assert "stays off limits, even if someone has passed since" in text
    assert "any card may be asked for again" not in text


# ------------------------------------------------------------ Exploration Variants: Giza
def test_giza_is_also_offered_with_one_design_all_mummy_side_up(rules):
    """Exploration Variants, Giza: three designs, and the rulebook suggests making one of
    them with every card Mummy side up."""
    game = load_game("hapy")
    assert GIZA_MUMMY in rules.setups(game)
    giza, mummy = rules.load(game, 3, "giza"), rules.load(game, 3, GIZA_MUMMY)
    assert giza.layout.xs == mummy.layout.xs and giza.layout.covers == mummy.layout.covers
    changed = [p for p in range(36) if giza.face_up[p] != mummy.face_up[p]]
    assert changed and not any(mummy.face_up[p] for p in range(15)), "the first design (15 cards) is all Mummy-up"
    assert mummy.face_up[15:] == giza.face_up[15:]


# ------------------------------------------------------------ the layouts and families, checked
LAYOUT_MISTAKES = {
    "a pyramid where no card covers another": (
        "layouts.yaml", "  pyramid:\n    rows:", "  pyramid:\n    covers: []\n    rows:",
        "layout 'pyramid': card 1 of row 1 is partly covered by 0 card(s) of row 2"),
    "a Mastaba with the wrong first row": (
        "layouts.yaml", "{side: god,   y: 0.0, x: [3, 4, 5, 6, 7, 8], need: {number: 1}}",
        "{side: mummy, y: 0.0, x: [3, 4, 5, 6, 7, 8], need: {number: 1}}",
        "layout 'mastaba': the first row must be the six number-1 Gods, God side up"),
    "a Temple all God-up": (
        "layouts.yaml", "{side: mummy, y: 0.0, x: [0, 1, 2, 3, 4, 5]}", "{side: god, y: 0.0, x: [0, 1, 2, 3, 4, 5]}",
        "layout 'temple': the rules lay two designs, one all Mummy side up and one all God side up"),
    "swapped sticker symbols": (
        "game.yaml", "god: anubis, colour: obsidian, symbol: cross", "god: anubis, colour: obsidian, symbol: round",
        "family 'jackal': the French edition's sticker for anubis is the cross, not 'round'"),
    "two families sharing a god": (
        "game.yaml", "{id: cat, god: bastet,", "{id: cat, god: anubis,",
        "family 'cat': its god is bastet in the rulebook, not 'anubis'"),
}


@pytest.mark.parametrize("mistake", sorted(LAYOUT_MISTAKES))
def test_a_layout_or_family_the_rulebook_does_not_describe_is_named(mistake, tmp_path):
    from conftest import problems_of

    file, old, new, words = LAYOUT_MISTAKES[mistake]
    folder = copy_shipped("hapy", tmp_path)
    edit_file(folder / file, old, new)
    problems = problems_of(folder)
    assert any(words in p for p in problems), problems
