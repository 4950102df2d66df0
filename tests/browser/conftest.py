"""Browser tests: Playwright for Python driving the system's Chromium (Debian's `chromium`).

`playwright install` downloads a browser build, which CI machines cannot fetch; .ci/run
installs Debian's chromium (and fonts-noto-cjk, so that screenshots show Chinese) instead,
and these tests pass its path as ``executable_path``. Without a chromium on PATH (or in
CHROMIUM) every test here is skipped and says how to get one. A failed test leaves
screenshots of the page at phone and desktop width in test-results/browser/.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or next(
    filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-results" / "browser"
PASSWORD = "browser-test-pass"  # a throwaway user of a throwaway database
WIDTHS = {"phone": 390, "desktop": 1280}
UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"


@pytest.fixture
def browser(site: Any) -> Iterator[Any]:
    """Chromium for one test, under a Playwright started for that test alone.

    pytest-playwright's own fixtures keep Playwright (and the event loop its sync API runs
    in this thread) for the whole session, which makes Django refuse every later database
    call of the process as "async"; so the loop lives only as long as one test here, and
    Django's async-safety guard is relaxed only meanwhile (for this test's own ORM calls).
    """
    if CHROMIUM is None:
        pytest.skip("no chromium: `apt-get install -y chromium fonts-noto-cjk` (as .ci/run does) "
                    "runs the browser tests; `playwright install` is not used")
    from playwright.sync_api import sync_playwright

    before = os.environ.get(UNSAFE)
    os.environ[UNSAFE] = "true"
    manager = sync_playwright().start()
    try:
        chromium = manager.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield chromium
        chromium.close()
    finally:
        manager.stop()
        if before is None:
            os.environ.pop(UNSAFE, None)
        else:
            os.environ[UNSAFE] = before


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def site(transactional_db: Any, live_server: Any, cast: dict[str, Any], club: Any,
         settings: Any) -> Any:
    """The live server, with the club's users able to sign in."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast
    for user in cast.values():
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    return live_server


@pytest.fixture
def visit(site: Any, browser: Any, request: pytest.FixtureRequest
          ) -> Iterator[Callable[..., Any]]:
    """``visit(user, url, width=..., language=...)``: a signed-in page, its console errors
    collected in ``page.errors``; on a failure both widths are saved as screenshots."""
    contexts: list[Any] = []
    pages: list[Any] = []

    def open_page(user: str, url: str, *, width: int = 1280, language: str = "en") -> Any:
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=language)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(f"{site.url}/accounts/login/")
        page.fill("#id_username", user)
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(re.compile(r".*/clubs/.*"))
        page.goto(site.url + url)
        pages.append(page)
        return page

    yield open_page
    failed = getattr(request.node, "report_call", None)
    if failed is not None and failed.failed and pages:
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        for label, width in WIDTHS.items():
            pages[-1].set_viewport_size({"width": width, "height": 900})
            pages[-1].screenshot(path=str(ARTEFACTS / f"{request.node.name}-{label}.png"),
                                 full_page=True)
    for context in contexts:
        context.close()
