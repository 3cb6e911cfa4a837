"""``--scheduler local:N`` (issue 22): Dask's multiprocessing scheduler over N processes forked
here, as ``-j N`` starts them, with no ``distributed`` (its import alone took longer than the
half second local:N may take to start). Each unit is a Dask task; what it finds is what ``-j 1``
finds (a worker that dies, and Ctrl-C: test_units.py, test_hostile_cli.py, beside -j)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("dask")


from urlsift.cli import main
from urlsift.sources import ReadOptions
from urlsift.units import Unit, plan

CORPORA = Path(__file__).parents[2] / "corpora"
MBOXES = [CORPORA / "mail/r-devel-1997-May.mbox", CORPORA / "mail/mail-url-hard-cases.mbox"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["--no-progress", "--verbose", "--format", "jsonl", "--invalid", "--stats", *argv])
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
        "status = main(['--no-progress', '--scheduler', 'local:2', '--split-size', '100K', "
        f"{str(MBOXES[0])!r}])\n"
        "print(status, started, 'distributed' in sys.modules, 'dask' in sys.modules, file=sys.stderr)\n",
        encoding="utf-8",
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    alone = subprocess.run(
        [sys.executable, "-m", "urlsift", "--no-progress", str(MBOXES[0])],
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
