"""The replay frame: what a step-through viewer shows after each step of a round.

A frame is plain JSON, defined once here as TypedDicts; the service serves it as it is
(``analysis.serializers`` derives its fields from these types). Frame 0 is the deal;
every event of the round (the exchange and 定缺 included) then makes one frame.
:func:`xuezhan.replay.replay_frames` builds them from the replay walk
(:class:`xuezhan.replay.RoundWalk`); :class:`Framer` is the part that turns one step of
the walk into a frame, keeping what the table itself forgets (which discards were
claimed or won, what the exchange handed over).

Seats are 0-3 and every per-seat list is indexed by seat. Tiles are written as in the
log (``"5m"``). See ``docs/format.md`` for the log and the report.
"""

# no ``from __future__ import annotations`` here: TypedDict reads NotRequired from the
# evaluated annotations (Python 3.11 misses it in a string annotation)
from collections import Counter
from collections.abc import Sequence
from typing import NotRequired, TypedDict

from xuezhan.actions import Action, DingQue, Discard, Draw, Exchange, Gang, Hu, Peng
from xuezhan.hand import KongKind
from xuezhan.settlement import RoundRecord, settle
from xuezhan.table import Problem, Table
from xuezhan.tiles import SUIT_LETTERS, TILES


class FrameAction(TypedDict):
    """What happened at a step, for a program to read; the keys are the log's
    event keys (docs/format.md), so a frame's action reads like the event it replays.

    - ``type``: ``"deal"`` (frame 0), else the log's event type: ``"exchange"``, ``"dingque"``,
      ``"draw"``, ``"discard"``, ``"peng"``, ``"gang"``, ``"hu"``.
    - ``actor``: the seat that acted; the dealer for the deal; null for the exchange and 定缺
      (all seats act).
    - ``tile``: the tile drawn, discarded, claimed, konged or won; null for the deal, the
      exchange and 定缺.
    - ``target``: the seat the tile came from: the discarder for a peng, a direct kong and a
      win on a discard, the konger for robbing a kong; null otherwise (a self-drawn win too).
    - ``kind`` (kongs only): ``"ming"`` direct, ``"jia"`` added to a peng, ``"an"`` concealed:
      the log's spelling (``KongKind.log``), as in the melds.
    - ``replacement`` (draws only): the tile replaces a kong (a win on it is 杠上花).
    - ``rob_kong`` (wins only): the win robs an added kong (抢杠).
    - ``die``, ``give``, ``receive`` (the exchange only): the die as recorded, the three tiles
      each seat gave, and the tiles each seat got, as the table applied them.
    - ``suits`` (定缺 only): each seat's void suit, ``"m"``, ``"p"`` or ``"s"``.
    """

    type: str
    actor: int | None
    tile: str | None
    target: int | None
    kind: NotRequired[str]
    replacement: NotRequired[bool]
    rob_kong: NotRequired[bool]
    die: NotRequired[int]
    give: NotRequired[list[list[str]]]
    receive: NotRequired[list[list[str]]]
    suits: NotRequired[list[str]]


FrameMeld = TypedDict("FrameMeld", {"kind": str, "tile": str, "from": int | None})
FrameMeld.__doc__ = """A meld: ``kind`` is ``"peng"``, ``"ming"`` (direct kong), ``"jia"`` (added
kong) or ``"an"`` (concealed kong); ``from`` the seat whose discard was claimed (an added kong
keeps its peng's), null for a concealed kong."""


class RiverTile(TypedDict):
    """One discard, in the order of the seat's discards, with what became of it.

    ``claimed_by``: the seat that took it for a peng or a direct kong (else null).
    ``won_by``: the seats that won on it (several for 一炮多响; else empty).
    """

    tile: str
    claimed_by: int | None
    won_by: list[int]


class FrameProblem(TypedDict):
    """A violation found at this step: the report's stable ``code``, who, and a sentence."""

    code: str
    message: str
    seat: int | None


class Frame(TypedDict):
    """The table after one step of a round.

    - ``event``: the index of the event in the round's ``events``; null for the deal.
    - ``action``: what the step did (:class:`FrameAction`).
    - ``hands``: each seat's concealed tiles, sorted.
    - ``melds``: each seat's melds in the order made (:class:`FrameMeld`).
    - ``discards``: each seat's tiles still lying in its river (claimed and won ones gone).
    - ``rivers``: each seat's every discard, claimed and won ones marked (:class:`RiverTile`).
    - ``voids``: each seat's void suit (``"m"``/``"p"``/``"s"``), null before 定缺.
    - ``won``: whether each seat has won; ``win_order``: the seats that have, in order.
    - ``wall_remaining``: tiles left to draw.
    - ``to_act``: the seat whose turn it is (after a discard, the discarder, until a claim
      or the next draw), null once the round is over.
    - ``scores``: each seat's running delta, for base × points: kong money as it is paid
      and wins as they are made (end-of-round checks are not known yet).
    - ``problems``: the violations this step raised (the deal's on frame 0; those found
      when the log ends, e.g. a last-four win not taken, on the last frame).
    """

    event: int | None
    action: FrameAction
    hands: list[list[str]]
    melds: list[list[FrameMeld]]
    discards: list[list[str]]
    rivers: list[list[RiverTile]]
    voids: list[str | None]
    won: list[bool]
    win_order: list[int]
    wall_remaining: int
    to_act: int | None
    scores: list[int]
    problems: list[FrameProblem]


class Framer:
    """Makes the frames of one round from the walk's table, one step at a time.

    >>> from xuezhan.rules import Rules
    >>> from xuezhan.tiles import parse_tiles
    >>> hands = [parse_tiles("123456789m1122p9s"), parse_tiles("123456789p1122s"),
    ...          parse_tiles("123456789s1122m"), parse_tiles("345678m345678p3s")]
    >>> table = Table(Rules.from_json({"exchange": "off"}), dealer=0, hands=hands)
    >>> framer = Framer(table)
    >>> framer.deal([])["action"]
    {'type': 'deal', 'actor': 0, 'tile': None, 'target': None}
    >>> action = Discard(0, TILES[26])
    >>> frame = framer.step(0, action, table.play(action, 0))
    >>> frame["action"], frame["rivers"][0], frame["problems"][0]["code"]
    ({'type': 'discard', 'actor': 0, 'tile': '9s', 'target': None}, \
[{'tile': '9s', 'claimed_by': None, 'won_by': []}], 'dingque_missing')
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self._rivers: list[list[RiverTile]] = [[], [], [], []]
        self._hands = [list(h) for h in table.hands]
        self._kong_by: int | None = None  # the konger owed a replacement tile
        self._rob_open = False  # an added kong is open to robbing

    def deal(self, problems: Sequence[Problem]) -> Frame:
        """Frame 0: the hands as dealt."""
        action: FrameAction = {"type": "deal", "actor": self.table.dealer, "tile": None,
                               "target": None}
        return self._frame(None, action, problems)

    def step(self, index: int, action: Action, problems: Sequence[Problem]) -> Frame:
        """The frame after event ``index`` (``action``) was played on the table."""
        described = self._describe(action)
        self._hands = [list(h) for h in self.table.hands]
        return self._frame(index, described, problems)

    def _describe(self, action: Action) -> FrameAction:
        if isinstance(action, Exchange):
            out = self._exchange(action)
        elif isinstance(action, DingQue):
            out = {"type": "dingque", "actor": None, "tile": None, "target": None,
                   "suits": [SUIT_LETTERS[s] for s in action.suits]}
        else:
            out = self._play(action)
        # a kong is owed its replacement tile, and an added kong open to robbing, only
        # until the next event (a robbed added kong owes nothing: it did not happen)
        self._kong_by = action.actor if isinstance(action, Gang) else None
        self._rob_open = (isinstance(action, Gang) and action.kind is KongKind.ADDED) or bool(
            out.get("rob_kong"))
        return out

    def _play(self, action: Draw | Discard | Peng | Gang | Hu) -> FrameAction:
        source = None if isinstance(action, Draw | Discard) else action.target
        tile = str(action.tile)
        out: FrameAction = {"type": action.type, "actor": action.actor, "tile": tile,
                            "target": source}
        if isinstance(action, Draw):
            out["replacement"] = self._kong_by == action.actor
        elif isinstance(action, Discard):
            self._rivers[action.actor].append({"tile": tile, "claimed_by": None, "won_by": []})
        elif isinstance(action, Gang):
            out["kind"] = action.kind.log  # as the log and the melds spell it
        elif isinstance(action, Hu):
            out["rob_kong"] = source is not None and self._rob_open
        if source is not None and not out.get("rob_kong"):
            self._mark(source, tile, action.actor, win=isinstance(action, Hu))
        return out

    def _mark(self, discarder: int, tile: str, seat: int, win: bool) -> None:
        river = self._rivers[discarder]
        if not river or river[-1]["tile"] != tile:
            return  # not the last discard: the table reports the fault
        if win:
            river[-1]["won_by"].append(seat)
        elif river[-1]["claimed_by"] is None:
            river[-1]["claimed_by"] = seat

    def _exchange(self, ex: Exchange) -> FrameAction:
        receive = []
        for seat, give in enumerate(ex.give):
            before, after = _multiset(self._hands[seat]), _multiset(self.table.hands[seat])
            given: Counter[int] = Counter(give)
            got = (after + (given & before)) - before
            receive.append([str(TILES[k]) for k in sorted(got.elements())])
        return {"type": "exchange", "actor": None, "tile": None, "target": None, "die": ex.die,
                "give": [[str(t) for t in g] for g in ex.give], "receive": receive}

    def _frame(self, index: int | None, action: FrameAction,
               problems: Sequence[Problem]) -> Frame:
        table = self.table
        running = settle(RoundRecord(dealer=table.dealer, events=tuple(table.record),
                                     drawn=False, base=table.base, complete=False,
                                     kong_discards=table.kong_discards,
                                     false_wins=tuple(table.false_wins)), table.rules)
        return {
            "event": index,
            "action": action,
            "hands": [[str(TILES[k]) for k, n in enumerate(h) for _ in range(n)]
                      for h in table.hands],
            "melds": [[{"kind": m.kind.value, "tile": str(m.tile), "from": m.source}
                       for m in melds] for melds in table.melds],
            "discards": [[str(t) for t in river] for river in table.discards],
            "rivers": [[{"tile": t["tile"], "claimed_by": t["claimed_by"],
                         "won_by": list(t["won_by"])} for t in river] for river in self._rivers],
            "voids": [None if v is None else SUIT_LETTERS[v] for v in table.voids],
            "won": list(table.won),
            "win_order": list(table.win_order),
            "wall_remaining": table.wall_left,
            "to_act": None if table.over else table.current,
            "scores": list(running.deltas),
            "problems": [problem_json(p) for p in problems],
        }


def problem_json(problem: Problem) -> FrameProblem:
    return {"code": problem.code, "message": problem.message, "seat": problem.seat}


def _multiset(counts: Sequence[int]) -> Counter[int]:
    return Counter({kind: n for kind, n in enumerate(counts) if n})
