"""Reading the input of the command-line tools: a file, or standard input for ``-``."""

from __future__ import annotations

import sys

from xuezhan.errors import LogFormatError


def read_input(path: str) -> bytes:
    """The bytes of a file, or of standard input for ``-``.

    :raises LogFormatError: when it cannot be read (the command then exits 2).
    """
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise LogFormatError(f"cannot read {path}: {exc.strerror}") from None
