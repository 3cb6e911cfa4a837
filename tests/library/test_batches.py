"""Columnar batches (issue 29, items 2 and 4): ``urlsift.scan_batches`` gives ``Batch``es whose
rows are ``urlsift.scan``'s, with each message's provenance held once, and which pyarrow (the
``parquet`` extra) takes as a table of the Parquet output's columns."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import urlsift
from urlsift.batches import Batch, in_batches, run_unit
from urlsift.execute import execute
from urlsift.plan import build
from urlsift.results import scan_file, walk
from urlsift.rows import FIELDS, Options, Report, Row, Tally
from urlsift.units import Unit, plan

ROOT = Path(__file__).parents[2]
CORPORA = ROOT / "corpora"
SOURCES = (
    "mail/mail-url-hard-cases.mbox",  # reports (an unknown charset, undecodable bytes) among rows
    "mail/r-devel-1997-May.mbox",
    "news/comp.sources.unix-1994-1996.mbox",
    "news/spool",  # a folder of news articles, walked
    "rfc/rfc3986.txt",
    "text/emacs-etc-PROBLEMS",
)
KEYWORDS: tuple[dict[str, Any], ...] = (
    {},
    {"invalid": True},
    {"invalid": True, "context": 20, "wayback": True},
    {"profile": "modern", "canonical": True, "schemes": ["http", "ftp"], "naked": False},
)


def _rows(batches: list[Batch]) -> list[Row | Report]:
    return [found for batch in batches for found in batch.to_rows()]


@pytest.mark.parametrize("name", SOURCES)
@pytest.mark.parametrize("keywords", KEYWORDS, ids=lambda keywords: ",".join(keywords) or "defaults")
def test_the_rows_of_the_batches_are_the_rows_scan_gives(name: str, keywords: dict[str, Any]) -> None:
    path = CORPORA / name
    expected = list(urlsift.scan(path, **keywords))
    batches = list(urlsift.scan_batches(path, **keywords))
    assert all(isinstance(batch, urlsift.Batch) for batch in batches)
    assert _rows(batches) == expected
    assert [type(found) for found in _rows(batches)] == [type(found) for found in expected]
    assert sum(len(batch) for batch in batches) == sum(isinstance(found, Row) for found in expected)


def test_many_sources_and_file_objects_give_the_rows_in_scan_order() -> None:
    paths = [CORPORA / name for name in SOURCES]
    data = (CORPORA / SOURCES[1]).read_bytes()
    sources: list[Any] = [*paths, io.BytesIO(data), str(CORPORA / "does-not-exist.mbox")]
    expected = list(urlsift.scan([*paths, io.BytesIO(data), sources[-1]], invalid=True))
    assert any(isinstance(found, Report) and found.kind == "unreadable" for found in expected)
    assert _rows(list(urlsift.scan_batches(sources, invalid=True))) == expected


def test_with_workers_the_rows_are_those_scan_gives_with_workers() -> None:
    """Every corpus file, the mboxes and texts cut in pieces of 100 kB, read by 2 processes."""
    files = sorted(str(path) for path in CORPORA.rglob("*") if path.is_file())
    expected = list(urlsift.scan(files, invalid=True, workers=2, split_size=100_000))
    batches = list(urlsift.scan_batches(files, invalid=True, workers=2, split_size=100_000))
    assert _rows(batches) == expected
    assert _total(batches) == _total(list(urlsift.scan_batches(files, invalid=True)))


def test_a_batch_holds_up_to_its_rows_and_a_file_may_span_batches() -> None:
    paths = [str(CORPORA / name) for name in SOURCES]
    options = Options(invalid=True)
    batches = list(in_batches(execute(build(paths, options)), None, rows=100))
    assert all(len(batch) + len(batch.reports.place) <= 100 for batch in batches)
    assert _rows(batches) == list(urlsift.scan(paths, invalid=True))
    assert len(batches) > 10
    expected = Tally()
    for path in walk(paths):
        assert isinstance(path, str)
        expected.add(scan_file(path, options)[1])
    assert _total(batches) == expected


def test_the_arguments_are_checked_as_scan_checks_them() -> None:
    with pytest.raises(ValueError, match="profile"):
        urlsift.scan_batches(CORPORA, profile="lax")
    with pytest.raises(ValueError, match="workers"):
        urlsift.scan_batches(CORPORA, workers=0)
    with pytest.raises(ValueError, match="context"):
        urlsift.scan_batches(CORPORA, context=-1)
    with pytest.raises(TypeError):
        urlsift.scan_batches([3])  # type: ignore[list-item]


def _total(batches: list[Batch]) -> Tally:
    total = Tally()
    for batch in batches:
        total.add(batch.tally)
    return total


@pytest.mark.parametrize("name", SOURCES[:2] + SOURCES[4:])
def test_the_tallies_add_up_to_the_files(name: str) -> None:
    path = str(CORPORA / name)
    _, expected = scan_file(path, Options(invalid=True))
    assert _total(list(urlsift.scan_batches(path, invalid=True))) == expected
    assert run_unit(Unit("files", path, names=(path,)), Options(invalid=True)).tally == expected


def test_run_unit_gives_a_units_rows() -> None:
    paths = tuple(str(CORPORA / name) for name in SOURCES if not name.endswith("spool"))
    batch = run_unit(Unit("files", paths[0], names=paths), Options(invalid=True))
    assert batch.to_rows() == list(urlsift.scan(paths, invalid=True))
    assert batch.tally.files == len(paths)


def test_run_unit_numbers_a_piece_from_its_start() -> None:
    """An mbox cut in pieces: each piece's batch numbers its messages from 0, so the whole file's
    rows are the pieces' with the earlier pieces' messages added to one column."""
    path = str(CORPORA / SOURCES[0])
    options = Options(invalid=True)
    units = [unit for unit in plan([path], options.read, split=100_000) if isinstance(unit, Unit)]
    assert len(units) > 3
    assert {unit.kind for unit in units} == {"mbox"}
    joined: list[Row | Report] = []
    before = 0
    for unit in units:
        batch = run_unit(unit, options)
        assert min(number for number in batch.messages.message if number is not None) < 3
        for found in batch.to_rows():
            number = None if found.message is None else found.message + before
            if isinstance(found, Row):
                joined.append(found._replace(message=number))
            elif number is not None:
                joined.append(
                    found._replace(place=f"{found.place.rsplit('#', 1)[0]}#{number}", message=number)
                )
            else:
                joined.append(found)
        before += batch.tally.messages
    assert joined == list(urlsift.scan(path, invalid=True))


def test_the_tables_point_at_each_other() -> None:
    (batch,) = urlsift.scan_batches(CORPORA / SOURCES[0], invalid=True)
    messages, texts, matches, reports = batch.messages, batch.texts, batch.matches, batch.reports
    for table in (messages, texts, matches, reports):
        assert len({len(column) for column in table}) == 1, type(table).__name__
    assert len(matches.url) == len(batch) > 500
    assert set(matches.text) == set(range(len(texts.part)))  # a text is there for its matches
    assert set(texts.message) == set(range(len(messages.message)))
    assert len(reports.place) == 3
    assert all(0 <= before <= len(batch) for before in reports.before)


def test_the_provenance_of_a_message_is_held_once() -> None:
    (batch,) = urlsift.scan_batches(CORPORA / SOURCES[0], invalid=True)
    rows = [found for found in batch.to_rows() if isinstance(found, Row)]
    where = {(row.source, row.member, row.message) for row in rows}
    assert len(batch.messages.message) == len(where) < len(rows) / 2
    assert len(set(zip(batch.messages.source, batch.messages.message, strict=True))) == len(where)
    parts = {(row.source, row.message, row.part) for row in rows}
    assert len(batch.texts.part) == len(parts)


def test_a_plain_text_is_one_message_of_no_index() -> None:
    (batch,) = urlsift.scan_batches(CORPORA / SOURCES[4])
    assert batch.messages.message == [None]
    assert batch.texts.part == [None]
    assert len(batch) > 50


def test_the_failures_are_columns() -> None:
    """A rejected candidate's ``error`` and, apart, its position and production."""
    (batch,) = urlsift.scan_batches(CORPORA / SOURCES[0], invalid=True)
    matches = batch.matches
    rejected = [i for i, valid in enumerate(matches.valid) if not valid]
    assert rejected
    for i in rejected:
        error, position, production = matches.error[i], matches.position[i], matches.production[i]
        assert error is not None
        assert error.startswith(f"at {position} ({production}): ")
    assert all(matches.position[i] is None for i, valid in enumerate(matches.valid) if valid)


def test_a_file_with_nothing_found_gives_its_tally() -> None:
    batches = list(urlsift.scan_batches(CORPORA / "rfc" / "rfc1036.txt"))
    assert sum(len(batch) for batch in batches) == 0
    assert _total(batches).files == 1
    assert _total(batches).characters > 40_000


pa = pytest.importorskip("pyarrow")


@pytest.mark.parametrize("name", SOURCES[:2] + SOURCES[3:5])
def test_to_arrow_is_the_parquet_table_of_the_rows(name: str) -> None:
    from urlsift.parquet import SCHEMA, table

    for batch in urlsift.scan_batches(CORPORA / name, invalid=True, context=10, wayback=True):
        rows = [found for found in batch.to_rows() if isinstance(found, Row)]
        found = batch.to_arrow()
        assert found.schema.equals(SCHEMA)
        assert found.equals(table(rows))


def test_pyarrow_takes_a_batch_through_the_stream_protocol() -> None:
    from urlsift.parquet import SCHEMA

    (batch,) = urlsift.scan_batches(CORPORA / SOURCES[1])
    found = pa.table(batch)
    assert found.schema.equals(SCHEMA)
    assert found.equals(batch.to_arrow())
    assert found.column("message").type == pa.int64()
    assert found.column("date").type == pa.timestamp("us")  # in UTC, with no zone (D38)
    assert found.column("alternatives").type == pa.list_(pa.field("element", pa.string()))
    assert found.num_rows == len(batch) > 40
    reader = pa.RecordBatchReader.from_stream(batch)
    assert reader.read_all().equals(found)


def test_an_empty_batch_is_an_empty_table_of_the_columns() -> None:
    from urlsift.parquet import SCHEMA

    (batch,) = urlsift.scan_batches(CORPORA / "rfc" / "rfc1036.txt")
    assert batch.to_arrow().schema.equals(SCHEMA)
    assert batch.to_arrow().num_rows == 0


def test_without_pyarrow_to_arrow_names_the_extra() -> None:
    script = textwrap.dedent(
        f"""
        import sys
        sys.modules["pyarrow"] = None  # as if it were not installed
        import urlsift
        (batch,) = urlsift.scan_batches({str(CORPORA / SOURCES[1])!r})
        assert batch.to_rows() == list(urlsift.scan({str(CORPORA / SOURCES[1])!r}))
        for call in (batch.to_arrow, batch.__arrow_c_stream__):
            try:
                call()
            except urlsift.MissingExtra as error:
                assert error.extra == "parquet", error
                assert "pip install 'urlsift[parquet]'" in str(error), error
            else:
                raise AssertionError("no MissingExtra")
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, env=_env()
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"


def _env() -> dict[str, str]:
    import os

    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def test_duckdb_and_pandas_take_a_batch_as_it_is() -> None:
    duckdb = pytest.importorskip("duckdb")
    pandas = pytest.importorskip("pandas")
    (batch,) = urlsift.scan_batches(CORPORA / SOURCES[1])
    schemes: dict[str, int] = {}
    for found in batch.to_rows():
        if isinstance(found, Row) and found.scheme is not None:
            schemes[found.scheme] = schemes.get(found.scheme, 0) + 1
    query = "select scheme, count(*) from batch group by scheme order by scheme"
    assert duckdb.sql(query).fetchall() == sorted(schemes.items())
    if not hasattr(pandas.DataFrame, "from_arrow"):  # (pandas 3)
        pytest.skip("this pandas takes no Arrow stream")
    frame = pandas.DataFrame.from_arrow(batch)
    assert frame.shape == (len(batch), len(FIELDS))
    assert str(frame["date"].dtype) == "datetime64[us]"
