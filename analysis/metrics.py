"""The verification's Prometheus metrics (exposed at /metrics by config.ops)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

VERIFICATIONS = Counter(
    "xuezhan_verifications",
    "Verification task runs by outcome: verified, illegal, failed, skipped, retried.",
    ["outcome"],
)
TASK_SECONDS = Histogram(
    "xuezhan_verify_task_seconds",
    "Run time of one verification task.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
UPLOAD_TO_VERDICT_SECONDS = Histogram(
    "xuezhan_upload_to_verdict_seconds",
    "From the upload to the verdict (queue wait, retries and run time).",
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900),
)
