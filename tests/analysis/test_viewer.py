"""The table viewer's server side: who is to act at the end, tile faces and names, links in."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.template import Context, Template
from django.utils import translation

from analysis.templatetags.tiles import tile_name, tile_names
from analysis.viewer import viewer_url
from tests.records.documents import DATA, make_document
from xuezhan.replay import replay_frames

SPRITE = Path(__file__).resolve().parents[2] / "static" / "xuezhan" / "tiles.svg"
LOGS = sorted(DATA.glob("*.json"))


def _viewer_data(page: str) -> Any:
    start = page.index('<script id="viewer-data" type="application/json">') + 49
    return json.loads(page[start:page.index("</script>", start)])


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_no_one_is_to_act_once_a_round_is_over(path: Path) -> None:
    # the third win on a discard and a last discard of the wall used to leave the
    # discarder "to act": the claim window only closes when the log ends
    doc = json.loads(path.read_text())
    for index in range(len(doc["rounds"])):
        assert replay_frames(doc, index)[-1]["to_act"] is None, (path.name, index)


def test_a_round_whose_log_stops_early_still_shows_who_is_to_act() -> None:
    doc = json.loads((DATA / "third_win_ends_round_chengdu.json").read_text())
    cut = copy.deepcopy(doc)
    events = cut["rounds"][0]["events"]
    first_discard = next(i for i, e in enumerate(events) if e["type"] == "discard")
    del events[first_discard + 1:]  # abandoned right after a discard: the next seat is to act
    assert replay_frames(cut, 0)[-1]["to_act"] is not None


def test_the_sprite_draws_every_tile_and_a_back_once() -> None:
    ids = re.findall(r'<symbol id="([^"]+)"', SPRITE.read_text())
    tiles = [f"tile-{n}{s}" for s in "mps" for n in range(1, 10)]
    assert sorted(ids) == sorted([*tiles, "tile-back"])
    assert "viewBox=\"0 0 30 40\"" in SPRITE.read_text()


def test_tile_names_read_as_players_say_them_in_each_language() -> None:
    with translation.override("zh-hans"):
        assert tile_name("5p") == "五筒" and tile_name("1s") == "一条" and tile_name("9m") == "九万"
        assert len(set(tile_names().values())) == 27
    with translation.override("en"):
        assert tile_name("5p") == "5 Dots" and tile_name("1m") == "1 Characters"
    assert tile_name("0x") == "?"


def test_the_tile_tag_draws_the_face_and_keeps_the_text_tile_as_its_fallback() -> None:
    with translation.override("zh-hans"):
        html = Template('{% load tiles %}{% tile "5p" "small" %}').render(Context())
    assert 'class="tile suit-p small"' in html and 'aria-label="五筒"' in html
    assert '<use href="#tile-5p">' in html and "<b>5</b><i>筒</i>" in html
    bad = Template('{% load tiles %}{% tile t %}').render(Context({"t": "<x>"}))
    assert "<x>" not in bad and 'aria-label="?"' in bad


def test_a_review_link_opens_the_viewer_at_its_step_with_the_panel() -> None:
    assert viewer_url(3, 4, 0, 17, review=True) == "/clubs/3/matches/4/rounds/1/?step=17&review=1"
    assert viewer_url(3, 4, 1, 5) == "/clubs/3/matches/4/rounds/2/#step=5"


@pytest.mark.django_db
def test_the_viewer_loads_the_tiles_and_their_names_in_the_page_language(
    client: Any, cast: Any, club: Any, upload: Any
) -> None:
    client.force_login(cast["mia"])
    match = upload(make_document(8))
    url = f"/clubs/{club.pk}/matches/{match.pk}/rounds/1/?step=3&review=1"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    data = _viewer_data(page)
    assert data["tile_names"]["5p"] == "五筒" and data["text"]["mark_kong"] == "杠"
    assert re.search(r'<script src="[^"]*tiles\.js" data-sprite="[^"]*tiles\.svg" defer>', page)
    assert 'id="next-mistake"' in page and 'id="board"' in page
    assert " style=" not in page and "onclick" not in page  # the coming CSP
