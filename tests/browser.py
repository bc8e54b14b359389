"""Debian's headless chromium driven by Selenium, for the tests that look at a page in a
real browser (``cardgen serve``, the HTML balance report). Skipped only where chromium
and its driver are not installed (``.ci/run`` installs them)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

needs_chromium = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                    reason="needs Debian's chromium and chromium-driver (apt-get install chromium "
                                           "chromium-driver)")


@contextmanager
def headless_chromium(window: str, *arguments: str, console: bool = False) -> Iterator:
    """A headless chromium of ``window`` size ("1280,2000"), with further command-line
    ``arguments``; ``console``: the page's console messages kept for ``get_log``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={window}", "--hide-scrollbars", "--no-first-run", *arguments):
        options.add_argument(arg)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(120)
    driver.set_script_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()
