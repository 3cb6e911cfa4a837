"""The typed rows and their newer columns (issue 20): ``start``/``end`` slice the URL's span out of
its part's text, ``quote_depth``, ``--context``, ``--wayback``; rows and matches as JSON values;
docs/columns.md's table of columns is ``rows.FIELDS``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import urlsift
from urlsift.cli import main
from urlsift.results import results
from urlsift.rows import FIELDS, Options, Row, Tally

ROOT = Path(__file__).resolve().parents[2]

# Lines of a plain text: wrappers broken across lines (quoted, hyphenated), quote prefixes, naked
# and quoted URLs, non-ASCII letters (offsets are in characters, not bytes), tabs and CRs.
text_lines = st.sampled_from(
    [
        "see <URL:http://host/a-",
        "  b/c> and http://example.com/x.",
        "> <URL:ftp://ftp.x.org/pub/",
        "> file.txt>",
        ">> quoted http://deep.example/q twice",
        "> > also <http://spaced.example/>",
        "| piped mailto:joe@example.com",
        "héllo wörld http://ü.example/ä ok",
        "\ttab\r",
        '"http://quoted.example/q" said',
        "news:comp.lang.c <mailto:joe@example.com>",
        "a < b and c > d",
        "",
        "www.example.com/w",
        "http://bad.example/%zz",
    ]
)
texts = st.lists(text_lines, max_size=40).map("\n".join)


def _rows(path: Path, **options: object) -> list[Row]:
    found = results(str(path), Options(invalid=True, **options), Tally())  # type: ignore[arg-type]
    return [event for event in found if isinstance(event, Row)]


def _spans_the_url(text: str, row: Row) -> None:
    """``text[start:end]`` is the URL, or (rejoined across lines) holds its characters in order,
    from its first to its last."""
    span = text[row.start : row.end]
    if "\n" not in span:
        assert span == row.url
        return
    assert span[0] == row.url[0]
    assert span[-1] == row.url[-1]
    rest = iter(span)
    assert all(char in rest for char in row.url), (span, row.url)  # a subsequence


@pytest.mark.parametrize("profile", ["strict", "modern"])
@given(text=texts)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
def test_start_and_end_slice_the_url_out_of_a_plain_text(tmp_path: Path, profile: str, text: str) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode())  # no newline translation: offsets are the file's characters
    rows = _rows(path, profile=profile)
    for row in rows:
        _spans_the_url(text, row)
    assert [(row.url, row.line) for row in rows] == [
        (match.url, match.line) for match in urlsift.extract(text, profile=profile, invalid=True)
    ]


@given(body=texts)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
def test_start_and_end_slice_the_url_out_of_a_message_part(tmp_path: Path, body: str) -> None:
    path = tmp_path / "m.eml"
    path.write_bytes(
        f"From: a@example.com\nSubject: s\nContent-Type: text/plain; charset=utf-8\n\n{body}".encode()
    )
    part_text = body  # the part's text as decoded: the body as written
    for row in _rows(path):
        if row.part is not None and "text/plain" in row.part:
            _spans_the_url(part_text, row)


def test_a_url_broken_across_lines_spans_from_its_first_piece_to_its_last(tmp_path: Path) -> None:
    text = "Yes, see <URL:ftp://info.cern.ch/pub/www/doc;\n   type=d> there"
    path = tmp_path / "t.txt"
    path.write_text(text)
    (row,) = _rows(path)
    assert row.url == "ftp://info.cern.ch/pub/www/doc;type=d"
    assert (row.start, row.end) == (text.index("ftp:"), text.index("=d") + 2)
    assert (row.line, row.column) == (1, text.index("<"))  # the wrapper's start, as before


QUOTED_LINES = [
    "http://zero.example/ at the start",
    "text http://zero2.example/",
    "> http://one.example/",
    ">> http://two.example/",
    "> > <URL:http://two2.example/>",
    "  >>> x http://three.example/",
    ">http://one2.example/",
    "\t| : http://two3.example/",
]
QUOTE_DEPTHS = {
    "http://zero.example/": 0,
    "http://zero2.example/": 0,
    "http://one.example/": 1,
    "http://two.example/": 2,
    "http://two2.example/": 2,
    "http://three.example/": 3,
    "http://one2.example/": 1,
    "http://two3.example/": 2,
}


def test_quote_depth_counts_the_quote_marks_of_the_urls_line(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("\n".join(QUOTED_LINES))
    assert {row.url: row.quote_depth for row in _rows(path)} == QUOTE_DEPTHS


def test_quote_depth_in_a_message_as_in_a_plain_text(tmp_path: Path) -> None:
    """A message's text is held whole (a plain text is read as a stream): the same lines, the
    same depths, in the body and in a header folded onto a quoted-looking line."""
    path = tmp_path / "m.mbox"
    header = "X-Note: see\n\t> http://header.example/"
    body = "\n".join(QUOTED_LINES)
    path.write_text(f"From a@example.com Tue Jan 23 14:32:20 2024\n{header}\n\n{body}\n")
    depths = {row.url: row.quote_depth for row in _rows(path)}
    assert depths == {**QUOTE_DEPTHS, "http://header.example/": 1}


def _jsonl(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    main(["--no-progress", "--format", "jsonl", *argv])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_context_gives_the_characters_around_the_url_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.txt"
    path.write_text("ab\tc\x1b see <http://x.example/> and\nnext\u202e")
    (row,) = _jsonl(capsys, "--context", "8", str(path))
    assert row["context"] == "c\\x1b see <http://x.example/> and\\x0ane"
    (row,) = _jsonl(capsys, "--context", "100", str(path))
    assert row["context"] == "ab\\x09c\\x1b see <http://x.example/> and\\x0anext\\u202e"
    (row,) = _jsonl(capsys, str(path))
    assert row["context"] is None


def test_context_far_into_a_long_text_read_in_windows(tmp_path: Path) -> None:
    """A text of several windows (``stream.CHUNK_CHARS``): the context and quote depth of every
    URL are those of the whole text, also on a line that began megabytes before its URL."""
    lines = [f"{'>' * (k % 3)} line {k} http://h{k}.example/p{'é' * (k % 2)} end" for k in range(40_000)]
    long_line = "> " + "word " * 600_000 + "http://far.example/"
    text = "\n".join([*lines[:20_000], long_line, *lines[20_000:]])
    path = tmp_path / "big.txt"
    path.write_text(text, encoding="utf-8")
    rows = _rows(path, context=12)
    assert len(rows) == 40_001
    for row in rows:
        assert text[row.start : row.end] == row.url
        assert row.context == text[max(0, row.start - 12) : row.end + 12].replace("\n", "\\x0a")
        line_start = text.rfind("\n", 0, row.start) + 1
        assert row.quote_depth == len(text[line_start : row.start]) - len(
            text[line_start : row.start].lstrip(">")
        )
    assert rows[20_000].url == "http://far.example/"
    assert rows[20_000].quote_depth == 1


def _mbox(path: Path, date: str) -> Path:
    path.write_text(
        f"From a@example.com Tue Jan 23 14:32:20 2024\nFrom: a@example.com\nDate: {date}\n\n"
        "see http://cited.example/page and http://bad.example/%zz\n"
    )
    return path


def test_wayback_is_the_archive_address_at_the_messages_date_in_utc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _mbox(tmp_path / "a.mbox", "Tue, 23 Jan 2024 14:32:20 -0500")
    valid, invalid = _jsonl(capsys, "--wayback", "--invalid", str(path))
    assert valid["wayback"] == "https://web.archive.org/web/20240123193220/http://cited.example/page"
    assert invalid["valid"] is False
    assert invalid["wayback"] is None
    (row,) = _jsonl(capsys, str(path))
    assert row["wayback"] is None  # only when asked
    (row,) = _jsonl(capsys, "--wayback", str(_mbox(tmp_path / "b.mbox", "last Tuesday")))
    assert row["wayback"] is None
    (row,) = _jsonl(
        capsys, "--wayback", "--profile", "modern", str(_mbox(tmp_path / "c.mbox", "1 Feb 1999 00:00 +0100"))
    )
    assert row["wayback"] == "https://web.archive.org/web/19990131230000/http://cited.example/page"


def test_a_plain_text_has_no_wayback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.txt"
    path.write_text("http://x.example/\n")
    (row,) = _jsonl(capsys, "--wayback", str(path))
    assert row["wayback"] is None


def test_new_columns_come_last_in_csv_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.txt"
    path.write_text("> see http://x.example/ now")
    main(["--no-progress", "--format", "csv", "--context", "3", str(path)])
    header, line = capsys.readouterr().out.splitlines()
    assert header.split(",")[-5:] == ["start", "end", "quote_depth", "context", "wayback"]
    assert line.endswith(",6,23,1,ee http://x.example/ no,")


@given(text=texts)
def test_rows_and_matches_are_json_values(text: str) -> None:
    for match in urlsift.extract(text, invalid=True):
        found = match.as_dict()
        assert json.loads(json.dumps(found)) == found
        assert found["naked"] == match.naked
        assert found["fragment"] == match.fragment
        assert found["canonical"] == match.canonical
        assert found["verdict"]["valid"] == match.valid
        assert (found["verdict"]["error"] is None) == match.valid
    message = b"Subject: x\nDate: Tue, 24 Nov 2026 01:02:03 +0100\n\n" + text.encode("utf-8", "surrogatepass")
    for row in urlsift.extract_message(message, invalid=True, context=5, wayback=True):
        if isinstance(row, Row):
            values = row._asdict()
            assert json.loads(json.dumps(values)) == values
            assert list(values) == list(FIELDS)


def test_row_asdict_is_the_jsonl_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.txt"
    path.write_text("<URL:http://a.example/>\nhttp://b.example/%zz\n")
    printed = _jsonl(capsys, "--invalid", str(path))
    rows = _rows(path)
    assert [row._asdict() for row in rows] == printed
    assert [json.loads(json.dumps(row._asdict())) for row in rows] == printed


def test_the_docs_table_of_columns_is_the_rows_fields() -> None:
    page = (ROOT / "docs" / "columns.md").read_text(encoding="utf-8")
    table = page.split("The jsonl and csv columns, in this order", 1)[1].split("\n\n", 2)[1]
    named = [name for line in table.splitlines()[2:] for name in re.findall(r"`(\w+)`", line.split(" | ")[0])]
    assert tuple(named) == FIELDS


def test_context_with_jobs_is_what_one_process_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A text cut for -j would give the URLs near a cut less context: with --context it is read whole."""
    path = tmp_path / "t.txt"
    path.write_text("".join(f"line {k} http://h{k}.example/\n\n" for k in range(400)))
    whole = _jsonl(capsys, "--context", "40", str(path))
    assert _jsonl(capsys, "-j", "2", "--split-size", "1K", "--context", "40", str(path)) == whole
    assert _jsonl(capsys, "-j", "2", "--split-size", "1K", str(path)) == _jsonl(capsys, str(path))


def test_quote_depth_on_a_first_line_of_megabytes(tmp_path: Path) -> None:
    """Issue 28, finding 7: the first line's quote prefix is kept when its start is forgotten
    (a single-line JSON, HTML or log dump): every URL on it has its depth, and the rest of the
    file is read (an internal RuntimeError lost all after the first 2 MB of characters)."""
    path = tmp_path / "one-line.txt"
    path.write_text(
        "> " + "word " * 600_000 + "http://far.example/ and http://farther.example/\nhttp://next.example/\n"
    )
    rows = _rows(path)
    assert [(row.url, row.quote_depth) for row in rows] == [
        ("http://far.example/", 1),
        ("http://farther.example/", 1),
        ("http://next.example/", 0),
    ]
