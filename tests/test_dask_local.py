"""``--scheduler local:N`` (issue 22): Dask's multiprocessing scheduler over N processes forked
here, as ``-j N`` starts them, with no ``distributed`` (its import alone took longer than the
half second local:N may take to start). Each unit is a Dask task; what it finds is what ``-j 1``
finds (a worker that dies, and Ctrl-C: test_units.py, test_hostile_cli.py, beside -j)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
from concurrent.futures import CancelledError, Future
from pathlib import Path

import pytest

pytest.importorskip("dask")


from urlsift.cli import main
from urlsift.dask import _InTurn
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


def test_a_bad_number_of_workers_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "--scheduler", "local:x", str(MBOXES[0]))
    assert (status, out) == (2, "")
    assert "not a number of workers: 'local:x' (say local:4)" in err


class _RecordingPool:
    """A pool that runs nothing and remembers the order tasks were handed to it."""

    def __init__(self) -> None:
        self.handed: list[object] = []

    def submit(self, fn: object, /, *args: object, **kwargs: object) -> Future[object]:
        self.handed.append(args[0])
        future: Future[object] = Future()
        future.set_result(None)
        return future


def _taking_turns(in_turn: _InTurn, ticket: int, fail: bool = False) -> None:
    with contextlib.suppress(ValueError), in_turn.unit(ticket):
        if fail:  # ended before handing its task over (a unit that could not be pickled, say)
            raise ValueError(ticket)
        in_turn.submit(print, ticket)


def test_units_reach_the_pool_in_their_order_whatever_thread_runs_first() -> None:
    """Two threads a worker (so a worker finds its next unit queued): the units are handed over in
    the order they were submitted even when their threads run in the opposite order, and a unit
    that fails before handing its task over does not hold up the ones after it."""
    pool = _RecordingPool()
    in_turn = _InTurn(pool, 2)  # type: ignore[arg-type]
    tickets = [in_turn.ticket() for _ in range(6)]
    threads = [
        threading.Thread(target=_taking_turns, args=(in_turn, ticket, ticket == 2), daemon=True)
        for ticket in reversed(tickets)
    ]
    for thread in threads:
        thread.start()
        time.sleep(0.01)  # each later ticket waits before the earlier ones have started
    for thread in threads:
        thread.join(timeout=10)
        assert not thread.is_alive()
    assert pool.handed == [0, 1, 3, 4, 5]


def test_threads_waiting_for_their_turn_give_up_when_the_run_stops() -> None:
    """Ctrl-C: a unit's thread still waiting for an earlier unit that will never run is woken."""
    in_turn = _InTurn(_RecordingPool(), 2)  # type: ignore[arg-type]
    in_turn.ticket()  # ticket 0: cancelled before its thread started
    waiting = in_turn.ticket()
    failed: list[BaseException] = []

    def wait() -> None:
        try:
            _taking_turns(in_turn, waiting)
        except CancelledError as error:
            failed.append(error)

    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    time.sleep(0.05)
    assert thread.is_alive()
    in_turn.close()
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert len(failed) == 1
