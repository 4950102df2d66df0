"""The OpenAPI schema documents every status an operation can answer, each with its body.

drf-spectacular documents what a view declares; the errors that come from the framework
(authentication, content negotiation, parsing, pagination) are added here, to every
operation they can happen to, all with the one problem shape (records/errors.py).
"""

from __future__ import annotations

from typing import Any

PROBLEM = "DocumentError"  # the component of records.serializers.DocumentErrorSerializer
#: the largest id (records/converters.py: at most 18 digits, below 2**63)
MAX_ID = 999_999_999_999_999_999


def bounded_int(low: int, high: int) -> dict[str, Any]:
    """An integer parameter's schema with the bounds the server checks (low and high
    included): a value the schema allows is never refused for its size."""
    return {"type": "integer", "minimum": low, "maximum": high}


_REASONS = {
    "400": "Bad request: a parameter or the body is not valid, or the change would break a "
    "rule of the club (removing its last owner, answering an invitation already answered or "
    "revoked); ``errors`` names each problem.",
    "401": "Not signed in, or the token is unknown or expired.",
    "403": "Signed in, but the role is not enough (or the CSRF check failed).",
    "404": "No such object, or not in one of your clubs (or no such page of a list).",
    "406": "None of the media types in Accept can be served, or no such ?format= here "
    "(``formats`` names those there are).",
    "409": "Conflicts with the current state; ``detail`` says which object.",
    "413": "Over the upload limit (``limit``, in bytes).",
    "415": "The body's media type is not one the operation reads.",
    "429": "Too many requests; wait ``retry_after`` seconds (also the Retry-After header).",
    "503": "A dependency is away for a moment (``dependency``: cache, broker or database); "
    "try again after ``retry_after`` seconds (also the Retry-After header).",
}
_WRITES = ("post", "put", "patch")


def document_errors(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """A POSTPROCESSING_HOOKS entry: add the framework's error answers to each operation."""
    body = {"application/json": {"schema": {"$ref": f"#/components/schemas/{PROBLEM}"}}}
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in (*_WRITES, "get", "delete", "head", "options", "trace"):
                continue
            responses = operation.setdefault("responses", {})
            for code in _statuses(method, operation):
                responses.setdefault(code, {"description": _REASONS[code]})
            for code, response in responses.items():
                if code >= "400" and "content" not in response:
                    response["content"] = body
    return result


def _statuses(method: str, operation: dict[str, Any]) -> list[str]:
    parameters = operation.get("parameters", [])
    codes = ["401", "403", "406"]  # any request may carry a bad token or a strange Accept
    if any(p.get("in") == "path" for p in parameters) or any(
        p.get("name") == "page" for p in parameters
    ):
        codes.append("404")
    # a write or a delete may break a rule of the club (the last owner, an answered
    # invitation) even without a body to be invalid
    if ("requestBody" in operation or method in (*_WRITES, "delete")
            or any(p.get("in") == "query" for p in parameters)):
        codes.append("400")
    if "requestBody" in operation or method in _WRITES:
        codes += ["413", "415"]
    codes.append("503")  # any request may meet the cache, broker or database away
    return codes
