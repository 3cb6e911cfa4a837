"""What a worker runs and how a unit is handed to one: the types ``workers`` (processes here) and
``dask`` (a cluster) share. Both import this module; neither imports the other for it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future

from .batches import Part
from .units import Unit

Work = Callable[[Unit], Iterable[Part]]
"""``batches.unit_parts`` with its options bound: what a worker runs."""
Sent = list[Part] | None
"""What a worker's task gives back: the parts of its unit, or None when it sent them as they came
(``workers.send_pieces``)."""
Task = Callable[[Unit], Sent]
"""A unit's work as a worker runs it (``workers``: ``Work`` and how the parts go back)."""
Submit = Callable[[Task, Unit], "Future[Sent]"]
