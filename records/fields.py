"""Large values stored compressed (docs/scaling.md, "Storage"): an upload's bytes (the
document, verbatim, was the largest value of the database: ~43 KB a match, ~10 KB after
PostgreSQL's lz4) and the decision review's summaries (~12 KB of JSON, ~2.5 KB as jsonb)."""

from __future__ import annotations

from typing import Any

import orjson
import zstandard
from django.db import models

#: zstd's frame magic number: no upload starts with it (0xB5 cannot start UTF-8 text)
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: level 10: a document of ~43 KB becomes ~3.7 KB in ~0.7 ms (level 3: 4.7 KB, 19: 3.3 KB
#: in 24 ms; zlib -9: 3.8 KB in 2 ms) — docs/benchmarks.md, "Storage"
ZSTD_LEVEL = 10


def compress(raw: bytes) -> bytes:
    return zstandard.ZstdCompressor(level=ZSTD_LEVEL).compress(raw)


def decompress(stored: bytes) -> bytes:
    """The bytes :func:`compress` was given; bytes stored before compression as they are."""
    if stored[:4] != ZSTD_MAGIC:
        return stored
    return zstandard.ZstdDecompressor().decompress(stored)


class CompressedBinaryField(models.BinaryField):  # type: ignore[type-arg]
    """Bytes stored compressed with zstd (:func:`compress`) and read back whole. Compressed
    bytes given are stored as they are (a bulk load compresses its rows itself)."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> bytes | None:
        return None if value is None else decompress(bytes(value))

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is not None and not prepared and bytes(value[:4]) != ZSTD_MAGIC:
            value = compress(bytes(value))
        return super().get_db_prep_value(value, connection, prepared)


def jsonb_order(key: str) -> tuple[int, bytes]:
    """The order ``jsonb`` keeps an object's keys in: shorter first, then by their bytes."""
    encoded = key.encode()
    return len(encoded), encoded


def in_jsonb_order(value: Any) -> Any:
    """``value`` with every object's keys in :func:`jsonb_order`, as a ``jsonb`` column
    gives them back."""
    if isinstance(value, dict):
        return {key: in_jsonb_order(value[key]) for key in sorted(value, key=jsonb_order)}
    if isinstance(value, list | tuple):
        return [in_jsonb_order(item) for item in value]
    return value


def dump_json(value: Any) -> bytes:
    """What :class:`CompressedJSONField` stores of ``value``: its JSON compressed."""
    return compress(orjson.dumps(in_jsonb_order(value)))


def load_json(stored: bytes) -> Any:
    """The value :func:`dump_json` stored (its objects' keys in jsonb's order)."""
    return orjson.loads(decompress(stored))


class CompressedJSONField(models.BinaryField):  # type: ignore[type-arg]
    """A JSON value stored as zstd-compressed JSON text (:func:`compress`), read back with
    its objects' keys in ``jsonb``'s order, as the ``jsonb`` column it replaces gave them
    (the API serves stored values as they are). For large values read only in Python: no
    lookups into them, only ``isnull``. Bytes given are taken as already compressed."""

    # what django-stubs types the attribute as: the JSON value, not bytes
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else load_json(bytes(value))

    def to_python(self, value: Any) -> Any:
        return orjson.loads(value) if isinstance(value, str) else value  # value_to_string's

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is not None and not prepared and not isinstance(value, bytes | memoryview):
            value = dump_json(value)
        return super().get_db_prep_value(value, connection, prepared)

    def value_to_string(self, obj: Any) -> str:
        return orjson.dumps(self.value_from_object(obj)).decode()
