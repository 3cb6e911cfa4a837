"""The Python face for archives (issue 20): ``urlsift.scan`` and ``urlsift.extract_message`` give
the rows ``urlsift --format jsonl`` prints, and its problem reports, in its order."""

from __future__ import annotations

import contextlib
import email
import gzip
import importlib
import io
import json
import mailbox
import multiprocessing
import os
import pickle
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import urlsift
from urlsift import dask as urlsift_dask
from urlsift.cli import main
from urlsift.library import MESSAGE_NAME, STREAM_NAME
from urlsift.rows import FIELDS
from urlsift.sources.mbox import messages

CORPORA = Path(__file__).parents[2] / "corpora"
MBOXES = (
    "mail/mail-url-hard-cases.mbox",
    "mail/r-devel-2000-May.mbox",
    "news/comp.sources.unix-1994-1996.mbox",
)
WHERE = ("source", "member", "message", "offset")
"""The columns that say where a message lay in its file (``extract_message`` has no file)."""

Record = dict[str, Any]


def _cli(*argv: str) -> tuple[list[Record], list[str]]:
    """The CLI's jsonl rows, as JSON reads them, and its report lines."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(["--no-progress", "--verbose", "--format", "jsonl", *argv])
    return [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue().splitlines()


def _split(found: Iterable[urlsift.Row | urlsift.Report]) -> tuple[list[Record], list[str]]:
    """Rows as the JSON of their columns (tuples become lists), and reports as the CLI prints them;
    the jsonl columns a row does not have (``count``, which is ``--unique``'s) must be null."""
    rows: list[Record] = []
    reports: list[str] = []
    for item in found:
        if isinstance(item, urlsift.Report):
            reports.append(f"urlsift: {item.place}: {item.kind}: {item.detail}")
        else:
            rows.append(json.loads(json.dumps(item._asdict())))
    return rows, reports


@pytest.fixture(scope="module")
def corpora() -> tuple[list[Record], list[str]]:
    """The CLI's rows of every corpus file (the folder, walked), rejected candidates too."""
    return _cli("--invalid", str(CORPORA))


def test_scan_gives_the_cli_rows_and_reports_of_every_corpus_file(
    corpora: tuple[list[Record], list[str]],
) -> None:
    rows, reports = _split(urlsift.scan(CORPORA, invalid=True))
    assert len(rows) > 2000
    assert {row["source"] for row in rows} >= {str(CORPORA / name) for name in MBOXES}
    assert reports  # an unknown charset, undecodable bytes
    assert (rows, reports) == corpora


def test_scan_with_workers_gives_the_same_rows_in_the_same_order(
    corpora: tuple[list[Record], list[str]],
) -> None:
    """Every corpus file, the mboxes and texts cut in pieces of 100 kB, read by 2 processes and
    joined."""
    files = sorted(str(path) for path in CORPORA.rglob("*") if path.is_file())
    assert _split(urlsift.scan(files, invalid=True, workers=2, split_size=100_000)) == _cli(
        "--invalid", *files
    )
    assert _split(urlsift.scan(CORPORA, invalid=True, workers=2, split_size=100_000)) == corpora


def test_the_options_are_the_cli_options() -> None:
    path = CORPORA / MBOXES[0]
    cli = _cli("--no-naked", "--schemes", "http,ftp", "--canonical", "--profile", "modern", str(path))
    found = urlsift.scan(path, naked=False, schemes=["http", "FTP"], canonical=True, profile=urlsift.MODERN)
    assert _split(found) == cli
    assert {row["scheme"] for row in cli[0]} == {"http"}  # (no ftp URL in it)
    assert all(row["canonical"] for row in cli[0])
    every = _split(urlsift.scan(path, naked=False, profile="modern"))[0]
    assert {row["scheme"] for row in every} > {"http"}  # the others were left out
    assert not any(row["canonical"] for row in every)


def test_the_columns_options_are_the_cli_options(tmp_path: Path) -> None:
    """``context``, ``wayback`` and a JSON-lines dump, as ``--context``, ``--wayback`` and
    ``--input-format jsonl --text-field``/``--id-field`` give them."""
    path = CORPORA / MBOXES[1]
    cli = _cli("--context", "12", "--wayback", str(path))
    found = _split(urlsift.scan(path, context=12, wayback=True))
    assert found == cli
    assert all(row["context"] and row["wayback"] for row in cli[0])
    dump = tmp_path / "dump.jsonl"
    dump.write_text('{"id": 7, "post": {"body": "see http://example.org/a and <URL:ftp://b.example/>"}}\n')
    cli = _cli("--input-format", "jsonl", "--text-field", "post.body", "--id-field", "id", str(dump))
    found = _split(urlsift.scan(dump, input_format="jsonl", text_fields=["post.body"], id_field="id"))
    assert found == cli
    assert [(row["url"], row["message_id"]) for row in cli[0]] == [
        ("http://example.org/a", "7"),
        ("ftp://b.example/", "7"),
    ]
    with pytest.raises(ValueError, match="text_fields"):
        urlsift.scan(dump, input_format="jsonl")
    with pytest.raises(ValueError, match="context"):
        urlsift.scan(dump, context=-1)


def _messages(name: str) -> Iterator[tuple[int, bytes]]:
    with open(CORPORA / name, "rb") as file:
        for raw in messages(file, 10**8):
            yield raw.number, raw.data


def _by_message(rows: Iterable[Record]) -> dict[int, list[Record]]:
    found: dict[int, list[Record]] = defaultdict(list)
    for row in rows:
        found[row["message"]].append({key: value for key, value in row.items() if key not in WHERE})
    return found


@pytest.mark.parametrize("name", MBOXES)
def test_extract_message_gives_the_cli_rows_of_that_message(name: str) -> None:
    """Each message, as bytes and as an ``email.message.Message`` (whose long header lines must
    not be folded again: lines and columns would move), gives the rows the CLI gives it in its
    mbox, but for where it lay in the file."""
    cli = _by_message(_cli("--invalid", str(CORPORA / name))[0])
    seen = 0
    for number, data in _messages(name):
        for given in (data, email.message_from_bytes(data)):
            rows, _ = _split(urlsift.extract_message(given, invalid=True))
            assert all((row["source"], row["message"], row["offset"]) == (MESSAGE_NAME, 0, 0) for row in rows)
            assert _by_message(rows)[0] == cli[number], number
        seen += bool(cli[number])
    assert seen > 5


def test_extract_message_takes_a_mailbox_message_with_its_from_line(tmp_path: Path) -> None:
    """A ``mailbox.mboxMessage`` keeps its ``From `` line apart: given back, a pipermail archive's
    says that its ``user at host`` stands for an address (D32), as it does in the mbox."""
    path = tmp_path / "list.mbox"
    path.write_bytes(
        b"From jo at example.org  Mon May  5 12:34:56 1997\n"
        b"From: jo at example.org (Jo)\nSubject: hi\nMessage-ID: <1@example.org>\n\n"
        b"Write to <mailto:jo at example.org> or see <URL:http://example.org/>.\n"
    )
    cli = _by_message(_cli("--invalid", str(path))[0])[0]
    assert "mailto:jo@example.org" in [row["url"] for row in cli]
    box = mailbox.mbox(path)
    from_box = next(box.itervalues())
    box.close()
    for given in (from_box, path.read_bytes()):
        rows, _ = _split(urlsift.extract_message(given, invalid=True))
        assert _by_message(rows)[0] == cli


def test_a_file_object_is_read_as_a_path_is(tmp_path: Path) -> None:
    """Through the same sniffing (here: gzip, then an mbox), from where it stands, left open; named
    by its path when it has one."""
    path = CORPORA / MBOXES[0]
    rows, reports = _split(urlsift.scan(path))
    packed = io.BytesIO(b"skipped" + gzip.compress(path.read_bytes()))
    packed.seek(len(b"skipped"))
    assert _split(urlsift.scan(packed)) == (
        [{**row, "source": STREAM_NAME} for row in rows],
        [line.replace(str(path), STREAM_NAME) for line in reports],
    )
    assert not packed.closed
    with open(path, "rb") as file:
        assert _split(urlsift.scan([file, path], workers=2, split_size=100_000)) == (rows * 2, reports * 2)
        assert not file.closed


class _Pipe(io.RawIOBase):
    """A stream that cannot seek and counts what was read from it: ``lines`` lines of 64 bytes, made
    as they are read, one in 1000 with a URL."""

    def __init__(self, lines: int) -> None:
        self.left, self.given = lines, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = min(self.left, len(buffer) // 64)
        data = b"".join(self._line(self.left - k) for k in range(count))
        buffer[: len(data)] = data
        self.left -= count
        self.given += len(data)
        return len(data)

    @staticmethod
    def _line(number: int) -> bytes:
        if number % 1000:
            return b"%063d\n" % number
        return b"see http://example.org/%040d\n" % number


def test_scan_is_lazy() -> None:
    """The first row comes before the source is read to its end (a 32 MB stream: at most 4 MB)."""
    pipe = _Pipe(500_000)
    found = urlsift.scan(io.BufferedReader(pipe))
    first = next(found)
    assert isinstance(first, tuple)
    assert dict(zip(FIELDS, first, strict=False))["url"] == f"http://example.org/{500_000:040d}"
    assert 0 < pipe.given < 4 << 20
    assert sum(1 for _ in found) == 499
    assert pipe.given == 64 * 500_000


def test_wrong_arguments_are_said_at_once() -> None:
    with pytest.raises(ValueError, match="not a profile: 'loose'"):
        urlsift.scan(CORPORA, profile="loose")
    with pytest.raises(ValueError, match="workers must be a positive number"):
        urlsift.scan(CORPORA, workers=0)
    with pytest.raises(ValueError, match="not an input format"):
        urlsift.scan(CORPORA, input_format="pdf")
    with open(os.devnull, encoding="ascii") as text, pytest.raises(TypeError, match="not TextIOWrapper"):
        urlsift.scan([CORPORA, text])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not str"):
        urlsift.extract_message("From: x\n\nhttp://example.org/")  # type: ignore[arg-type]
    # Iterated, a text file gave its lines as paths (each one "unreadable"), and bytes gave ints.
    with pytest.raises(TypeError, match="not StringIO"):
        urlsift.scan(io.StringIO(f"{CORPORA}\n"))
    with pytest.raises(TypeError, match="not bytes"):
        urlsift.scan_batches(os.fsencode(CORPORA))  # type: ignore[arg-type]
    closed = io.BytesIO(b"http://example.org/")
    closed.close()
    with pytest.raises(ValueError, match="closed"):
        urlsift.scan([closed])


def test_a_missing_file_is_a_report_and_the_rest_is_read(tmp_path: Path) -> None:
    missing = tmp_path / "missing.mbox"
    rows, reports = _split(urlsift.scan([missing, CORPORA / MBOXES[2]]))
    assert reports[0].startswith(f"urlsift: {missing}: unreadable:")
    assert rows == _cli(str(CORPORA / MBOXES[2]))[0]


class _Unseekable(io.RawIOBase):
    """A pipe's manners: it reads, it cannot seek or say its size."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self.data.readinto(buffer)


def test_a_stream_that_expands_too_far_is_stopped_and_reported() -> None:
    """A stream that cannot say its size (as standard input) is held to ``max_expand`` too: what
    came out before the limit is scanned, then the stream is stopped and reported."""
    text = b"see http://example.org/ here\n" * 200_000  # 5.8 MB, packed into a few kB
    stream = io.BufferedReader(_Unseekable(gzip.compress(text)))
    rows, reports = _split(urlsift.scan(stream, max_expand=1_000_000))
    assert [line.split(": ")[:3] for line in reports] == [["urlsift", STREAM_NAME, "too-large"]]
    assert 0 < len(rows) <= 1_000_000 // 29 + 1  # (the line the limit cut may give its URL)


def test_stopping_early_stops_the_workers() -> None:
    """A scan left after its first row (``close``, or the iterator dropped) leaves no process."""
    found = urlsift.scan(CORPORA, workers=2, split_size=100_000)
    next(found)
    assert multiprocessing.active_children()
    found.close()
    assert not multiprocessing.active_children()


def test_known_schemes_finds_more_schemes_as_extract_does(tmp_path: Path) -> None:
    """``known_schemes`` is ``extract``'s ``schemes`` (the CLI's ``--schemes +doi``): a naked
    ``doi:`` becomes a candidate; ``schemes`` then keeps only the rows of those asked for."""
    text = "Cited as doi:10.1000/182 (see http://www.doi.org/ and news:comp.text).\n"
    path = tmp_path / "cited.txt"
    path.write_text(text, encoding="utf-8")
    more = urlsift.KNOWN_SCHEMES | {"doi"}
    urls = [row["url"] for row in _split(urlsift.scan(path, known_schemes=more))[0]]
    assert urls == [match.url for match in urlsift.extract(text, schemes=more)]
    assert urls[0] == "doi:10.1000/182"
    assert [row["url"] for row in _split(urlsift.scan(path))[0]] == urls[1:]
    only = urlsift.extract_message(f"Subject: hi\n\n{text}".encode(), known_schemes=more, schemes="doi,news")
    assert [row["url"] for row in _split(only)[0]] == ["doi:10.1000/182", "news:comp.text"]


@pytest.mark.parametrize("kind", [email.message.Message, email.message.EmailMessage])
def test_extract_message_takes_a_message_a_program_made(kind: type[email.message.Message]) -> None:
    """Not parsed from bytes: its headers and text (here not ASCII, which ``as_bytes`` cannot write
    for a ``Message`` given a str payload) are scanned all the same."""
    message = kind()
    message["Subject"] = "Déjà vu: http://example.org/a"
    message["Message-ID"] = "<1@example.org>"
    if isinstance(message, email.message.EmailMessage):
        message.set_content("Voilà <URL:http://example.org/b>\n")
    else:
        message.set_payload("Voilà <URL:http://example.org/b>\n")
    rows, reports = _split(urlsift.extract_message(message))
    assert [(row["url"], row["part"], row["message_id"]) for row in rows] == [
        ("http://example.org/a", "Subject", "<1@example.org>"),
        ("http://example.org/b", "0 text/plain", "<1@example.org>"),
    ]
    assert reports == []


# --- issue 29.7: one error family ---------------------------------------------------------


def test_each_public_exception_is_an_urlsift_error_and_what_it_was() -> None:
    assert issubclass(urlsift.MissingExtra, urlsift.Error)
    assert issubclass(urlsift.MissingExtra, ImportError)  # (an `except ImportError` still catches it)
    assert issubclass(urlsift.ClusterError, urlsift.Error)
    assert issubclass(urlsift.ClusterError, RuntimeError)
    assert issubclass(urlsift.StateError, urlsift.Error)
    assert issubclass(urlsift.StateError, ValueError)
    exported = [getattr(urlsift, name) for name in urlsift.__all__]
    exceptions = {value for value in exported if isinstance(value, type) and issubclass(value, BaseException)}
    assert exceptions == {urlsift.Error, urlsift.MissingExtra, urlsift.ClusterError, urlsift.StateError}
    # Where they lived before (issue 29 moved them), for code that imports them from there.
    assert urlsift.units.ClusterError is urlsift.ClusterError
    assert urlsift.sources.publicinbox.StateError is urlsift.StateError


def test_a_missing_extra_is_an_urlsift_error_naming_the_pip_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # None: "not installed" to the import system
    monkeypatch.delitem(sys.modules, "urlsift.parquet", raising=False)
    with pytest.raises(urlsift.Error) as raised:
        importlib.import_module("urlsift.parquet")
    assert isinstance(raised.value, urlsift.MissingExtra)
    assert raised.value.extra == "parquet"
    assert str(raised.value).endswith("pip install 'urlsift[parquet]'")

    monkeypatch.setitem(sys.modules, "dask", None)
    with pytest.raises(urlsift.MissingExtra, match=r"pip install 'urlsift\[dask\]'$") as missing:
        urlsift_dask.scan(str(CORPORA / MBOXES[0]))
    assert missing.value.extra == "dask"
    assert pickle.loads(pickle.dumps(missing.value)).args == missing.value.args  # (from a worker)


def test_a_cluster_that_cannot_work_is_an_urlsift_error() -> None:
    with pytest.raises(urlsift.Error, match="not a number of workers") as raised:  # noqa: SIM117
        with urlsift_dask.client("local:0"):
            pass
    assert isinstance(raised.value, urlsift.ClusterError)


def test_a_missing_library_for_the_input_is_a_report_not_an_exception(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Input problems stay reports: a .zst with no library to read it is said, and the rest read."""
    zst = tmp_path / "a.txt.zst"
    zst.write_bytes(bytes.fromhex("28b52ffd") + b"\0" * 16)
    (tmp_path / "b.txt").write_text("see http://b.example/ here\n")
    monkeypatch.setitem(sys.modules, "backports", None)  # (Python 3.11 to 3.13 read it from there)
    monkeypatch.setitem(sys.modules, "compression", None)
    rows, reports = _split(urlsift.scan([zst, tmp_path / "b.txt"]))
    assert [row["url"] for row in rows] == ["http://b.example/"]
    assert reports == [
        f"urlsift: {zst}: unreadable: a Zstandard stream, not read without compression.zstd or its "
        "backport: pip install 'urlsift[zstd]'"
    ]


def test_extract_stream_says_a_wrong_argument_at_once() -> None:
    # Issue 28.19: an AttributeError, and only at the first match asked for.
    with pytest.raises(TypeError, match="takes a file object, not int"):
        urlsift.extract_stream(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a file object, not str"):
        urlsift.extract_stream("http://example.org/")  # type: ignore[arg-type]
