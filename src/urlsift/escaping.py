"""Control and invisible formatting characters written out as escapes, so that a URL, a header or
the text around a URL cannot act on a terminal or hide what a line says."""

from __future__ import annotations

import regex

# Cc and Cf (controls; bidi, zero-width and other invisible formatting), Cs (a lone surrogate, which
# cannot even be encoded), Zl and Zp (U+2028, U+2029: line breaks to some readers, not to others).
_UNSAFE = regex.compile(r"[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]")


def escaped(text: str) -> str:
    """Control and invisible formatting characters as ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``
    (Python's notation), so that they cannot act on a terminal or hide what a line says."""
    if text.isascii() and text.isprintable():  # most text: nothing to look for
        return text
    return _UNSAFE.sub(_escape, text)


def _escape(found: regex.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


_SURROGATE = regex.compile(r"\p{Cs}")


def surrogates_escaped(text: str) -> str:
    """``text`` with each lone surrogate (a JSON ``\\ud800`` escape decoded, a file name's byte
    that is no UTF-8) as the six characters ``\\udXXX``: no UTF-8 can hold it. One rule for every
    format: text and csv write it so (``escaped``), jsonl too (in a JSON string, the escape of that
    very code point: read back, the same string), Parquet too (its strings are UTF-8)."""
    if text.isascii():
        return text
    return _SURROGATE.sub(_escape, text)
