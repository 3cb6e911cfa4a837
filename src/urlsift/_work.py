"""What a worker runs and how a unit is handed to one: the types ``workers`` (processes here) and
``dask`` (a cluster) share. Both import this module; neither imports the other for it."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future

from .rows import FileEvents
from .units import Unit

Work = Callable[[Unit], list[FileEvents]]
"""``results.scan_unit`` with its options bound: what a worker runs."""
Submit = Callable[[Work, Unit], "Future[list[FileEvents]]"]
