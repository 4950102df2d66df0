"""The table state machine: docs/rules.md §2-§3 and the options that change what is legal."""

from __future__ import annotations

from typing import Any

import pytest

from tests.xuezhan.logs import event, match_doc, round_doc, suits
from xuezhan.actions import Action, DingQue, action_from_json
from xuezhan.errors import IllegalActionError
from xuezhan.replay import verify_document
from xuezhan.rules import Rules
from xuezhan.settlement import settle
from xuezhan.table import CODES, Table
from xuezhan.tiles import parse_tiles

# Dealer 0 holds a nine-gates shape plus 5s (void s); seats 1-3 are void in m.
HANDS = ["1112345678999m5s", "5m1234567p123s99p", "2345678p456789s", "112233p667788s9s"]


def table(options: dict[str, Any] | None = None, hands: list[str] | None = None,
          wall: str | None = None, dealer: int = 0, voids: str = "smmm") -> Table:
    rules = Rules.from_json({"preset": "chengdu", "exchange": "off", **(options or {})})
    t = Table(rules, dealer, [parse_tiles(h) for h in hands or HANDS],
              wall=parse_tiles(wall) if wall else None)
    assert t.play(DingQue(tuple(suits(voids)))) == []
    return t


def run(t: Table, *events: str) -> list[str]:
    found = []
    for text in events:
        found += [p.code for p in t.play(act(text))]
    return found


def act(text: str) -> Action:
    return action_from_json(event(text))


PASS_THEN_WIN = ["0-5s", "1+4p", "1-5m", "2+6m", "2-6m"]


@pytest.mark.parametrize("mode, codes", [("off", []), ("until_next_draw", ["passed_win"]),
                                         ("strict", ["passed_win"])])
def test_passed_win_blocks_an_equal_win_on_a_later_discard(mode: str, codes: list[str]) -> None:
    t = table({"passed_win": mode})
    assert run(t, *PASS_THEN_WIN, "0hu2 6m") == codes


@pytest.mark.parametrize("mode, codes", [("off", []), ("until_next_draw", []),
                                         ("strict", ["passed_win"])])
def test_passed_win_allows_a_higher_fan_win_unless_strict(mode: str, codes: list[str]) -> None:
    # 9m makes 9999m: a 根, one fan more than the passed 5m
    t = table({"passed_win": mode})
    assert run(t, "0-5s", "1+4p", "1-5m", "2+9m", "2-9m", "0hu2 9m") == codes


def test_passed_win_ends_at_the_players_own_draw() -> None:
    t = table()
    assert run(t, *PASS_THEN_WIN, "3+8p", "3-8p", "0+2s", "0-2s", "1+7m", "1-7m",
               "0hu1 7m") == []


def test_passed_win_exception_when_fewer_than_four_tiles_remain() -> None:
    t = table()
    run(t, "0-5s", "1+4p", "1-5m", "2+6m")
    t.wall_left = 3
    assert run(t, "2-6m", "0hu2 6m") == []


def test_self_drawn_wins_are_never_blocked_by_a_passed_win() -> None:
    t = table()
    assert run(t, *PASS_THEN_WIN, "3+8p", "3-8p", "0+7m", "0hu 7m") == []


@pytest.mark.parametrize("mode, codes", [("off", []),
                                         ("must_win_self_draw", ["last_four_not_won"]),
                                         ("must_win_all", ["last_four_not_won"])])
def test_last_four_a_ready_player_who_draws_a_winning_tile_must_win(
        mode: str, codes: list[str]) -> None:
    t = table({"last_four": mode})
    run(t, "0-5s", "1+4p", "1-4p", "2+4p", "2-4p", "3+8p", "3-8p")
    t.wall_left = 4
    assert run(t, "0+5m", "0-5m") == codes


@pytest.mark.parametrize("mode, codes", [("off", []), ("must_win_self_draw", []),
                                         ("must_win_all", ["last_four_not_won"])])
def test_last_four_online_a_discard_that_completes_a_ready_hand_is_won(
        mode: str, codes: list[str]) -> None:
    t = table({"last_four": mode})
    run(t, "0-5s")
    t.wall_left = 4
    assert run(t, "1+4p", "1-5m", "2+4p") == codes


def test_last_four_a_must_win_overrides_the_passed_win_bar() -> None:
    t = table({"last_four": "must_win_all"})
    run(t, "0-5s", "1+4p", "1-5m")
    t.wall_left = 3
    assert run(t, "2+6m", "2-6m", "0hu2 6m") == []


@pytest.mark.parametrize("on, codes", [(False, []), (True, ["void_first"])])
def test_void_first_void_tiles_must_go_before_any_other(on: bool, codes: list[str]) -> None:
    t = table({"void_first": on})
    assert run(t, "0-5s", "1+4p", "1-4p") == codes


@pytest.mark.parametrize("on, codes", [(False, []), (True, ["claim_void_tile"])])
def test_no_claim_void_forbids_peng_of_a_void_suit_tile(on: bool, codes: list[str]) -> None:
    hands = ["1112345678999m5s", "55m134567p123s99p", "2345678p456789s", "112233p667788s9s"]
    t = table({"no_claim_void": on}, hands=hands)
    assert run(t, "0-5m", "1peng0 5m") == codes


def test_heaven_win_scores_tian_hu_when_heaven_earth_is_on() -> None:
    hands = ["11122233344455m", "1234567p123s999p", "2345678p456789s", "112233p667788s9s"]
    for on, pattern in ((True, "tian_hu"), (False, "qing_dui")):
        t = table({"heaven_earth": on}, hands=hands)
        assert run(t, "0hu 5m") == []
        assert t.scores[0].pattern == pattern


def test_earth_win_is_a_non_dealer_self_draw_on_the_first_draw() -> None:
    hands = ["1234567p123s999p5s", "1112223334445m", "2345678p456789s", "112233p667788s9s"]
    t = table(hands=hands, voids="mpmm")
    assert run(t, "0-5s", "1+5m", "1hu 5m") == []
    assert t.scores[1].pattern == "di_hu"


def test_a_dealer_win_after_discarding_is_not_heaven() -> None:
    t = table()
    run(t, "0-5s", "1+4p", "1-4p", "2+4p", "2-4p", "3+8p", "3-8p", "0+5m", "0hu 5m")
    assert t.scores[0].pattern == "qing_yi_se"


def test_below_min_fan_a_hand_is_not_a_win() -> None:
    t = table({"min_fan": 3})
    assert run(t, "0-5s", "1+4p", "1-5m", "0hu1 5m") == ["win_below_min_fan"]


def test_a_kong_replacement_must_be_the_walls_next_tile() -> None:
    hands = ["2222345678999m5s", "5m1234567p123s99p", "2345678p456789s", "112233p667788s9s"]
    front = table({"kong_draw": "front"}, wall="1s3s7p", hands=hands)
    assert run(front, "0an 2m", "0+1s") == []
    back = table({"kong_draw": "back"}, wall="1s3s7p", hands=hands)
    assert run(back, "0an 2m", "0+7p") == []
    assert run(table({"kong_draw": "back"}, wall="1s3s7p", hands=hands),
               "0an 2m", "0+1s") == ["draw_not_wall_tile"]


def test_no_kong_when_the_wall_is_empty() -> None:
    hands = ["2222345678999m5s", "5m1234567p123s99p", "2345678p456789s", "112233p667788s9s"]
    t = table(hands=hands)
    t.wall_left = 0
    assert "kong_with_empty_wall" in run(t, "0an 2m")


def test_after_a_win_play_passes_to_the_next_player_still_in() -> None:
    t = table()
    run(t, "0-5s", "1+4p", "1-5m", "0hu1 5m")
    assert run(t, "1+1s", "1-1s", "2+2s", "2-2s", "3+3s", "3-3s") == []
    assert run(t, "1+9s") == []  # seat 0 has won: seat 3 is followed by seat 1
    assert run(t, "1-9s", "2+8s", "2-8s", "3+1s", "3-1s", "0+1p") == ["action_by_winner"]


def test_after_a_multiple_win_the_next_draw_follows_the_furthest_winner() -> None:
    hands = ["1112345678999m", "5m456789s45678p99s", "46m111222333p99p", "23s456s777p888p55s"]
    t = table(hands=hands, dealer=1, voids="smsm")
    assert run(t, "1-5m", "0hu1 5m", "2hu1 5m") == []
    # seat 0 is furthest from the discarder (seat 1) in turn order: seat 1 draws next
    assert run(t, "1+1s") == []
    outcome = t.outcome()
    assert [e.seat for e in outcome.events] == [0, 2]


def test_the_round_ends_when_three_players_have_won() -> None:
    hands = ["1112345678999m", "5m456789s45678p99s", "46m111222333p99p", "23s456s777p888p55s"]
    t = table(hands=hands, dealer=1, voids="smsm")
    run(t, "1-5m", "0hu1 5m", "2hu1 5m", "1+1s", "1-1s")
    assert run(t, "3hu1 1s") == []
    assert t.over is False  # the claim window on 1s is still open
    assert run(t, "1+6p") == ["event_after_end"]
    assert t.over


def test_push_raises_on_an_illegal_action() -> None:
    t = table()
    with pytest.raises(IllegalActionError) as info:
        t.push(act("1-5m"))
    assert info.value.code == "discard_out_of_turn"


def test_the_exchange_must_follow_the_die_when_receive_is_recorded() -> None:
    doc = match_doc(round_doc(HANDS, []), ruleset="chengdu")
    doc["rounds"][0]["events"] = [
        {"type": "exchange", "die": 1, "give": [["7m", "8m", "9m"], ["1p", "2p", "3p"],
                                                ["4s", "5s", "6s"], ["6s", "7s", "8s"]],
         "receive": [["4s", "5s", "6s"], ["4s", "5s", "6s"], ["6s", "7s", "8s"],
                     ["7m", "8m", "9m"]]}]
    codes = [v.code for v in verify_document(doc).violations]
    # die 1: each seat receives from its 下家; seat 0 gets seat 1's 1p2p3p, not 4s5s6s
    assert codes.count("exchange_receive_mismatch") == 1


def test_exchange_of_mixed_suits_is_reported() -> None:
    doc = match_doc(round_doc(HANDS, []), ruleset="chengdu")
    doc["rounds"][0]["events"] = [
        {"type": "exchange", "die": 3, "give": [["9m", "8m", "5s"], ["1p", "2p", "3p"],
                                                ["4s", "5s", "6s"], ["6s", "7s", "8s"]]}]
    assert [v.code for v in verify_document(doc).violations] == ["exchange_mixed_suits"]


def test_an_exchange_in_a_ruleset_without_one_is_reported() -> None:
    doc = match_doc(round_doc(HANDS, ["ex3 789m|123p|456s|678s"]),
                    ruleset={"exchange": "off"})
    assert [v.code for v in verify_document(doc).violations] == ["exchange_not_allowed"]


def test_play_without_the_exchange_is_reported_when_the_ruleset_has_one() -> None:
    doc = match_doc(round_doc(HANDS, ["dq smmm", "0-5s"]), ruleset="chengdu")
    assert [v.code for v in verify_document(doc).violations] == ["exchange_missing"]


def test_every_table_code_has_a_sentence() -> None:
    assert all(isinstance(v, str) and v for v in CODES.values())


def test_a_log_that_stops_at_a_must_win_draw_is_incomplete_not_illegal() -> None:
    t = table({"last_four": "must_win_self_draw"})
    run(t, "0-5s", "1+4p", "1-4p", "2+4p", "2-4p", "3+8p", "3-8p")
    t.wall_left = 4
    assert run(t, "0+5m") == []
    assert t.finish() == []
    assert not t.over


def test_a_log_that_stops_at_a_discard_someone_must_win_is_incomplete() -> None:
    t = table({"last_four": "must_win_all"})
    run(t, "0-5s")
    t.wall_left = 4
    assert run(t, "1+4p", "1-5m") == []
    assert t.finish() == []
    assert not t.over


def test_an_exchange_by_dice_sum_without_dice_trusts_the_recorded_receive() -> None:
    by_sum = {"by": "sum", "map": {str(i): "opposite" for i in range(2, 13)}}
    give = [["7m", "8m", "9m"], ["1p", "2p", "3p"], ["4s", "5s", "6s"], ["6s", "7s", "8s"]]
    receive = [give[1], give[2], give[3], give[0]]
    doc = match_doc(round_doc(HANDS, []), ruleset={"exchange": by_sum})
    del doc["rounds"][0]["dice"]
    doc["rounds"][0]["events"] = [{"type": "exchange", "die": 3, "give": give,
                                   "receive": receive}]
    assert verify_document(doc).violations == []
    del doc["rounds"][0]["events"][0]["receive"]
    assert [v.code for v in verify_document(doc).violations] == ["dice_missing"]


# Seat 1 pengs seat 0's 4s holding a concealed four of 5s (PENG_THEN_AN) or a third 4s
# (PENG_THEN_JIA).
PENG_THEN_AN = ["11123456789m9p4s6s", "222888m44s5555s9s", "1222334456789p", "1357m2468p13679s"]
PENG_THEN_JIA = ["11123456789m9p4s6s", "222888m444s555s9s", "1222334456789p",
                 "1357m2468p13679s"]


@pytest.mark.parametrize("kong", ["1an 5s", "1jia 4s"])
def test_kong_after_peng_off_only_a_discard_is_legal_after_a_peng(kong: str) -> None:
    hands = PENG_THEN_AN if "an" in kong else PENG_THEN_JIA
    t = table({"kong_after_peng": False}, hands=hands, voids="ppmm")
    assert run(t, "0-4s", "1peng0 4s") == []
    assert {a.type for a in t.legal_actions(1)} == {"discard"}
    assert run(t, kong) == ["kong_after_peng"]


@pytest.mark.parametrize("kong", ["1an 5s", "1jia 4s"])
def test_kong_after_peng_on_the_claimer_may_kong_then_draws_the_replacement(kong: str) -> None:
    hands = PENG_THEN_AN if "an" in kong else PENG_THEN_JIA
    t = table({"kong_after_peng": True}, hands=hands, voids="ppmm")
    assert run(t, "0-4s", "1peng0 4s") == []
    assert act(kong) in t.legal_actions(1)
    assert run(t, kong) == []
    # an added kong is open to robbing first (nobody can rob it here); then the replacement
    assert t.expect == ("rob" if "jia" in kong else "replacement")
    assert run(t, "1+3p", "1-3p") == []
    assert [k.kind for k in t.outcome().events] == ["concealed" if "an" in kong else "added"]


# Seat 0 declares a concealed kong of 2m, draws 5p and is ready on 1p/5p (345m678m11p55p):
# 平胡 0 + 暗杠 2 = 2 fan (chengdu), 0 fan without the kong add-on. Seats 1-3 are not ready.
KONG_READY = ["2222m345m678m11p5p5s", "1357m2468p13579s", "1357m2468p13579s",
              "1357m2468p13579s"]
KONG_READY_EVENTS = ["0an 2m", "0+5p", "0-5s"]


def _drawn_check(options: dict[str, Any]) -> tuple[Any, list[tuple[int, int, int, str]]]:
    t = table(options, hands=KONG_READY, voids="ssss")
    assert run(t, *KONG_READY_EVENTS) == []
    t.wall_left = 1
    assert run(t, "1+9m", "1-9m") == []
    t.finish()
    outcome = t.outcome()
    assert outcome.drawn
    pays = [(p.payer, p.payee, p.amount, p.reason)
            for p in settle(outcome, t.rules).payments if p.reason == "ting_check"]
    return next(c for c in outcome.checks if c.seat == 0), pays


def test_min_fan_kong_add_ons_count_towards_whether_a_wait_makes_the_hand_ready() -> None:
    check, pays = _drawn_check({"min_fan": 2})
    assert check.ready_fan == 2
    assert (1, 0, 4, "ting_check") in pays


def test_min_fan_a_wait_below_it_does_not_count_so_the_hand_is_not_ready() -> None:
    check, pays = _drawn_check({"min_fan": 3})
    assert check.ready_fan is None
    assert pays == []


def test_min_fan_max_no_kong_fan_changes_only_the_ting_value_not_readiness() -> None:
    # ready by its full 2 fan; valued at 0 fan without the kong (1 point), never dropped
    check, pays = _drawn_check({"min_fan": 2, "ting_check": "max_no_kong_fan"})
    assert (check.ready_fan, check.ready_fan_no_kong) == (2, 0)
    assert sorted(pays) == [(1, 0, 1, "ting_check"), (2, 0, 1, "ting_check"),
                            (3, 0, 1, "ting_check")]


@pytest.mark.parametrize("min_fan, codes", [(2, ["last_four_not_won"]), (3, [])])
def test_min_fan_the_last_four_duty_binds_only_a_win_that_reaches_it(
        min_fan: int, codes: list[str]) -> None:
    t = table({"min_fan": min_fan}, hands=KONG_READY, voids="ssss")
    run(t, *KONG_READY_EVENTS, "1+9m", "1-9m", "2+9m", "2-9m", "3+9m", "3-9m")
    t.wall_left = 4
    assert run(t, "0+1p", "0-1p") == codes


def _exchanges() -> list[tuple[dict[str, Any], dict[str, Any], Rules]]:
    """The exchange of simulated rounds, as recorded and changed in each way it can be
    wrong: a tile given that is not held, mixed suits, a tile given twice, a receive that
    does not follow the die, another die, no receive."""
    from xuezhan.sim.simulate import simulate_match

    out = []
    for preset in ("chengdu", "online", {"exchange": "dice"}):
        doc = simulate_match(3, 3, preset)
        rules = Rules.from_json(doc.get("ruleset", "chengdu"))
        for rdoc in doc["rounds"]:
            ex = rdoc["events"][0]
            give, receive = ex["give"], ex.get("receive")
            changed = [ex, {**ex, "die": ex["die"] % 6 + 1}, {k: v for k, v in ex.items()
                                                              if k != "receive"}]
            for seat in range(4):
                other = give[(seat + 1) % 4]
                changed.append({**ex, "give": [other if s == seat else g
                                               for s, g in enumerate(give)]})
                changed.append({**ex, "give": [[g[0], g[0], g[2]] if s == seat else g
                                               for s, g in enumerate(give)]})
                changed.append({**ex, "give": [[g[0], g[1], other[2]] if s == seat else g
                                               for s, g in enumerate(give)]})
                if receive is not None:
                    changed.append({**ex, "receive": [receive[(s + 1) % 4] if s == seat else r
                                                      for s, r in enumerate(receive)]})
            out += [(rdoc, e, rules) for e in changed]
    return out


def test_the_usual_exchange_moves_the_tiles_as_the_checked_way_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def after(rdoc: dict[str, Any], ex: dict[str, Any], rules: Rules) -> Any:
        t = Table(rules, rdoc["dealer"], [parse_tiles(h) for h in rdoc["hands"]],
                  wall=parse_tiles(rdoc["wall"]), dice=rdoc.get("dice"))
        problems = t.play(action_from_json(ex))
        return [p.code for p in problems], t.hands, t.stage

    cases = _exchanges()
    plain = [after(*case) for case in cases]
    monkeypatch.setattr(Table, "_exchange_plainly", lambda *args: False)
    assert plain == [after(*case) for case in cases]
    assert any(not codes for codes, _, _ in plain) and any(codes for codes, _, _ in plain)
