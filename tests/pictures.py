"""Tests that read like the output: ``render`` brackets every piece of every match with « ».

A rejoin case is then one input and one picture: ``<URL:ftp://ds.in\\n ternic.net/rfc>`` renders
as ``<URL:«ftp://ds.in»\\n «ternic.net/rfc»>``.
"""

from __future__ import annotations

from collections.abc import Iterable

import urlsift


def render(text: str, matches: Iterable[urlsift.Match]) -> str:
    opens: dict[int, int] = {}
    closes: dict[int, int] = {}
    for match in matches:
        for start, end in match.pieces:
            opens[start] = opens.get(start, 0) + 1
            closes[end] = closes.get(end, 0) + 1
    out = []
    for at, char in enumerate([*text, ""]):
        out.append("»" * closes.get(at, 0) + "«" * opens.get(at, 0) + char)
    return "".join(out)


def picture(text: str, **options: object) -> str:
    return render(text, urlsift.extract(text, **options))  # type: ignore[arg-type]


def check_consistent(text: str, match: urlsift.Match) -> None:
    """What holds of every match: pieces make the URL, lie in order inside the span, and the line
    and column say where the span starts."""
    assert "".join(text[s:e] for s, e in match.pieces) == match.url
    edges = [match.span[0], *(x for piece in match.pieces for x in piece), match.span[1]]
    assert edges == sorted(edges), (match.span, match.pieces)
    before = text[: match.span[0]]
    assert match.line == before.count("\n") + 1
    assert match.column == len(before) - (before.rfind("\n") + 1)
    assert match.verdict.url == match.url
