from typing import Any
import pytest
from records import services as rs
from tests.records.documents import illegal_document
pytestmark = pytest.mark.browser

def test_shots(visit: Any, club: Any, upload: Any, cast: Any, make_user: Any) -> None:
    from analysis import services
    match = upload(illegal_document(6))
    services.verify_match(match_id=match.pk)
    rs.invite(club=club, invited_by=cast["adam"], role="member", username="nora")
    rs.invite(club=club, invited_by=cast["adam"], role="admin")
    other = rs.create_club(name="成都周二麻将", owner=cast["olga"])
    rs.invite(club=other, invited_by=cast["olga"], role="admin", username="nora")
    issued = rs.invite(club=club, invited_by=cast["olga"], role="member")
    out = "/tmp/site2/shots/"
    import os; os.makedirs(out, exist_ok=True)
    for lang in ("en", "zh-Hans"):
        for w in (390, 1280):
            page = visit("adam", f"/clubs/{club.pk}/members/", width=w, language=lang)
            page.fill("#invite-form input[name=username]", "wen")
            page.locator("#invite-form button[name=link]").click()
            page.screenshot(path=f"{out}members-{lang}-{w}.png", full_page=True)
            base = page.url.split("/clubs/")[0]
            for name, url, user in (("club", f"/clubs/{club.pk}/", "adam"),
                                    ("match", f"/clubs/{club.pk}/matches/{match.pk}/", "adam"),
                                    ("viewer", f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/#step=end", "adam")):
                page.goto(base + url); page.wait_for_load_state("load")
                page.screenshot(path=f"{out}{name}-{lang}-{w}.png", full_page=True)
            n = visit("nora", "/invitations/", width=w, language=lang)
            n.screenshot(path=f"{out}invitations-{lang}-{w}.png", full_page=True)
            n.goto(base + f"/invitations/link/{issued.link_secret}/")
            n.screenshot(path=f"{out}link-{lang}-{w}.png", full_page=True)
