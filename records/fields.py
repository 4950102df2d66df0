"""An upload's bytes stored compressed (docs/scaling.md, "Storage"): the document, verbatim,
was the largest value of the database (~43 KB a match, ~10 KB after PostgreSQL's lz4)."""

from __future__ import annotations

from typing import Any

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
