"""D31: format=flowed parts (RFC 3676) unflowed before scanning, their matches given back in the
part's own text (pictures: see pictures.py); and D32: pipermail's "user at host"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import growth
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pictures import check_consistent, render
from strategies import profile_urls

import urlsift
from urlsift._lines import Lines
from urlsift.cli import main
from urlsift.flowed import Unflowed, original, unflow
from urlsift.shapes import empty_scheme_part

pytestmark = pytest.mark.usefixtures("core")  # issue 31: each test on both cores


def flowed_matches(text: str, delsp: bool, **options: object) -> list[urlsift.Match]:
    """What the message reader does with a flowed part (results._matches)."""
    unflowed = unflow(text, delsp)
    lines = Lines(text)
    found = urlsift.extract(unflowed.text, **options)  # type: ignore[arg-type]
    return [original(match, unflowed, text, lines) for match in found]


def flowed_picture(text: str, delsp: bool, **options: object) -> str:
    matches = flowed_matches(text, delsp, **options)
    for match in matches:
        check_consistent(text, match)
    return render(text, matches)


FLOWED = [
    # DelSp=yes: a URL broken anywhere, its soft space deleted
    (
        True,
        "see http://a.example/very/lo \nng/path.html ok\n",
        "see «http://a.example/very/lo» \n«ng/path.html» ok\n",
    ),
    # DelSp=no: the soft space is text, so a client breaks at spaces only: the URL stays whole
    (
        False,
        "see the page \nhttp://a.example/x.html \nnow\n",
        "see the page \n«http://a.example/x.html» \nnow\n",
    ),
    (False, "see http://a.example/pa \nth\n", "see «http://a.example/pa» \nth\n"),
    # quoted flowed: the next line's quote marks and stuffing space are skipped
    (True, "> see http://a.example/lo \n> ng/x ok\n", "> see «http://a.example/lo» \n> «ng/x» ok\n"),
    (True, ">> http://a.example/a/ \n>> b/c\n", ">> «http://a.example/a/» \n>> «b/c»\n"),
    # a different depth does not join (RFC 3676 4.5)
    (True, "> http://a.example/a/ \n>> b/c\n", "> «http://a.example/a/» \n>> b/c\n"),
    # space-stuffed lines (RFC 3676 4.4): the stuffing space is no text
    (True, " From http://a.example/a \n b/c\n", " From «http://a.example/a» \n «b/c»\n"),
    # the signature separator never flows
    (
        True,
        "http://a.example/x\n-- \nhttp://b.example/y\n",
        "«http://a.example/x»\n-- \n«http://b.example/y»\n",
    ),
    # a hard break still ends a naked URL
    (True, "http://a.example/a\nb/c\n", "«http://a.example/a»\nb/c\n"),
    # CRLF line ends
    (True, "see http://a.example/lo \r\nng ok\r\n", "see «http://a.example/lo» \r\n«ng» ok\r\n"),
]


@pytest.mark.parametrize(("delsp", "text", "expected"), FLOWED)
def test_flowed_pictures(delsp: bool, text: str, expected: str) -> None:
    assert flowed_picture(text, delsp) == expected
    assert flowed_picture(text, delsp, profile="modern") == expected


def test_the_signature_separator_never_flows() -> None:
    # RFC 3676 4.3: "-- " ends in a space, yet the next line stays a line of its own.
    assert unflow("text \n-- \nhttp://b.example/\n", False).text == "text -- \nhttp://b.example/\n"
    assert unflow("> -- \n> x\n", True).text == "> -- \n> x\n"
    assert unflow("> --  \n> x\n", True).text == "> -- x\n"  # "--" and text: an ordinary line


def test_a_flowed_url_has_its_line_and_column_in_the_part() -> None:
    text = "a\n>> see http://a.example/lo \n>> ng/x ok\n"
    (match,) = flowed_matches(text, True)
    assert (match.url, match.line, match.column) == ("http://a.example/long/x", 2, 7)
    assert match.pieces == ((9, 28), (33, 37))


def test_matches_are_placed_back_in_time_linear_in_the_joins() -> None:
    # A soft break after every URL: as many joins as matches; only the placing back is counted.
    def placed(text: str) -> tuple[Unflowed, str, Lines, list[urlsift.Match]]:
        unflowed = unflow(text, False)
        return unflowed, text, Lines(text), list(urlsift.extract(unflowed.text))

    def place_back(found: tuple[Unflowed, str, Lines, list[urlsift.Match]]) -> None:
        unflowed, text, lines, matches = found
        for match in matches:
            original(match, unflowed, text, lines)

    inputs = [placed("http://q.example/ \n" * lines) for lines in (100, 1_000)]
    assert len(inputs[1][3]) == 1_000
    growth.assert_linear_steps(place_back, inputs, "a join a URL", reset=lambda: None)


def _message(body: str, delsp: bool) -> bytes:
    params = "format=flowed" + ("; delsp=yes" if delsp else "")
    head = f"From: a@b.example\nSubject: x\nContent-Type: text/plain; charset=utf-8; {params}\n\n"
    return (head + body).encode()


def _urls(path: Path, *options: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-m", "urlsift", "--format", "jsonl", *options, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    return [json.loads(line)["url"] for line in result.stdout.splitlines()]


def _urls_here(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> list[str]:
    """``_urls`` run in this process: under the core the ``core`` fixture chose (a new interpreter
    would run the default one), without an interpreter's start-up per hypothesis example."""
    capsys.readouterr()
    status = main(["--format", "jsonl", "--no-progress", *options, str(path)])
    out, err = capsys.readouterr()
    assert status in (0, 1), err
    return [json.loads(line)["url"] for line in out.splitlines()]


def test_the_cli_unflows_a_flowed_part_and_only_that(tmp_path: Path) -> None:
    body = "> see http://a.example/very/lo \n> ng/path.html ok\n"
    flowed = tmp_path / "flowed.eml"
    flowed.write_bytes(_message(body, True))
    assert _urls(flowed) == ["http://a.example/very/long/path.html"]
    plain = tmp_path / "plain.eml"
    plain.write_bytes(_message(body, True).replace(b"; format=flowed; delsp=yes", b""))
    assert _urls(plain) == ["http://a.example/very/lo"]


# --- the property: a URL broken as a flowed client breaks it comes back --------------------------

_urls_in_text = (
    st.sampled_from([("strict", "http"), ("strict", "ftp"), ("modern", "https"), ("modern", "http")])
    .flatmap(profile_urls)
    .filter(lambda pair: not empty_scheme_part(pair[1]) and pair[1][-1] not in ".,;:!?')]")
)


def _flow(url: str, delsp: bool, cuts: list[int], depth: int) -> str:
    """``see URL now`` as a flowed client writes it: with DelSp=yes the URL broken anywhere (at
    ``cuts``), each line ending in the soft space that unflowing deletes; with DelSp=no broken only
    at the spaces around it, the soft space being the text's own."""
    prefix = ">" * depth + (" " if depth else "")
    if delsp:
        at = sorted({1 + cut % (len(url) - 1) for cut in cuts}) if len(url) > 1 else []
        pieces = [url[a:b] for a, b in zip([0, *at], [*at, len(url)], strict=True)]
        lines = ["see  ", *(piece + " " for piece in pieces[:-1]), pieces[-1] + "  ", "now"]
    else:
        lines = ["see ", url + " ", "now"]
    return "".join(prefix + line + "\n" for line in lines)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    _urls_in_text, st.booleans(), st.integers(0, 2), st.lists(st.integers(0, 10_000), min_size=1, max_size=4)
)
def test_a_url_broken_by_a_flowed_client_comes_back(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    pair: tuple[str, str],
    delsp: bool,
    depth: int,
    cuts: list[int],
) -> None:
    profile, url = pair
    body = _flow(url, delsp, cuts, depth)
    # RFC 3676 4.3: a line "-- " is the signature separator, never flowed, so no client cuts a
    # URL there ("a--b" cut after "a" and after "--").
    reach = depth + 1 if depth else 0
    assume(all(line[reach:] != "-- " for line in body.split("\n")))
    path = tmp_path / "m.eml"
    path.write_bytes(_message(body, delsp))
    assert url in _urls_here(capsys, path, "--profile", profile), body


def _unflowed_line_by_line(text: str, delsp: bool) -> str:
    """RFC 3676 4.2-4.5 read plainly, a line at a time: the oracle of ``unflow``, which looks only
    at the lines that end in a space."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # the text ends with a line break, not with an empty line
        ends_in_break = True
    else:
        ends_in_break = False
    depths = [len(raw) - len(raw.lstrip(">")) for raw in lines]
    out: list[str] = []
    joined = False  # this line continues the one before
    for number, raw in enumerate(lines):
        line = raw.removesuffix("\r")
        depth = depths[number]
        content = depth + 1 if line.startswith(" ", depth) else depth
        body = line[content:]
        has_next = number + 1 < len(lines)
        joins = has_next and body.endswith(" ") and body != "-- " and depths[number + 1] == depth
        piece = raw[content:] if joined else raw
        if joins:  # its line break (its "\r" with it) goes, and its soft space with DelSp=yes
            out.append(piece[: len(piece) - (len(raw) - len(line)) - delsp])
        else:
            out.append(piece + "\n" if has_next or ends_in_break else piece)
        joined = joins
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b c", " ", ">", "> ", "-- ", "\r", "\n", " \n", " \r\n"]), max_size=30),
    st.booleans(),
)
def test_unflow_joins_what_a_line_by_line_reading_joins(pieces: list[str], delsp: bool) -> None:
    text = "".join(pieces)
    unflowed = unflow(text, delsp)
    assert unflowed.text == _unflowed_line_by_line(text, delsp), repr(text)
    ends = [at for at, _ in unflowed.segments[1:]] + [len(unflowed.text)]
    for (at, start), end in zip(unflowed.segments, ends, strict=True):  # stretches copied whole
        assert unflowed.text[at:end] == text[start : start + end - at]


# --- D32: pipermail --------------------------------------------------------------------------

PIPERMAIL = [
    ("[mailto:ripley at stats.ox.ac.uk]", "[«mailto:ripley» at «stats.ox.ac.uk»]"),
    ("<mailto:r-help at r-project.org>", "<«mailto:r-help» at «r-project.org»>"),
    ("mailto:a at b.example.", "«mailto:a» at «b.example»."),
    ("mailto:list at r-project.org?subject=x", "«mailto:list» at «r-project.org?subject=x»"),
    # as written (no domain after " at ", or the address ended before it): strict takes "mailto:a",
    # modern (RFC 6068: an addr-spec) does not
    ("mailto:a at b", "mailto:a at b"),
    ("mailto:a, at b.example", "mailto:a, at b.example"),
    ("ripley at stats.ox.ac.uk", "ripley at stats.ox.ac.uk"),  # no mailto: no URL
]


@pytest.mark.parametrize(("text", "expected"), PIPERMAIL)
def test_pipermail_pictures(text: str, expected: str) -> None:
    for profile in ("strict", "modern"):
        matches = list(urlsift.extract(text, profile=profile, pipermail=True))
        matches = [match for match in matches if "@" in match.url]
        assert render(text, matches) == expected
        for match in matches:
            assert "".join(text[s:e] for s, e in match.pieces) == match.url.replace("@", "", 1)


def test_a_deobfuscated_address_says_so() -> None:
    (match,) = urlsift.extract("[mailto:ripley at stats.ox.ac.uk]", pipermail=True)
    assert match.url == "mailto:ripley@stats.ox.ac.uk"
    assert [w.kind.value for w in match.verdict.warnings] == ["deobfuscated"]
    (plain,) = urlsift.extract("[mailto:ripley at stats.ox.ac.uk]")
    assert (plain.url, plain.verdict.warnings[0].kind.value) == ("mailto:ripley", "not-addr-spec")


def _mbox(separator: str) -> bytes:
    return (
        f"{separator}\nFrom: ripley at stats.ox.ac.uk (Brian Ripley)\nSubject: x\n\n"
        "Write to [mailto:ripley at stats.ox.ac.uk] or <mailto:r-help at r-project.org>.\n\n"
    ).encode()


@pytest.mark.parametrize(
    ("separator", "expected"),
    [
        (
            "From ripley at stats.ox.ac.uk  Mon May  5 12:34:56 2003",
            ["mailto:ripley@stats.ox.ac.uk", "mailto:r-help@r-project.org"],
        ),
        (
            "From ripley@stats.ox.ac.uk  Mon May  5 12:34:56 2003",
            ["mailto:ripley", "mailto:r-helpatr-project.org"],
        ),
    ],
)
def test_only_a_pipermail_mbox_is_deobfuscated(tmp_path: Path, separator: str, expected: list[str]) -> None:
    path = tmp_path / "list.mbox"
    path.write_bytes(_mbox(separator) + _mbox(separator))
    assert _urls(path) == expected * 2
