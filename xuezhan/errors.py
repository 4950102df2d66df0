"""The engine's exception types. Everything the engine raises derives from XuezhanError."""

from __future__ import annotations


class XuezhanError(Exception):
    """Base class of every error the engine raises on purpose."""


class InvalidTileError(XuezhanError, ValueError):
    """A tile or hand string that cannot be read; the message names the bad token."""

    def __init__(self, token: object, reason: str = "bad tile") -> None:
        self.token = token
        super().__init__(f"{reason}: {token!r}")


class RulesError(XuezhanError, ValueError):
    """An unknown ruleset option, or a bad value for one; the message names it."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f"ruleset option {option!r}: {message}")


class LogFormatError(XuezhanError, ValueError):
    """A document that is not a readable round log (structural, not a rule violation)."""

    def __init__(self, message: str, issues: list[tuple[str, str]] | None = None) -> None:
        #: (json path, message) pairs, one per structural problem found
        self.issues = issues or []
        super().__init__(message)


class IllegalActionError(XuezhanError, ValueError):
    """An action that the table state does not allow; ``code`` is a stable violation code."""

    def __init__(self, code: str, message: str, seat: int | None = None) -> None:
        self.code = code
        self.seat = seat
        self.message = message
        super().__init__(f"{code}: {message}")


class TileCountError(XuezhanError, ValueError):
    """A hand whose concealed tile count cannot go with its melds (相公): a waiting hand
    holds 13 − 3·melds tiles, a winning hand 14 − 3·melds (docs/rules.md §3)."""

    def __init__(self, count: int, expected: int, melds: int) -> None:
        self.count = count
        self.expected = expected
        self.melds = melds
        sets = f" with {melds} meld{'s' if melds != 1 else ''}" if melds else ""
        super().__init__(f"impossible tile count (相公): {count} concealed tiles{sets}, "
                         f"expected {expected}")
