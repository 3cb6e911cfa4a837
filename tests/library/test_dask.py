"""A real Dask cluster (issue 8): a scheduler and two workers, each a process of its own on
127.0.0.1, started and stopped by this module. What the cluster finds is what a local run finds,
corrupt member included; paths the workers cannot read are refused before work starts."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from urlsift.cli import main

CORPORA = Path(__file__).parents[2] / "corpora"
START_SECONDS = 60


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """tcp://127.0.0.1:PORT of a scheduler with two one-thread workers, as users start them; the
    workers run in a folder of their own (a relative path means another file there)."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    elsewhere = tmp_path_factory.mktemp("worker-cwd")
    started = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                address.rsplit(":", 1)[1],
                "--no-dashboard",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    for _ in range(2):
        started.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "distributed.cli.dask_worker",
                    address,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                ],
                cwd=elsewhere,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
    try:
        from distributed import Client

        with Client(address, timeout=START_SECONDS) as client:
            client.wait_for_workers(2, timeout=START_SECONDS)
        yield address
    finally:
        for process in reversed(started):
            os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        for process in started:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder: the corpus mboxes, a text, and a zip of mboxes with one corrupt member."""
    folder = tmp_path_factory.mktemp("archive")
    for name in ("mail/r-devel-1997-May.mbox", "mail/mail-url-hard-cases.mbox", "rfc/rfc1738.txt"):
        shutil.copy(CORPORA / name, folder)
    zipped = folder / "lists.zip"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.write(CORPORA / "mail/r-devel-2000-May.mbox", "a.mbox")
        bundle.write(CORPORA / "news/comp.sources.unix-1994-1996.mbox", "b.mbox")
        bundle.write(CORPORA / "mail/r-devel-1997-May.mbox", "c.mbox")
    data = bytearray(zipped.read_bytes())
    with zipfile.ZipFile(zipped) as bundle:
        info = bundle.getinfo("b.mbox")
    middle = info.header_offset + 30 + len("b.mbox") + info.compress_size // 2
    data[middle : middle + 64] = bytes(64)  # b.mbox's deflate stream broken mid-way
    zipped.write_bytes(bytes(data))
    return folder


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["--no-progress", "--verbose", "--format", "jsonl", "--invalid", "--stats", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_cluster_finds_what_a_local_run_finds(
    scheduler: str, archive: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local = _run(capsys, str(archive))
    cluster = _run(capsys, "--scheduler", scheduler, "--split-size", "100K", str(archive))
    assert local[0] == 2  # the corrupt member
    assert "lists.zip[b.mbox]: corrupt:" in local[2]
    assert len(local[1].splitlines()) > 1000
    # The zip's pieces each read its directory (the bytes read differ); all else is the same.
    assert cluster[:2] == local[:2]
    assert [line for line in cluster[2].splitlines() if " bytes " not in line] == [
        line for line in local[2].splitlines() if " bytes " not in line
    ]


def test_a_local_cluster_finds_what_a_local_run_finds(
    archive: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--scheduler local:2``: two worker processes forked from this one, started and stopped by
    the run, their rows printed by themselves."""
    local = _run(capsys, str(archive))
    cluster = _run(capsys, "--scheduler", "local:2", "--split-size", "100K", str(archive))
    assert cluster[:2] == local[:2]
    assert [line for line in cluster[2].splitlines() if " bytes " not in line] == [
        line for line in local[2].splitlines() if " bytes " not in line
    ]


def test_paths_the_workers_cannot_read_are_refused_before_work_starts(
    scheduler: str, archive: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(archive)  # here the relative path is a file; in the workers' folder, nothing
    status, out, err = _run(capsys, "--scheduler", scheduler, "rfc1738.txt")
    assert status == 2
    assert out == ""
    assert "must be readable by every worker" in err
    assert "cannot read rfc1738.txt" in err


def test_an_unreachable_scheduler_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("urlsift.dask.CONNECT_SECONDS", 2)
    status, out, err = _run(capsys, "--scheduler", f"tcp://127.0.0.1:{_free_port()}", str(CORPORA / "rfc"))
    assert (status, out) == (2, "")
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:" in err


def test_the_library_face_gives_the_jsonl_rows_and_the_reports(
    scheduler: str, archive: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from distributed import Client

    import urlsift.dask

    _, out, _ = _run(capsys, str(archive))
    expected = [json.loads(line) for line in out.splitlines()]
    with Client(scheduler, timeout=START_SECONDS):
        bag = urlsift.dask.scan(str(archive), invalid=True, split_size=100_000)
        records = bag.compute()
        frame = urlsift.dask.to_dataframe(bag).compute()
        problems = urlsift.dask.reports(bag).compute()
    assert [found for found in records if "report" not in found] == expected
    assert any(problem["kind"] == "corrupt" and problem["error"] for problem in problems)
    assert list(frame.columns) == list(expected[0])
    assert frame["url"].tolist() == [row["url"] for row in expected]
    assert str(frame["date"].dtype).startswith("timestamp[us, tz=UTC]")


def test_the_library_face_takes_context_as_urlsift_scan_does(scheduler: str, archive: Path) -> None:
    """Issue 29: ``urlsift.dask.scan`` has the ``context`` keyword the library has, with the same
    rows (a text cut in pieces is read whole, as there)."""
    from distributed import Client

    import urlsift
    import urlsift.dask

    paths = [str(archive / "rfc1738.txt"), str(archive / "r-devel-1997-May.mbox")]
    expected = [row._asdict() for row in urlsift.scan(paths, context=15) if isinstance(row, urlsift.Row)]
    assert all(row["context"] for row in expected)
    with Client(scheduler, timeout=START_SECONDS):
        records = urlsift.dask.scan(paths, context=15, split_size=10_000).compute()
    assert [found for found in records if "report" not in found] == expected
    with pytest.raises(ValueError, match="context"):
        urlsift.dask.scan(paths, context=-1)


def test_a_plain_script_computes_a_scan_with_no_client(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 20: ``urlsift.dask.scan(...).compute()`` from ``python script.py``, with no Client and
    no ``__main__`` guard, starts a local cluster of its own and stops it (Dask's default process
    pool spawned workers that ran the script again: RuntimeError, then BrokenProcessPool)."""
    source = CORPORA / "mail/mail-url-hard-cases.mbox"
    script = tmp_path / "script.py"
    script.write_text(
        "import json\n"
        "import urlsift.dask\n"
        f"bag = urlsift.dask.scan({str(source)!r}, invalid=True, split_size=20_000)\n"
        "assert bag.npartitions > 1\n"
        "print(json.dumps(bag.compute()))\n"
        "print(json.dumps(urlsift.dask.reports(bag).compute()))\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=START_SECONDS * 2, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    records, problems = map(json.loads, done.stdout.splitlines())
    assert main(["--no-progress", "--verbose", "--format", "jsonl", "--invalid", str(source)]) == 0
    out, err = capsys.readouterr()
    assert [found for found in records if "report" not in found] == [
        json.loads(line) for line in out.splitlines()
    ]
    said = [f"urlsift: {problem['report']}: {problem['kind']}: {problem['detail']}" for problem in problems]
    assert said == err.splitlines()
    assert said  # the file has problems to report
