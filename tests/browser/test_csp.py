"""The Content-Security-Policy (issue 27, finding 7): every page of the demo — the pages of
the URLconf (test_every_page.py finds them), sign-in and sign-up, the API docs and the
admin's sign-in — carries the policy and loads in Chromium without one violation: no
inline script, no inline style, nothing from elsewhere.

Violations are what Chromium reports: the ``securitypolicyviolation`` events of the page
(recorded from before its first script runs) and its "Content Security Policy" console
messages.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.test_every_page import demo, page_routes, sign_in  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser

RECORD = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', e => window.__violations.push(
  `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`
));
"""
#: pages outside the ``pages`` namespace that a person opens
MORE = [("api-docs", "/api/v1/docs/"), ("admin-login", "/admin/login/")]


def every_url(ids: dict[str, Any]) -> list[tuple[str, str]]:
    """Every page route with its parameters filled from ``ids``, then the pages of MORE."""
    out = []
    for name, route, params in page_routes():
        url = route
        for param in params:
            assert param in ids, f"{name}: name the demo's value of {param} in the test"
            url = re.sub(rf"<(?:\w+:)?{param}>", str(ids[param]), url)
        out.append((name, url))
    return [*out, *MORE]


@pytest.fixture
def ids(demo: dict[str, Any]) -> dict[str, Any]:  # noqa: F811
    """The demo's ids: its webhook endpoint, delivery and night included (test_every_page)."""
    return dict(demo["ids"])


def test_the_policy_forbids_inline_script_framing_and_posting_elsewhere(client: Any) -> None:
    response = client.get("/accounts/login/")
    policy = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, _, value = part.strip().partition(" ")
        policy[name] = value
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["form-action"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["default-src"] == "'self'"


def test_every_page_loads_without_a_content_security_policy_violation(
    browser: Any, site: Any, demo: dict[str, Any], ids: dict[str, Any]  # noqa: F811
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-Hans")
    context.add_init_script(RECORD)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text)
            if "Content Security Policy" in m.text else None)
    violations: dict[str, list[str]] = {}
    missing: list[str] = []
    signed_in = False
    for name, url in every_url(ids):
        anonymous = name in ("login", "signup", "admin-login")
        if anonymous:
            context.clear_cookies()
            signed_in = False
        elif not signed_in:
            sign_in(page, site.url, demo["password"])
            signed_in = True
        if page.request.get(site.url + url.split("#")[0], max_redirects=0).status == 405:
            continue  # a form's target (answers POST only)
        console.clear()
        response = page.goto(site.url + url)
        page.wait_for_load_state("load")
        page.wait_for_timeout(150)  # a page's script runs after the load (the viewer, docs)
        assert response is not None and response.status < 500, url
        if "content-security-policy" not in response.headers:
            missing.append(url)
        seen = page.evaluate("window.__violations") + console
        if seen:
            violations[f"{name} {url}"] = sorted(set(seen))
    context.close()
    assert missing == []
    assert violations == {}


def test_a_delete_asks_first_without_an_inline_handler(
    visit: Any, club: Any, upload: Any
) -> None:
    """The match page's delete asks through site.js (data-confirm): dismissed, the match
    stays; accepted, it goes."""
    from records.models import Match
    from tests.records.documents import make_document

    match = upload(make_document(1))
    page = visit("adam", f"/clubs/{club.pk}/matches/{match.pk}/")
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.locator("form[data-confirm] button[type=submit]").click()
    page.wait_for_timeout(300)
    assert asked and Match.objects.filter(pk=match.pk).exists()
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.locator("form[data-confirm] button[type=submit]").click()
    assert not Match.objects.filter(pk=match.pk).exists()
    assert page.errors == []
