"""JSON-lines dumps (issue 21): ``--input-format jsonl --text-field ...``. Each input is built here
from the repo's corpora: a record per text part of a corpus message, so the records' URLs are the
messages' (their headers aside)."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from backports import zstd
from hypothesis import given
from hypothesis import strategies as st

from urlsift._model import Provenance
from urlsift.cli import main
from urlsift.sources import jsonl
from urlsift.sources.mbox import messages
from urlsift.sources.mime import read as read_message
from urlsift.sources.split import cuts

MBOX = Path(__file__).parents[2] / "corpora" / "mail" / "r-devel-1997-May.mbox"
FIELDS = ["--input-format", "jsonl", "--text-field", "data.body", "--id-field", "id"]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], list[str]]:
    status = main(["--no-progress", "--no-filename", "--verbose", *argv])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def _records() -> list[dict[str, object]]:
    """A record per text part of the corpus mbox's messages (its flowed parts aside: those are
    unflowed first, D31), with the message's id and a field that is never scanned."""
    found: list[dict[str, object]] = []
    for raw in messages(io.BytesIO(MBOX.read_bytes())):
        message = read_message(raw.data, Provenance(str(MBOX)))
        for k in range(message.headers, len(message.texts)):
            if k not in (message.flowed or {}):
                body = {"body": message.texts[k], "part": message.parts[k]}
                found.append({"id": message.provenance.message_id, "score": 3, "data": body})
    return found


def _write(path: Path, records: list[dict[str, object]]) -> bytes:
    data = b"".join(json.dumps(record).encode() + b"\n" for record in records)
    path.write_bytes(data)
    return data


def test_a_jsonl_dump_gives_the_urls_of_its_messages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _records()
    data = _write(tmp_path / "dump.jsonl", records)
    status, mail, _ = _run(["--format", "jsonl", str(MBOX)], capsys)
    wanted = [row["url"] for row in map(json.loads, mail) if row["part"] and row["part"][0].isdigit()]
    status, lines, err = _run(["--format", "jsonl", *FIELDS, str(tmp_path / "dump.jsonl")], capsys)
    assert (status, err) == (0, [])
    rows = [json.loads(line) for line in lines]
    assert [row["url"] for row in rows] == wanted
    assert len(wanted) > 40
    # Provenance, by hand: the record's line (0-based), its offset, its id, the field.
    lines_of_file = data.split(b"\n")
    for row in (rows[0], rows[len(rows) // 2], rows[-1]):
        record = json.loads(lines_of_file[row["message"]])
        assert data[row["offset"] :].startswith(lines_of_file[row["message"]])
        assert (row["message_id"], row["part"], row["member"]) == (record["id"], "data.body", None)
        text_line = record["data"]["body"].split("\n")[row["line"] - 1]
        assert row["url"].split("#")[0][:20] in text_line


def test_compressed_dumps_read_as_the_plain_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _write(tmp_path / "dump.jsonl", _records())
    (tmp_path / "dump.jsonl.gz").write_bytes(gzip.compress(data))
    (tmp_path / "dump.jsonl.zst").write_bytes(zstd.compress(data))
    plain = _run(["--format", "csv", *FIELDS, str(tmp_path / "dump.jsonl")], capsys)
    for name in ("dump.jsonl.gz", "dump.jsonl.zst"):
        packed = _run(["--format", "csv", *FIELDS, str(tmp_path / name)], capsys)
        assert packed[0] == plain[0] == 0
        assert [line.replace(name, "dump.jsonl") for line in packed[1]] == plain[1]


def test_several_text_fields_are_parts_named_by_their_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = {"title": "see http://title.example/", "selftext": "and\n<URL:http://self.example/>", "id": 7}
    _write(tmp_path / "posts.jsonl", [record])
    fields = ["--text-field", "title", "--text-field", "selftext", "--id-field", "id"]
    status, lines, _ = _run(
        ["--format", "jsonl", "--input-format", "jsonl", *fields, str(tmp_path / "posts.jsonl")], capsys
    )
    rows = [json.loads(line) for line in lines]
    assert status == 0
    assert [(row["url"], row["part"], row["line"], row["message_id"]) for row in rows] == [
        ("http://title.example/", "title", 1, "7"),
        ("http://self.example/", "selftext", 2, "7"),
    ]


def test_bad_lines_are_reported_and_the_rest_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = b'{"id": "a%d", "data": {"body": "<URL:http://good.example/%d>"}}\n'
    lines = [
        good % (0, 0),
        b"{not json http://lost.example/}\n",
        b"\n",  # blank: no record
        b'["an array", "http://lost.example/"]\n',
        b'{"id": "a4", "data": {"text": "http://elsewhere.example/"}}\n',  # no data.body
        b'{"id": "a5", "data": {"body": 12}}\n',
        b'{"id": "a6", "data": {"body": "' + b"x" * 20_000 + b'"}}\n',  # over --max-message 10K
        b"[" * 5000 + b"\n",
        b'{"id": "\xff\xfe", "data": {"body": "http://lost.example/"}}\n',  # not UTF-8
        good % (9, 9),
        b'{"data": {"body": "http://no-id.example/"}}',  # no id, and no last line break
    ]
    (tmp_path / "bad.jsonl").write_bytes(b"".join(lines))
    status, out, err = _run(["--stats", "--max-message", "10K", *FIELDS, str(tmp_path / "bad.jsonl")], capsys)
    assert status == 2
    assert out == ["http://good.example/0", "http://good.example/9", "http://no-id.example/"]
    place = f"urlsift: {tmp_path / 'bad.jsonl'}"
    reports = [line for line in err if not line.startswith("urlsift:  ") and ": " in line[len(place) :]]
    assert reports[:8] == [
        f"{place}#1: bad-record: not JSON: Expecting property name enclosed in double quotes: line 1 column 2"
        " (char 1); not read",
        f"{place}#3: bad-record: a JSON array, not an object; not read",
        f"{place}#4: missing-field: no field 'data.body'",
        f"{place}#5: missing-field: the field 'data.body' is a JSON number, not a string; not scanned",
        f"{place}#6: too-large: a line of 20,034 bytes, over the 10,000-byte limit; not read",
        f"{place}#7: bad-record: nested too deep to parse; not read",
        f"{place}#8: bad-record: not JSON: 'utf-8' codec can't decode byte 0xff in position 8: invalid start"
        " byte; not read",
        f"{place}#10: missing-field: no field 'id'",
    ]
    summary = [line for line in err if line.startswith(("urlsift: messages", "urlsift: problems"))]
    assert summary == [
        "urlsift: messages           10 = 5 scanned + 5 failed",
        "urlsift: problems            8 = 5 errors + 3 warnings",
    ]


def test_jsonl_and_text_field_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--input-format", "jsonl", "x.jsonl"]) == 2
    assert "--input-format jsonl and --text-field go together" in capsys.readouterr().err
    assert main(["--text-field", "body", "x.jsonl"]) == 2


def test_j2_over_ranges_prints_what_j1_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ranges cut at line starts: the same rows (line indexes numbered on across the ranges), the
    same reports (renumbered), the same counts."""
    records: list[dict[str, object] | str] = [*_records()]
    records.insert(len(records) * 3 // 4, "not an object")
    path = tmp_path / "dump.jsonl"
    _write(path, records)  # type: ignore[arg-type]
    for options in (["--format", "jsonl", "--invalid"], ["--format", "csv"]):
        runs = []
        for extra in (["-j", "1"], ["-j", "2", "--split-size", "20K"]):
            runs.append(_run([*options, *FIELDS, "--stats", *extra, str(path)], capsys))
        assert runs[1] == runs[0]
        assert runs[0][0] == 2
    assert path.stat().st_size > 5 * 20_000
    assert f"{path}#{len(records) * 3 // 4}: bad-record: a JSON string, not an object" in runs[0][2][0]


def test_ranges_start_at_line_starts() -> None:
    data = b"".join(b'{"n": %d, "pad": "%s"}\n' % (k, b"x" * (k % 50)) for k in range(2000))
    starts = cuts(io.BytesIO(data), 1000, len(data), jsonl.line_start)
    assert len(starts) > 50
    assert all(data[start - 1 : start] == b"\n" for start in starts[1:])
    assert jsonl.line_start(io.BytesIO(b"abc"), 1, 3) is None  # no line break: no cut
    assert jsonl.line_start(io.BytesIO(b"ab\ncd"), 3, 5) == 3  # a line starting at the cut


LINES = [b"", b" ", b"{}", b'{"t": "http://a/"}', b"{" * 40, b'"x"' * 30]
"""Blank lines, records, bad JSON, a line over the limit of 50."""


@given(lines=st.lists(st.sampled_from(LINES), max_size=12), block=st.integers(1, 70), ending=st.booleans())
def test_records_do_not_depend_on_the_block_size(lines: list[bytes], block: int, ending: bool) -> None:
    """Lines cut across blocks of any size give the records, offsets and reports whole lines give;
    a line over the limit (50 bytes) is measured whole, not held."""
    data = b"\n".join(lines) + (b"\n" if ending and lines else b"")
    fields = jsonl.Fields(("t",), None)

    def read(size: int) -> tuple[list[tuple[Provenance, list[str], list[str]]], int]:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(jsonl, "_BLOCK", size)
            records = jsonl.Records(io.BytesIO(data), Provenance("x"), fields, 50, start=7)
            found = [(r.provenance, r.texts, [d.detail for d in r.defects]) for r in records]
            return found, records.lines

    whole, count = read(1 << 20)
    assert read(block) == (whole, count)
    assert count == len(data.splitlines())
    assert len(whole) == sum(1 for line in lines if line.strip())
    for where, _, _ in whole:
        assert where.offset is not None
        assert where.message is not None
        assert data[where.offset - 7 :].startswith(lines[where.message])


def test_a_bug_in_one_record_loses_that_record_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 28: the error ended the file (the records after it were not read).
    real = jsonl._get

    def get(value: object, path: list[str]) -> object:
        if isinstance(value, dict) and value.get("id") == "bug":
            raise RuntimeError("a bug")
        return real(value, path)

    monkeypatch.setattr(jsonl, "_get", get)
    path = tmp_path / "dump.jsonl"
    path.write_text(
        "".join(
            json.dumps({"id": name, "data": {"body": f"http://{name}.example/"}}) + "\n"
            for name in ("a", "bug", "c")
        )
    )
    status, out, err = _run([*FIELDS, "--stats", str(path)], capsys)
    assert status == 2
    assert out == ["http://a.example/", "http://c.example/"]
    assert f"urlsift: {path}#1: internal: internal error, please report it: RuntimeError: a bug" in err
    assert "urlsift: messages            3 = 2 scanned + 1 failed" in err
