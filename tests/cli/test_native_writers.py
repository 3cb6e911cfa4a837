"""The native writers (issue 31: rust/core/src/write.rs) against the Python ones (``output.writer``),
byte for byte: on hypothesis batches of hostile strings (controls, quotes, commas, line breaks,
formula starts, bidi and zero-width characters, astral characters, lone surrogates), on every corpus
file's rows, in each format and style; and the command line's output, reports interleaved, under
both cores."""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift import _select, escaping, scan_batches
from urlsift._model import Wrapper
from urlsift.batches import Batch, batch_of
from urlsift.marks import PLAIN, Marks
from urlsift.output import Format, Printing, batch_writer, columnar, writer
from urlsift.rows import Row

ROOT = Path(__file__).parents[2]
CORPORA = sorted(path for path in (ROOT / "corpora").rglob("*") if path.is_file() and path.suffix != ".md")
native = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")

STYLES: list[tuple[Format, Marks, bool, str]] = [
    *(
        ("text", marks, canonical, "\n")
        for marks in (PLAIN, Marks(True), Marks(False, True), Marks(True, True))
        for canonical in (False, True)
    ),
    ("jsonl", PLAIN, False, "\n"),
    ("csv", PLAIN, False, "\n"),
    ("csv", PLAIN, False, "\0"),
]
"""Each format, with each of the text format's marks, with and without canonical forms, and CSV
records ended by a line feed and by -0's NUL."""

_HOSTILE = list(
    "\",\n\r\t\0=+-@\\'\x1b\x7f\x85\xa0\xad\u2028\u2029\u200b\u202e\ufeff\ud800\udc00\udfffé中😀\U000e0041 :/"
)
TEXTS = st.text(st.one_of(st.sampled_from(_HOSTILE), st.characters(exclude_categories=())), max_size=10)
SCHEMES = st.one_of(st.none(), st.sampled_from(["http", "ftp", "mailto"]), TEXTS)
NUMBERS = st.integers(-(10**12), 10**12)


@st.composite
def rows(draw: st.DrawFn) -> Row:
    wrapper: Wrapper | None = draw(st.sampled_from([None, "URL:", "<>", '"']))
    text, number = st.none() | TEXTS, st.none() | NUMBERS

    def maybe() -> str | None:
        return draw(text)

    source = draw(st.sampled_from(["-", "<stdin>", "a.txt", "=b.mbox"]) | TEXTS)
    url, alternatives = draw(TEXTS), tuple(draw(st.lists(TEXTS, max_size=3)))
    valid, scheme, line, column = draw(st.booleans()), draw(SCHEMES), draw(NUMBERS), draw(NUMBERS)
    return Row(
        url, alternatives, valid, scheme, wrapper, wrapper is None, line, column, source, maybe(),
        draw(number), draw(number), maybe(), maybe(), maybe(), maybe(), maybe(), maybe(), draw(number),
        draw(NUMBERS), draw(NUMBERS), draw(NUMBERS), maybe(), maybe(), maybe(), maybe(), maybe(), maybe(),
        maybe(),
    )  # fmt: skip


def python_written(
    found: list[Row], style: tuple[Format, Marks, bool, str], schemes: frozenset[str] | None
) -> tuple[str, int, bool]:
    """What the Python writer writes of ``found`` (its rows, a header aside), how many, and
    whether one is valid: the oracle."""
    fmt, marks, canonical, end = style
    out = io.StringIO()
    write = writer(fmt, out, canonical=canonical, header=False, marks=marks, end=end)
    kept = [row for row in found if schemes is None or row.scheme in schemes]
    for row in kept:
        write(row)
    return out.getvalue(), len(kept), any(row.valid for row in kept)


def native_written(
    batch: Batch,
    style: tuple[Format, Marks, bool, str],
    schemes: frozenset[str] | None,
    start: int,
    stop: int,
) -> tuple[str, int, bool]:
    fmt, marks, canonical, end = style
    assert _select.NATIVE is not None
    made = _select.NATIVE.Writer(
        fmt,
        canonical=canonical,
        filename=marks.filename,
        color=marks.color,
        end=end,
        schemes=None if schemes is None else sorted(schemes),
    )
    rows = _select.NATIVE.Rows(batch.messages, batch.texts, batch.matches, text_only=fmt == "text")
    text, printed, found = made.write(rows, start, stop)
    return text.decode("utf-8"), printed, found


@native
@given(st.lists(rows(), max_size=6), st.integers(0, 6), st.integers(0, 6), st.booleans())
def test_the_native_writers_write_what_the_python_ones_write(
    found: list[Row], start: int, stop: int, some_schemes: bool
) -> None:
    batch = batch_of(found)
    stop = max(start, stop)
    schemes = frozenset({"http", "mailto"}) if some_schemes else None
    for style in STYLES:
        expected = python_written(found[start:stop], style, schemes)
        assert native_written(batch, style, schemes, start, stop) == expected, style


@native
@pytest.mark.parametrize("path", CORPORA, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_corpus_file_is_written_the_same_by_both_writers(path: Path) -> None:
    for profile in ("strict", "modern"):
        options = {"profile": profile, "invalid": True, "canonical": True, "context": 2, "wayback": True}
        for batch in scan_batches(path, **options):  # type: ignore[arg-type]
            found = [event for event in batch.events() if isinstance(event, Row)]
            assert found == list(batch_of(found).events())
            for style in STYLES:
                expected = python_written(found, style, None)
                assert native_written(batch, style, None, 0, len(batch)) == expected, (profile, style)


@native
def test_the_escaping_table_is_the_python_patterns() -> None:
    written = (ROOT / "rust/core/src/write_tables.rs").read_text(encoding="utf-8")
    # If not: python -m urlsift.escaping > rust/core/src/write_tables.rs
    assert written == escaping.render()


def test_one_place_decides_which_writer_writes(core: _select.Core) -> None:
    """The core writes where no Python work is left per row: not for canonical forms (--canonical,
    --unique), not where nothing is printed (-c, -l, -q); Parquet is then written from Arrow."""
    plain = Printing("jsonl", frozenset({"http"}))
    made = batch_writer(plain, PLAIN, "\n")
    assert (made is not None) == (core == "rust")
    assert batch_writer(Printing("text", canonical=True), PLAIN, "\n") is None
    assert batch_writer(Printing("csv"), PLAIN, "\n", counting=True) is None
    assert batch_writer(Printing("parquet"), PLAIN, "\n") is None
    assert columnar(Printing("parquet")) == (core == "rust")
    assert not columnar(Printing("parquet", canonical=True))
    assert not columnar(Printing("text"), counting=True)


_HOSTILE_MBOX = (
    "From a@b Thu Jan  1 00:00:00 1970\nSubject: one\nContent-Type: text/plain; charset=x-unknown\n\n"
    'See <URL:http://a.example/x>, "http://b.example/=y" and http://c.example/\x1b[31m,z\n\n'
    "From a@b Thu Jan  1 00:00:00 1970\nSubject: two\n\nftp://d.example/é and http://e.example/\u202e\n\n"
    "From a@b Thu Jan  1 00:00:00 1970\nSubject: three\nContent-Type: text/plain; charset=x-unknown\n\n"
    "mailto:f@g.example, http://h.example/\n"
)


@pytest.mark.parametrize(
    "options",
    [
        ["--format", "jsonl", "--invalid", "--context", "1", "--wayback"],
        ["--format", "csv", "--invalid", "--context", "1", "-0"],
        ["--format", "csv", "--schemes", "http,mailto"],
        ["--invalid", "-H", "--color", "always"],
        ["--invalid", "-0", "--no-filename"],
    ],
    ids=" ".join,
)
def test_the_command_line_prints_the_same_under_both_cores(
    core: _select.Core, options: list[str], tmp_path: Path
) -> None:
    """Rows, reports at their place among them (one stream: stderr into stdout) and exit status."""
    (tmp_path / "a.mbox").write_text(_HOSTILE_MBOX, encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"http://i.example/\xff and <URL:ftp://j.example/\n k>\n")
    (tmp_path / "c.gz").write_bytes(b"\x1f\x8b\x08\x00 not gzip")
    arguments = [sys.executable, "-m", "urlsift", "--verbose", *options, "a.mbox", "b.txt", "c.gz"]

    def run(name: _select.Core) -> tuple[bytes, int]:
        env = {**os.environ, _select.VARIABLE: name}
        done = subprocess.run(
            arguments, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        return done.stdout, done.returncode

    expected, status = run(core)
    assert b"unknown-charset" in expected
    assert b"c.gz" in expected
    assert status == 2
    assert run("python" if core == "rust" else "rust") == (expected, status)


@pytest.mark.parametrize(
    "options", [["--invalid", "--context", "1", "--wayback"], ["--schemes", "http,mailto"]]
)
def test_parquet_from_the_batches_columns_is_the_same_files(
    core: _select.Core, options: list[str], tmp_path: Path
) -> None:
    """With the Rust core, Parquet is written from each batch's Arrow table: byte for byte the files
    the rows give one at a time, cut into the same files and row groups."""
    (tmp_path / "a.mbox").write_text(_HOSTILE_MBOX * 40, encoding="utf-8")
    arguments = [sys.executable, "-m", "urlsift", "--format", "parquet", *options, "a.mbox"]

    def written(name: _select.Core) -> list[tuple[str, bytes]]:
        env = {**os.environ, _select.VARIABLE: name}
        subprocess.run([*arguments, "--output", name], cwd=tmp_path, env=env, check=True)
        return [(path.name, path.read_bytes()) for path in sorted((tmp_path / name).iterdir())]

    assert written(core) == written("python" if core == "rust" else "rust")


def test_a_sink_given_tables_writes_what_it_writes_given_rows(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from urlsift.parquet import ParquetSink

    hard = ROOT / "corpora" / "mail" / "mail-url-hard-cases.mbox"
    batches = list(scan_batches(hard))
    by_rows = ParquetSink(str(tmp_path / "rows"), file_rows=100, row_group=30)
    by_tables = ParquetSink(str(tmp_path / "tables"), file_rows=100, row_group=30)
    for batch in batches:
        for event in batch.events():
            if isinstance(event, Row):
                by_rows.write(event)
        table, start = batch.to_arrow(), 0
        for length in itertools.cycle((7, 45, 1)):  # runs shorter than a row group, and longer
            if start >= table.num_rows:
                break
            by_tables.write_table(table.slice(start, length))
            start += length
    by_rows.close()
    by_tables.close()
    files = sorted((tmp_path / "rows").iterdir())
    assert len(files) > 5
    for file in files:
        other = tmp_path / "tables" / file.name
        assert pq.read_metadata(other).num_row_groups == pq.read_metadata(file).num_row_groups
        assert pq.read_table(other).equals(pq.read_table(file))
