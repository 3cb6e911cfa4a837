"""The character classes of RFC 1738 section 5 ("Miscellaneous definitions"), defined once.

Each class is a plain string of its members; the regex text of a class is derived from that one
string (``class_text``), never spelled again elsewhere, so the sets and the patterns cannot drift.
Stdlib only.
"""

from __future__ import annotations

import string

# lowalpha = "a" | "b" | ... | "z"
LOWALPHA = string.ascii_lowercase
# hialpha = "A" | "B" | ... | "Z"
HIALPHA = string.ascii_uppercase
# alpha = lowalpha | hialpha
ALPHA = LOWALPHA + HIALPHA
# digit = "0" | "1" | ... | "9"
DIGIT = string.digits
# alphadigit = alpha | digit
ALPHADIGIT = ALPHA + DIGIT
# safe = "$" | "-" | "_" | "." | "+"
SAFE = "$-_.+"
# extra = "!" | "*" | "'" | "(" | ")" | ","
EXTRA = "!*'(),"
# national = "{" | "}" | "|" | "\" | "^" | "~" | "[" | "]" | "`"
NATIONAL = "{}|\\^~[]`"
# punctuation = "<" | ">" | "#" | "%" | <">
PUNCTUATION = '<>#%"'
# reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="
RESERVED = ";/?:@&="
# hex = digit | "A" | ... | "F" | "a" | ... | "f"
HEX = DIGIT + "ABCDEFabcdef"
# unreserved = alpha | digit | safe | extra
UNRESERVED = ALPHA + DIGIT + SAFE + EXTRA
# scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]; D2: upper case is accepted as well.
SCHEME = ALPHA + DIGIT + "+-."

# Section 2.2, "Unsafe": the space, the punctuation class and the national class. "All unsafe
# characters must always be encoded within a URL."
UNSAFE = " " + PUNCTUATION + NATIONAL

# escape = "%" hex hex
ESCAPE_TEXT = "%[0-9A-Fa-f]{2}"


def class_text(members: str) -> str:
    """Regex text of a character class holding exactly ``members`` (no brackets around it)."""
    out = []
    for char in members:
        out.append("\\" + char if char in "\\]^-[" else char)
    return "".join(out)


def is_printable_ascii(char: str) -> bool:
    """Section 2.2: "URLs are written only with the graphic printable characters of US-ASCII"."""
    return "!" <= char <= "~"
