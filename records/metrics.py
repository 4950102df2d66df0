"""The records' Prometheus counters (exposed at /metrics by config.ops)."""

from __future__ import annotations

from prometheus_client import Counter

UPLOADS = Counter(
    "xuezhan_uploads",
    "Match uploads by outcome: created, duplicate, conflict, invalid, too_large.",
    ["outcome"],
)

DEPENDENCY_DOWN = Counter(
    "xuezhan_dependency_unavailable",
    "Requests answered 503 because a dependency (cache, broker, database) was away.",
    ["dependency"],
)
UPLOAD_THROTTLE_UNAVAILABLE = Counter(
    "xuezhan_upload_throttle_unavailable",
    "Uploads whose rate could not be counted (the cache was away), by what was done: "
    "allowed (UPLOAD_THROTTLE_FAIL_OPEN) or refused.",
    ["decision"],
)
