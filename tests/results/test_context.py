"""The ``context`` column in machine formats (issue 30 item 8): the characters around a URL as
they are, not escaped, so that a line break and the four characters ``\\x0a`` differ. JSON
escapes itself, CSV quotes, Parquet holds strings; escaping is for the terminal's text output."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import urlsift
from urlsift.cli import main

# A line break, a literal backslash-x-0-a, a tab, ESC and U+202E around one URL.
TEXT = "ab\tc\x1b \\x0a <http://x.example/> and\nnext\u202e"


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["--no-progress", *argv]) == 0
    return capsys.readouterr().out


@pytest.fixture
def text(tmp_path: Path) -> Path:
    path = tmp_path / "t.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def test_jsonl_carries_the_context_as_it_is(text: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (line,) = _out(capsys, "--format", "jsonl", "--context", "100", str(text)).splitlines()
    assert json.loads(line)["context"] == TEXT
    (line,) = _out(capsys, "--format", "jsonl", "--context", "8", str(text)).splitlines()
    assert json.loads(line)["context"] == "\x1b \\x0a <http://x.example/> and\nne"


def test_csv_carries_the_context_as_it_is_quoted(text: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _out(capsys, "--format", "csv", "--context", "100", str(text))
    header, row = csv.reader(io.StringIO(out, newline=""))
    assert row[header.index("context")] == TEXT
    assert row[header.index("url")] == "http://x.example/"


def test_a_csv_context_with_a_carriage_return_is_quoted_and_a_nul_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A NUL makes a file binary; a JSON-lines record's text may hold one.
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"text": "a\rb\0 http://x.example/ c\r\nd"}) + "\n", encoding="utf-8")
    jsonl = ["--input-format", "jsonl", "--text-field", "text"]
    for null in ([], ["--null"]):
        out = _out(capsys, "--format", "csv", *jsonl, *null, "--context", "9", str(path))
        records = out.split("\0")[:-1] if null else [out]
        header, row = (row for record in records for row in csv.reader(io.StringIO(record, newline="")))
        assert row[header.index("context")] == "a\rb\\x00 http://x.example/ c\r\nd"


def test_csv_with_null_ends_records_not_the_line_breaks_inside_them(
    text: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _out(capsys, "--format", "csv", "--null", "--context", "100", str(text))
    records = out.split("\0")
    assert records[-1] == ""  # each record ends with a NUL, the header too
    header, row = (next(csv.reader(io.StringIO(record, newline=""))) for record in records[:-1])
    assert row[header.index("context")] == TEXT


def test_a_csv_context_that_starts_a_formula_still_gets_a_quote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "f.txt"
    path.write_text("=1+2 http://x.example/", encoding="utf-8")
    out = _out(capsys, "--format", "csv", "--context", "5", str(path))
    header, row = csv.reader(io.StringIO(out, newline=""))
    assert row[header.index("context")] == "'=1+2 http://x.example/"


def test_the_library_gives_the_context_as_it_is(text: Path) -> None:
    (row,) = [row for row in urlsift.scan(str(text), context=100) if isinstance(row, urlsift.Row)]
    assert row.context == TEXT


def test_parquet_carries_the_context_as_it_is(text: Path, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    folder = tmp_path / "out"
    argv = ["--format", "parquet", "--output", str(folder), "--context", "100", str(text)]
    assert main(["--no-progress", *argv]) == 0
    (table,) = [pq.read_table(path) for path in sorted(folder.rglob("*.parquet"))]
    assert table.column("context").to_pylist() == [TEXT]
