"""Text wrapping and shrink-to-fit, with a fake monospace measure so every
expectation can be worked out by hand: each character is 0.5 em wide."""


import pytest

from cardgen.base.units import pt_to_mm
from cardgen.layout.flow import FlowFonts, fit_flow, layout_flow
from cardgen.layout.textfit import (
    LONE_WORD_CHARS,
    LONE_WORD_SHARE,
    SHRINK_STEPS,
    FittedText,
    Run,
    fit_runs,
    fit_text,
    line_text,
    wrap,
)

NBSP = "\u00a0"
NNBSP = "\u202f"


def mono(text: str, size: float) -> float:
    """Every character 0.5 em wide, in mm."""
    return pt_to_mm(len(text) * size * 0.5)


def chars_wide(n: int, size: float) -> float:
    """A box width (mm) that holds exactly n monospace characters at size."""
    return pt_to_mm(n * size * 0.5)


def test_wrap_greedy_at_spaces():
    assert wrap(mono, "aaa bbb ccc ddd", 10, chars_wide(7, 10)) == ["aaa bbb", "ccc ddd"]


def test_wrap_collapses_space_runs_and_strips_ends():
    assert wrap(mono, "  aaa   bbb  ", 10, chars_wide(20, 10)) == ["aaa bbb"]


def test_wrap_breaks_after_hyphen_keeping_it():
    assert wrap(mono, "Nord-Ouest", 10, chars_wide(6, 10)) == ["Nord-", "Ouest"]
    # a leading minus or a lone dash is not a break point
    assert wrap(mono, "-5 aa", 10, chars_wide(2, 10)) == ["-5", "aa"]


@pytest.mark.parametrize("nb", [NBSP, NNBSP])
def test_wrap_never_breaks_at_no_break_spaces(nb):
    text = f"Attention{nb}: le faucon arrive{nb}! Vraiment{nb}?"
    for n in range(5, 40):
        lines = wrap(mono, text, 10, chars_wide(n, 10))
        for line in lines:
            assert not line.startswith((":", "!", "?", nb)), (n, lines)
        assert " ".join(lines) == text
    # too narrow: the word with its no-break space stays whole and overflows
    assert wrap(mono, f"Attention{nb}:", 10, chars_wide(3, 10)) == [f"Attention{nb}:"]


def test_wrap_explicit_newlines():
    text = "one two\nthree\n\nfour\n"           # trailing newline (YAML `|`) dropped
    assert wrap(mono, text, 10, chars_wide(50, 10)) == ["one two", "three", "", "four"]
    assert wrap(mono, "a b\nc", 10, chars_wide(1, 10)) == ["a", "b", "c"]


def test_wrap_empty():
    assert wrap(mono, "", 10, 10) == []
    assert wrap(mono, " \n", 10, 10) == []


def test_fit_at_full_size():
    r = fit_text(mono, "aaa bbb", chars_wide(10, 10), 100, size=10, min_size=6)
    assert r == FittedText(("aaa bbb",), 10, 12.0, True, 0.0)


def test_fit_shrinks_to_largest_grid_size():
    text = "aaaa bbbb cccc dddd"
    # one line needs 19 chars; the box holds 19 chars at 8 pt and the height one line
    width = chars_wide(19, 8)
    r = fit_text(mono, text, width, pt_to_mm(10), size=10, min_size=6)
    assert r.fits and r.overflow == 0.0
    assert r.lines == (text,)
    assert r.size == 8.0
    assert r.leading == pytest.approx(9.6)
    # and a little less room gives the next grid step down
    r = fit_text(mono, text, width * 0.999, pt_to_mm(10), size=10, min_size=6)
    assert r.size == 7.75


def test_fit_height_model_is_size_plus_leadings():
    # 3 lines at 10 pt, line_height 1.2: 10 + 2 * 12 = 34 pt
    text = "aa bb cc"
    ok = fit_text(mono, text, chars_wide(2, 10), pt_to_mm(34), size=10, min_size=10)
    assert ok.fits and len(ok.lines) == 3
    bad = fit_text(mono, text, chars_wide(2, 10), pt_to_mm(33), size=10, min_size=10)
    assert not bad.fits
    assert bad.overflow == pytest.approx(34 / 33 - 1)


def test_fit_fails_with_overflow_for_long_text():
    text = " ".join(["word"] * 200)
    r = fit_text(mono, text, 20, 10, size=10, min_size=6)
    assert not r.fits
    assert r.size == 6
    assert r.overflow > 1.0                 # far more than twice too tall
    assert r.lines and all(mono(l, 6) <= 20 + 1e-9 for l in r.lines)


def test_fit_fails_for_unbreakable_word():
    r = fit_text(mono, "Hippopotamus", chars_wide(6, 6), 100, size=10, min_size=6)
    assert not r.fits
    assert r.overflow == pytest.approx(12 / 6 - 1)


def test_fit_max_lines():
    r = fit_text(mono, "aa bb cc", chars_wide(2, 10), 1000, size=10, min_size=10, max_lines=2)
    assert not r.fits and r.overflow == pytest.approx(0.5)
    r = fit_text(mono, "aa bb cc", chars_wide(5, 10), 1000, size=10, min_size=8, max_lines=2)
    assert r.fits and r.lines == ("aa bb", "cc")


def test_fit_explicit_newlines_cost_lines():
    r = fit_text(mono, "a\nb\nc", 100, pt_to_mm(10 + 2 * 12), size=10, min_size=10)
    assert r.fits and r.lines == ("a", "b", "c")


def test_fit_min_size_off_grid():
    # 10 -> 6.1: grid is 10, 9.75, ..., 6.25, then 6.1
    text = "x" * 10
    r = fit_text(mono, text, chars_wide(10, 6.1), 100, size=10, min_size=6.1)
    assert r.fits and r.size == 6.1


def test_fit_bad_arguments():
    with pytest.raises(ValueError):
        fit_text(mono, "a", 0, 10, 10, 6)
    with pytest.raises(ValueError):
        fit_text(mono, "a", 10, 10, 6, 10)


def test_fit_matches_linear_scan():
    """Bisection gives the same answer as trying every grid size top-down."""
    import random

    rng = random.Random(7)
    words = ["Hâpy", "Taouret", "faucon", "Nord-Ouest", f"Attention{NBSP}:", "à", "l'est"]
    for _ in range(200):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 25)))
        w, h = rng.uniform(10, 60), rng.uniform(5, 40)
        r = fit_text(mono, text, w, h, size=12, min_size=6)
        expected = None
        s = 12.0
        while s >= 6 - 1e-9:
            t = fit_text(mono, text, w, h, size=s, min_size=s)
            if t.fits:
                expected = t
                break
            s -= 0.25
        if expected is None:
            assert not r.fits and r.size == 6
        else:
            assert r == expected


# -- the last line is not a lone short word ------------------------------------------------------------

def test_a_lone_short_last_word_gets_a_word_from_the_line_above():
    assert wrap(mono, "aaa bbb ccc d", 10, chars_wide(11, 10)) == ["aaa bbb", "ccc d"]
    # the paragraph keeps its line count, and the lines above the last two stay as greedy made them
    assert wrap(mono, "aaa bbb ccc ddd eee fff g", 10, chars_wide(11, 10)) == ["aaa bbb ccc", "ddd eee", "fff g"]
    # each paragraph on its own; a one-line paragraph and a one-word paragraph are fine
    assert wrap(mono, "aaa bbb ccc d\nx\nyy zz", 10, chars_wide(11, 10)) == ["aaa bbb", "ccc d", "x", "yy zz"]


def test_a_long_or_wide_last_word_may_stand_alone():
    assert LONE_WORD_CHARS == 8 and LONE_WORD_SHARE == 0.25
    a30 = "a" * 30
    assert wrap(mono, f"{a30} bbbbbbb dddddddd", 10, chars_wide(40, 10)) == [f"{a30} bbbbbbb", "dddddddd"]  # 8 chars
    assert wrap(mono, f"{a30} bbbbbbb ddddddd", 10, chars_wide(40, 10)) == [a30, "bbbbbbb ddddddd"]  # 7
    # a quarter of the line: 3 of 12 characters may stay, 2 of 12 may not
    assert wrap(mono, "aaa bbb cccc ddd", 10, chars_wide(12, 10)) == ["aaa bbb cccc", "ddd"]
    assert wrap(mono, "aaa bbb cccc dd", 10, chars_wide(12, 10)) == ["aaa bbb", "cccc dd"]


def test_a_hyphenated_last_word_moves_with_the_word_before_it():
    # "cc-" joins "dd" without a space: still one word, so "bb" comes down too
    assert wrap(mono, "aa bb cc-dd", 10, chars_wide(9, 10)) == ["aa", "bb cc-dd"]


def test_words_tied_by_a_no_break_space_are_one_word():
    assert wrap(mono, f"aaaa bbbb cccc dddd 5{NBSP}x", 10, chars_wide(20, 10)) == ["aaaa bbbb cccc", f"dddd 5{NBSP}x"]


def test_nothing_is_pulled_when_the_line_above_would_be_empty_or_the_last_line_too_long():
    assert wrap(mono, "aaaaaaaaaa b", 10, chars_wide(10, 10)) == ["aaaaaaaaaa", "b"]
    assert wrap(mono, "aaaa bbbbbbb c", 10, chars_wide(8, 10)) == ["aaaa", "bbbbbbb", "c"]
    r = fit_text(mono, "aaaa bbbbbbb c", chars_wide(8, 10), 100, size=10, min_size=10)
    assert r.fits and r.lone_words == 1 and r.paragraphs == (3,)


def test_the_text_shrinks_a_step_when_no_word_can_be_pulled():
    # 11 characters need 9.5 pt in a box of 10.5 characters at 10 pt: two steps, one line
    r = fit_text(mono, "aaaaaaaaa b", chars_wide(10.5, 10), 100, size=10, min_size=6)
    assert r.fits and r.size == 9.5 and r.lines == ("aaaaaaaaa b",) and r.lone_words == 0
    # not below min_size
    r = fit_text(mono, "aaaaaaaaa b", chars_wide(10.5, 10), 100, size=10, min_size=9.75)
    assert r.size == 10 and r.lines == ("aaaaaaaaa", "b") and r.lone_words == 1
    # and never more than SHRINK_STEPS steps below the size that fits
    far = 10 - (SHRINK_STEPS + 1) * 0.25
    r = fit_text(mono, "aaaaaaaaa b", chars_wide(11, far), 100, size=10, min_size=6)
    assert r.size == 10 and r.lines == ("aaaaaaaaa", "b")


def _rich_width(run: Run, size: float) -> float:
    """Monospace, bold as wide as regular; an icon one character wide."""
    return mono("x" if run.icon else run.text, size)


def test_rich_text_and_icons_get_company_too():
    icon = Run("", "R", icon="coin")
    r = fit_runs(_rich_width, [Run("aaa bbb ccc ", "R"), icon], chars_wide(11, 10), 100, size=10, min_size=10)
    assert r.lines == ("aaa bbb", "ccc ")  # icons are left out of .lines
    assert r.runs[-1] == (Run("ccc ", "R"), icon)
    bold = [Run("aaa bbb ", "R"), Run("ccc", "B"), Run(" d", "R")]
    r = fit_runs(_rich_width, bold, chars_wide(11, 10), 100, size=10, min_size=10)
    assert r.runs == ((Run("aaa bbb", "R"),), (Run("ccc", "B"), Run(" d", "R")))
    # a word glued to a styled word (no space between) is one word with it
    glued = [Run("aaaa bbbb cccc dddd ", "R"), Run("e", "B"), Run(".", "R")]
    r = fit_runs(_rich_width, glued, chars_wide(20, 10), 100, size=10, min_size=10)
    assert r.lines == ("aaaa bbbb cccc", "dddd e.")


def test_a_flow_block_gets_company_and_says_how_it_broke():
    fonts = FlowFonts(heading="H", bold="B", body="R")
    kw = dict(columns=1, gap=0, line_height=1.25, fonts=fonts, width=_rich_width, ascent=lambda f: 0.8,
              runs=lambda text, font: [Run(text, font)])
    result = layout_flow([("p", "aaa bbb ccc d"), ("space", ""), ("li", "x")], 0, 0, chars_wide(11, 10), 100, 10,
                         **kw)
    assert [[line_text(l) for l in b.lines] for b in result.blocks] == [["aaa bbb", "ccc d"], ["x"]]
    assert result.lone_words == 0 and [b.kind for b in result.blocks] == ["p", "li"]
    assert [l.text for l in result.lines if l.text in ("aaa bbb", "ccc d")] == ["aaa bbb", "ccc d"]
    # a lone word nothing can be pulled to: a step smaller, where the box allows
    wide = chars_wide(10.5, 10)
    assert fit_flow([("p", "aaaaaaaaa b")], 0, 0, wide, 100, 10, 6, **kw).size == 9.5
    stuck = fit_flow([("p", "aaaaaaaaa b")], 0, 0, wide, 100, 10, 10, **kw)
    assert stuck.size == 10 and stuck.lone_words == 1


def _plain_greedy(words: list[str], n: int) -> list[list[str]]:
    """Greedy filling of words into lines of at most n monospace characters (a reference)."""
    lines = [[words[0]]]
    for word in words[1:]:
        if len(" ".join(lines[-1] + [word])) <= n:
            lines[-1].append(word)
        else:
            lines.append([word])
    return lines


def test_the_breaker_only_changes_the_last_two_lines_and_only_when_it_must():
    import random

    rng = random.Random(20)
    for _ in range(400):
        words = ["".join(rng.choice("abc") for _ in range(rng.randint(1, 9))) for _ in range(rng.randint(1, 14))]
        n = rng.randint(9, 30)
        greedy = _plain_greedy(words, n)
        lines = wrap(mono, " ".join(words), 10, chars_wide(n, 10))
        assert " ".join(lines).split() == words and len(lines) == len(greedy)
        assert lines[:-2] == [" ".join(line) for line in greedy[:-2]]
        assert all(len(line) <= n for line in lines if " " in line)
        last, lone = greedy[-1][-1], len(greedy) > 1 and len(greedy[-1]) == 1
        short = lone and len(last) < LONE_WORD_CHARS and len(last) < LONE_WORD_SHARE * n
        if not short:
            assert lines == [" ".join(line) for line in greedy]  # nothing to mend: greedy's lines
        elif len(greedy[-2]) > 1 and len(greedy[-2][-1]) + 1 + len(last) <= n:
            # one word came down (the fewest that give the last line company)
            assert lines[-2:] == [" ".join(greedy[-2][:-1]), f"{greedy[-2][-1]} {last}"]
        else:
            assert lines == [" ".join(line) for line in greedy]  # nothing could come down
