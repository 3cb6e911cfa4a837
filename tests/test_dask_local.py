"""``--scheduler local:N`` (issue 22): Dask's multiprocessing scheduler over N processes forked
here, as ``-j N`` starts them, with no ``distributed`` (its import alone took longer than the
half second local:N may take to start). Each unit is a Dask task; what it finds is what ``-j 1``
finds, and a worker that dies loses only its own unit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("dask")

from test_hostile_cli import (
    _alive,
    _as_at_a_terminal,
    _children,
    _ignores_sigint,
    gzipped,
    killed_after,
    stats,
)

from urlsift.cli import main
from urlsift.results import scan_unit
from urlsift.rows import Options, Render
from urlsift.sources import ReadOptions
from urlsift.units import Unit, plan

CORPORA = Path(__file__).parents[1] / "corpora"
MBOXES = [CORPORA / "mail/r-devel-1997-May.mbox", CORPORA / "mail/mail-url-hard-cases.mbox"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["--quiet", "--format", "jsonl", "--invalid", "--stats", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_each_unit_is_a_dask_task_and_the_rows_are_those_of_one_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dask's multiprocessing scheduler runs each unit, and the output is ``-j 1``'s, in its order."""
    import dask.multiprocessing

    paths = [str(path) for path in MBOXES]
    units = [unit for unit in plan(paths, ReadOptions(), split=100_000) if isinstance(unit, Unit)]
    assert len(units) > 2
    computed: list[object] = []
    get = dask.multiprocessing.get

    def counted(graph: object, keys: object, **kwargs: object) -> object:
        computed.append(keys)
        return get(graph, keys, **kwargs)

    alone = _run(capsys, *paths)
    monkeypatch.setattr(dask.multiprocessing, "get", counted)
    dask_run = _run(capsys, "--scheduler", "local:2", "--split-size", "100K", *paths)
    assert len(computed) == len(units)
    assert dask_run[:2] == alone[:2]
    assert [line for line in dask_run[2].splitlines() if " bytes " not in line] == [
        line for line in alone[2].splitlines() if " bytes " not in line
    ]


def test_local_workers_start_without_distributed(tmp_path: Path) -> None:
    """Counted, not timed: the run imports no ``distributed`` (0.4-0.7 s of import), and its two
    workers are this process forked, not new interpreters."""
    script = tmp_path / "run.py"
    script.write_text(
        "import os, sys\n"
        "from urlsift.cli import main\n"
        "import urlsift.workers\n"
        "started = []\n"
        "pool = urlsift.workers._pool\n"
        "urlsift.workers._pool = lambda jobs: started.append(jobs) or pool(jobs)\n"
        f"status = main(['--quiet', '--scheduler', 'local:2', '--split-size', '100K', {str(MBOXES[0])!r}])\n"
        "print(status, started, 'distributed' in sys.modules, 'dask' in sys.modules, file=sys.stderr)\n",
        encoding="utf-8",
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    alone = subprocess.run(
        [sys.executable, "-m", "urlsift", "--quiet", str(MBOXES[0])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout == alone.stdout
    assert done.stderr.splitlines()[-1] == f"{alone.returncode} [2] False True"


def _dies_on_doomed(unit: Unit, options: Options, render: Render | None = None) -> list[object]:
    if any("doomed" in name for name in unit.names):
        os._exit(9)  # as the kernel's out-of-memory killer leaves it: no exception, no result
    return scan_unit(unit, options, render)  # type: ignore[return-value]


def test_a_worker_that_dies_loses_only_its_own_unit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As with ``-j``: the units in flight with it are read again, each alone, and the units after
    it go on in a new pool (Dask's scheduler hands the broken pool's error on as it is)."""
    monkeypatch.setattr("urlsift.cli.scan_unit", _dies_on_doomed)
    paths = []
    for k in range(12):
        name = "doomed" if k in (3, 8) else "good"
        (tmp_path / f"{k:02}-{name}.txt").write_text(f"<URL:http://{name}.example/{k}>\n")
        paths.append(str(tmp_path / f"{k:02}-{name}.txt"))
    status = main(["--quiet", "--stats", "--scheduler", "local:2", "--split-size", "1", *paths])
    out, err = capsys.readouterr()
    assert status == 2
    assert out.splitlines() == [f"http://good.example/{k}" for k in range(12) if k not in (3, 8)]
    assert [line.split(": ")[1] for line in err.splitlines() if ": lost: " in line] == [paths[3], paths[8]]
    assert "files              12 = 10 scanned + 2 failed" in err


def test_a_bad_number_of_workers_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "--scheduler", "local:x", str(MBOXES[0]))
    assert (status, out) == (2, "")
    assert "not a number of workers: 'local:x' (say local:4)" in err


def test_ctrl_c_stops_the_workers_in_the_middle_of_their_units(tmp_path: Path) -> None:
    """A unit in flight waits on a FIFO nobody writes: Ctrl-C ends the run at once (the threads
    that wait for Dask's results are not waited for; the workers are ended), exit 130. (One FIFO:
    Dask's threads may hand the units to the workers in any order, and two FIFOs could take both
    workers before the file that is to be printed first.)"""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    first = gzipped(tmp_path / "a.gz", "http://a.example/")
    argv = ["--stats", "--scheduler", "local:2", "--split-size", "10", str(first), str(fifo)]
    process = subprocess.Popen(
        [sys.executable, "-m", "urlsift", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_as_at_a_terminal,
    )
    with killed_after(process):
        assert process.stdout is not None
        assert process.stdout.readline() == "http://a.example/\n"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
            len(workers := _children(process.pid)) == 2 and all(map(_ignores_sigint, workers))
        ):
            time.sleep(0.05)
        time.sleep(0.5)  # a worker in the fifo's open()
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130
        assert "Traceback" not in err
        assert stats(err)["URLs"][:2] == [1, 1]
        time.sleep(0.5)
        assert not any(map(_alive, workers))
