"""The shipped translations follow their language's typography and the kits' own
words (docs/design/languages.md, Typography): every French string, of the games and
of cardgen's own locale files, puts a no-break space (U+00A0, never the narrow
U+202F, never an ordinary space) before ``: ; ! ?`` and ``»`` and after ``«``; a
stack of tiles or cards is a « pile » in French; a Dutch sentence says who wins."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from cardgen.i18n.yamledit import flatten

ROOT = Path(__file__).resolve().parents[2]
ICON = re.compile(r":[a-z][a-z0-9_-]*:")  # an inline icon (:pearl:), not punctuation
PUBLISHED_TITLES = ("O, Farao!",)  # a game's name as its publisher prints it


def strings_of(lang: str) -> list[tuple[str, str, str]]:
    """(file, key, text) of every shipped string of ``lang``."""
    files = sorted(ROOT.glob(f"card_data/*/locales/{lang}.yaml")) + [ROOT / "locales" / f"{lang}.yaml"]
    assert len(files) >= 3
    out = []
    for path in files:
        for key, text in flatten(yaml.safe_load(path.read_text(encoding="utf-8"))).items():
            out.append((str(path.relative_to(ROOT)), key, text))
    return out


def badly_spaced(text: str) -> list[str]:
    for title in PUBLISHED_TITLES:
        text = text.replace(title, "")
    text = ICON.sub("", text)
    bad = [text[max(0, m.start() - 12):m.end()] for m in re.finditer(r"[:;!?»]", text)
           if m.start() == 0 or text[m.start() - 1] != "\u00a0"]
    bad += [text[m.start():m.start() + 12] for m in re.finditer("«", text)
            if text[m.start() + 1:m.start() + 2] != "\u00a0"]
    return bad


def test_the_rule_itself():
    assert badly_spaced("Régions\u00a0: six\u00a0; «\u00a0peut\u00a0»\u00a0! Vrai\u00a0? 3 :pearl:") == []
    assert badly_spaced("a\u202f; b") == ["a\u202f;"]
    assert badly_spaced("a ; b: c") == ["a ;", "a ; b:"]
    assert badly_spaced("«peut\u00a0»") == ["«peut\u00a0»"]


def test_every_french_string_puts_a_no_break_space_before_high_punctuation():
    bad = [(path, key, snippet) for path, key, text in strings_of("fr") for snippet in badly_spaced(text)]
    assert bad == []


@pytest.mark.parametrize(("lang", "wrong", "why"), [
    ("fr", r"\btas\b", "a stack is a « pile » in every French kit"),
    ("nl", r"(?i)(^|[.;:]\s*)de meeste punten wint", "points do not win: 'wie de meeste punten heeft, wint'"),
])
def test_the_kits_words(lang, wrong, why):
    bad = [(path, key) for path, key, text in strings_of(lang) if re.search(wrong, text)]
    assert bad == [], why
