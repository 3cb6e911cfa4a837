"""The exceptions urlsift raises on purpose, under one root: ``except urlsift.Error`` catches each.

Each also subclasses the built-in exception it was before (ImportError, RuntimeError, ValueError),
so that code written against that one still catches it. Problems of the input (a corrupt archive, a
message cut short) are no exceptions: they are ``Report``s, given in their place among the rows,
and the work goes on. Wrong arguments to a function (a profile that does not exist, a negative
size) stay Python's ValueError and TypeError: a program's mistake, not a failure to handle.

This module imports nothing of urlsift: every stage may raise these.
"""

from __future__ import annotations


class Error(Exception):
    """Every exception urlsift raises on purpose (none is raised for bad input: see ``Report``)."""


class MissingExtra(Error, ImportError):
    """An optional extra that is not installed; ``extra`` is its name, and the message says what
    needs it and the line that installs it (``pip install 'urlsift[parquet]'``)."""

    def __init__(self, needs: str, extra: str) -> None:
        super().__init__(f"{needs}: pip install 'urlsift[{extra}]'")
        self.needs, self.extra = needs, extra

    def __reduce__(self) -> tuple[type[MissingExtra], tuple[str, str]]:
        # Sent back from a worker process as it was made (the default would call it with the message).
        return type(self), (self.needs, self.extra)


class ClusterError(Error, RuntimeError):
    """A Dask cluster that cannot do the work: not reachable, no workers, or paths its workers
    cannot read (said before any work starts; Dask not installed is a MissingExtra)."""


class StateError(Error, ValueError):
    """A ``--state`` file that cannot be used (said before any work starts)."""


__all__ = ["ClusterError", "Error", "MissingExtra", "StateError"]
