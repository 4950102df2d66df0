"""The Redis cache keeps one client per connection pool (config/cache.py)."""

from __future__ import annotations

import pytest

from config.cache import KeptClientRedisCache
from tests.conftest import BROKER_URL, needs_broker


def test_every_call_of_a_process_shares_one_client_per_pool() -> None:
    cache = KeptClientRedisCache("redis://127.0.0.1:1/0", {})  # nothing is connected yet
    first = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=True) is first
    assert cache._cache.get_client(write=False) is first  # one server: one pool


@needs_broker
@pytest.mark.broker
def test_the_kept_client_reads_and_writes_like_djangos() -> None:
    cache = KeptClientRedisCache(BROKER_URL, {"KEY_PREFIX": "xz-test-cache"})
    cache.set("k", {"a": 1}, timeout=30)
    assert cache.get("k") == {"a": 1}
    assert cache.add("n", 1) and cache.incr("n") == 2
    cache.delete_many(["k", "n"])
    assert cache.get("k") is None
