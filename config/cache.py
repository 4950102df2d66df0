"""Django's Redis cache with one Redis client kept per connection pool.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every cache call. The
connections come from a shared pool either way, but building the client (its response
callbacks, some hundreds of entries) cost ~0.3–0.8 ms a call, and a verification makes
three (docs/benchmarks.md, "Pipeline"). A ``redis.Redis`` is safe to share between threads,
and its pool starts afresh in a forked process, so one per pool serves a whole process.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class _KeptClients(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # the stubs leave out Django's private members used here
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(  # type: ignore[attr-defined]
                connection_pool=pool
            )
        return client


class KeptClientRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache``, its clients kept (see above)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _KeptClients
