"""Statistics: per-player figures from the verified facts, the materialised day rows that
serve them, charts, and their API and pages (docs/statistics.md)."""
