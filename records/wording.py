"""What is wrong with an uploaded document, in the page language: the schema's issues from
the rule that failed and its parameters (``xuezhan.schema.SchemaIssue``: ``code``,
``params``), and the strict reader's refusals from their codes. The JSON path stays as it is
(a stable locator, shown as code); the sentence beside it is the page's.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from xuezhan.schema import SchemaIssue

# -- schema errors --------------------------------------------------------------------

#: the JSON types as a sentence names them (the schema's ``type`` values)
TYPES: dict[str, Promise] = {
    "object": gettext_lazy("an object"),
    "array": gettext_lazy("a list"),
    "string": gettext_lazy("a text"),
    "integer": gettext_lazy("a whole number"),
    "number": gettext_lazy("a number"),
    "boolean": gettext_lazy("true or false"),
    "null": gettext_lazy("null"),
}


def _listed(values: Any) -> str:
    return _(", ").join(str(v) for v in values) if isinstance(values, list | tuple) \
        else str(values)


def _type(name: Any) -> str:
    if isinstance(name, list):
        return _(" or ").join(_type(n) for n in name)
    found = TYPES.get(str(name))
    return str(found) if found is not None else str(name)


def schema_text(issue: SchemaIssue) -> str:
    """What is wrong at ``issue.path``, in the page language, from the rule that failed
    (``issue.code``) and its parameters; the JSON path itself is shown beside it."""
    code, p = issue.code, issue.params
    if code == "required":
        return _("The field %(name)s is missing.") % {"name": p.get("name")}
    if code == "additionalProperties":
        return _("Unknown field %(names)s.") % {"names": _listed(p.get("names", []))}
    if code == "type":
        return _("Expected %(expected)s.") % {"expected": _type(p.get("expected"))}
    if code in ("enum", "const"):
        return _("Must be one of: %(values)s.") % {"values": _listed(p.get("allowed", []))}
    if code == "minItems":
        return ngettext("%(count)d item; at least %(limit)d expected.",
                        "%(count)d items; at least %(limit)d expected.",
                        p["count"]) % {"count": p["count"], "limit": p["limit"]}
    if code in ("maxItems", "too_long"):
        return ngettext("%(count)d item; at most %(limit)d allowed.",
                        "%(count)d items; at most %(limit)d allowed.",
                        p["count"]) % {"count": p["count"], "limit": p["limit"]}
    if code in ("minimum", "exclusiveMinimum"):
        return _("Must be at least %(limit)s.") % {"limit": p.get("limit")}
    if code in ("maximum", "exclusiveMaximum"):
        return _("Must be at most %(limit)s.") % {"limit": p.get("limit")}
    if code in ("minLength", "maxLength", "pattern", "format"):
        return _("Not written as this field is.")
    if code == "float":
        return _("Written as a decimal number; this field takes a whole number.")
    if code == "uniqueItems":
        return _("The same value appears twice.")
    if code in ("oneOf", "anyOf", "if", "then", "else", "not", "allOf"):
        return _("Not any of the forms this field can take.")
    if code == "too_deep":
        return _("Nested too deeply to check.")
    return _("Not in the format.")


def english() -> bool:
    """Whether the page speaks English, the engine's own language (its sentences, which name
    more — a key, a depth, a count —, are then shown as they are)."""
    return (get_language() or "en").startswith("en")


def schema_problem(issue: SchemaIssue) -> dict[str, str]:
    """An issue as the API and the pages show it: ``path`` (stable), ``message`` (the
    sentence in the page language) and ``rule`` (the schema keyword that failed)."""
    message = issue.message if english() else schema_text(issue)
    return {"path": issue.path, "message": message, "rule": issue.code}


#: the strict reader's refusals (xuezhan.reader), by code
READER: dict[str, Promise] = {
    "not_utf8": gettext_lazy("The text is not UTF-8."),
    "not_json": gettext_lazy("The text is not JSON."),
    "too_deep": gettext_lazy("Nested too deeply to check."),
    "duplicate_key": gettext_lazy("The same key appears twice in one object."),
    "non_finite_number": gettext_lazy("NaN and Infinity are not numbers JSON allows."),
    "integer_too_long": gettext_lazy("A number with too many digits."),
    "unstorable_string": gettext_lazy("A text with a character that cannot be stored."),
    "integral_float": gettext_lazy(
        "Written as a decimal number; this field takes a whole number."),
}


_WHERE = re.compile(r"at line (\d+), column (\d+)$")


def reader_text(code: str, english_text: str) -> str:
    """A reader's refusal in the page language (its English sentence for an unknown code),
    with the line and column of text that is not JSON."""
    found = READER.get(code)
    if found is None or english():
        return english_text
    where = _WHERE.search(english_text) if code == "not_json" else None
    if where:
        return _("The text is not JSON: line %(line)s, column %(column)s.") % {
            "line": where[1], "column": where[2]}
    return str(found)


_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[(\"(?:[^\"\\\\]|\\\\.)*\")\]")


def where(path: str) -> str:
    """A JSON path as a place in the document: ``$.rounds[1].events[0].tile`` → round 2 ·
    event 1 · tile (rounds and events counted from 1; a field keeps its name, the format's
    identifier)."""
    steps: list[str] = []
    container: str | None = None
    for name, index, quoted in _STEP.findall(path[1:] if path.startswith("$") else path):
        if index:
            number = int(index) + 1
            if container == "rounds":
                steps[-1] = _("round %(number)s") % {"number": number}
            elif container == "events":
                steps[-1] = _("event %(number)s") % {"number": number}
            else:
                steps.append(_("item %(number)s") % {"number": number})
            container = None
            continue
        container = name or quoted
        steps.append(container)
    return _(" · ").join(steps) if steps else _("the document")


def ruleset_problem(english_text: str) -> str:
    """The engine's refusal of a ruleset (it names the option and the value) in English; in
    another language a sentence of the page's."""
    if english():
        return english_text
    return _("Not a ruleset the engine knows: an unknown preset or option, or a bad value.")
