"""The records' Prometheus counters (exposed at /metrics by config.ops)."""

from __future__ import annotations

from prometheus_client import Counter

UPLOADS = Counter(
    "xuezhan_uploads",
    "Match uploads by outcome: created, duplicate, conflict, invalid, too_large.",
    ["outcome"],
)
