"""--format parquet --output DIR (issue 8): the jsonl rows, typed; DuckDB reads the folder."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

pq = pytest.importorskip("pyarrow.parquet")

from urlsift.cli import main  # noqa: E402
from urlsift.dates import timestamp  # noqa: E402
from urlsift.parquet import FILE_ROWS, SCHEMA  # noqa: E402

ROOT = Path(__file__).parents[2]
MBOX = ROOT / "corpora" / "mail" / "r-devel-1997-May.mbox"


def _jsonl(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    main(["--no-progress", "--format", "jsonl", *argv])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_parquet_holds_the_jsonl_rows_with_types(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--invalid", "--canonical", str(MBOX), str(ROOT / "corpora" / "rfc" / "rfc1738.txt")]
    expected = _jsonl(capsys, *argv)
    assert main(["--no-progress", "--format", "parquet", "--output", str(tmp_path / "out"), *argv]) == 0
    table = pq.read_table(tmp_path / "out")
    assert table.schema.equals(SCHEMA)
    rows = table.to_pylist()
    assert len(rows) == len(expected) > 100
    for row, want in zip(rows, expected, strict=True):
        assert row["date"] == timestamp(want["date"])
        assert {**row, "date": want["date"]} == want
    assert any(row["date"] is not None for row in rows)
    assert any(not row["valid"] for row in rows)


def test_dates_become_utc_times_and_unreadable_ones_null() -> None:
    assert timestamp("Mon, 5 May 1997 12:34:56 +0200") == datetime(1997, 5, 5, 10, 34, 56, tzinfo=UTC)
    assert timestamp("5 May 1997 12:34:56") == datetime(1997, 5, 5, 12, 34, 56, tzinfo=UTC)
    assert timestamp("last Tuesday") is None
    assert timestamp(None) is None


def test_an_empty_run_leaves_a_file_with_the_columns(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("no URL here\n")
    assert main(["--no-progress", "--format", "parquet", "--output", str(tmp_path / "out"), str(empty)]) == 1
    table = pq.read_table(tmp_path / "out")
    assert table.num_rows == 0
    assert table.schema.equals(SCHEMA)


def test_files_are_closed_every_file_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("urlsift.parquet.FILE_ROWS", 100)
    monkeypatch.setattr("urlsift.parquet.ROW_GROUP", 30)
    hard = ROOT / "corpora" / "mail" / "mail-url-hard-cases.mbox"  # 751 URLs
    main(["--no-progress", "--format", "parquet", "--output", str(tmp_path / "out"), str(hard)])
    files = sorted((tmp_path / "out").iterdir())
    assert len(files) > 5
    assert FILE_ROWS > 100
    assert all(pq.read_metadata(file).num_rows <= 120 for file in files)
    assert [file.name for file in files[:2]] == ["part-00000.parquet", "part-00001.parquet"]


def test_an_output_folder_with_files_in_it_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "old.parquet").write_text("from another run")
    assert main(["--no-progress", "--format", "parquet", "--output", str(tmp_path), str(MBOX)]) == 2
    assert "the output folder is not empty" in capsys.readouterr().err
    assert main(["--no-progress", "--format", "parquet", str(MBOX)]) == 2
    assert "--format parquet and --output DIR go together" in capsys.readouterr().err


def test_the_docs_duckdb_query_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    duckdb = pytest.importorskip("duckdb")
    page = (ROOT / "docs" / "scale.md").read_text()
    query = re.search(r"```sql\n(.*?)```", page, re.DOTALL)
    assert query is not None
    monkeypatch.chdir(tmp_path)  # the page's command, on the corpora, writing ./urls
    corpora = [str(ROOT / "corpora" / "news"), str(ROOT / "corpora" / "mail")]
    main(["--no-progress", "--canonical", "--format", "parquet", "--output", "urls", *corpora])
    found = duckdb.sql(query.group(1)).fetchall()
    assert {row[0] for row in found} >= {1996, 1997, 2000, 2019}
    assert ("1997", "www.stat.umn.edu") in {(str(row[0]), row[1]) for row in found}
    assert all(isinstance(row[1], str) and row[1] and row[2] > 0 for row in found)
