"""An independent review of the table, the replay and the settlement against RULES.md
and the seed texts: each test names the rule it checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from xuezhan.replay import verify_document

DATA = Path(__file__).resolve().parent.parent / "data"


def _third_win_doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        (DATA / "third_win_ends_round_chengdu.json").read_text(encoding="utf-8"))
    return doc


def test_verifier_never_raises_on_a_result_with_whole_numbers_written_as_floats() -> None:
    # RULES §6: the verifier never crashes; 3.0 is an integer to JSON Schema.
    doc = _third_win_doc()
    doc["rounds"][0]["result"] = {"deltas": [3.0, 3.0, 2.0, -8.0]}
    report = verify_document(doc)
    found = [(v.code, v.seat) for v in report.violations]
    assert found == [("result_mismatch", 2), ("result_mismatch", 3)]
