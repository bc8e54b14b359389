"""A locale string cardgen refuses is reported at the line of the locale file that
writes it: when the game is loaded (a control character, the back offset's words
with other placeholders than {x} and {y}) or, for a string refused when a template
prints it, beside the template line that printed it."""

from __future__ import annotations

import re

import pytest
from conftest import assert_user_error, edit_file, game_label

TITLE = 'title: "Card {n}"'


def mini(game_copy, title: str | None = None, extra: str = ""):
    """mini_game whose card fronts print ``t("card.title", n=1)``, with that string
    written as ``title`` (a YAML scalar) and ``extra`` lines added to en.yaml."""
    root = game_copy("mini_game")
    edit_file(root / "templates" / "front.yaml.j2", "text: {{ card.id|q }}", 'text: {{ t("card.title", n=1)|q }}')
    locale = root / "locales" / "en.yaml"
    if title is not None:
        edit_file(locale, TITLE, f"title: {title}")
    if extra:
        locale.write_text(locale.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return root


def place(path, needle: str) -> str:
    """``file:line:col`` of the value that follows ``needle`` in a file."""
    text = path.read_text(encoding="utf-8")
    at = text.index(needle) + len(needle)
    start = text.rfind("\n", 0, at) + 1
    return f"{game_label(path.parent, path.name)}:{text.count(chr(10), 0, at) + 1}:{at - start + 1}"


def build(cli, root, tmp_path, *extra):
    return cli("build", root, "--out", tmp_path / "out", "--lang", "en", "--paper", "a4", "--jobs", "1", *extra)


def test_a_nul_byte_in_a_locale_string_is_refused_at_its_line(game_copy, tmp_path, cli):
    root = mini(game_copy, r'"Card \0 {n}"')
    lines = assert_user_error(build(cli, root, tmp_path))
    at = place(root / "locales" / "en.yaml", "title: ")
    assert lines == [f"{at}: string 'card.title' holds the control character U+0000, which is not text to print"]
    assert not (tmp_path / "out" / "mini").exists()


def test_a_control_character_in_a_translation_is_refused_at_its_line(game_copy, tmp_path, cli):
    root = game_copy("mini_game")
    edit_file(root / "locales" / "fr.yaml", 'cards: Cartes', r'cards: "Car\x1btes"')
    lines = assert_user_error(build(cli, root, tmp_path))
    at = place(root / "locales" / "fr.yaml", "cards: ")
    assert lines == [f"{at}: string 'component.cards' holds the control character U+001B, which is not text to print"]


@pytest.mark.parametrize(("words", "shown"), [('"{x.__class__}, {y} mm"', "'{x.__class__}'"),
                                             ('"{x}, {y} {z} mm"', "'{z}'")])
def test_the_back_offset_words_with_other_placeholders_are_refused_at_their_line(words, shown, game_copy, tmp_path,
                                                                                 cli):
    """cardgen fills sheet.backs_shifted itself, with {x} and {y}: anything else in
    braces would reach Python's formatter (or stop it with a traceback)."""
    root = mini(game_copy, extra=f"sheet:\n  backs_shifted: {words}\n")
    lines = assert_user_error(build(cli, root, tmp_path, "--back-offset", "0.5,-1"))
    at = place(root / "locales" / "en.yaml", "backs_shifted: ")
    assert lines == [f"{at}: string 'sheet.backs_shifted' may hold only the placeholders {{x}} and {{y}} (the back "
                     f"offset), not {shown}"]
    assert not (tmp_path / "out" / "mini").exists()


def test_a_format_trick_refused_when_printed_names_the_template_line_and_the_locale_line(game_copy, tmp_path, cli):
    root = mini(game_copy, '"Card {0.__class__}"')
    lines = assert_user_error(build(cli, root, tmp_path))
    template = game_label(root, "templates", "front.yaml.j2")
    locale = place(root / "locales" / "en.yaml", "title: ").rsplit(":", 1)[0]  # file:line
    assert lines[0] == (f"{template}:2: cards/card-1 front [en]: string 'card.title' in en ({locale}): bad "
                        f"placeholder: '{{0.__class__}}' is not a plain {{name}}")
    assert re.fullmatch(r"\(the same template errors recur on \d+ more face\(s\) in \[en\], not listed\)", lines[1])
    assert not (tmp_path / "out" / "mini").exists()


def test_a_pseudo_string_refused_when_printed_names_the_source_languages_line(game_copy, tmp_path, cli):
    root = mini(game_copy, '"Card {n.real}"')
    r = cli("build", root, "--out", tmp_path / "out", "--lang", "pseudo", "--paper", "a4", "--jobs", "1")
    lines = assert_user_error(r)
    locale = place(root / "locales" / "en.yaml", "title: ").rsplit(":", 1)[0]
    assert f": string 'card.title' in pseudo ({locale}): bad placeholder: " in lines[0], lines
