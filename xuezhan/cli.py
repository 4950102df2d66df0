"""The command line: ``xuezhan verify|score|waits|review ...``.

Exit codes of ``verify``: 0 legal, 1 violations found, 2 unreadable input (a file that
cannot be read, or text the strict reader of :mod:`xuezhan.reader` refuses). Bad
arguments exit 2 with a message that names them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from xuezhan import review as review_tool
from xuezhan import sheet as sheet_tool
from xuezhan.errors import InvalidTileError, XuezhanError
from xuezhan.fan import WinContext, check_tile_count, score_win, ting_value
from xuezhan.files import read_input
from xuezhan.hand import Meld, MeldKind, waits
from xuezhan.reader import read_document
from xuezhan.replay import Report, verify_document
from xuezhan.rules import KONG_KINDS, Rules
from xuezhan.sim import corrupt as corrupt_tool
from xuezhan.sim import simulate as simulate_tool
from xuezhan.tiles import SUIT_LETTERS, Tile, counts_of, format_tiles, parse_tiles

_MELD_KINDS = {"peng": MeldKind.PENG, "ming": MeldKind.MING, "jia": MeldKind.JIA,
               "an": MeldKind.AN}

#: a sub-command: (add its arguments, run it)
Command = tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="xuezhan", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (add_arguments, _run) in _commands().items():
        add_arguments(sub.add_parser(name))
    args = parser.parse_args(argv)
    try:
        return _commands()[args.command][1](args)
    except XuezhanError as exc:
        print(f"xuezhan {args.command}: {exc}", file=sys.stderr)
        return 2


def _commands() -> dict[str, Command]:
    return {"verify": (_verify_args, _verify), "score": (_score_args, _score),
            "waits": (_waits_args, _waits), **simulate_tool.CLI_COMMANDS,
            **corrupt_tool.CLI_COMMANDS, **sheet_tool.CLI_COMMANDS,
            **review_tool.CLI_COMMANDS}


# -- verify --------------------------------------------------------------------------

def _verify_args(p: argparse.ArgumentParser) -> None:
    p.description = "Replay and verify a round log; print the report as JSON."
    p.add_argument("file", help="a round log (docs/format.md), or - for standard input")
    p.add_argument("--text", action="store_true", help="print a readable table instead")


def _verify(args: argparse.Namespace) -> int:
    report = verify_document(read_document(read_input(args.file)))
    print(format_report(report) if args.text else json.dumps(report.to_dict(),
                                                              ensure_ascii=False, indent=2))
    return 0 if report.legal else 1


def format_report(report: Report) -> str:
    """The report as a readable table."""
    lines = [f"legal: {'yes' if report.legal else 'no'}"]
    if report.rules is not None:
        lines.append(f"ruleset: {report.rules.preset_name} "
                     f"({len(report.rules.to_json()) - 1} options)")
    for v in report.violations:
        where = f"round {v.round}" if v.round is not None else "document"
        where += f" event {v.event}" if v.event is not None else ""
        who = f" seat {v.seat}" if v.seat is not None else ""
        lines.append(f"  ✗ {where}{who} [{v.code}] {v.message}")
    for i, r in enumerate(report.rounds):
        state = " (incomplete)" if r.incomplete else ""
        lines.append(f"round {i}{state}: deltas {_signed(r.settlement.deltas)}, "
                     f"next dealer {r.settlement.next_dealer}")
        for p in r.settlement.payments:
            lines.append(f"  seat {p.payer} → seat {p.payee} {p.amount:>4}  "
                         f"{p.reason:<18} {p.detail}")
    lines.append(f"totals: {_signed(report.totals)}")
    return "\n".join(lines)


def _signed(values: Sequence[int]) -> str:
    return " ".join(f"{v:+d}" for v in values)


# -- score and waits -----------------------------------------------------------------

def _hand_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("hand", help="the concealed tiles, e.g. 123m456p789s11m")
    p.add_argument("--melds", default="", help='declared melds, e.g. "peng:5p,an:2s,ming:7m"')
    p.add_argument("--void", choices=list(SUIT_LETTERS), help="the declared void suit")
    p.add_argument("--rules", default="chengdu", help='a preset name or JSON, e.g. '
                   '\'{"preset": "chengdu", "max_fan": 4}\'')


def _score_args(p: argparse.ArgumentParser) -> None:
    p.description = "Score a winning hand (HAND includes the winning tile)."
    _hand_args(p)
    p.add_argument("--win", required=True, help="the winning tile")
    p.add_argument("--self-drawn", action="store_true")
    p.add_argument("--after-kong", nargs="?", const="direct", choices=KONG_KINDS,
                   help="杠上花, on the replacement of a kong of this kind (default direct)")
    p.add_argument("--rob-kong", action="store_true", help="抢杠")
    p.add_argument("--kong-discard", action="store_true", help="杠上炮")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--heaven", action="store_true", help="天胡")
    group.add_argument("--earth", action="store_true", help="地胡")
    p.add_argument("--last-tile", action="store_true", help="海底")


def parse_melds(text: str) -> list[Meld]:
    """Read ``"peng:5p,an:2s"``. :raises XuezhanError: naming the bad meld."""
    melds = []
    for part in filter(None, (s.strip() for s in text.split(","))):
        kind, _, tile = part.partition(":")
        if kind not in _MELD_KINDS:
            raise InvalidTileError(part, "bad meld (peng|ming|jia|an:TILE)")
        melds.append(Meld(_MELD_KINDS[kind], Tile.parse(tile)))
    return melds


def _common(args: argparse.Namespace, *, winning: bool,
            ) -> tuple[list[int], list[Meld], int | None, Rules]:
    """The hand, melds, void and ruleset of ``score``/``waits``, checked.

    :raises TileCountError: for a 相公 hand — HAND must hold 13 − 3·melds tiles for
        ``waits``, 14 − 3·melds for ``score`` (the winning tile is part of HAND).
    """
    counts = counts_of(parse_tiles(args.hand))
    melds = parse_melds(args.melds)
    check_tile_count(counts, melds, winning=winning)
    void = SUIT_LETTERS.index(args.void) if args.void else None
    return counts, melds, void, Rules.from_json(args.rules)


def _score(args: argparse.Namespace) -> int:
    counts, melds, void, rules = _common(args, winning=True)
    win = Tile.parse(args.win)
    ctx = WinContext(self_drawn=args.self_drawn or args.heaven or args.earth,
                     after_kong=args.after_kong,
                     kong_discard=args.kong_discard, rob_kong=args.rob_kong,
                     heaven=args.heaven, earth=args.earth, last_tile=args.last_tile)
    score = score_win(counts, melds, win, void, rules, ctx)
    _print(score.to_json())
    return 0 if score.winning else 1


def _waits_args(p: argparse.ArgumentParser) -> None:
    p.description = "The waits of a ready hand, each with the fan it would score (查叫)."
    _hand_args(p)


def _waits(args: argparse.Namespace) -> int:
    """``waits`` lists the waits that count (a win on them is allowed: its full fan reaches
    min_fan); ``waits_below_min_fan`` the shape waits whose win would score too little,
    and ``waits_not_live`` those dropped by ``ting_check_waits: live``. ``ready`` is true
    when some wait counts (docs/rules.md §3, §7 min_fan)."""
    counts, melds, void, rules = _common(args, winning=False)
    value = ting_value(counts, melds, void, rules)
    scored = dict(value[1]) if value else {}
    below, dead = [], []
    for t in waits(counts, void):
        if t in scored:
            continue
        grown = list(counts)
        grown[t] += 1
        score = score_win(grown, melds, t, void, rules, WinContext(situational=False))
        if score.reason == "below_min_fan":
            below.append({"tile": str(t), "fan": score.fan})
        else:
            dead.append(str(t))
    _print({
        "hand": format_tiles(parse_tiles(args.hand)),
        "ready": value is not None,
        "value": value[0] if value else None,
        "waits": [{"tile": str(t), "fan": s.fan, "points": s.points, "pattern": s.pattern}
                  for t, s in scored.items()],
        "waits_below_min_fan": below,
        "waits_not_live": dead,
    })
    return 0


def _print(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))
