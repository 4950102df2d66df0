"""The decision review (xuezhan.review): its arithmetic against brute force, its
independence of what the player could not see, and the ``xuezhan review`` command."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.xuezhan.logs import match_doc, round_doc
from tests.xuezhan.test_shanten import ref_shanten
from xuezhan.cli import main
from xuezhan.errors import LogFormatError
from xuezhan.review import review_document, review_round
from xuezhan.shanten import shanten
from xuezhan.sim.simulate import simulate_match
from xuezhan.tiles import SUIT_LETTERS, TILES, counts_of, parse_tiles

DATA = Path(__file__).resolve().parent.parent / "data"
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DECK = [k for k in range(27) for _ in range(4)]


def dealt_round(seed: int, voids: list[int], discard_rank: int) -> tuple[dict[str, Any],
                                                                        list[int]]:
    """A match of one round: a random deal, the void suits, and the dealer's discard of the
    ``discard_rank``-th kind it holds. Returns it and the dealer's 14 counts."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    hands = [deck[:14], deck[14:27], deck[27:40], deck[40:53]]
    counts = counts_of(hands[0])
    held = [k for k in range(27) if counts[k]]
    tile = TILES[held[discard_rank % len(held)]]
    doc = match_doc({"dealer": 0, "hands": [[str(TILES[t]) for t in h] for h in hands],
                     "events": [{"type": "dingque", "suits": [SUIT_LETTERS[v] for v in voids]},
                                {"type": "discard", "actor": 0, "tile": str(tile)}]},
                    ruleset={"exchange": "off"})
    return doc, counts


@FAST
@given(st.integers(0, 2**32), st.lists(st.integers(0, 2), min_size=4, max_size=4),
       st.integers(0, 26))
def test_the_reported_shanten_of_every_discard_equals_the_brute_force(
        seed: int, voids: list[int], rank: int) -> None:
    doc, counts = dealt_round(seed, voids, rank)
    decision = review_round(doc, 0, seat=0).decisions[-1]
    assert decision.kind == "discard"
    assert decision.shanten_before == ref_shanten(counts, 0, voids[0])
    for option in decision.alternatives:
        kept = list(counts)
        kept[TILES.index(parse_tiles(option.chosen)[0])] -= 1
        assert option.shanten_after == ref_shanten(kept, 0, voids[0])


@FAST
@given(st.integers(0, 2**32), st.lists(st.integers(0, 2), min_size=4, max_size=4))
def test_the_best_discards_ukeire_is_a_count_over_all_27_kinds(seed: int,
                                                               voids: list[int]) -> None:
    doc, counts = dealt_round(seed, voids, 0)
    best = review_round(doc, 0, seat=0).decisions[-1].alternatives[0]
    kept = list(counts)
    kept[parse_tiles(best.chosen)[0]] -= 1
    base = shanten(kept, 0, voids[0])
    brute = {}
    for k in range(27):
        kept[k] += 1
        if shanten(kept, 0, voids[0]) < base:
            brute[k] = max(4 - counts[k], 0)  # nothing else is seen before the first discard
        kept[k] -= 1
    assert {int(t): n for t, n in best.ukeire} == brute
    assert best.unseen == sum(brute.values())
    # and no legal discard has a better (shanten, unseen 进张) than the one ranked first
    assert all((o.shanten_after, -o.unseen) >= (best.shanten_after, -best.unseen)
               for o in review_round(doc, 0, seat=0).decisions[-1].alternatives)


def test_a_discard_that_keeps_the_shanten_but_narrows_the_ukeire_is_worse_by_the_tiles_lost(
        ) -> None:
    # 5p or 9p both leave one shanten; keeping 5p (four kinds around it) draws more
    doc = match_doc(round_doc(["1123m456m789m2359p", "123456789p1122s4m",
                               "123456789s1122m4p", "345678m345678p3s"],
                              ["dq smpm", "0-5p"]), ruleset={"exchange": "off"})
    d = review_round(doc, 0, seat=0).decisions[-1]
    best = d.alternatives[0]
    assert d.verdict == "worse" and d.shanten_after == best.shanten_after
    assert d.loss == best.unseen - sum(n for _, n in d.ukeire) > 0


def test_a_discard_as_good_as_the_first_ranked_is_equal() -> None:
    # 1p and 9p mirror each other around 555p: the same shanten and 进张
    doc = match_doc(round_doc(["123m456m789m19p555p", "123456789p1122s4m",
                               "123456789s1122m4p", "345678m345678p3s"],
                              ["dq smpm", "0-9p"]), ruleset={"exchange": "off"})
    d = review_round(doc, 0, seat=0).decisions[-1]
    assert d.alternatives[0].chosen == "1p"
    assert (d.verdict, d.loss) == ("equal", 0)


def test_a_passed_discard_win_is_reported_with_its_fan() -> None:
    doc = match_doc(round_doc(["123m456m789m23p55s9p", "123456789p1122s4m",
                               "11123m456789s11s", "345678m345678p3s"],
                              ["dq smpm", "0-9p", "1+1s", "1-4m", "2+5s"]),
                    ruleset={"exchange": "off"})
    passes = [d for d in review_round(doc, 0, seat=2).decisions if d.kind == "pass_win"]
    assert [(d.event, d.detail["tile"]) for d in passes] == [(3, "4m")]
    assert passes[0].verdict == "passed" and passes[0].detail["fan"] == 0  # 平胡


def test_the_first_ready_discard_reports_its_waits_and_cha_jiao_value() -> None:
    doc = match_doc(round_doc(["123m456m789m23p55p9p", "123456789p1122s4m",
                               "123456789s1122m4p", "345678m345678p3s"],
                              ["dq smpm", "0-9p"]), ruleset={"exchange": "off"})
    review = review_round(doc, 0, seat=0)
    ready = review.decisions[-1].detail["ready"]
    assert ready["waits"] == ["1p", "4p"] and ready["unseen"] == 8 and ready["value"] >= 0
    assert review.summary(0).first_ready is not None


def test_reviewing_round_by_round_equals_reviewing_the_whole_document() -> None:
    doc = simulate_match(11, 3)
    whole = [r.to_json() for r in review_document(doc)]
    assert whole == [review_round(doc, i).to_json() for i in range(3)]
    for seat in range(4):
        one = [r.to_json()["decisions"] for r in review_document(doc, seat)]
        assert one == [[d for d in r["decisions"] if d["seat"] == seat] for r in whole]


def _public_kinds(doc: dict[str, Any], seat: int) -> set[int]:
    """Every kind the seat could ever see: its deal and draws, every tile an event shows."""
    seen: set[int] = set()
    for r in doc["rounds"]:
        seen.update(parse_tiles("".join(r["hands"][seat])))
        for e in r["events"]:
            if e["type"] == "exchange":
                seen.update(t for give in e["give"] for t in parse_tiles("".join(give)))
            elif e["type"] != "dingque" and (e["type"] != "draw" or e["actor"] == seat):
                seen.add(parse_tiles(e["tile"])[0])
    return seen


def _swapped(doc: dict[str, Any], seat: int, x: str, y: str) -> dict[str, Any]:
    """The document with kinds ``x`` and ``y`` exchanged wherever the seat cannot see."""
    out = copy.deepcopy(doc)
    swap = {x: y, y: x}
    for r in out["rounds"]:
        for s in range(4):
            if s != seat:
                r["hands"][s] = [swap.get(t, t) for t in r["hands"][s]]
        r["wall"] = [swap.get(t, t) for t in r["wall"]]
        for e in r["events"]:
            if e["type"] == "draw" and e["actor"] != seat:
                e["tile"] = swap.get(e["tile"], e["tile"])
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 3), st.randoms(use_true_random=False))
def test_a_review_never_reads_a_hidden_tile(seed: int, seat: int, rnd: random.Random) -> None:
    doc = simulate_match(seed, 1)
    hidden = sorted(set(range(27)) - _public_kinds(doc, seat))
    if len(hidden) < 2:
        return
    x, y = (str(TILES[k]) for k in rnd.sample(hidden, 2))
    changed = _swapped(doc, seat, x, y)
    assert changed != doc
    assert review_document(changed, seat)[0].to_json() == review_document(doc, seat)[0].to_json()


def test_review_round_refuses_a_round_the_document_does_not_have() -> None:
    with pytest.raises(LogFormatError, match="no round 5"):
        review_round(simulate_match(3, 1), 5)


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.json")), ids=lambda p: p.name)
def test_xuezhan_review_reads_every_log_in_the_test_data(path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    code = main(["review", str(path)])
    out = capsys.readouterr().out
    if path.name in ("schema.json", "bad_ruleset.json"):
        assert code == 2 and out == ""
        return
    assert code == 0
    printed = json.loads(out)
    assert len(printed["rounds"]) == len(json.loads(path.read_text())["rounds"])
    for r in printed["rounds"]:
        for d in r["decisions"]:
            assert list(d)[:10] == ["round", "event", "seat", "kind", "chosen", "verdict",
                                    "shanten_before", "shanten_after", "ukeire",
                                    "alternatives"]


@pytest.mark.parametrize("preset", ["chengdu", "online"])
def test_xuezhan_review_reviews_simulated_matches_as_json_and_as_text(
        preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(simulate_match(5, 2, preset)))
    assert main(["review", str(path), "--round", "1", "--seat", "2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert {d["seat"] for r in printed["rounds"] for d in r["decisions"]} == {2}
    assert [r["round"] for r in printed["rounds"]] == [1]
    assert main(["review", str(path), "--text"]) == 0
    text = capsys.readouterr().out
    assert "round 0" in text and "round 1" in text and "seat 3:" in text
