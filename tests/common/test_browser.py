"""The browser tests skip without Chromium, with their reason, except in CI (.ci/run), where
a missing Chromium fails them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.common import browser

ROOT = Path(__file__).resolve().parents[2]


def test_missing_chromium_skips_with_its_reason(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", None)
    monkeypatch.delenv(browser.REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium is not installed"):
        browser.require_chromium()


def test_missing_chromium_fails_where_it_is_required(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", None)
    monkeypatch.setenv(browser.REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{browser.REQUIRE_ENV}=1 requires it"):
        browser.require_chromium()


def test_present_chromium_is_returned(monkeypatch):
    monkeypatch.setattr(browser, "CHROMIUM", "/usr/bin/chromium")
    monkeypatch.setenv(browser.REQUIRE_ENV, "1")
    assert browser.require_chromium() == "/usr/bin/chromium"


def test_ci_requires_the_browser():
    assert f"export {browser.REQUIRE_ENV}=1" in (ROOT / ".ci" / "run").read_text()
