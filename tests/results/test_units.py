"""Units of work (issue 8): big texts cut at lines no candidate crosses, zip and tar archives in
member groups, small files in batches; their results put back together are those of one read."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift._model import ProfileName
from urlsift.batches import Part, unit_parts
from urlsift.cli import main
from urlsift.execute import execute
from urlsift.pieces import in_files
from urlsift.plan import build
from urlsift.results import scan_file
from urlsift.rows import Event, Options, Report, Row, Tally
from urlsift.sources import ReadOptions
from urlsift.sources.split import cuts
from urlsift.units import _TEXT_CUT, Unit, plan

CORPORA = Path(__file__).parents[2] / "corpora"

# Lines of a plain text: wrappers across lines (quoted, hyphenated, with "<" and whitespace before
# the scheme), blank and white lines, naked and quoted URLs, "<" that opens nothing, long lines.
text_lines = st.sampled_from(
    [
        "see <URL:http://host/a-",
        "  b/c> and http://example.com/x.",
        "> <URL:ftp://ftp.x.org/pub/",
        "> file.txt>",
        "<",
        "http://a.b/>",
        "",
        "   ",
        '"http://quoted.example/q" said',
        "URL:",
        "news:comp.lang.c <mailto:joe@example.com>",
        "a < b and c > d",
        "x" * 300,
        "<x" * 40,
        "www.example.com/w",
    ]
)
texts = st.lists(text_lines, max_size=60).map(lambda lines: "\n".join(lines).encode())


def _events_of(path: Path, units: list[Unit], options: Options) -> tuple[list[Event], Tally]:
    """The events of ``units`` joined as -j joins them (their batches' columns added to), and the
    tally of the file; the batches' tallies add up to it."""
    found = in_files(iter([(unit, unit_parts(unit, options)) for unit in units]))
    events: list[Event] = []
    tally, given = Tally(), Tally()
    for path_given, batches, file_tally in found:
        assert path_given is not None
        for batch in batches:
            events.extend(batch.events())
            given.add(batch.tally)
        tally.add(file_tally)
    assert given == tally
    return events, tally


def _text_units(factory: pytest.TempPathFactory, data: bytes, size: int) -> tuple[Path, list[Unit]]:
    """A file of ``data`` and its units at ``size`` bytes a piece."""
    path = factory.mktemp("text") / "t.txt"
    path.write_bytes(data)
    units = plan([str(path)], ReadOptions(), split=size, batch=0)
    return path, [unit for unit in units if isinstance(unit, Unit)]


@pytest.mark.parametrize("profile", ["strict", "modern"])
@given(data=texts, size=st.integers(1, 3000))
@settings(deadline=None)
def test_a_text_cut_anywhere_gives_what_one_read_gives(
    tmp_path_factory: pytest.TempPathFactory, profile: ProfileName, data: bytes, size: int
) -> None:
    """The same events and counts: the pieces' line numbers and offsets go on from the pieces
    before them (a column of their batches added to)."""
    path, units = _text_units(tmp_path_factory, data, size)
    options = Options(profile=profile, invalid=True)
    whole, whole_tally = scan_file(str(path), options)
    assert _events_of(path, units, options) == (whole, whole_tally)


@given(data=texts, size=st.integers(1, 500))
def test_text_cuts_start_lines_after_a_blank_line_or_far_from_any_wrapper(data: bytes, size: int) -> None:
    for start in cuts(io.BytesIO(data), size, len(data), _TEXT_CUT)[1:]:
        assert data[start - 1 : start] == b"\n"
        before = data[: start - 1].rsplit(b"\n", 1)[-1]
        assert not before.strip() or b"<" not in data[max(0, start - 2048 - 128) : start]


def test_a_text_with_nowhere_to_cut_is_one_unit(tmp_path: Path) -> None:
    path = tmp_path / "html.txt"
    path.write_bytes(b"<p>" * 100_000)  # one line: no line start at all
    assert [unit.kind for unit in plan([str(path)], ReadOptions(), split=1000)] == ["files"]


def _jsonl(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, object]], str]:
    status = main(["--no-progress", "--verbose", "--format", "jsonl", "--invalid", "--stats", *argv])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def _archives(tmp_path: Path) -> tuple[Path, Path]:
    members = sorted((CORPORA / "mail").glob("*.mbox")) + sorted((CORPORA / "rfc").glob("*.txt"))[:4]
    zipped, tarred = tmp_path / "a.zip", tmp_path / "a.tar"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            archive.write(member, member.name)
    with tarfile.open(tarred, "w") as archive:
        for member in members:
            archive.add(member, member.name)
    return zipped, tarred


def test_zip_and_tar_members_in_groups_give_what_one_read_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zipped, tarred = _archives(tmp_path)
    for archive, kind in ((zipped, "zip"), (tarred, "tar")):
        units = list(plan([str(archive)], ReadOptions(), split=100_000))
        assert len(units) > 3
        assert {unit.kind for unit in units if isinstance(unit, Unit)} == {kind}
        one = _jsonl(capsys, str(archive))
        many = _jsonl(capsys, "-j", "2", "--split-size", "100K", str(archive))
        assert one[1]
        assert one[:2] == many[:2]
        if kind == "tar":  # a zip's pieces each read its directory: more bytes are read
            assert one[2] == many[2]


def test_small_files_go_in_batches_in_their_order(tmp_path: Path) -> None:
    for k in range(30):
        (tmp_path / f"{k:02}.txt").write_text(f"<URL:http://host{k}.example/>\n")
    paths = sorted(str(path) for path in tmp_path.iterdir())
    units = list(plan(paths, ReadOptions(), batch=100))
    assert all(isinstance(unit, Unit) and unit.kind == "files" for unit in units)
    assert [name for unit in units for name in unit.names] == paths
    assert 5 < len(units) < 30  # 31 bytes a file: three to a batch


def test_a_spool_read_in_batches_prints_what_j1_prints(capsys: pytest.CaptureFixture[str]) -> None:
    spool = str(CORPORA / "news" / "spool")
    one = _jsonl(capsys, spool)
    many = _jsonl(capsys, "-j", "2", spool)
    assert one[1]
    assert one == many


def _fails_on_doomed(unit: Unit, options: Options) -> Iterator[Part]:
    if any("doomed" in name for name in unit.names):
        raise OSError("worker killed")
    return unit_parts(unit, options)


def test_a_failed_unit_loses_only_its_own_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "good.txt").write_text("<URL:http://good.example/>\n")
    (tmp_path / "doomed.txt").write_text("<URL:http://doomed.example/>\n")
    monkeypatch.setattr("urlsift.execute.unit_parts", _fails_on_doomed)
    paths = [str(tmp_path / "good.txt"), str(tmp_path / "doomed.txt"), str(tmp_path / "good.txt")]
    options = ["--no-progress", "--no-filename", "--verbose", "--stats"]
    status = main([*options, "-j", "2", "--split-size", "1", *paths])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == "http://good.example/\n" * 2
    assert f"urlsift: {paths[1]}: lost: the worker reading it failed: OSError: worker killed" in err
    assert "files               3 = 2 scanned + 1 failed" in err


def _dies_on_doomed(unit: Unit, options: Options) -> Iterator[Part]:
    if any("doomed" in name for name in unit.names):
        os._exit(9)  # as the kernel's out-of-memory killer leaves it: no exception, no result
    return unit_parts(unit, options)


@pytest.mark.parametrize("how", [["-j", "2"], ["--scheduler", "local:2"]], ids=["j2", "local2"])
def test_a_worker_that_dies_loses_only_its_own_unit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, how: list[str]
) -> None:
    """The units in flight with it are read again, each alone, and the units after it go on in
    a new pool: only the files of the unit that killed its worker are lost. ``local:N`` runs on
    the same pool (Dask's scheduler hands the broken pool's error on as it is)."""
    if "--scheduler" in how:
        pytest.importorskip("dask")
    monkeypatch.setattr("urlsift.execute.unit_parts", _dies_on_doomed)
    paths = []
    for k in range(12):
        name = "doomed" if k in (3, 8) else "good"
        (tmp_path / f"{k:02}-{name}.txt").write_text(f"<URL:http://{name}.example/{k}>\n")
        paths.append(str(tmp_path / f"{k:02}-{name}.txt"))
    options = ["--no-progress", "--no-filename", "--verbose", "--stats"]
    status = main([*options, *how, "--split-size", "1", *paths])
    out, err = capsys.readouterr()
    assert status == 2
    assert out.splitlines() == [f"http://good.example/{k}" for k in range(12) if k not in (3, 8)]
    assert [line.split(": ")[1] for line in err.splitlines() if ": lost: " in line] == [paths[3], paths[8]]
    assert "files              12 = 10 scanned + 2 failed" in err


def test_long_lines_in_many_pieces_are_reported_once_as_one_read_reports_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole read reports a text's first overlong line, once, with its number in the file; the
    pieces that each find one report nothing more, and count no more errors."""
    from urlsift.sources import MAX_LINE

    line = b"x" * (MAX_LINE + 10) + b"\n"
    path = tmp_path / "long.txt"
    path.write_bytes(b"<URL:http://a.example/>\n" * 2000 + line + b"http://b.example/\n" * 3000 + line * 2)
    one = _jsonl(capsys, "--stats", str(path))
    many = _jsonl(capsys, "--stats", "-j", "2", "--split-size", "300K", str(path))
    assert one == many
    assert f"long-line: line 2,001 is over {MAX_LINE:,} bytes long; scanned" in one[2]
    assert "problems            1 = 1 error + 0 warnings" in one[2]
    assert len(list(plan([str(path)], ReadOptions(), split=300_000))) == 3  # a long line in each


@pytest.mark.parametrize("kind", ["text", "mbox"])
def test_a_file_that_shrank_after_its_units_were_planned_counts_the_bytes_read(
    tmp_path: Path, kind: str
) -> None:
    """Issue 28, finding 19: a range past the file's new end counts what was read of it, not its
    planned size (--stats' bytes said more than the file ever held)."""
    message = b"From a@b Mon Jan  1 00:00:00 2024\nSubject: s\n\nhttp://x.example/\n\n"
    line = message if kind == "mbox" else b"see http://x.example/ here\n"
    path = tmp_path / f"shrinking.{kind}"
    path.write_bytes(line * (40_000 // len(line)))
    planned = plan([str(path)], ReadOptions(), split=5_000, batch=0)
    units = [unit for unit in planned if isinstance(unit, Unit)]
    assert len(units) > 4
    assert units[0].kind == kind
    kept = len(line) * (15_000 // len(line))
    with path.open("r+b") as file:
        file.truncate(kept)
    _, tally = _events_of(path, units, Options())
    assert tally.bytes == kept
    assert tally.files == 1


def _gz_of_urls(path: Path, count: int) -> Path:
    """A .gz of ``count`` URLs, one a line: one unit of work, whatever its size."""
    with gzip.open(path, "wb") as file:
        file.write("".join(f"see http://h{k % 97}.example/p/{k} here\n" for k in range(count)).encode())
    return path


_FLAG = "URLSIFT_TEST_FLAG"
"""A file a test's patched worker looks for (the environment reaches the forked workers)."""


def _waits_for_a_printed_row(unit: Unit, options: Options) -> Iterator[Part]:
    """The unit's pieces, waiting after the first one until the printing process has given a row."""
    pieces = unit_parts(unit, options)
    yield next(pieces)
    flag, deadline = Path(os.environ[_FLAG]), time.monotonic() + 30
    while not flag.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("no row was given while the worker read its unit")
        time.sleep(0.01)
    yield from pieces


def test_a_units_rows_come_while_its_worker_still_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28, finding 6: a worker hands its rows back in pieces as it reads (a compressed file
    is one unit: held whole, 2 million URLs took a GB), so the first rows are given before the
    worker is done (it waits here for the first to be given)."""
    path = _gz_of_urls(tmp_path / "urls.txt.gz", 3_500)
    flag = tmp_path / "printed"
    monkeypatch.setenv(_FLAG, str(flag))
    found: list[Row | Report] = []
    # The worker's work given through execute's seam (``work``), not patched into the module.
    work = partial(_waits_for_a_printed_row, options=Options())
    for _, batches, _ in execute(build([str(path)], Options(), jobs=2), work=work):
        for batch in batches:
            flag.touch()
            found.extend(batch.events())
    assert [row.url for row in found if isinstance(row, Row)] == [
        f"http://h{k % 97}.example/p/{k}" for k in range(3_500)
    ]
    assert not [report for report in found if isinstance(report, Report)]


_PEAK = """
import resource, sys, urlsift
rows = sum(isinstance(found, urlsift.Row) for found in urlsift.scan(sys.argv[1], workers=int(sys.argv[2])))
print(rows, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""
"""The rows of ``scan(PATH, workers=N)``, and the calling process's peak RSS (KiB)."""


def test_the_printing_process_holds_a_few_pieces_of_a_unit(tmp_path: Path) -> None:
    """What ``scan(workers=2)`` holds of a unit of 100,000 rows: a few pieces, not the unit's rows
    (63 MB more than ``workers=1``, which reads and scans in the same process, before issue 28's
    fix; 0-4 MB more after)."""
    path = _gz_of_urls(tmp_path / "urls.txt.gz", 100_000)
    peaks = {}
    for workers in (1, 2):
        done = subprocess.run(
            [sys.executable, "-c", _PEAK, str(path), str(workers)], capture_output=True, text=True, check=True
        )
        rows, peak = done.stdout.split()
        assert int(rows) == 100_000
        peaks[workers] = int(peak) * 1024
    assert peaks[2] < peaks[1] + 24 * 2**20


def _dies_once_in_the_middle(unit: Unit, options: Options) -> Iterator[Part]:
    """The unit's pieces; the first time, the worker dies after three of them."""
    flag = Path(os.environ[_FLAG])
    first = not flag.exists()
    flag.touch()
    for k, piece in enumerate(unit_parts(unit, options)):
        if first and k == 3:
            os._exit(9)  # as the kernel's out-of-memory killer leaves it
        yield piece


@pytest.mark.parametrize("how", [["-j", "2"], ["--scheduler", "local:2"]], ids=["j2", "local2"])
def test_a_worker_that_dies_mid_unit_loses_nothing_and_repeats_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, how: list[str]
) -> None:
    """The unit is read again alone, and the pieces its first worker sent are skipped: the rows
    are those of one read, each once."""
    if "--scheduler" in how:
        pytest.importorskip("dask")
    path = str(_gz_of_urls(tmp_path / "urls.txt.gz", 5_500))
    one = _jsonl(capsys, path)
    monkeypatch.setenv(_FLAG, str(tmp_path / "died"))
    monkeypatch.setattr("urlsift.execute.unit_parts", _dies_once_in_the_middle)
    many = _jsonl(capsys, *how, path)
    assert (tmp_path / "died").exists()
    assert many[:2] == one[:2]
    assert "files               1 = 1 scanned + 0 failed" in many[2]
    assert many[2] == one[2]


def _fails_after_two_pieces(unit: Unit, options: Options) -> Iterator[Part]:
    """The unit's first two pieces, then an error in its worker (each time it is read)."""
    for k, piece in enumerate(unit_parts(unit, options)):
        if k == 2:
            raise OSError("worker failed")
        yield piece


def test_a_unit_that_fails_in_the_middle_counts_what_was_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review M3: the counts of a file came with its last piece only, so one lost after some of
    its rows were printed said ``URLs 0 valid (2,000 printed)``. Each piece counts its own rows;
    the file is counted once, failed."""
    path = str(_gz_of_urls(tmp_path / "urls.txt.gz", 5_500))
    monkeypatch.setattr("urlsift.execute.unit_parts", _fails_after_two_pieces)
    assert main(["--no-progress", "--no-filename", "--stats", "-j", "2", path]) == 2
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2_000
    assert f"urlsift: {path}: lost: the worker reading it failed: OSError: worker failed" in err
    assert "files               1 = 0 scanned + 1 failed" in err
    assert "URLs            2,000 valid (2,000 printed)" in err
