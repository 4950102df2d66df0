"""Names people choose: the identity a sign-in is counted against, and which characters
a handle, a club's, a season's or a user's name may hold.

The sign-in identity follows Django's own path (django/contrib/auth): the sign-in form's
``UsernameField`` strips the value and applies NFKC, then ``ModelBackend`` looks the name
up exactly; sign-up (``UserCreationForm.clean_username``) refuses a name that differs from
an existing one only in case. So NFKC then case-folding names at most one account, and
every variant that could sign in to it (fullwidth ``ｄemo``, ``ＤＥＭＯ``, ligatures such
as ``ﬁ``) has the same identity: the limits count them together.

Bidirectional controls (U+202E turns the text after it around) and zero-width characters
(U+200B) make one name look like another or reorder the text around it: new names may not
hold them (nor any other format or control character), and the pages show those already
stored as visible escapes (``\\u202e``), inside an isolate (templatetags/names.py).
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

#: Unicode categories refused in names: controls (Cc), format characters (Cf: the bidi
#: embeddings, overrides and isolates, LRM/RLM/ALM, zero-width space and joiners, BOM,
#: soft hyphen), line and paragraph separators, lone surrogates
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})

#: the one message for a refused character, on the API (under the field's name) and forms
INVISIBLE_MESSAGE = gettext_lazy(
    "Names may not contain invisible or direction-changing characters (such as U+200B "
    "or U+202E)."
)


def authenticated_name(raw: str) -> str:
    """The user name as Django's sign-in form hands it to the backend: stripped, NFKC."""
    return unicodedata.normalize("NFKC", raw.strip())


def sign_in_identity(raw: str) -> str:
    """The one key every sign-in limit counts against: the authenticated name, case-folded
    (sign-up keeps names unique regardless of case), NFKC again since folding can undo it."""
    return unicodedata.normalize("NFKC", authenticated_name(raw).casefold())


def is_unsafe(char: str) -> bool:
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def has_unsafe(value: str) -> bool:
    """Whether a name holds a character it may not: what the validators refuse."""
    return any(is_unsafe(char) for char in value)


def visible(value: str) -> str:
    """The name with each unsafe character written out (``\\u202e``), for display."""
    if not has_unsafe(value):
        return value
    return "".join(
        (f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}")
        if is_unsafe(char) else char
        for char in value
    )


def refuse_unsafe(value: str) -> str:
    """A validator for a new name (serializers' ``validate_<field>``, forms, documents):
    the value, or a ValidationError the caller files under the field's name."""
    if has_unsafe(value):
        raise ValidationError(INVISIBLE_MESSAGE, code="invisible_character")
    return value
