"""``cardgen serve`` in a real browser: Debian's headless chromium, driven by Selenium
through Debian's chromedriver, against a server running on a copy of a small game.

Skipped only where chromium is not installed (``.ci/run`` installs it). Set
``CARDGEN_SCREENSHOT=path.png`` to keep the Hâpy screenshot the docs show.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser import headless_chromium, needs_chromium
from conftest import edit_file
from serving import night_sky, running, wait_for

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser():
    with headless_chromium("1400,1000") as driver:
        yield driver


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return night_sky(tmp_path)


def _alts(driver) -> list[str]:
    return driver.execute_script("return [...document.querySelectorAll('#face-list img')].map(i => i.alt)")


def _faces_loaded(driver) -> int:
    """How many face pictures the page shows, once every one of them has loaded."""
    return driver.execute_script("""
        const imgs = [...document.querySelectorAll('#face-list img')];
        return imgs.length && imgs.every(i => i.complete && i.naturalWidth > 0) ? imgs.length : 0;""")


def _banner(driver) -> str | None:
    return driver.execute_script("const b = document.getElementById('banner'); return b.hidden ? null : b.innerText")


def _shows(driver, text: str) -> bool:
    return any(text in alt for alt in _alts(driver)) and _faces_loaded(driver) > 0


def test_page_shows_faces_and_follows_saves(browser, game):
    locale = game / "locales" / "en.yaml"
    with running(game) as live:
        browser.get(live.url)
        assert wait_for(lambda: _faces_loaded(browser), what="the faces") == 20  # 19 fronts, one back
        assert browser.find_element("id", "title").text == "Night Sky"
        captions = browser.execute_script(
            "return [...document.querySelectorAll('#face-list figcaption')].map(c => c.textContent)")
        assert "comet · ×2 · front" in captions and "sun-1 +18 more · ×20 · back" in captions
        assert wait_for(lambda: browser.execute_script(
            "return [...document.querySelectorAll('#sheet-list img')].length"), what="the sheet pages") >= 2
        loaded_at = browser.execute_script("return window.cardgenLoadedAt")
        browser.execute_script("window.scrollTo(0, 300)")
        scrolled = browser.execute_script("return window.scrollY")
        assert scrolled > 0

        edit_file(locale, "comet: Comet", "comet: Kometa")
        wait_for(lambda: _shows(browser, "Kometa"), what="the edited string in the page")
        assert browser.execute_script("return window.cardgenLoadedAt") == loaded_at  # no reload
        assert browser.execute_script("return window.scrollY") == scrolled
        assert _banner(browser) is None

        good = locale.read_text(encoding="utf-8")
        locale.write_text(good.replace("comet: Kometa", "comet: [Kometa"), encoding="utf-8")
        banner = wait_for(lambda: _banner(browser), what="the banner")
        where = str(Path("night-sky") / "locales" / "en.yaml")
        assert f"{where}:" in banner and "YAML syntax error" in banner
        assert _shows(browser, "Kometa")  # the last good faces stay
        assert _faces_loaded(browser) == 20

        locale.write_text(good.replace("comet: Kometa", "comet: Comète filante"), encoding="utf-8")
        wait_for(lambda: _banner(browser) is None and _shows(browser, "Comète filante"), what="the fix")
        assert browser.execute_script("return window.cardgenLoadedAt") == loaded_at


def test_switching_language_changes_the_text(browser, game):
    from selenium.webdriver.support.ui import Select

    with running(game) as live:
        browser.get(live.url)
        wait_for(lambda: _shows(browser, "Comet"), what="the English faces")
        Select(browser.find_element("id", "lang")).select_by_value("fr")
        wait_for(lambda: _shows(browser, "Comète"), what="the French faces")
        assert not any("Play it on any card" in alt for alt in _alts(browser))
        assert "lang=fr" in browser.current_url
        browser.find_element("id", "proof").click()
        wait_for(lambda: "proof=1" in browser.current_url and _faces_loaded(browser), what="the proof view")


def test_a_click_enlarges_a_face_with_its_template_and_data(browser, game):
    with running(game) as live:
        browser.get(live.url)
        wait_for(lambda: _faces_loaded(browser), what="the faces")
        browser.find_element("css selector", 'figure[data-slot="cards/front/comet"] button').click()
        wait_for(lambda: browser.execute_script("return document.getElementById('zoom').open"), what="the dialog")
        assert browser.find_element("id", "zoom-template").text.endswith("templates/front.yaml.j2")
        assert '"rank": 0' in browser.find_element("id", "zoom-data").text
        assert browser.find_element("id", "zoom-defined").text.startswith(str(Path("night-sky") / "game.yaml"))
        wait_for(lambda: browser.execute_script(
            "const i = document.getElementById('zoom-img'); return i.complete && i.naturalWidth > 300"),
            what="the large picture")


def test_screenshot_of_hapy(browser, tmp_path):
    """The picture the documentation shows (kept where CARDGEN_SCREENSHOT says)."""
    from PIL import Image

    with running("hapy") as live:
        browser.get(live.url)
        wait_for(lambda: _faces_loaded(browser) > 40, timeout=120, what="Hâpy's faces")
        out = Path(os.environ.get("CARDGEN_SCREENSHOT") or tmp_path / "serve.png")
        assert browser.save_screenshot(str(out))
    with Image.open(out) as img:
        assert img.size[0] >= 1000 and img.getcolors(1 << 24) and len(img.getcolors(1 << 24)) > 100
