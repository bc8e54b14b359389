"""``cardgen validate --report``'s page in a real browser: Debian's headless chromium,
driven by Selenium through Debian's chromedriver, opening the file as a user would.

The page must draw its charts (SVG marks of a size), log no error, fetch nothing and
run nothing a game's names hold. Skipped only where chromium is not installed
(``.ci/run`` installs it). Set ``CARDGEN_SCREENSHOT_DIR=docs/images`` to keep the
screenshot the docs show (``validate-report.png``)."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest
from browser import headless_chromium, needs_chromium

from cardgen.load.game import load_game
from cardgen.validation.htmlreport import render_html
from cardgen.validation.runner import ValidateOptions, validate

HOSTILE = "<script>alert(1)</script>"

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser():
    with headless_chromium("1280,2000", "--force-device-scale-factor=1", console=True) as driver:
        yield driver


@pytest.fixture(scope="module")
def egypt() -> dict:
    """A report with every chart: Egypt's melds make its per-card figures."""
    return validate(load_game("egypt"), ValidateOptions(games=150, players=(2, 3, 4), jobs=1))


def _open(browser, report: dict, path: Path) -> None:
    path.write_text(render_html(report), encoding="utf-8")
    browser.get_log("browser")  # what earlier pages logged
    browser.get(path.as_uri())


def _errors(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]


def test_the_page_draws_every_chart_offline_and_is_kept_for_the_docs(browser, egypt, tmp_path):
    from PIL import Image

    _open(browser, egypt, tmp_path / "egypt.html")
    sections = browser.execute_script("return [...document.querySelectorAll('section')].map(s => s.id)")
    assert sections[:5] == ["play", "seats", "first-player", "cards", "length"] and "deck" in sections
    sizes = browser.execute_script("""return [...document.querySelectorAll('svg.chart')].map(s => {
        const r = s.getBoundingClientRect(); return [r.width, r.height]})""")
    assert len(sizes) > 40 and all(w >= 100 and h >= 18 for w, h in sizes)
    # a bar per seat of every configuration, as tall as its rate on the one scale of the grid
    cells = dict(browser.execute_script("""return [...document.querySelectorAll('td.cell')].map(td =>
        [td.dataset.config, [...td.querySelectorAll('g.seat rect')].map(r => r.getBBox().height)])"""))
    configs = egypt["simulation"]["configs"]
    assert len(cells) == len(configs) == 6
    pairs = [(h, s["rate"]) for c in configs
             for h, s in zip(cells[f"{c['setup']} · {c['players']} players · {c['agents']}"], c["seats"], strict=True)]
    scale = max(h for h, _ in pairs) / max(r for _, r in pairs)
    assert all(abs(h - scale * r) < 0.6 for h, r in pairs) and min(h for h, _ in pairs) > 5
    # the stylesheet is applied (inline): a section is a white card
    assert browser.execute_script(
        "return getComputedStyle(document.querySelector('section')).backgroundColor") == "rgb(255, 255, 255)"
    assert _errors(browser) == []
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0

    where = os.environ.get("CARDGEN_SCREENSHOT_DIR")
    out = Path(where) / "validate-report.png" if where else tmp_path / "validate-report.png"
    assert browser.save_screenshot(str(out))
    with Image.open(out) as img:
        assert img.size[0] >= 1000 and len(img.getcolors(1 << 24) or []) > 100


def test_a_game_without_rules_opens_as_a_page_of_its_deck_check(browser, tmp_path):
    report = validate(load_game(Path(__file__).resolve().parents[2] / "docs" / "examples" / "star-freight"),
                      ValidateOptions(jobs=1))
    _open(browser, report, tmp_path / "star-freight.html")
    text = browser.find_element("tag name", "body").text
    assert "No games were played" in text and report["static"]["passed"][0] in text
    assert _errors(browser) == []


def test_names_from_the_game_run_nothing(browser, egypt, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException

    report = copy.deepcopy(egypt)
    report["name"] = HOSTILE
    report["simulation"]["configs"][0]["setup"] = HOSTILE
    report["simulation"]["cards"]["groups"][0]["cards"][0]["card"] = HOSTILE
    _open(browser, report, tmp_path / "hostile.html")
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018
    assert browser.title.startswith(HOSTILE)
    assert browser.execute_script("return document.scripts.length") == 0
    assert HOSTILE in browser.find_element("id", "cards").text
    assert _errors(browser) == []
